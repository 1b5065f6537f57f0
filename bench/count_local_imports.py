"""Counts imports made inside functions (not at module top level) under a source tree, so the layering work
can be measured: a function-level import usually hides a cycle or an upward dependency."""

from __future__ import annotations

import argparse
import ast
import json
from pathlib import Path


def local_imports(path: Path) -> list[tuple[int, str]]:
    """The (line, imported module) of every import statement nested inside a function in one file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if in_function and isinstance(child, ast.Import):
                found.extend((child.lineno, alias.name) for alias in child.names)
            elif in_function and isinstance(child, ast.ImportFrom):
                found.append((child.lineno, "." * child.level + (child.module or "")))
            visit(child, inside)

    visit(tree, False)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("root", nargs="?", default="src/boardzero", help="directory to scan")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a listing")
    parser.add_argument("--internal", action="store_true", help="count only imports of boardzero modules")
    args = parser.parse_args()
    rows = []
    for path in sorted(Path(args.root).rglob("*.py")):
        for line, module in local_imports(path):
            if args.internal and not (module.startswith("boardzero") or module.startswith(".")):
                continue
            rows.append({"file": str(path), "line": line, "module": module})
    if args.json:
        print(json.dumps({"count": len(rows), "imports": rows}))
        return
    for row in rows:
        print(f"{row['file']}:{row['line']}: {row['module']}")
    print(f"{len(rows)} function-level imports")


if __name__ == "__main__":
    main()

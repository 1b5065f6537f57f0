"""bench/count_local_imports.py finds imports inside functions (nested ones too) and nothing at module level."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "count_local_imports.py"


def test_counts_function_level_imports_only(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text(
        "import os\n"
        "from pkg import b\n"
        "def f():\n"
        "    import json\n"
        "    from pkg.b import g\n"
        "    def inner():\n"
        "        from . import c\n"
        "class K:\n"
        "    def m(self):\n"
        "        import pkg.d, math\n"
        "    x = lambda: None\n"
    )
    (package / "b.py").write_text("import sys\ntry:\n    import numpy\nexcept ImportError:\n    pass\n")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(package), "--json"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert [(r["line"], r["module"]) for r in found["imports"]] == [
        (4, "json"),
        (5, "pkg.b"),
        (7, "."),
        (10, "pkg.d"),
        (10, "math"),
    ]
    assert found["count"] == 5
    internal = subprocess.run(
        [sys.executable, str(SCRIPT), str(package), "--json", "--internal"], capture_output=True, text=True, timeout=60
    )
    assert json.loads(internal.stdout)["count"] == 1  # "." only: --internal keeps relative and boardzero imports

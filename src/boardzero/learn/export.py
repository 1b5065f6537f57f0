"""Ship a trained network as a game's default model: ``src/boardzero/models/<game>/model.{safetensors,json}``.

    python -m boardzero.learn.export runs/c4 --sims 400

copies the run's best (or newest) network with the search settings that ``best``
uses, and the run's step, ratings and config for the record.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from boardzero.agents.az import MODELS_DIR
from boardzero.nn.checkpoint import load_network, resolve_checkpoint, save_network


def export_model(checkpoint: str | Path, *, sims: int, c_puct: float = 1.5, latest: bool = False,
                 out_dir: Path | None = None, notes: dict[str, Any] | None = None) -> Path:
    """Write ``model.safetensors`` + ``model.json`` for the checkpoint's game; returns the JSON path.

    A run directory gives its best network (``checkpoints/best.json``) unless ``latest``.
    """
    checkpoint = Path(checkpoint)
    best = checkpoint / "checkpoints" / "best.json"
    use_best = checkpoint.is_dir() and best.is_file() and not latest
    source = best if use_best else resolve_checkpoint(checkpoint)
    net, meta = load_network(source)
    out_dir = Path(out_dir) if out_dir is not None else MODELS_DIR / meta["game"]
    keep = {k: meta[k] for k in ("game", "game_options", "step", "ratings", "latest_eval", "config", "trainer")
            if k in meta}
    keep["play"] = {"sims": sims, "c_puct": c_puct}
    keep["source"] = str(source)
    if notes:
        keep["notes"] = notes
    return save_network(out_dir / "model", net, keep)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkpoint", help="run directory or checkpoint .json")
    parser.add_argument("--sims", type=int, required=True, help="simulations per move of the `best` agent")
    parser.add_argument("--c-puct", type=float, default=1.5)
    parser.add_argument("--latest", action="store_true", help="ship the newest checkpoint, not the run's best")
    parser.add_argument("--out", type=Path, default=None, help="directory (default: the package's models/<game>)")
    args = parser.parse_args()
    path = export_model(args.checkpoint, sims=args.sims, c_puct=args.c_puct, latest=args.latest, out_dir=args.out)
    print(f"wrote {path} and {path.with_suffix('.safetensors')}")


if __name__ == "__main__":
    main()

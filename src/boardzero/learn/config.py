"""Training configuration: typed records loaded from TOML and validated field by field.

A config file has a top-level ``game`` (and optional ``[game_options]``) and
one table per section below. Every field has a default, so a file only states
what it changes; an unknown or badly typed field is a ``ConfigError`` naming it.
"""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from pathlib import Path
from typing import Any, Literal

from boardzero.core.errors import ConfigError


def doc(default: Any, text: str) -> Any:
    return dataclasses.field(default=default, metadata={"doc": text})


@dataclasses.dataclass
class NetworkConfig:
    kind: Literal["mlp", "conv"] = doc("mlp", "mlp over the 'flat' observation, conv over 'planes'")
    hidden: int = doc(256, "mlp width; conv value-head width")
    blocks: int = doc(4, "residual blocks")
    channels: int = doc(64, "conv channels")


@dataclasses.dataclass
class SelfPlayConfig:
    actors: int = doc(1, "self-play actor processes")
    games_per_actor: int = doc(32, "games each actor plays at once (their leaves share network batches)")
    simulations: int = doc(100, "MCTS simulations per move")
    c_puct: float = doc(1.5, "PUCT exploration constant")
    dirichlet_alpha: float = doc(1.0, "Dirichlet noise concentration at the root")
    dirichlet_fraction: float = doc(0.25, "share of Dirichlet noise in the root priors")
    search_batch: int = doc(8, "leaves gathered per game per network call (virtual loss)")
    temperature_moves: int = doc(10, "moves per game chosen in proportion to visits; later moves take the most visited")
    random_move_share: float = doc(0.0, "chance that a move played is uniformly random (its sample keeps the search "
                                        "target), so the net also learns positions after blunders")
    search_value_share: float = doc(0.0, "value target = (1 - share) * final returns + share * the root's searched "
                                         "value vector (less noise from later moves and random moves)")
    publish_every: int = doc(50, "learner steps between sending new weights to the actors")
    seed: int = doc(0, "base seed of the actors' random generators")


@dataclasses.dataclass
class TrainConfig:
    steps: int = doc(10_000, "learner steps to reach (a resumed run continues up to this)")
    minutes: float = doc(0.0, "stop after this many minutes of this invocation (0 = no time limit)")
    batch_size: int = doc(256, "samples per gradient step")
    lr: float = doc(1e-3, "AdamW learning rate")
    weight_decay: float = doc(1e-4, "AdamW weight decay")
    grad_clip: float = doc(1.0, "gradient norm clip (0 = off)")
    value_weight: float = doc(1.0, "weight of the value loss against the policy loss")
    replay_size: int = doc(100_000, "samples kept in the replay buffer")
    min_replay: int = doc(2_000, "samples collected before learning starts")
    sample_reuse: float = doc(4.0, "target ratio of samples trained on to samples generated (learner waits above it)")
    checkpoint_every: int = doc(500, "learner steps between checkpoints")
    keep_checkpoints: int = doc(5, "newest checkpoints kept on disk (0 = keep all)")
    log_every: int = doc(50, "learner steps between metric lines")
    symmetries: bool = doc(True, "train each sample as itself or as its image under a random symmetry of the game "
                                 "(board mirrors, rotations), when the game declares any")
    save_replay: bool = doc(True, "store the replay buffer with each checkpoint so a resumed run keeps its data")
    seed: int = doc(0, "seed of the network initialisation and the learner's sampling")


@dataclasses.dataclass
class EvalConfig:
    every: int = doc(1_000, "learner steps between evaluations (0 = never)")
    games_vs_random: int = doc(40, "games of the greedy network against random, seats rotated")
    games_vs_mcts: int = doc(10, "games of network+search against rollout MCTS, seats rotated")
    mcts_simulations: int = doc(200, "simulations of the rollout MCTS opponent")
    games_vs_best: int = doc(20, "games against the previous best checkpoint, seats rotated")
    simulations: int = doc(50, "simulations per move of the network player in search games")
    opening_plies: int = doc(0, "random moves that open each game against MCTS and the best (variety between "
                                "deterministic players)")
    promote_threshold: float = doc(0.55, "score against the previous best that makes a checkpoint the new best")


@dataclasses.dataclass
class Config:
    game: str = doc("", "game name, as in `boardzero games`")
    game_options: dict = doc(None, "options of the game")
    network: NetworkConfig = dataclasses.field(default_factory=NetworkConfig)
    selfplay: SelfPlayConfig = dataclasses.field(default_factory=SelfPlayConfig)
    train: TrainConfig = dataclasses.field(default_factory=TrainConfig)
    eval: EvalConfig = dataclasses.field(default_factory=EvalConfig)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["game_options"] = dict(self.game_options or {})
        return data


SECTIONS = {"network": NetworkConfig, "selfplay": SelfPlayConfig, "train": TrainConfig, "eval": EvalConfig}
POSITIVE = {"selfplay.actors", "selfplay.games_per_actor", "selfplay.simulations", "selfplay.search_batch",
            "selfplay.publish_every", "train.steps", "train.batch_size", "train.replay_size",
            "train.checkpoint_every", "train.log_every", "eval.simulations", "eval.mcts_simulations",
            "network.hidden", "network.channels", "train.lr", "train.sample_reuse", "selfplay.c_puct"}
NON_NEGATIVE = {"network.blocks", "selfplay.dirichlet_alpha", "selfplay.temperature_moves", "train.minutes",
                "train.weight_decay", "train.grad_clip", "train.value_weight", "train.min_replay",
                "train.keep_checkpoints", "eval.every", "eval.games_vs_random", "eval.games_vs_mcts",
                "eval.games_vs_best", "eval.opening_plies"}
FRACTIONS = {"selfplay.dirichlet_fraction", "selfplay.random_move_share", "selfplay.search_value_share", "eval.promote_threshold"}


def _check_value(field: str, value: Any, annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin is Literal:
        if value not in typing.get_args(annotation):
            allowed = ", ".join(map(str, typing.get_args(annotation)))
            raise ConfigError(field, f"{value!r} is not allowed; allowed: {allowed}")
        return value
    if annotation is bool:
        if not isinstance(value, bool):
            raise ConfigError(field, f"expected true or false, got {value!r}")
        return value
    if annotation is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(field, f"expected an integer, got {value!r}")
    elif annotation is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(field, f"expected a number, got {value!r}")
        value = float(value)
    if field in POSITIVE and not value > 0:
        raise ConfigError(field, f"must be > 0, got {value!r}")
    if field in NON_NEGATIVE and value < 0:
        raise ConfigError(field, f"must be >= 0, got {value!r}")
    if field in FRACTIONS and not 0 <= value <= 1:
        raise ConfigError(field, f"must be between 0 and 1, got {value!r}")
    return value


def _build_section(name: str, cls: type, table: Any) -> Any:
    if not isinstance(table, dict):
        raise ConfigError(name, f"expected a table [{name}], got {type(table).__name__}")
    hints = typing.get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    values = {}
    for key, value in table.items():
        if key not in fields:
            raise ConfigError(f"{name}.{key}", f"unknown field; allowed: {', '.join(sorted(fields))}")
        values[key] = _check_value(f"{name}.{key}", value, hints[key])
    return cls(**values)


def config_from_dict(data: dict[str, Any]) -> Config:
    """Validate a parsed config; the first bad field raises ConfigError naming it."""
    if not isinstance(data, dict):
        raise ConfigError("config", "expected a table at the top level")
    allowed = {"game", "game_options", *SECTIONS}
    for key in data:
        if key not in allowed:
            raise ConfigError(key, f"unknown field; allowed: {', '.join(sorted(allowed))}")
    game = data.get("game", "")
    if not isinstance(game, str):
        raise ConfigError("game", f"expected a game name, got {game!r}")
    options = data.get("game_options", {})
    if not isinstance(options, dict):
        raise ConfigError("game_options", f"expected a table of game options, got {options!r}")
    sections = {name: _build_section(name, cls, data.get(name, {})) for name, cls in SECTIONS.items()}
    return Config(game=game, game_options=dict(options), **sections)


def load_config(path: str | Path) -> Config:
    """Read and validate a TOML config file."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise ConfigError("config", f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", f"{path} is not valid TOML: {exc}") from None
    return config_from_dict(data)


def field_docs(cls: type) -> list[tuple[str, Any, str]]:
    """(field, default, one-line doc) of a config section, for help texts."""
    return [(f.name, f.default, f.metadata.get("doc", "")) for f in dataclasses.fields(cls)]

"""Training configuration: typed records loaded from TOML and validated field by field.

A config file names its ``method`` (alphazero, td, ppo, expert or any method registered with
``learn.methods.register_method``) and ``game`` (with
optional ``[game_options]``) at the top level and has one table per section
below. Every field has a default, so a file only states what it changes; an
unknown or badly typed field, a value out of range, or a field of another method
is a ``ConfigError`` naming it. ``--set section.field=value`` on the command line
changes one field of a file before it is checked. This module is the one place
where settings are checked.
"""

from __future__ import annotations

import dataclasses
import json
import re
import tomllib
import typing
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from boardzero.core.errors import ConfigError
from boardzero.learn.backends import backend_names
from boardzero.learn.methods import method_names, settings_read_by
from boardzero.nn.spec import NetworkSizes


def doc(default: Any, text: str, *, methods: tuple[str, ...] = (), check: str = "") -> Any:
    """A config field: its default, one line of documentation, the methods it applies to (all when empty)
    and its range check (``positive``, ``non_negative``, ``fraction``, ``device``, ``method``, ``backend``)."""
    return dataclasses.field(default=default, metadata={"doc": text, "methods": methods, "check": check})


def default_list(items: list, text: str) -> Any:
    return dataclasses.field(default_factory=lambda: list(items), metadata={"doc": text, "methods": (), "check": ""})


AZ = ("alphazero",)
TD = ("td",)
PPO = ("ppo",)


# The [network] section is the network's chosen kind and sizes, one record with nn.spec's NetworkSpec
NetworkConfig = NetworkSizes


@dataclasses.dataclass(frozen=True)
class SelfPlayConfig:
    actors: int = doc(1, "self-play actor processes", check="positive")
    backend: str = doc(
        "local",
        "where the actors run: local processes, or Ray actors on the cluster `ray_address` reaches (pip "
        "install 'boardzero[ray]'), or another backend registered in learn.backends",
        check="backend",
    )
    ray_address: str = doc(
        "",
        'Ray cluster to join with backend "ray": empty joins the one `ray start` made on '
        'this machine (or RAY_ADDRESS) and starts a local one when there is none; "auto": '
        "an existing one only; or HOST:PORT",
    )
    max_staleness: int = doc(
        0,
        "drop samples made with weights more than this many publications older than the "
        "newest (1: only the newest and the one before; 0 = keep every sample)",
        check="non_negative",
    )
    games_per_actor: int = doc(32, "games each actor plays at once (their network calls are batched)", check="positive")
    publish_every: int = doc(50, "learner steps between sending new weights to the actors", check="positive")
    seed: int = doc(0, "base seed of the actors' games and random generators")
    precision: Literal["auto", "float32", "bfloat16"] = doc(
        "auto",
        "number format of self-play network calls; auto: bfloat16 where the CPU does it natively (about 3x "
        "faster), else float32",
    )
    simulations: int = doc(100, "MCTS simulations per move", methods=AZ, check="positive")
    c_puct: float = doc(1.5, "PUCT exploration constant", methods=AZ, check="positive")
    dirichlet_alpha: float = doc(1.0, "Dirichlet noise concentration at the root", methods=AZ, check="positive")
    dirichlet_fraction: float = doc(0.25, "share of Dirichlet noise in the root priors", methods=AZ, check="fraction")
    search_batch: int = doc(8, "leaves gathered per game per network call (virtual loss)", methods=AZ, check="positive")
    temperature_moves: int = doc(
        10,
        "moves per game chosen in proportion to visits; later moves take the most visited",
        methods=AZ,
        check="non_negative",
    )
    random_move_share: float = doc(
        0.0,
        "chance that a move played is uniformly random (its sample keeps the search "
        "target), so the net also learns positions after blunders",
        methods=AZ,
        check="fraction",
    )
    search_value_share: float = doc(
        0.0,
        "value target = (1 - share) * final returns + share * the root's searched "
        "value vector (less noise from later moves and random moves)",
        methods=AZ,
        check="fraction",
    )


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    steps: int = doc(10_000, "learner steps to reach (a resumed run continues up to this)", check="positive")
    minutes: float = doc(
        0.0, "stop after this many minutes of this invocation (0 = no time limit)", check="non_negative"
    )
    batch_size: int = doc(256, "samples per gradient step", check="positive")
    lr: float = doc(1e-3, "AdamW learning rate", check="positive")
    weight_decay: float = doc(1e-4, "AdamW weight decay", check="non_negative")
    warmup_steps: int = doc(
        0,
        "learner steps over which the learning rate rises linearly from lr/warmup_steps to "
        "lr at the start of a run (0 = off); eases a fresh optimizer into weights taken "
        "with --init",
        check="non_negative",
    )
    grad_clip: float = doc(1.0, "gradient norm clip (0 = off)", check="non_negative")
    value_weight: float = doc(
        1.0, "weight of the value loss against the policy loss", methods=AZ + PPO, check="non_negative"
    )
    replay_size: int = doc(100_000, "samples kept in the replay buffer", methods=AZ + TD, check="positive")
    min_replay: int = doc(2_000, "samples collected before learning starts", methods=AZ + TD, check="non_negative")
    sample_reuse: float = doc(
        4.0,
        "target ratio of samples trained on to samples generated (learner waits above it)",
        methods=AZ + TD,
        check="positive",
    )
    checkpoint_every: int = doc(500, "learner steps between checkpoints", check="positive")
    keep_checkpoints: int = doc(
        5,
        "newest checkpoints kept on disk (0 = keep all); those where a run stopped, "
        "off the checkpoint_every schedule, are always kept",
        check="non_negative",
    )
    log_every: int = doc(50, "learner steps between metric lines", check="positive")
    symmetries: bool = doc(
        True,
        "train each sample as itself or as its image under a random symmetry of the game "
        "(board mirrors, rotations), when the game declares any",
        methods=AZ + TD,
    )
    save_replay: bool = doc(
        True, "store the replay buffer with each checkpoint so a resumed run keeps its data", methods=AZ + TD
    )
    seed: int = doc(0, "seed of the network initialisation and the learner's sampling")
    precision: Literal["auto", "float32", "bfloat16"] = doc(
        "float32",
        "number format of the learner's forward and backward passes (weights stay float32); auto: "
        "bfloat16 where the CPU does it natively",
    )
    device: str = doc(
        "auto",
        "where the learner trains: auto (a CUDA GPU when torch sees one, else the CPU), cpu, "
        "cuda or cuda:N; self-play actors and evaluations run on CPU cores either way",
        check="device",
    )


@dataclasses.dataclass(frozen=True)
class EvalConfig:
    every: int = doc(1_000, "learner steps between evaluations (0 = never)", check="non_negative")
    opponents: list = default_list(
        [],
        'agent specs the trained agent plays in every evaluation, e.g. ["weighted", '
        '"heuristic"]; it takes one seat, the opponent the others, seats rotated',
    )
    games: int = doc(20, "games against each of `opponents`", check="non_negative")
    games_vs_random: int = doc(
        40, "games of the greedy network against random, seats rotated", methods=AZ, check="non_negative"
    )
    games_vs_mcts: int = doc(
        10, "games of network+search against rollout MCTS, seats rotated", methods=AZ, check="non_negative"
    )
    mcts_simulations: int = doc(200, "simulations of the rollout MCTS opponent", methods=AZ, check="positive")
    games_vs_best: int = doc(
        20, "games against the previous best checkpoint, seats rotated", methods=AZ, check="non_negative"
    )
    simulations: int = doc(
        50, "simulations per move of the network player in search games", methods=AZ, check="positive"
    )
    opening_plies: int = doc(
        0,
        "random moves that open each game against MCTS and the best (variety between deterministic players)",
        methods=AZ,
        check="non_negative",
    )
    promote_threshold: float = doc(
        0.55, "score against the previous best that makes a checkpoint the new best", methods=AZ, check="fraction"
    )


@dataclasses.dataclass(frozen=True)
class TDConfig:
    lam: float = doc(
        0.7,
        "lambda of the lambda-returns: 0 learns from the next prediction only, 1 from the final outcome only",
        check="fraction",
    )
    gamma: float = doc(
        1.0,
        "discount per recorded decision that takes game time (below 1: a win sooner is worth more than a win later)",
        check="fraction",
    )
    explore: float = doc(
        0.001,
        "share of moves played uniformly at random; the lambda-return stops at such a move "
        "(it bootstraps from the best move's value there)",
        check="fraction",
    )
    huber_delta: float = doc(1.0, "Huber loss: quadratic below this error, linear above", check="positive")
    opening_moves: int = doc(
        0,
        "a game's first N decisions (all seats', counting only those with a choice) are "
        "drawn from the softmax of the mover's values at opening_temperature; the "
        "lambda-return stops where the draw is not the best move",
        check="non_negative",
    )
    opening_temperature: float = doc(
        0.02, "temperature of the opening draws (values are win shares, 0..1)", check="positive"
    )
    learn_timeless: bool = doc(
        True,
        "learn from the positions reached by moves the game declares timeless (Game.timeless_actions: "
        "Catan's offers and answers); false: their targets still carry the returns, but only the positions "
        "of moves that take game time go to the replay",
    )
    outcome_moves: int = doc(
        0,
        "a game's first N recorded positions (all seats', counting only decisions with a "
        "choice) learn from the final result alone (lambda = 1, still discounted by gamma "
        "and stopped at an exploring move) instead of the lambda-return",
        check="non_negative",
    )
    league_share: float = doc(
        0.0,
        "share of self-play games in which one seat, drawn at random, is played by a past "
        "network of the run (its greedy move; the lambda-return runs through its moves)",
        check="fraction",
    )
    league_size: int = doc(
        8,
        "past networks the league keeps (in the run's bank/, so a resumed run keeps them): the newest snapshots",
        check="positive",
    )
    league_every: int = doc(
        2000,
        "learner steps between two snapshots the learner adds to the league (the first: "
        "its network at the run's first publication)",
        check="positive",
    )


@dataclasses.dataclass(frozen=True)
class PPOConfig:
    batch_samples: int = doc(
        4096, "learner decisions (from finished games) collected for each update", check="positive"
    )
    epochs: int = doc(4, "passes over each rollout", check="positive")
    minibatches: int = doc(4, "minibatches per pass", check="positive")
    clip: float = doc(
        0.2, "clip range of the probability ratio (0 = no clipping: plain advantage actor-critic)", check="non_negative"
    )
    gamma: float = doc(1.0, "discount per learner decision", check="fraction")
    gae_lambda: float = doc(0.95, "GAE lambda", check="fraction")
    entropy_weight: float = doc(0.01, "entropy bonus", check="non_negative")
    activity_weight: float = doc(1e-4, "L2 loss on the legal logits, keeping rare actions alive", check="non_negative")
    bank_size: int = doc(20, "past networks kept in the bank", check="positive")
    best_share: float = doc(
        0.8, "share of opponents that are the bank's best network (the rest: any bank member)", check="fraction"
    )
    admit_every: int = doc(
        200, "learner steps between trials of the current network against the best", check="positive"
    )
    admit_games: int = doc(40, "games of each trial, seats rotated", check="positive")
    admit_score: float = doc(
        0.55, "score against the best that admits the current network to the bank as the new best", check="fraction"
    )


@dataclasses.dataclass(frozen=True)
class ExpertConfig:
    search_moves: int = doc(
        8,
        "a game's first N decisions with a choice (all seats'; Catan's setup is 4 x players) are searched; "
        "the rest are played as TD plays them",
        check="non_negative",
    )
    search_share: float = doc(
        1.0,
        "share of the games whose first decisions are searched (drawn per game); the others are played "
        "throughout as TD plays them",
        check="fraction",
    )
    simulations: int = doc(200, "simulations of each of those searches", check="positive")
    per_move: int = doc(
        0,
        "caps each search at this many simulations per legal move (a road with 2 or 3 choices need not take a "
        "settlement's); 0: no cap",
        check="non_negative",
    )
    c_puct: float = doc(1.5, "PUCT exploration constant of those searches", check="non_negative")
    search_batch: int = doc(8, "leaves gathered per search before one network call", check="positive")
    infoset: bool = doc(True, "the searches keep one node per information set of the searching seat")
    prior_temperature: float = doc(
        0.02,
        "value priors: the softmax of the network's values after each move at this temperature (values are "
        "win shares, 0..1)",
        check="positive",
    )
    policy_priors_from: int = doc(
        -1,
        "from this learner step on the searches take priors from the policy head (one network row per node) "
        "instead of value priors (one per legal move); -1: never",
    )
    dirichlet_fraction: float = doc(0.25, "share of Dirichlet noise in the searches' root priors", check="fraction")
    dirichlet_alpha: float = doc(0.3, "concentration of that noise", check="positive")
    temperature_moves: int = doc(
        8,
        "of the searched decisions, the first N draw their move in proportion to the visits (the rest play "
        "the most visited); the lambda-return stops at a drawn move other than the most visited",
        check="non_negative",
    )
    search_weight: float = doc(
        1.0,
        "share of the search's value (its root value through the move played) in a searched position's value target",
        check="non_negative",
    )
    lambda_weight: float = doc(1.0, "share of the lambda-return in every position's value target", check="non_negative")
    outcome_weight: float = doc(
        0.0,
        "share of the final outcome (lambda = 1, discounted by td.gamma, stopped at an exploring move) in "
        "every value target",
        check="non_negative",
    )
    policy_weight: float = doc(
        1.0,
        "weight of the policy head's loss (cross-entropy to the visit shares; 0: no policy head)",
        check="non_negative",
    )
    policy_replay_size: int = doc(20_000, "searched positions kept for the policy head", check="positive")
    policy_trunk: bool = doc(
        False,
        "true: the policy head's loss reaches the trunk the values share; false: the head learns on the trunk's "
        "features held fixed, so the values' features stay as the value loss shapes them (through the trunk, "
        "a head learning from scratch on a TD network's trunk cost its values 15 points against heuristic)",
    )
    reanalyse: float = doc(
        0.0,
        "re-analysis: searches of stored positions of finished games, with the newest network, per search of a "
        "live game (0.5: one for every two); each gives its position fresh search targets",
        check="non_negative",
    )
    reanalyse_pool: int = doc(
        4096, "searched positions of finished games an actor keeps for re-analysis (the oldest go)", check="positive"
    )


@dataclasses.dataclass(frozen=True)
class Config:
    method: str = doc(
        "alphazero",
        "training method: alphazero, td, ppo, expert or another registered one (learn.methods.register_method)",
        check="method",
    )
    game: str = doc("", "game name, as in `boardzero games`")
    game_options: dict = doc(None, "options of the game")
    network: NetworkConfig = dataclasses.field(default_factory=NetworkConfig)
    selfplay: SelfPlayConfig = dataclasses.field(default_factory=SelfPlayConfig)
    train: TrainConfig = dataclasses.field(default_factory=TrainConfig)
    eval: EvalConfig = dataclasses.field(default_factory=EvalConfig)
    td: TDConfig = dataclasses.field(default_factory=TDConfig)
    ppo: PPOConfig = dataclasses.field(default_factory=PPOConfig)
    expert: ExpertConfig = dataclasses.field(default_factory=ExpertConfig)

    def to_dict(self) -> dict[str, Any]:
        """Every setting this config's method reads (``config_from_dict`` gives it back)."""
        data: dict[str, Any] = {"method": self.method, "game": self.game, "game_options": dict(self.game_options or {})}
        reads = settings_read_by(self.method)
        for name in SECTIONS:
            if not _applies(SECTION_METHODS.get(name, ()), reads):
                continue
            section = getattr(self, name)
            data[name] = {
                f.name: getattr(section, f.name)
                for f in dataclasses.fields(section)
                if _applies(f.metadata.get("methods", ()), reads)
            }
        return dict(json.loads(json.dumps(data)))

    def changed(self, changes: Mapping[str, Any]) -> Config:
        """A validated copy with each ``"section.field"`` (or top-level ``"field"``) of ``changes`` set: the way
        to change a config after it was loaded (a bad value is a ConfigError naming the field)."""
        return config_from_dict(set_fields(self.to_dict(), changes))


SECTIONS = {
    "network": NetworkConfig,
    "selfplay": SelfPlayConfig,
    "train": TrainConfig,
    "eval": EvalConfig,
    "td": TDConfig,
    "ppo": PPOConfig,
    "expert": ExpertConfig,
}
SECTION_METHODS = {"td": TD, "ppo": PPO, "expert": ("expert",)}  # sections that only some methods read


def _applies(methods: tuple[str, ...], reads: tuple[str, ...]) -> bool:
    """Whether a field or section tagged for ``methods`` (empty: every method) is read by a method that reads
    the settings of ``reads`` (``learn.methods.settings_read_by``)."""
    return not methods or any(m in methods for m in reads)


def _check_value(field: str, value: Any, annotation: Any, check: str) -> Any:
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
    if annotation is list:
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise ConfigError(field, f"expected a list of strings, got {value!r}")
        return list(value)
    if annotation is str:
        if not isinstance(value, str):
            raise ConfigError(field, f"expected a string, got {value!r}")
        if check == "device" and not re.fullmatch(r"auto|cpu|cuda(:\d+)?", value):
            raise ConfigError(field, f"{value!r} is not allowed; allowed: auto, cpu, cuda, cuda:N")
        registered = {"method": method_names, "backend": backend_names}.get(check)
        if registered is not None and value not in registered():
            raise ConfigError(field, f"{value!r} is not allowed; allowed: {', '.join(registered())}")
        return value
    if annotation is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(field, f"expected an integer, got {value!r}")
    elif annotation is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(field, f"expected a number, got {value!r}")
        value = float(value)
    if check == "positive" and not value > 0:
        raise ConfigError(field, f"must be > 0, got {value!r}")
    if check == "non_negative" and value < 0:
        raise ConfigError(field, f"must be >= 0, got {value!r}")
    if check == "fraction" and not 0 <= value <= 1:
        raise ConfigError(field, f"must be between 0 and 1, got {value!r}")
    return value


def _build_section(name: str, cls: type, table: Any, method: str) -> Any:
    if not isinstance(table, dict):
        raise ConfigError(name, f"expected a table [{name}], got {type(table).__name__}")
    section_methods = SECTION_METHODS.get(name, ())
    reads = settings_read_by(method)
    if table and not _applies(section_methods, reads):
        raise ConfigError(name, f"[{name}] applies to method {', '.join(section_methods)}, not {method!r}")
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values = {}
    for key, value in table.items():
        if key not in fields:
            raise ConfigError(f"{name}.{key}", f"unknown field; allowed: {', '.join(sorted(fields))}")
        methods = fields[key].metadata.get("methods", ())
        if not _applies(methods, reads):
            raise ConfigError(
                f"{name}.{key}", f"applies to method {', '.join(methods)}, not {method!r}; remove it from the config"
            )
        values[key] = _check_value(f"{name}.{key}", value, hints[key], fields[key].metadata.get("check", ""))
    return cls(**values)


def config_from_dict(data: dict[str, Any]) -> Config:
    """Validate a parsed config; the first bad field raises ConfigError naming it."""
    if not isinstance(data, dict):
        raise ConfigError("config", "expected a table at the top level")
    allowed = {"method", "game", "game_options", *SECTIONS}
    for key in data:
        if key not in allowed:
            raise ConfigError(key, f"unknown field; allowed: {', '.join(sorted(allowed))}")
    method = _check_value("method", data.get("method", "alphazero"), str, "method")
    game = data.get("game", "")
    if not isinstance(game, str):
        raise ConfigError("game", f"expected a game name, got {game!r}")
    options = data.get("game_options", {})
    if not isinstance(options, dict):
        raise ConfigError("game_options", f"expected a table of game options, got {options!r}")
    sections = {name: _build_section(name, cls, data.get(name, {}), method) for name, cls in SECTIONS.items()}
    return Config(method=method, game=game, game_options=dict(options), **sections)


def toml_value(text: str) -> Any:
    """``text`` read as a TOML value (``0.0003``, ``true``, ``["heuristic"]``), else the plain string."""
    try:
        return tomllib.loads(f"value = {text.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        return text.strip()


def apply_overrides(
    data: dict[str, Any],
    overrides: Sequence[str],
    flag: str = "--set",
    examples: str = "train.lr=0.0001 or game_options.players=3",
) -> dict[str, Any]:
    """A copy of parsed config ``data`` with each ``section.field=value`` (or ``field=value`` at the top level)
    set; the value is read as TOML (``0.0003``, ``true``, ``["heuristic"]``), else taken as a plain string.
    ``flag`` and ``examples`` name the command-line option in errors."""
    data = set_fields(data, {})  # a copy, also where nothing changes
    for override in overrides:
        key, sep, text = override.partition("=")
        key = key.strip()
        parts = key.split(".")
        if not sep or not all(parts) or len(parts) > 2:
            raise ConfigError(
                flag, f"{override!r} is not of the form section.field=value or field=value, e.g. {examples}"
            )
        data = set_fields(data, {key: toml_value(text)}, flag, what=repr(override))
    return data


def set_fields(
    data: dict[str, Any], changes: Mapping[str, Any], flag: str = "config", what: str = ""
) -> dict[str, Any]:
    """A copy of parsed config ``data`` with each ``"section.field"`` (or top-level ``"field"``) of ``changes``
    set to its value, unchecked (``config_from_dict`` checks the result); ``flag`` and ``what`` name the
    change in errors."""
    data = {key: dict(value) if isinstance(value, dict) else value for key, value in data.items()}
    for key, value in changes.items():
        section, _, name = key.rpartition(".")
        if not section:
            data[name] = value
            continue
        table = data.setdefault(section, {})
        if not isinstance(table, dict):
            raise ConfigError(
                flag, f"{what or repr(key)} sets a field of {section}, but {section} holds {table!r}, not a table"
            )
        table[name] = value
    return data


def load_config(path: str | Path, overrides: Sequence[str] = (), changes: Mapping[str, Any] | None = None) -> Config:
    """Read and validate a TOML config file, with ``overrides`` (see ``apply_overrides``) and then ``changes``
    (``{"section.field": value}``: the command line's own options) applied first."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise ConfigError("config", f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("config", f"{path} is not valid TOML: {exc}") from None
    return config_from_dict(set_fields(apply_overrides(data, overrides), changes or {}))


def field_docs(cls: type) -> list[tuple[str, Any, str]]:
    """(field, default, one-line doc) of a config section, for help texts."""
    return [(f.name, _default(f), f.metadata.get("doc", "")) for f in dataclasses.fields(cls)]


def _default(f: dataclasses.Field) -> Any:
    if f.default is dataclasses.MISSING and f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default

"""How a trained network plays, as typed records: ``TDPlay`` for a TD value network, ``AZPlay`` for a
policy-value network.

One record serves every place that names these settings: the ``td`` agent's options, the ``play`` settings a
shipped model stores beside it (``learn.export`` checks them before it writes them), and what ``best`` plays a
shipped model with (the stored settings, with a caller's changes). A record is validated when it is made; a bad
value is a ``ConfigError`` naming the field (prefixed by ``where``: ``agent td.sims``, ``agent best.sims``) and
what it allows.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from typing import Any, ClassVar

from boardzero.core.errors import ConfigError

OBSERVERS = ("mover", "to_move")
# value: trade by the network's values one step ahead; off: never offer, decline every offer; guarded: value with
# two guards (no leader fed, no offer twice): fewer trades, weaker; fresh: value with the second guard alone
TRADE_MODES = ("value", "off", "guarded", "fresh")
POLICIES = ("auto", "on", "off")  # auto: on for a network whose policy head learned search visits (learn.expert)


def setting(default: Any, least: float | None = None) -> Any:
    """A record field with its default and the least value it allows (None: no bound)."""
    return dataclasses.field(default=default, metadata={"least": least})


@dataclasses.dataclass(frozen=True)
class PlaySettings:
    """Common checks of a play-settings record: types, finiteness and least values of every field."""

    where: dataclasses.InitVar[str] = "agent"  # names the settings in errors: "agent td", "agent best"

    def __post_init__(self, where: str) -> None:
        hints = typing.get_type_hints(type(self))
        for f in dataclasses.fields(self):
            self._check_field(where, f, hints[f.name])
        self.check_together(where)

    def _check_field(self, where: str, f: dataclasses.Field, kind: Any) -> None:
        value = getattr(self, f.name)
        name = f"{where}.{f.name}"
        if kind is bool:
            if not isinstance(value, bool):
                raise ConfigError(name, f"expected true or false, got {value!r}")
            return
        if kind is str:
            if not isinstance(value, str):
                raise ConfigError(name, f"expected a string, got {value!r}")
            return
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and isinstance(value, float)):
            raise ConfigError(name, f"expected {'an integer' if kind is int else 'a number'}, got {value!r}")
        if not math.isfinite(value):
            raise ConfigError(name, f"expected a finite number, got {value!r}")
        least = f.metadata.get("least")
        if least is not None and value < least:
            raise ConfigError(name, f"must be >= {least:g}, got {value}")

    def check_together(self, where: str) -> None:
        """Rules between fields; none by default."""

    @classmethod
    def from_dict(cls, data: Any, where: str) -> Any:
        """A record from stored settings (``{"sims": 96, ...}``); an unknown key is a ConfigError naming it."""
        if not isinstance(data, dict):
            raise ConfigError(where, f"expected a table of play settings, got {data!r}")
        names = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                raise ConfigError(f"{where}.{key}", f"unknown play setting; allowed: {', '.join(names)}")
        values = {k: float(v) if cls.kind_of(k) is float and isinstance(v, int) else v for k, v in data.items()}
        return cls(where, **values)

    @classmethod
    def kind_of(cls, name: str) -> Any:
        return typing.get_type_hints(cls)[name]

    def changed(self, where: str, **changes: Any) -> Any:
        """A validated copy with ``changes`` (errors name ``where``)."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        values.update(
            {k: float(v) if self.kind_of(k) is float and isinstance(v, int) else v for k, v in changes.items()}
        )
        return type(self)(where, **values)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclasses.dataclass(frozen=True)
class TDPlay(PlaySettings):
    """How a TD value network plays (the ``td`` agent; docs of each field: ``agents.td.td``)."""

    GREEDY: ClassVar[dict[str, int]] = {"depth": 1, "sims": 0, "opening": 0, "opening_sims": 0, "early": 0}

    depth: int = setting(1, least=1)  # > 1: plans the rest of its own turn that many decisions deep
    width: int = setting(8, least=1)  # positions kept per planning step
    sims: int = setting(0, least=0)  # > 0: searches by PUCT
    c_puct: float = setting(1.5, least=0)  # exploration constant of that search
    infoset: bool = setting(False)  # one search node per information set of the seat
    observer: str = setting("mover")  # whose view the network reads at a search leaf: mover or to_move
    prior: float = setting(0.0, least=0)  # > 0: search priors are the softmax of values at this temperature
    prior_depth: int = setting(1, least=1)  # > 1: those priors plan the rest of the turn that deep
    opening: int = setting(0, least=0)  # the first this many decisions search with opening_sims
    opening_sims: int = setting(0, least=0)  # simulations of that opening search
    early: int = setting(0, least=0)  # > opening: the opening network also values moves until this history
    mean_weight: float = setting(0.5, least=0)  # share of the averaged-in networks in the mean of values
    symmetries: bool = setting(False)  # read the network as the mean over the game's symmetries
    batch: int = setting(8, least=1)  # leaves per network call of its searches
    opening_batch: int = setting(0, least=0)  # that of the opening search (0: batch)
    fpu: float = setting(0.0, least=0)  # first-play urgency of its searches
    reuse: bool = setting(False)  # each search goes on from the subtree the history reached
    opening_per_move: int = setting(0, least=0)  # > 0: caps the opening search per legal move
    policy: str = setting("auto")  # search priors from a policy head that learned search visits: auto, on, off
    trade: str = setting("value")  # with player-to-player trading: value (by the network's values), off, guarded, fresh

    def check_together(self, where: str) -> None:
        if self.trade not in TRADE_MODES:
            raise ConfigError(f"{where}.trade", f"{self.trade!r} is not allowed; allowed: {', '.join(TRADE_MODES)}")
        if self.policy not in POLICIES:
            raise ConfigError(f"{where}.policy", f"{self.policy!r} is not allowed; allowed: {', '.join(POLICIES)}")
        if self.observer not in OBSERVERS:
            raise ConfigError(f"{where}.observer", f"{self.observer!r} is not allowed; allowed: {', '.join(OBSERVERS)}")
        if (self.opening > 0) != (self.opening_sims > 0):
            raise ConfigError(
                f"{where}.opening",
                f"opening and opening_sims go together (both > 0 or both 0), "
                f"got opening={self.opening}, opening_sims={self.opening_sims}",
            )
        if self.opening_batch and not self.opening:
            raise ConfigError(
                f"{where}.opening_batch",
                f"sets the opening search's leaves per network call; "
                f"set opening and opening_sims too (got opening={self.opening})",
            )
        if self.prior_depth > 1 and not self.prior:
            raise ConfigError(
                f"{where}.prior_depth", f"plans the search's value priors: needs prior > 0, got prior={self.prior}"
            )
        if self.mean_weight >= 1:
            raise ConfigError(
                f"{where}.mean_weight",
                f"the share of the averaged-in networks must lie between 0 and 1 (exclusive), got {self.mean_weight}",
            )

    def greedy(self, where: str) -> TDPlay:
        """These settings without search or planning: the network's one-step values alone."""
        return self.changed(where, **self.GREEDY, opening_batch=0, opening_per_move=0)


@dataclasses.dataclass(frozen=True)
class AZPlay(PlaySettings):
    """How a policy-value network plays (``az`` and ``best`` for an AlphaZero model)."""

    sims: int = setting(200, least=0)  # simulations per move (0: the policy alone)
    c_puct: float = setting(1.5, least=0)  # exploration weight of the search
    batch: int = setting(8, least=1)  # leaves per network call


PLAY_SETTINGS: dict[str, type[PlaySettings]] = {"td": TDPlay, "expert": TDPlay, "alphazero": AZPlay, "ppo": AZPlay}


def play_settings_for(trainer: str) -> type[PlaySettings]:
    """The record of the play settings of a model made by ``trainer`` (a method's name)."""
    return PLAY_SETTINGS.get(trainer, AZPlay)


def stored_play(meta: dict[str, Any], *, fast: bool, where: str) -> PlaySettings:
    """The play settings a model's metadata stores (``play``; its ``fast`` table merged in with ``fast``)."""
    play = dict(meta.get("play", {}))
    lighter = play.pop("fast", {})
    if not isinstance(lighter, dict):
        raise ConfigError(f"{where}.fast", f"expected a table of play settings, got {lighter!r}")
    if fast:
        play.update(lighter)
    return play_settings_for(meta.get("trainer", "alphazero")).from_dict(play, where)

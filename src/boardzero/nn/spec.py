"""What a network is, as data: its kind, shapes and sizes (``NetworkSpec``, stored in checkpoint metadata), and
the spec that fits a game. Every network body is built from one (``nn.nets.build_network``)."""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, cast, get_args

from boardzero.core.errors import ConfigError

NetworkKind = Literal["mlp", "conv", "xdim"]  # the one list of network kinds; the config's network.kind reads it
NETWORK_KINDS: tuple[str, ...] = get_args(NetworkKind)


def _size(default: Any, text: str, check: str = "") -> Any:
    """A field of ``NetworkSizes``: its default, one line of documentation and its range check, which the
    training config's ``[network]`` section shows and applies (``learn.config``)."""
    return dataclasses.field(default=default, metadata={"doc": text, "methods": (), "check": check})


@dataclasses.dataclass(frozen=True)
class NetworkSizes:
    """What a person chooses of a network: its kind and sizes. The training config's ``[network]`` section is
    this record; a ``NetworkSpec`` is these plus what the game fixes (``spec_for``)."""

    kind: NetworkKind = _size(
        "mlp",
        "mlp over the 'flat' observation, conv over 'planes', xdim: the cross-dimensional net (games with a "
        "board layout, e.g. Catan)",
    )
    hidden: int = _size(256, "mlp width; conv value-head width; xdim width of the dense branch", "positive")
    blocks: int = _size(4, "residual blocks", "non_negative")
    channels: int = _size(64, "conv and xdim channels of the board branch", "positive")
    observation: str = _size(
        "",
        "mlp: a 1-D observation other than 'flat' (Catan: 'rich', the flat one plus what "
        "needs the board's adjacency: pips around each intersection, where each seat can "
        "settle, production per resource); empty: the kind's own",
    )

    def spec_for(self, game) -> NetworkSpec:
        """The spec of a network of these sizes that fits ``game``'s observation, actions and players."""
        key = observation_key(self.kind, self.observation)
        if self.kind == "xdim" and game.board_layout() is None:
            raise ConfigError("network.kind", f"xdim needs a game with a board layout; {game.name} has none")
        if key not in game.observation_spec:
            raise ConfigError(
                "network.kind",
                f"{self.kind!r} needs the {key!r} observation, which {game.name} does not have; "
                f"it has: {', '.join(game.observation_spec)}",
            )
        spec = NetworkSpec(
            **{f.name: getattr(self, f.name) for f in dataclasses.fields(NetworkSizes)},
            input_shape=tuple(game.observation_spec[key]),
            num_actions=game.num_actions,
            num_players=game.num_players,
            layout=game.name if self.kind == "xdim" else "",
        )
        spec.validate()
        return spec


@dataclasses.dataclass(frozen=True, kw_only=True)
class NetworkSpec(NetworkSizes):
    """Everything needed to rebuild a network (its ``NetworkSizes`` and what the game fixes); stored in
    checkpoint metadata."""

    kind: NetworkKind  # residual MLP over "flat", residual conv net over "planes", or the
    # cross-dimensional net over "flat" placed on the game's board layout (nn.xdim)
    input_shape: tuple[int, ...]  # shape of the observation that goes in
    num_actions: int  # policy logits
    num_players: int  # values, one per seat, seat-relative
    layout: str = ""  # xdim: the game whose board layout places the observation

    @property
    def sizes(self) -> NetworkSizes:
        """The chosen part of this spec."""
        return NetworkSizes(**{f.name: getattr(self, f.name) for f in dataclasses.fields(NetworkSizes)})

    @property
    def observation_key(self) -> str:
        return observation_key(self.kind, self.observation)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["input_shape"] = list(self.input_shape)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> NetworkSpec:
        if not isinstance(data, dict):
            raise ConfigError("network", f"expected a table, got {type(data).__name__}")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(f"network.{unknown[0]}", f"unknown field; allowed: {', '.join(sorted(names))}")
        try:
            spec = cls(**{**data, "input_shape": tuple(int(d) for d in data.get("input_shape", ()))})
        except TypeError as exc:
            raise ConfigError("network", str(exc)) from None
        spec.validate()
        return spec

    def validate(self) -> None:
        if self.kind not in NETWORK_KINDS:
            raise ConfigError("network.kind", f"{self.kind!r} is not allowed; allowed: {', '.join(NETWORK_KINDS)}")
        if self.observation and self.kind != "mlp":
            raise ConfigError(
                "network.observation",
                f"only an mlp reads another observation than its kind's; "
                f"{self.kind} reads {observation_key(self.kind)}",
            )
        if self.kind == "xdim" and not self.layout:
            raise ConfigError("network.layout", "xdim needs the name of a game with a board layout")
        expected_dims = 3 if self.kind == "conv" else 1
        if len(self.input_shape) != expected_dims or any(d <= 0 for d in self.input_shape):
            raise ConfigError(
                "network.input_shape",
                f"{self.kind} needs a {expected_dims}-D positive shape, got {list(self.input_shape)}",
            )
        for name in ("num_actions", "num_players", "hidden", "blocks", "channels"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < (0 if name == "blocks" else 1):
                raise ConfigError(f"network.{name}", f"expected a positive integer, got {value!r}")


def observation_key(kind: str, observation: str = "") -> str:
    """The observation a network of ``kind`` reads: ``observation`` where an mlp names one, else "planes" for
    conv and "flat" for the others."""
    return observation or ("planes" if kind == "conv" else "flat")


def spec_for_game(game, kind: str = NetworkSizes.kind, **sizes: Any) -> NetworkSpec:
    """A network spec of ``kind`` and ``sizes`` (``hidden``, ``blocks``, ``channels``, ``observation``: fields
    of ``NetworkSizes``, their defaults where left out) that fits ``game``."""
    names = {f.name for f in dataclasses.fields(NetworkSizes)} - {"kind"}
    unknown = sorted(set(sizes) - names)
    if unknown:
        raise ConfigError(f"network.{unknown[0]}", f"unknown field; allowed: {', '.join(sorted(names))}")
    return NetworkSizes(kind=cast(NetworkKind, kind), **sizes).spec_for(game)

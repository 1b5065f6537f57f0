"""What an agent spec from a request may cost the server: compute per move and which files it may load.

A person creating a game names any agent by its spec (``mcts:sims=400``,
``az:runs/c4``). Before the spec builds anything, ``AgentLimits.check``
refuses one that would search more than the operator allows per move
(``max_sims``, ``max_depth``, ``max_width``) or load a checkpoint from outside
the shipped models and the operator's ``--models`` directories; the path is
judged by its name alone, so a refused file is never opened. The agents'
own factories are read (``describe_agent``) to learn each option's default
and which options name checkpoints, so a new agent is guarded without an
entry here. An agent that plays by settings stored beside a model (``best``)
is weighed by those settings (``agents.registry.agent_settings``) when the
game is known, so a stored 2,000 simulations count against ``max_sims`` too.
"""

from __future__ import annotations

import inspect
import os
from dataclasses import dataclass
from pathlib import Path

from boardzero.agents.best import MODELS_DIR
from boardzero.agents.registry import AgentInfo, agent_settings, describe_agent, parse_spec
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.registry import coerce
from boardzero.web.config import ServerConfig

# agent option -> the cap (a ServerConfig field) that bounds it; these options are how agents spend compute
# (a batch of leaves per network call larger than the simulations allowed only asks for memory)
COMPUTE_CAPS = {
    "sims": "max_sims",
    "opening_sims": "max_sims",
    "batch": "max_sims",
    "opening_batch": "max_sims",
    "depth": "max_depth",
    "prior_depth": "max_depth",
    "width": "max_width",
}
MULTIPLIERS = {"rollouts": "sims"}  # mcts plays this many random playouts per simulation: sims x rollouts counts
PATH_WORD = "checkpoint"  # an option documented as naming a checkpoint is a path (az's path, td's mean_with ...)


class SpecRefused(Exception):
    """An agent spec over a cap (``status`` 422) or naming a path outside the allowed directories (403)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class _Option:
    value: object  # the spec's value, or the factory's default
    given: bool


class AgentLimits:
    """The operator's caps and model directories, checked against a spec before it is built."""

    def __init__(self, config: ServerConfig):
        self.caps = {name: getattr(config, name) for name in set(COMPUTE_CAPS.values())}
        self.roots = [Path(os.path.realpath(MODELS_DIR))] + [Path(os.path.realpath(p)) for p in config.models]

    def describe(self) -> dict:
        """The caps for ``/api/meta`` (the directories stay private to the server)."""
        return dict(sorted(self.caps.items()))

    def check(self, spec: str, game: Game | None = None) -> None:
        """Refuse ``spec`` (``SpecRefused``) when it costs more than a cap or loads from outside the allowed
        directories; a spec that does not parse is left to the agent registry, which names its fault. With
        ``game``, an agent that plays by stored settings (``best``) is weighed by the settings it would play
        that game with, not only by what the spec names."""
        try:
            name, words, options = parse_spec(spec)
            info = describe_agent(name)
            effective = agent_settings(spec, game) if game is not None else None
        except ConfigError:
            return
        values = _values(info, words, options)
        for option, value in (effective or {}).items():
            if option in COMPUTE_CAPS:
                values[option] = _Option(value, True)
        self._check_compute(name, values)
        self._check_paths(name, info, values)

    def _check_compute(self, name: str, values: dict[str, _Option]) -> None:
        for option, cap_name in COMPUTE_CAPS.items():
            if option not in values:
                continue
            amount = _as_int(values[option].value)
            for factor, base in MULTIPLIERS.items():
                if base == option and factor in values and values[factor].given and amount is not None:
                    times = _as_int(values[factor].value)
                    amount = None if times is None else amount * max(times, 1)
                    option = f"{option} x {factor}"
            cap = self.caps[cap_name]
            if amount is not None and amount > cap:
                raise SpecRefused(
                    422,
                    "over_cap",
                    f"agent {name}: {option} = {amount} is over this server's cap "
                    f"{cap_name} = {cap} per move; allowed: 1..{cap}",
                )

    def _check_paths(self, name: str, info: AgentInfo, values: dict[str, _Option]) -> None:
        for option in info.options:
            if PATH_WORD not in option.doc.lower() or not values[option.name].given:
                continue
            for path in str(values[option.name].value).split("+"):
                path = path.partition("#")[0].strip()
                if path and not self.allowed(path):
                    raise SpecRefused(
                        403,
                        "path_not_allowed",
                        f"agent {name}: {option.name} {path!r} is outside the directories agents may "
                        f"load from; allowed: the shipped models (best, or their files) and the "
                        f"{len(self.roots) - 1} director{'y' if len(self.roots) == 2 else 'ies'} "
                        f"this server lists with --models",
                    )

    def allowed(self, path: str) -> bool:
        """Whether ``path`` lies inside an allowed directory, judged by its name (links followed), not opened."""
        try:
            real = Path(os.path.realpath(os.path.expanduser(path)))
        except (ValueError, OSError):  # a NUL byte, a name too long: no file anybody may load
            return False
        return any(real == root or real.is_relative_to(root) for root in self.roots)


def _values(info: AgentInfo, words: list[str], options: dict[str, str]) -> dict[str, _Option]:
    """Every option of the agent with the value the spec gives it (bare words as ``make_agent`` reads them)
    or its default."""
    by_name = {o.name: o for o in info.options}
    given: dict[str, object] = dict(options)
    positional = []
    for word in words:
        option = by_name.get(word)
        if option is not None and (option.type == "bool" or isinstance(option.default, bool)):
            given[word] = True
        else:
            positional.append(word)
    free = [o for o in info.options if o.positional and o.name not in given]
    for word, option in zip(positional, free):
        given[option.name] = word
    return {
        o.name: _Option(given.get(o.name, o.default), o.name in given)
        for o in info.options
        if o.name in given or o.default is not inspect.Parameter.empty
    }


def _as_int(value: object) -> int | None:
    try:
        return int(coerce("cap", value, int))
    except (ConfigError, TypeError, ValueError, OverflowError):
        return None

"""Agents are named by strings everywhere: ``random``, ``mcts:sims=400``, ``az:runs/c4,sims=200``.

Grammar: ``name[:part[,part...]]`` where parts may also be separated by ``:``.
A part ``key=value`` is a keyword option; a bare word is ``True`` for a boolean
option of that name (``best:greedy``), otherwise the factory's first
positional argument (``az:runs/c4``).
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.registry import coerce, resolve, type_name

# name -> "module:factory"; a factory is called as factory(game, *positional, **options)
_AGENTS: dict[str, str | Callable[..., Agent]] = {
    "random": "boardzero.agents.random_agent:RandomAgent",
    "greedy": "boardzero.agents.greedy:GreedyAgent",
    "mcts": "boardzero.agents.mcts_agent:MCTSAgent",
    "weighted": "boardzero.agents.catan_bots:WeightedAgent",
    "heuristic": "boardzero.agents.catan_bots:HeuristicAgent",
    "offer_all": "boardzero.agents.trade_probes:OfferAllAgent",
    "accept_all": "boardzero.agents.trade_probes:AcceptAllAgent",
    "az": "boardzero.agents.az:az",
    "policy": "boardzero.agents.az:policy",
    "best": "boardzero.agents.best:best",
    "solver": "boardzero.agents.solver:SolverAgent",
    "td": "boardzero.agents.td:td",
    "ppo": "boardzero.agents.az:ppo",
    "catanatron": "boardzero.integrations.catanatron.bots:catanatron_agent",  # needs the catanatron extra
}


def register_agent(name: str, factory: str | Callable[..., Agent]) -> None:
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def _factory(name: str) -> Callable[..., Agent]:
    return resolve(_AGENTS, name, "agent")


def parse_spec(spec: str) -> tuple[str, list[str], dict[str, str]]:
    """Split an agent spec into (name, bare words, key=value options)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError("agent", "empty agent spec; examples: random, mcts:sims=400")
    name, _, rest = spec.strip().partition(":")
    if not re.fullmatch(r"[A-Za-z_][\w-]*", name):
        raise ConfigError("agent", f"bad agent name {name!r} in spec {spec!r}")
    words: list[str] = []
    options: dict[str, str] = {}
    for part in filter(None, re.split(r"[,:](?![\\/])", rest) if rest else []):
        if "=" in part:
            key, _, value = part.partition("=")
            if not key:
                raise ConfigError("agent", f"empty option name in spec {spec!r}")
            options[key] = value
        else:
            words.append(part)
    return name, words, options


@dataclass(frozen=True)
class AgentOption:
    name: str
    type: str  # int, float, bool, str
    default: Any  # inspect.Parameter.empty for a required argument
    doc: str
    positional: bool  # given as a bare word (az:runs/c4) rather than key=value


@dataclass(frozen=True)
class AgentInfo:
    name: str
    summary: str
    options: list[AgentOption]


def describe_agent(name: str) -> AgentInfo:
    """What an agent does and its options, read from its factory's signature and docstrings, so it stays true.

    Docstring convention: the first line says what the agent does; then one line ``option: meaning`` per
    option (in the class docstring or ``__init__``'s for a class).
    """
    factory = _factory(name)
    init = factory.__init__ if inspect.isclass(factory) else factory
    docs = "\n".join(inspect.cleandoc(f.__doc__ or "") for f in dict.fromkeys((factory, init)))  # own, not inherited
    params = [
        p
        for p in inspect.signature(factory).parameters.values()
        if p.name != "game" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    try:
        hints = typing.get_type_hints(init)
    except Exception:  # pragma: no cover - unresolvable annotations
        hints = {}
    meanings = _option_docs(docs, [p.name for p in params])
    options = [
        AgentOption(
            p.name,
            type_name(hints[p.name]) if p.name in hints else type(p.default).__name__,
            p.default,
            meanings.get(p.name, ""),
            p.kind == p.POSITIONAL_OR_KEYWORD,
        )
        for p in params
    ]
    summary = next((line for line in docs.splitlines() if line.strip()), "")
    return AgentInfo(name, summary, options)


def _option_docs(doc: str, names: list[str]) -> dict[str, str]:
    """``{option: meaning}`` from docstring lines ``option: meaning`` (continued on more indented lines)."""
    if not names:
        return {}
    starts = list(re.finditer(rf"^[ \t]*({'|'.join(map(re.escape, names))}):[ \t]+", doc, re.M))
    ends = [m.start() for m in starts[1:]] + [len(doc)]
    return {m.group(1): " ".join(doc[m.end() : end].split("\n\n")[0].split()) for m, end in zip(starts, ends)}


def _arguments(spec: str) -> tuple[str, Callable[..., Agent], dict[str, Any]]:
    """(name, factory, keyword arguments) of an agent spec, each value converted to its option's type."""
    name, words, options = parse_spec(spec)
    factory = _factory(name)
    params = inspect.signature(factory).parameters
    try:
        hints = typing.get_type_hints(factory.__init__ if inspect.isclass(factory) else factory)
    except Exception:  # pragma: no cover - unresolvable annotations: keep strings
        hints = {}
    keyword = {
        p.name: p for p in params.values() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "game"
    }
    positional: list[str] = []
    kwargs: dict[str, Any] = {}
    for word in words:
        param = keyword.get(word)
        if param is not None and (hints.get(word) in (bool, bool | None) or isinstance(param.default, bool)):
            kwargs[word] = True
        else:
            positional.append(word)
    for key, value in options.items():
        if key not in keyword:
            allowed = ", ".join(sorted(keyword)) or "(none)"
            raise ConfigError(f"agent {name}", f"unknown option {key!r}; allowed: {allowed}")
        kwargs[key] = coerce(f"agent {name}.{key}", value, hints.get(key, type(keyword[key].default)))
    pos_params = [
        p for p in params.values() if p.kind == p.POSITIONAL_OR_KEYWORD and p.name != "game" and p.name not in kwargs
    ]
    if len(positional) > len(pos_params):
        raise ConfigError(f"agent {name}", f"unexpected argument(s) {positional} in spec {spec!r}")
    for word, param in zip(positional, pos_params):
        kwargs[param.name] = coerce(f"agent {name}.{param.name}", word, hints.get(param.name, str))
    return name, factory, kwargs


def make_agent(spec: str, game: Game) -> Agent:
    """Build an agent from its spec string for ``game``; bad specs raise ConfigError."""
    name, factory, kwargs = _arguments(spec)
    try:
        agent = factory(game, **kwargs)
    except TypeError as exc:
        raise ConfigError(f"agent {name}", str(exc)) from None
    agent.spec = spec
    return agent


def agent_settings(spec: str, game: Game) -> dict[str, Any] | None:
    """The settings the agent of ``spec`` would play ``game`` with, where its factory can tell them without
    building the agent (a ``settings`` attribute: ``best`` reads its model's stored settings); else None.
    Bad specs raise ConfigError."""
    name, factory, kwargs = _arguments(spec)
    settings_of = getattr(factory, "settings", None)
    return None if settings_of is None else dict(settings_of(game, **kwargs))

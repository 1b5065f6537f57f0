"""``boardzero agents``: list the agents, what each does and its options (from the agent registry itself)."""

from __future__ import annotations

import inspect

from boardzero.agents.registry import agent_names, describe_agent
from boardzero.cli.games import OptionRow, print_catalogue


def agents() -> None:
    """List the agents, what each does and its options; name one by a spec: NAME[:PATH][,KEY=VALUE...].

    A bool option is turned on by its bare name (best:greedy) or set with KEY=true/false.
    Example specs: random, mcts:sims=400, az:runs/c4,sims=200, best:greedy
    """
    print_catalogue(agent_names(), _agent_entry)


def _agent_entry(name: str) -> tuple[str, list[OptionRow]]:
    info = describe_agent(name)
    rows = [
        (
            f"<{o.name}>" if o.positional else o.name,
            o.type,
            "(required)" if o.default is inspect.Parameter.empty else repr(o.default),
            o.doc,
        )
        for o in info.options
    ]
    return info.summary, rows

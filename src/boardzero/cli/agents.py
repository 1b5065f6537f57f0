"""``boardzero agents``: list the agents, what each does and its options (from the agent registry itself)."""

from __future__ import annotations

import inspect

from rich.console import Console
from rich.table import Table

from boardzero.agents.registry import agent_names, describe_agent
from boardzero.core.errors import ConfigError


def agents() -> None:
    """List the agents, what each does and its options; name one by a spec: NAME[:PATH][,KEY=VALUE...].

    A bool option is turned on by its bare name (best:greedy) or set with KEY=true/false.
    Example specs: random, mcts:sims=400, az:runs/c4,sims=200, best:greedy
    """
    console = Console()
    for name in agent_names():
        try:
            info = describe_agent(name)
        except ConfigError as exc:  # an agent whose module is not available in this install
            console.print(f"[bold]{name}[/]: {exc}")
            continue
        console.print(f"[bold]{name}[/]: {info.summary}", highlight=False)
        if info.options:
            table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
            for column in ("option", "type", "default", "meaning"):
                table.add_column(column)
            for option in info.options:
                label = f"<{option.name}>" if option.positional else option.name
                default = "(required)" if option.default is inspect.Parameter.empty else repr(option.default)
                table.add_row(label, option.type, default, option.doc)
            console.print(table)
        console.print()

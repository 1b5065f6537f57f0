"""Two agents compared on the same games: two arena record files of one match setup (the same games, seeds and
seats, ``boardzero arena ... --seed S --records F``), where one agent took the other's seats.

A game depends only on ``(seed, i)``, so game ``i`` of both files deals the same board, and its chance outcomes
come from the game's own stream keyed by the setup seed and the count of outcomes drawn in their lane (Catan:
the k-th roll of the dice), apart from the agents' draws (``play.runner``): the two games roll the same dice
roll for roll, whatever the agents drew or did (common random numbers). Many games still end the same way for both, and the games that tell them apart
are those won by one of them only.
Their count gives the sign test: under "no difference" each such game is a coin flip, so
``z = (only_a - only_b) / sqrt(only_a + only_b)``. It needs far fewer games than comparing two win rates whose
games were drawn apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardzero.core.errors import ConfigError
from boardzero.eval.figures import winner_of
from boardzero.eval.stats import wilson_interval
from boardzero.play.records import numbered_records


@dataclass(frozen=True)
class Side:
    """One file's agent over the common games."""

    path: str
    agent: str
    wins: int

    def interval(self, games: int) -> tuple[float, float]:
        return wilson_interval(self.wins, games)


@dataclass(frozen=True)
class PairedResult:
    games: int  # games in both files
    a: Side
    b: Side
    only_a: int  # games the first agent won and the second did not
    only_b: int

    @property
    def z(self) -> float:
        """The sign test's z over the games won by one side only (0 where there are none)."""
        split = self.only_a + self.only_b
        return (self.only_a - self.only_b) / math.sqrt(split) if split else 0.0

    def to_dict(self) -> dict[str, Any]:
        sides = {}
        for name, side in (("a", self.a), ("b", self.b)):
            low, high = side.interval(self.games)
            sides[name] = {
                "path": side.path,
                "agent": side.agent,
                "wins": side.wins,
                "share": side.wins / self.games,
                "interval": [low, high],
            }
        return {"games": self.games, **sides, "only_a": self.only_a, "only_b": self.only_b, "z": self.z}


def _games(path: str | Path) -> dict[int, tuple[dict[str, Any], int]]:
    """Arena index -> (record, line number) of every game in the file."""
    games: dict[int, tuple[dict[str, Any], int]] = {}
    for number, record in numbered_records(path):
        index, agents = record.get("index"), record.get("agents")
        if not isinstance(index, int) or not isinstance(agents, list) or "returns" not in record:
            raise ConfigError(
                "records",
                f"{path} line {number} is not an arena game (needs 'index', 'agents' and "
                f"'returns': write it with `boardzero arena ... --records FILE`)",
            )
        if index in games:
            raise ConfigError(
                "records", f"{path} line {number} repeats game {index} of line {games[index][1]}: one match a file"
            )
        games[index] = (record, number)
    return games


def _compared_agent(path: str | Path, named: str | None, mine: set[str], theirs: set[str]) -> str:
    """The agent of this file to compare: the one named, else the one agent the other file does not have."""
    if named is not None:
        if named not in mine:
            raise ConfigError("paired.agent", f"{named!r} plays in no game of {path}; its agents: {sorted(mine)}")
        return named
    own = sorted(mine - theirs)
    if len(own) != 1:
        raise ConfigError(
            "paired.agent",
            f"cannot tell which agent of {path} to compare (its agents: "
            f"{sorted(mine)}; not in the other file: {own or 'none'}): name it",
        )
    return own[0]


def compare_records(
    path_a: str | Path, path_b: str | Path, *, agent_a: str | None = None, agent_b: str | None = None
) -> PairedResult:
    """The wins of ``agent_a`` in the games of ``path_a`` against those of ``agent_b`` in the same games of
    ``path_b``. By default each file's agent is the one the other file lacks. Games that are in one file only
    are left out; a game whose setup seed, options or seats differ between the files is a ConfigError."""
    games_a, games_b = _games(path_a), _games(path_b)
    common = sorted(set(games_a) & set(games_b))
    if not common:
        raise ConfigError(
            "records", f"{path_a} and {path_b} share no game index: play both with the same --seed and game options"
        )
    agents_a = {agent for i in common for agent in games_a[i][0]["agents"]}
    agents_b = {agent for i in common for agent in games_b[i][0]["agents"]}
    agent_a = _compared_agent(path_a, agent_a, agents_a, agents_b)
    agent_b = _compared_agent(path_b, agent_b, agents_b, agents_a)
    wins_a = wins_b = only_a = only_b = 0
    for index in common:
        (record_a, line_a), (record_b, line_b) = games_a[index], games_b[index]
        seats_a = [s for s, agent in enumerate(record_a["agents"]) if agent == agent_a]
        seats_b = [s for s, agent in enumerate(record_b["agents"]) if agent == agent_b]
        same = (
            record_a.get("seed") == record_b.get("seed")
            and record_a.get("options") == record_b.get("options")
            and seats_a == seats_b
            and len(record_a["agents"]) == len(record_b["agents"])
        )
        if not same:
            raise ConfigError(
                "records",
                f"game {index} is not the same game in {path_a} line {line_a} and "
                f"{path_b} line {line_b} (setup seed, options or the compared agents' "
                f"seats differ)",
            )
        won_a = winner_of(record_a["returns"]) in seats_a
        won_b = winner_of(record_b["returns"]) in seats_b
        wins_a += won_a
        wins_b += won_b
        only_a += won_a and not won_b
        only_b += won_b and not won_a
    return PairedResult(
        len(common), Side(str(path_a), agent_a, wins_a), Side(str(path_b), agent_b, wins_b), only_a, only_b
    )

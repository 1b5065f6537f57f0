"""Figures of any set of games: win rate by seat, game lengths, what was played, and whatever the game
reports of its finished positions (``State.summary()``; Catan: turns, dice rolls, each seat's points in all
and by source, each seat's production).

Each game is first reduced to its *facts* (``game_facts``: returns, decisions, action kinds in all and by
seat, summary, and the agent in each seat where known), which tournaments store with their results and records
give back by replay; ``collect`` gathers the facts of many games into raw distributions for tables and plots,
and, where the agents are known, the same figures for each agent over the seats it held (``AgentFigures``:
how two agents play differently, e.g. which one builds more). In a summary, a number is one value per game; a list is
one value per seat, split into the winner's and the others'; a list of dicts is one breakdown per seat, of
which the winners' is reported. A game's winner is the one seat with the highest return; games where several
seats share the top return have no winner and are left out of the winner/loser splits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardzero.core.api import CHANCE, Game
from boardzero.eval.stats import wilson_interval
from boardzero.play.session import GameSession


def game_facts(game: Game, played: GameSession, agents: list[str] | None = None) -> dict[str, Any]:
    """What a finished game (its session, played or replayed) leaves for the figures (JSON-ready);
    ``agents``: the agent of each seat."""
    by_seat = [Counter() for _ in range(game.num_players)]
    for player, action in played.moves:
        if player != CHANCE:
            by_seat[player][game.action_fields(action)["kind"]] += 1
    kinds = sum(by_seat, Counter())
    facts = {
        "returns": played.state.returns().tolist(),
        "decisions": played.decisions,
        "actions": dict(sorted(kinds.items())),
        "seat_actions": [dict(sorted(c.items())) for c in by_seat],
        "summary": played.state.summary(),
    }
    if agents is not None:
        facts["agents"] = list(agents)
    return facts


def winner_of(returns: list[float]) -> int | None:
    """The one seat with the highest return, or None when the top is shared."""
    values = np.asarray(returns, dtype=np.float64)
    leaders = np.flatnonzero(values == values.max())
    return int(leaders[0]) if len(leaders) == 1 else None


@dataclass
class AgentFigures:
    """One agent over the seats it held: wins, the actions it chose, and its seat's share of the summary."""

    seats: int = 0  # seats held (a game where it held two seats counts twice)
    wins: int = 0  # seats that won alone
    actions: Counter = field(default_factory=Counter)  # action kind -> times this agent chose it
    numbers: dict[str, list[float]] = field(default_factory=dict)  # per-seat summary (and its parts) -> values

    def add(self, seat: int, won: bool, actions: dict[str, int] | None, summary: dict[str, Any]) -> None:
        self.seats += 1
        self.wins += won
        self.actions.update(actions or {})
        for key, value in summary.items():
            if not isinstance(value, list) or len(value) <= seat:
                continue
            mine = value[seat]
            if isinstance(mine, (int, float)):
                self.numbers.setdefault(key, []).append(float(mine))
            elif isinstance(mine, dict):
                for part, amount in mine.items():
                    self.numbers.setdefault(f"{key}: {part}", []).append(float(amount))

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "wins": self.wins,
            "win_rate": self.wins / self.seats,
            "ci95": list(wilson_interval(self.wins, self.seats)),
            "actions_per_game": {kind: count / self.seats for kind, count in sorted(self.actions.items())},
            "means": {key: float(np.mean(values)) for key, values in self.numbers.items()},
        }


@dataclass
class GameFigures:
    """Raw distributions over a set of games (see the module docstring)."""

    games: int = 0
    seat_wins: Counter = field(default_factory=Counter)  # seat -> games it won alone
    seat_games: Counter = field(default_factory=Counter)  # seat -> games that had that seat
    undecided: int = 0  # games with a shared top return
    lengths: list[int] = field(default_factory=list)  # decisions per game
    per_game: dict[str, list[float]] = field(default_factory=dict)  # summary number -> value per game
    winners: dict[str, list[float]] = field(default_factory=dict)  # per-seat summary -> the winners' values
    losers: dict[str, list[float]] = field(default_factory=dict)  # per-seat summary -> the other seats' values
    winner_parts: dict[str, dict[str, list[float]]] = field(default_factory=dict)  # breakdown -> part -> winners'
    actions: Counter = field(default_factory=Counter)  # action kind -> times played
    by_agent: dict[str, AgentFigures] = field(default_factory=dict)  # where the facts name the agents

    def add(self, facts: dict[str, Any]) -> None:
        returns = facts["returns"]
        winner = winner_of(returns)
        self.games += 1
        self.undecided += winner is None
        for seat in range(len(returns)):
            self.seat_games[seat] += 1
            self.seat_wins[seat] += seat == winner
        self.lengths.append(int(facts["decisions"]))
        self.actions.update(facts.get("actions", {}))
        for key, value in facts.get("summary", {}).items():
            self._add_summary(key, value, winner)
        seat_actions = facts.get("seat_actions") or [None] * len(returns)
        for seat, agent in enumerate(facts.get("agents") or []):
            self.by_agent.setdefault(agent, AgentFigures()).add(
                seat, seat == winner, seat_actions[seat], facts.get("summary", {})
            )

    def _add_summary(self, key: str, value: Any, winner: int | None) -> None:
        if isinstance(value, (int, float)):
            self.per_game.setdefault(key, []).append(float(value))
        elif isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
            winners, losers = self.winners.setdefault(key, []), self.losers.setdefault(key, [])
            if winner is not None:
                winners.append(float(value[winner]))
                losers.extend(float(v) for seat, v in enumerate(value) if seat != winner)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            parts = self.winner_parts.setdefault(key, {})
            if winner is not None:
                for part, amount in value[winner].items():
                    parts.setdefault(part, []).append(float(amount))

    def seat_rows(self) -> list[dict[str, Any]]:
        """Win rate of each seat with its 95 % Wilson interval."""
        rows = []
        for seat in sorted(self.seat_games):
            wins, games = self.seat_wins[seat], self.seat_games[seat]
            rows.append(
                {
                    "seat": seat,
                    "games": games,
                    "wins": wins,
                    "win_rate": wins / games,
                    "ci95": list(wilson_interval(wins, games)),
                }
            )
        return rows

    def to_dict(self) -> dict[str, Any]:
        """The figures as summary statistics (JSON-ready)."""
        total_actions = sum(self.actions.values())
        return {
            "games": self.games,
            "undecided": self.undecided,
            "win_rate_by_seat": self.seat_rows(),
            "decisions": describe(self.lengths),
            "per_game": {key: describe(values) for key, values in self.per_game.items()},
            "winners": {key: describe(values) for key, values in self.winners.items()},
            "losers": {key: describe(values) for key, values in self.losers.items()},
            "winner_parts": {
                key: {part: float(np.mean(v)) for part, v in parts.items()}
                for key, parts in self.winner_parts.items()
                if parts
            },
            "actions": {
                kind: {"total": count, "per_game": count / self.games, "share": count / total_actions}
                for kind, count in self.actions.most_common()
            },
            "by_agent": {agent: figures.to_dict() for agent, figures in self.by_agent.items()},
        }


def collect(facts: Iterable[dict[str, Any]]) -> GameFigures:
    figures = GameFigures()
    for one in facts:
        figures.add(one)
    return figures


def describe(values: list[float]) -> dict[str, float]:
    """Mean, standard deviation, quartiles and range of a list of numbers (empty: only the count)."""
    if not values:
        return {"count": 0}
    data = np.asarray(values, dtype=np.float64)
    low, q1, median, q3, high = np.percentile(data, [0, 25, 50, 75, 100])
    return {
        "count": len(data),
        "mean": float(data.mean()),
        "sd": float(data.std()),
        "min": float(low),
        "q1": float(q1),
        "median": float(median),
        "q3": float(q3),
        "max": float(high),
    }


def figures_markdown(figures: GameFigures) -> str:
    """The figures as Markdown tables (also readable as plain text in a terminal)."""
    data = figures.to_dict()
    lines = [
        f"{data['games']} games" + (f", {data['undecided']} without a single winner" if data["undecided"] else ""),
        "",
        "| seat | games | wins | win % | 95 % interval |",
        "|---:|---:|---:|---:|---|",
    ]
    for row in data["win_rate_by_seat"]:
        low, high = row["ci95"]
        lines.append(
            f"| {row['seat'] + 1} | {row['games']} | {row['wins']} | {100 * row['win_rate']:.1f} "
            f"| {100 * low:.1f}–{100 * high:.1f} |"
        )
    lines += ["", "| per game | mean | sd | min | median | max |", "|---|---:|---:|---:|---:|---:|"]
    numbers = {
        "decisions (player actions)": data["decisions"],
        **data["per_game"],
        **{f"{key}, winner": v for key, v in data["winners"].items()},
        **{f"{key}, other seats": v for key, v in data["losers"].items()},
    }
    for name, stats in numbers.items():
        if stats.get("count"):
            lines.append(
                f"| {name} | {stats['mean']:.1f} | {stats['sd']:.1f} | {stats['min']:.0f} "
                f"| {stats['median']:.0f} | {stats['max']:.0f} |"
            )
    for key, parts in data["winner_parts"].items():
        total = sum(parts.values()) or 1.0
        lines += ["", f"| winners' {key} | mean | share |", "|---|---:|---:|"]
        lines += [f"| {part} | {mean:.2f} | {100 * mean / total:.1f} % |" for part, mean in parts.items()]
    lines += ["", "| action kind | per game | share |", "|---|---:|---:|"]
    lines += [
        f"| {kind} | {row['per_game']:.1f} | {100 * row['share']:.1f} % |" for kind, row in data["actions"].items()
    ]
    if data["by_agent"]:
        lines += ["", *agents_markdown(data["by_agent"])]
    return "\n".join(lines)


def agents_markdown(by_agent: dict[str, dict[str, Any]]) -> list[str]:
    """One column per agent: its seats and wins, then per seat it held the summary's means and each action kind."""
    agents = list(by_agent)
    rows = [
        ["seats held"] + [str(by_agent[a]["seats"]) for a in agents],
        ["wins alone"]
        + [
            f"{100 * by_agent[a]['win_rate']:.1f} % [{100 * by_agent[a]['ci95'][0]:.1f}, "
            f"{100 * by_agent[a]['ci95'][1]:.1f}]"
            for a in agents
        ],
    ]
    keys = list(dict.fromkeys(key for a in agents for key in by_agent[a]["means"]))
    rows += [
        [f"{key}, mean"] + [f"{by_agent[a]['means'][key]:.2f}" if key in by_agent[a]["means"] else "" for a in agents]
        for key in keys
    ]
    kinds = sorted({kind for a in agents for kind in by_agent[a]["actions_per_game"]})
    rows += [
        [f"{kind}, per game"] + [f"{by_agent[a]['actions_per_game'].get(kind, 0.0):.2f}" for a in agents]
        for kind in kinds
    ]
    names = [a.replace("|", "\\|") for a in agents]
    return ["| by agent (per seat held) | " + " | ".join(names) + " |", "|---|" + "---:|" * len(agents)] + [
        "| " + " | ".join(row) + " |" for row in rows
    ]

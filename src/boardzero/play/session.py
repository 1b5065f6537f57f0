"""A game between people and agents, driven one decision at a time (no blocking loop).

A ``GameSession`` holds the true state, and every game boardzero plays goes
through one: the terminal, the web server, and the match runner
(``play.runner``) behind the arena, tournaments and training's evaluations.
Whoever drives it asks ``pending()`` who decides next: a person's seat waits
for ``play(seat, action)``; an agent's seat or a chance node is advanced by
``step()``, or in two halves, ``choose()`` (slow, reads a copy, may run in a
worker thread) and ``apply(action)``, so a server never holds its lock while
an agent thinks; ``advance()`` steps until a person is to move or the game ends.

Common random numbers: a chance outcome comes from the game's own stream,
one uniform number keyed by the seed, the outcome's lane (``State.chance_lane``:
Catan's dice in one, cards drawn and steals in another) and the count of
outcomes drawn in that lane so far (``core.chance.keyed_uniform``, a hash: no
generator is built), whatever the agents drew or did before it. So two games
with the same seed roll the same k-th dice, even between different agents and
when one game made more moves or drew a card more (keyed by the ply instead,
one extra road shifted every later roll: ``bench/paired_chance.py``). The agents draw from a
generator seeded by ``(seed, ply)`` (a session rebuilt from its record, ``play.records.replay``,
goes on the same way), or from one ``agent_rng`` for the whole game where the
match runner gives one.

The log keeps one entry per applied action with its text for those who may
see it and, for a hidden chance outcome (a card drawn or stolen), the text for
everyone else; ``log_for(seat)`` gives what a seat may read. A session that
keeps no log (``keep_log=False``, the match runner's games) still keeps every
(player, action) step in ``moves``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.api import CHANCE, TERMINAL, Game, State
from boardzero.core.chance import chance_key, keyed_chance
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.view import SeatView, view_for

HUMAN = "human"  # the seat spec of a person
# tried in order when no opponent is asked for: the shipped model, then the Catan bot, then plain search
OPPONENT_FALLBACKS = ("best", "heuristic", "mcts:sims=400")
HINT_FALLBACKS = ("best", "mcts:sims=200")


class NotYourTurnError(IllegalActionError):
    """A seat tried to act when another seat (or chance) is to move."""


@dataclass(frozen=True)
class Pending:
    kind: str  # "human", "agent", "chance" or "over"
    seat: int | None  # the seat to move (None for chance and at the end)


_OVER, _CHANCE = Pending("over", None), Pending("chance", None)


@dataclass(frozen=True)
class LogEntry:
    ply: int  # index in the state's history
    actor: int  # seat, or CHANCE
    action: int
    text: str  # the step as its actor saw it: a move's effect (``State.describe_step``), a chance outcome's name
    seen_by: tuple[int, ...] | None  # seats that may see it; None: everyone
    hidden_text: str | None = None  # what the others are told (hidden chance outcomes only)

    def visible_to(self, seat: int | None) -> bool:
        return self.seen_by is None or seat in self.seen_by

    def for_viewer(self, seat: int | None, reveal: bool = False) -> dict:
        """JSON-ready entry as ``seat`` (None: a spectator) may read it; ``reveal`` shows everything."""
        shown = reveal or self.visible_to(seat)
        return {
            "ply": self.ply,
            "actor": self.actor if self.actor >= 0 else None,
            "action": self.action if shown else None,
            "text": self.text if shown else self.hidden_text,
        }


def _own_words(line: str, actor: int) -> str:
    """A seat's step as its log entry says it: what the step did (the cards a trade moved, what a monopoly took),
    without the leading "seat N" of the actor the entry already names."""
    prefix = f"seat {actor} "
    return line[len(prefix) :] if line.startswith(prefix) else line


def agent_for(game: Game, preferred: str | None, fallbacks: Iterable[str]) -> tuple[str, Agent]:
    """The first of ``preferred`` and ``fallbacks`` that builds an agent for ``game`` (a shipped model
    exists, a bot plays that game), with its spec; ``preferred`` that fails raises its error."""
    if preferred:
        return preferred, make_agent(preferred, game)
    problems = []
    for spec in fallbacks:
        try:
            return spec, make_agent(spec, game)
        except ConfigError as exc:
            problems.append(str(exc))
    raise ConfigError("agent", f"no agent plays {game.name}: {'; '.join(problems)}")


def win_chances(game: Game, values: np.ndarray) -> list[float]:
    """Expected returns as a 0..1 chance to win: scaled by the game's return bounds (a draw counts half),
    else clipped to 0..1 (returns of 1 for a win and 0 otherwise, as Catan's default)."""
    values = np.asarray(values, np.float64)
    if game.return_bounds is not None:
        low, high = game.return_bounds
        values = (values - low) / (high - low)
    return [float(v) for v in np.clip(values, 0.0, 1.0)]


def _possible(state: State, action: int) -> bool:
    player = state.current_player
    if player == CHANCE:
        return any(o == action and p > 0 for o, p in state.chance_outcomes())
    return player >= 0 and 0 <= action < state.game.num_actions and bool(state.legal_mask()[action])


class GameSession:
    """One game: seat specs (``HUMAN`` or an agent spec), a seed, and the actions so far."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        *,
        seed: int | None,
        with_agents: bool = True,
        agents: Mapping[int, Agent] | None = None,
        agent_rng: np.random.Generator | None = None,
        keep_log: bool = True,
    ):
        """``seats``: ``HUMAN`` or an agent spec per seat (only labels when not ``with_agents``, as for
        replaying a record); ``seed`` fixes the setup and, with the ply, every chance outcome and agent rng.
        ``agents``: agents already built for some seats (the match runner's, kept between games), used as
        they are; ``agent_rng``: the one stream every agent draws from instead of ``(seed, ply)``;
        ``keep_log``: False keeps only ``moves`` (no texts), for games nobody reads move by move."""
        if len(seats) != game.num_players:
            raise ConfigError("seats", f"{game.name} with these options has {game.num_players} seats, got {len(seats)}")
        if seed is not None and (not isinstance(seed, int) or seed < 0):
            raise ConfigError("seed", f"must be a non-negative integer, got {seed!r}")
        self.game = game
        self.seats = list(seats)
        self.seed = seed
        given = dict(agents or {})
        self.agents: dict[int, Agent] = {
            i: given[i] if i in given else make_agent(spec, game)
            for i, spec in enumerate(seats)
            if spec != HUMAN and (with_agents or i in given)
        }
        self.agent_rng = agent_rng
        self.keep_log = keep_log
        # one Pending per kind and seat, made once (pending() is asked before every step)
        self._pendings = {kind: [Pending(kind, i) for i in range(game.num_players)] for kind in (HUMAN, "agent")}
        self.state: State = game.new_state(seed=seed)
        self.log: list[LogEntry] = []
        self.moves: list[tuple[int, int]] = []  # (player, action) per step, CHANCE as the player of chance outcomes
        self.drawn: dict[int, int] = {}  # chance outcomes drawn so far, by lane

    # ------------------------------------------------------------------ who moves
    def pending(self) -> Pending:
        player = self.state.current_player
        if player == TERMINAL:  # is_terminal(), read once (pending() is asked before every step)
            return _OVER
        if player == CHANCE:
            return _CHANCE
        return self._pendings[HUMAN if self.seats[player] == HUMAN else "agent"][player]

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def actions(self) -> list[int]:
        return [action for _, action in self.moves]

    @property
    def decisions(self) -> int:
        """Player actions (chance outcomes not counted)."""
        return sum(player != CHANCE for player, _ in self.moves)

    def rng(self, ply: int | None = None) -> np.random.Generator:
        """The rng of a ply's agent decision (or a hint, or a move made for a seat): fixed by the seed and the
        ply. Chance outcomes do not use it: they come from ``keyed_uniform`` (the module's docstring)."""
        return np.random.default_rng([self.seed or 0, self.ply if ply is None else ply])

    # ------------------------------------------------------------------ moving
    def play(self, seat: int, action: int) -> LogEntry | None:
        """A person's move for ``seat``; raises (changing nothing) when it is not theirs to make or illegal.
        Returns its log entry (None when keeping no log)."""
        if not 0 <= seat < self.game.num_players:
            raise ConfigError("seat", f"{self.game.name} has seats 0..{self.game.num_players - 1}, got {seat}")
        if self.seats[seat] != HUMAN:
            raise NotYourTurnError(action, f"seat {seat} is played by {self.seats[seat]}, not by a person")
        pending = self.pending()
        if pending.seat != seat:
            whom = {"over": "the game is over", "chance": "a chance outcome is due"}.get(
                pending.kind, f"seat {pending.seat} is to move"
            )
            raise NotYourTurnError(action, f"not seat {seat}'s turn: {whom}")
        return self.apply(action)

    def choose(self) -> int:
        """The next chance outcome or agent decision (from a copy of the state; nothing changes)."""
        return self._choose(self.pending(), copy=True)

    def _choose(self, pending: Pending, copy: bool) -> int:
        if pending.kind == "chance":
            lane = self.state.chance_lane()
            return int(keyed_chance(self.state, self.seed or 0, chance_key(lane, self.drawn.get(lane, 0))))
        seat = pending.seat
        agent = self.agents.get(seat) if pending.kind == "agent" and seat is not None else None
        if agent is None or seat is None:
            raise NotYourTurnError(-1, f"no automatic move: {pending.kind} to move")
        # choose() may run in a thread while the state moves on, so it reads a copy; a step reads the state
        view = view_for(self.state.clone() if copy else self.state, seat, getattr(agent, "full_sight", False))
        return int(agent.act(view, self.agent_rng if self.agent_rng is not None else self.rng()))

    def step(self, on_step: Callable[[State, int, int], None] | None = None) -> LogEntry | None:
        """Apply the next chance outcome or agent decision (its log entry; None when keeping no log);
        ``on_step(position before, player, action)`` is called before it is applied."""
        return self._step(self.pending(), on_step)

    def _step(self, pending: Pending, on_step: Callable[[State, int, int], None] | None) -> LogEntry | None:
        action = self._choose(pending, copy=False)  # chosen and applied in this one call
        actor = CHANCE if pending.seat is None else pending.seat
        if on_step is not None:
            on_step(self.state, actor, action)
        return self._apply(action, actor)

    def advance(self, max_steps: int = 1_000_000, on_step: Callable[[State, int, int], None] | None = None) -> int:
        """Step until a person is to move or the game ends; returns the steps taken."""
        steps = 0
        while steps < max_steps:
            pending = self.pending()
            if pending.kind != "agent" and pending.kind != "chance":
                break
            self._step(pending, on_step)
            steps += 1
        return steps

    def apply(self, action: int) -> LogEntry | None:
        """Apply any legal action or outcome (no seat check) and log it; raises IllegalActionError, changing
        nothing, otherwise. Returns the log entry (None when keeping no log)."""
        action = int(action)
        if not _possible(self.state, action):
            self.state.apply(action)  # raises the game's IllegalActionError with its reason
            raise IllegalActionError(action, "not possible here")  # pragma: no cover - apply raised
        return self._apply(action, self.state.current_player)

    def _apply(self, action: int, actor: int) -> LogEntry | None:
        """Apply an action the state itself checks (a chance draw or an agent's choice) of ``actor`` (the
        current player)."""
        state = self.state
        action = int(action)
        if actor == CHANCE:
            lane = state.chance_lane()
            self.drawn[lane] = self.drawn.get(lane, 0) + 1
        if not self.keep_log:
            state.apply(action)
            self.moves.append((actor, action))
            return None
        text = state.action_name(action) if actor == CHANCE else _own_words(state.describe_step(action), actor)
        hidden_text = state.hidden_name(action) if actor == CHANCE and self.game.has_hidden_information else None
        state.apply(action)
        self.moves.append((actor, action))
        seen_by = state.last_seen_by() if self.game.has_hidden_information else None
        entry = LogEntry(len(self.log), actor, action, text, seen_by, hidden_text if seen_by is not None else None)
        self.log.append(entry)
        return entry

    # ------------------------------------------------------------------ reading
    def view(self, seat: int | None) -> dict:
        """The public view of ``seat`` (None: a spectator)."""
        return self.state.public_view(seat)

    def legal_moves(self, seat: int) -> list[dict]:
        """``seat``'s legal moves with names and parts, when it is that seat's turn; else none."""
        if self.state.current_player != seat:
            return []
        return [
            {"action": int(a), "name": self.state.action_name(int(a)), **self.game.action_fields(int(a))}
            for a in self.state.legal_actions()
        ]

    def log_for(self, seat: int | None, since: int = 0) -> list[dict]:
        """Log entries from ``since`` as ``seat`` may read them (all revealed once the game is over)."""
        over = self.state.is_terminal()
        return [entry.for_viewer(seat, over) for entry in self.log[since:]]

    def seat_view(self, seat: int) -> SeatView:
        """``seat``'s view of a copy of the position (safe to read while the game goes on)."""
        return SeatView(self.state.clone(), seat)

    def record(self) -> dict:
        """The replayable record (setup seed + every action), with the seat specs."""
        return {**self.state.to_record(), "seats": list(self.seats)}

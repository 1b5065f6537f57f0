"""catanatron's bots as boardzero agents: ``catanatron:alphabeta``, ``catanatron:value``,
``catanatron:random``, ``catanatron:weighted``.

At each decision the bot gets a catanatron ``Game`` of the position (``position``)
and its choice comes back as boardzero action ids (``actions``). Fair by default:
the position is ``view.sample_state(rng)``, the seat's knowledge with every hidden
card redrawn, so a hidden card cannot sway the bot. ``sight=full`` shows it the
true state instead, as catanatron does in its own games: the agent then declares
``full_sight`` and the match runner hands it a ``FullSightView`` (core/view.py).
catanatron's bots draw from Python's global ``random``; the bridge seeds it from
the game's generator for each decision and puts the caller's state back after.
"""

from __future__ import annotations

import importlib
import random
import time
from importlib.metadata import version

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.games.catan.actions import action_id
from boardzero.integrations.catanatron.actions import RANDOM_DISCARD, to_boardzero
from boardzero.integrations.catanatron.position import COLORS, PROMPTS, catanatron_game

# name -> (module, class, what it is)
BOTS = {
    "random": ("catanatron.models.player", "RandomPlayer", "uniformly random playable action"),
    "weighted": (
        "catanatron.players.weighted_random",
        "WeightedRandomPlayer",
        "random, weighted towards cities, settlements and development cards",
    ),
    "value": ("catanatron.players.value", "ValueFunctionPlayer", "one-ply search on a hand-tuned value function"),
    "alphabeta": (
        "catanatron.players.minimax",
        "AlphaBetaPlayer",
        "expectiminimax with alpha-beta cut-offs to a depth (2 by default) on the same value function",
    ),
}
INSTALL_HINT = (
    "catanatron's AlphaBeta and ValueFunction bots need catanatron 3.3 or later, which is not on the "
    "package registry (its newest there is 3.2.1); build it from github.com/bcollazo/catanatron or "
    "install the wheel shipped beside boardzero: pip install ../shared/wheels/catanatron-3.3.0-py3-none-any.whl"
)

TRADING_REFUSED = (
    "catanatron's bots do not trade with other players (catanatron has no player-to-player trading), "
    "so they cannot play a game with trading=true; play them with trading off (the default)"
)


def catanatron_version() -> str:
    return version("catanatron")


def available_bots() -> dict[str, bool]:
    """Which catanatron bots this install has."""
    return {name: _bot_class(name, check_only=True) is not None for name in BOTS}


def _bot_class(name: str, check_only: bool = False):
    module, cls, _ = BOTS[name]
    try:
        return getattr(importlib.import_module(module), cls)
    except (ImportError, AttributeError):
        if check_only:
            return None
        raise ConfigError(
            f"agent catanatron.{name}", f"catanatron {catanatron_version()} has no {cls} bot; " + INSTALL_HINT
        ) from None


class CatanatronAgent(Agent):
    """A catanatron bot playing one seat of a boardzero Catan game."""

    def __init__(
        self,
        game: Game,
        bot: str = "alphabeta",
        *,
        sight: str = "fair",
        depth: int = 2,
        pruning: bool = False,
        epsilon: float | None = None,
    ):
        """bot: random, weighted, value or alphabeta; sight: fair (hidden cards sampled from the seat's
        knowledge) or full (the true state, as inside catanatron); depth: alphabeta's search depth;
        pruning: alphabeta's action pruning; epsilon: chance of a random move (value, alphabeta)."""
        if getattr(game, "name", None) != "catan":
            raise ConfigError("agent catanatron", f"catanatron's bots play Catan only, not {game.name}")
        if getattr(game.options, "trading", False):
            raise ConfigError("agent catanatron", TRADING_REFUSED)
        if bot not in BOTS:
            raise ConfigError("agent catanatron", f"unknown bot {bot!r}; bots: {', '.join(BOTS)}")
        if sight not in ("fair", "full"):
            raise ConfigError("agent catanatron.sight", f"{sight!r} is not allowed; allowed: fair, full")
        if depth < 1:
            raise ConfigError("agent catanatron.depth", f"must be at least 1, got {depth}")
        self.game = game
        self.bot = bot
        self.full_sight = sight == "full"
        self._cls = _bot_class(bot)
        self._options = {"depth": depth, "prunning": pruning} if bot == "alphabeta" else {}
        if bot in ("value", "alphabeta") and epsilon is not None:
            self._options["epsilon"] = epsilon
        self._players = {}
        self._plan: list[int] = []
        self.decisions = 0  # decisions the bot was asked for (forced moves and plan steps not counted)
        self.seconds = 0.0  # time spent in those decisions, translation included
        self.bot_seconds = 0.0  # of which inside the bot's own decide()
        self.fallbacks = 0  # choices that did not map to a legal boardzero action (a random legal one was played)

    def reset(self) -> None:
        self._plan = []

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return int(legal[0])
        if self._plan and self._plan[0] in legal:
            return self._plan.pop(0)
        start = time.perf_counter()
        state = view.true_state() if self.full_sight else view.sample_state(rng)
        public = state.public_view(view.seat)
        if public["phase"] not in PROMPTS:  # a step catanatron has no prompt for, and no plan from the step before
            self.fallbacks += 1
            return int(legal[rng.integers(len(legal))])
        game = catanatron_game(state, rng, legal, public)
        allowed = set(legal.tolist()) | ({RANDOM_DISCARD} if public["phase"] == "discard" else set())
        playable = [a for a in game.playable_actions if _first_step(a, public["phase"]) in allowed]
        if not playable:  # nothing catanatron offers is legal here
            self.fallbacks += 1
            return int(legal[rng.integers(len(legal))])
        game.playable_actions = game.state.playable_actions = playable
        player = self._player(view.seat)
        saved = random.getstate()
        random.seed(int(rng.integers(2**63)))
        try:
            begin = time.perf_counter()
            choice = player.decide(game, game.playable_actions)
            self.bot_seconds += time.perf_counter() - begin
        finally:
            random.setstate(saved)
        plan = self._plan_of(choice, state, public["phase"], view.seat, rng)
        self.decisions += 1
        self.seconds += time.perf_counter() - start
        if not plan or plan[0] not in legal:
            self.fallbacks += 1
            self._plan = []
            return int(legal[rng.integers(len(legal))])
        self._plan = plan[1:]
        return plan[0]

    def _player(self, seat: int):
        if seat not in self._players:
            self._players[seat] = self._cls(COLORS[seat], **self._options)
        return self._players[seat]

    def _plan_of(self, choice, state, phase: str, seat: int, rng: np.random.Generator) -> list[int]:
        plan = to_boardzero(choice)
        if choice.action_type.name == "MOVE_ROBBER" and phase == "victim":
            plan = plan[1:]  # the robber is already on that hex: only the victim is open
        if plan == [RANDOM_DISCARD]:  # catanatron < 3.3: discard half the hand at random, card by card here
            hand = state.public_view(seat)["seats"][seat]["hand"]
            cards = [r for r, k in enumerate(hand.values()) for _ in range(k)]
            return [action_id("discard", resource=int(cards[rng.integers(len(cards))]))]
        return plan


def _first_step(action, phase: str):
    """The boardzero id an action of catanatron's starts with (the victim when the robber already moved)."""
    plan = to_boardzero(action)
    return plan[1] if action.action_type.name == "MOVE_ROBBER" and phase == "victim" else plan[0]


def catanatron_agent(
    game: Game,
    bot: str = "alphabeta",
    *,
    sight: str = "fair",
    depth: int = 2,
    pruning: bool = False,
    epsilon: float | None = None,
) -> CatanatronAgent:
    """One of catanatron's bots playing a boardzero game of Catan (the catanatron extra), fair by default.

    bot: alphabeta, value, random or weighted
    sight: fair (the others' hidden cards drawn to fit what the seat knows) or full (the true state, as inside catanatron)
    depth: alphabeta's search depth in plies
    pruning: alphabeta's pruning of moves it considers weak
    epsilon: value's share of random moves (none: always its best)
    """
    return CatanatronAgent(game, bot, sight=sight, depth=depth, pruning=pruning, epsilon=epsilon)

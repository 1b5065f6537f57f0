"""boardzero agents as catanatron players, in catanatron's own games.

    from catanatron import Color, RandomPlayer
    from catanatron.players.minimax import AlphaBetaPlayer
    from boardzero.integrations.catanatron import BoardzeroPlayer, new_game
    game = new_game([BoardzeroPlayer(Color.RED, "heuristic"), AlphaBetaPlayer(Color.BLUE)], seed=7)
    winner = game.play()                       # catanatron's rules and game loop

``new_game`` builds a catanatron game on a board both engines can hold:
boardzero's random board of ``seed`` (terrain, numbers and its harbour places).
A ``BoardzeroPlayer`` keeps a boardzero copy of the game (its *shadow*) by
replaying catanatron's action log (actions with their dice, drawn cards and
stolen cards), and asks its agent through an ordinary ``SeatView`` of that copy,
so the agent sees only what its seat may know although catanatron hands every
player the whole game. The agent's choice becomes catanatron's action; steps
catanatron takes in one action (robber and victim, both year-of-plenty cards)
are asked of the agent one after the other on a copy of the shadow.

Where the rules differ (docs/catanatron.md) the shadow is brought back in line:
hands are compared with catanatron's after every replayed action and corrected
(``resyncs`` counts it); a road catanatron lets a seat build on past an
opponent's settlement is put on the shadow's board all the same
(``foreign_roads``); a discard catanatron asks for before boardzero's order
would and a decision after the shadow has ended take a fixed rule
(``fallbacks``). Needs catanatron 3.3 or later (its action log with results).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from catanatron.game import Game
from catanatron.models import enums
from catanatron.models.player import Player

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.api import CHANCE
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import view_for
from boardzero.games.catan.actions import action_id
from boardzero.games.catan.topology import EDGE_NODES, NUM_EDGES
from boardzero.integrations.catanatron.actions import record_steps, to_boardzero
from boardzero.integrations.catanatron.board import RESOURCES, catan_map
from boardzero.integrations.catanatron.bots import INSTALL_HINT, catanatron_version

BOARD_SEED = "boardzero_board_seed"  # attribute new_game sets on the catanatron Game


def shadow_game(players: int, vps_to_win: int):
    """The boardzero game a catanatron game is mirrored in (random boards, no turn cap: catanatron has its own)."""
    return make("catan", players=players, vp_to_win=vps_to_win, turn_limit=0, board="random")


def new_game(players: list[Player], *, seed: int, vps_to_win: int = 10, **options: Any) -> Game:
    """A catanatron Game on boardzero's random board of ``seed`` (``options`` go to catanatron's Game)."""
    board = shadow_game(len(players), vps_to_win).board(seed)
    game = Game(
        players,
        seed=seed,
        vps_to_win=vps_to_win,
        catan_map=catan_map(board.hex_resource, board.hex_number, board.harbours),
        **options,
    )
    setattr(game, BOARD_SEED, seed)
    return game


class BoardzeroPlayer(Player):
    """A catanatron player whose decisions come from a boardzero agent (an agent or a spec string)."""

    def __init__(self, color, agent: str | Agent = "heuristic", *, seed: int = 0):
        super().__init__(color, is_bot=True)
        if not hasattr(enums, "ActionRecord"):
            raise ConfigError(
                "catanatron",
                f"BoardzeroPlayer needs catanatron 3.3 or later, found {catanatron_version()}; " + INSTALL_HINT,
            )
        self.agent_spec = agent
        self.agent: Agent | None = agent if isinstance(agent, Agent) else None
        self.rng = np.random.default_rng(seed)
        self.shadow = None
        self._game_id = None
        self._replayed = 0
        self._queued: list = []  # discards catanatron made before boardzero's order reached them
        self.decisions = 0
        self.fallbacks = 0  # decisions taken by a fixed rule because the shadow could not ask the agent
        self.resyncs = 0  # hands corrected after a rules difference (e.g. the bank running short)
        self.foreign_roads = 0  # roads past an opponent's settlement: catanatron builds them, boardzero never

    def reset_state(self) -> None:
        self.shadow, self._game_id = None, None

    # ------------------------------------------------------------------ catanatron's Player API
    def decide(self, game: Game, playable_actions):
        self.follow(game)
        self.decisions += 1
        colors = game.state.colors
        seat = colors.index(self.color)
        if self.shadow.current_player != seat:
            return self._fallback(game, playable_actions)
        plan = self._agent_plan(seat)
        for action in playable_actions:
            if _same_plan(to_boardzero(action, colors), plan):
                return action
        return self._fallback(game, playable_actions)

    # ------------------------------------------------------------------ the shadow
    def follow(self, game: Game) -> None:
        """Bring the shadow up to date with catanatron's log."""
        if self._game_id != game.id:
            self._start(game)
        records = game.state.action_records
        for record in records[self._replayed :]:
            self._replay(record.action, record.result, game.state.colors)
        self._replayed = len(records)
        if not self._queued:  # mid-way through a discard round the hands legitimately differ
            self._resync(game)

    def _start(self, game: Game) -> None:
        if not hasattr(game, BOARD_SEED):
            raise ConfigError(
                "catanatron game",
                "a BoardzeroPlayer plays games made by "
                "boardzero.integrations.catanatron.new_game (a board both engines hold)",
            )
        n = len(game.state.colors)
        self.shadow = shadow_game(n, game.vps_to_win).new_state(seed=getattr(game, BOARD_SEED))
        if not isinstance(self.agent_spec, Agent):  # built per game: the number of players may change
            self.agent = make_agent(self.agent_spec, self.shadow.game)
        self.agent.reset()
        self._game_id, self._replayed, self._queued = game.id, 0, []

    def _replay(self, action, result, colors) -> None:
        if self.shadow.is_terminal():
            return
        if action.action_type.name == "DISCARD_RESOURCE" and self.shadow.current_player != colors.index(action.color):
            self._queued.append((action, result))
            return
        for step, a in record_steps(action, result, colors):
            if step == "rob" and a not in self.shadow.legal_actions():  # one seat to rob: boardzero does not ask
                continue
            if step == "chance" and self.shadow.current_player != CHANCE:
                continue
            if step == "act" and _past_an_opponent(self.shadow, a) and a not in self.shadow.legal_actions():
                self.shadow.apply_foreign(a)
                self.foreign_roads += 1
                continue
            self.shadow.apply(a)
        for index, (queued, queued_result) in enumerate(self._queued):
            if self.shadow.current_player == colors.index(queued.color):
                del self._queued[index]
                self._replay(queued, queued_result, colors)
                return

    def _resync(self, game: Game) -> None:
        """Correct hands that differ from catanatron's (bank shortages are paid differently)."""
        state = game.state
        for seat, _color in enumerate(state.colors):
            key = f"P{seat}_"
            theirs = [state.player_state[key + r + "_IN_HAND"] for r in RESOURCES]
            ours = self.shadow.hand(seat)
            if list(ours) == theirs:
                continue
            self.resyncs += 1
            self.shadow.set_hand(seat, theirs)

    # ------------------------------------------------------------------ asking the agent
    def _agent_plan(self, seat: int) -> list[int]:
        """The agent's choice, continued on a copy of the shadow through the steps catanatron takes in the
        same action (the victim after the robber's hex, the second year-of-plenty card)."""
        first = self._ask(self.shadow, seat)
        plan = [first]
        if first == action_id("year_of_plenty") or action_id("robber", hex=0) <= first < action_id("rob", seat=0):
            after = self.shadow.clone()
            after.apply(first)
            while after.current_player == seat and _step_kinds(after) & {"rob", "take"}:
                plan.append(self._ask(after, seat))
                after.apply(plan[-1])
            victim = after.public_view(seat)["victim"]
            if after.current_player == CHANCE and victim is not None and len(plan) == 1:
                plan.append(action_id("rob", seat=victim))  # one seat to rob: boardzero needs no choice
        return plan

    def _ask(self, state, seat: int) -> int:
        return int(self.agent.act(view_for(state, seat, getattr(self.agent, "full_sight", False)), self.rng))

    def _fallback(self, game: Game, playable_actions):
        """A fixed rule when the agent cannot be asked: discard from the largest pile, else catanatron's first
        playable action."""
        self.fallbacks += 1
        discards = [a for a in playable_actions if a.action_type.name == "DISCARD_RESOURCE"]
        if discards:
            key = f"P{game.state.colors.index(self.color)}_"
            return max(discards, key=lambda a: game.state.player_state[key + a.value + "_IN_HAND"])
        return playable_actions[0]


def _past_an_opponent(state, action: int) -> bool:
    """Whether ``action`` builds a road on a free path that meets the builder's own road at an opponent's
    settlement or city: catanatron's rules allow it when that building came after the road, boardzero's never."""
    first = action_id("road", edge=0)
    if not first <= action < first + NUM_EDGES or state.current_player < 0:
        return False
    view, e, seat = state.view, action - first, state.current_player
    if view.edge_owners()[e] >= 0:
        return False
    owners = view.node_owners()
    for n in EDGE_NODES[e]:
        owner = owners[n]
        if owner >= 0 and owner != seat and view.node_touches_road(int(n), seat):  # e itself is free
            return True
    return False


def _step_kinds(state) -> set[str]:
    return {state.game.action_fields(a)["kind"] for a in state.legal_actions()}


def _same_plan(theirs: list, ours: list[int]) -> bool:
    """Whether catanatron's action (as boardzero ids) is the agent's plan; year of plenty names its two cards
    in either order."""
    if theirs == ours:
        return True
    yop = action_id("year_of_plenty")
    return bool(theirs) and theirs[0] == yop == ours[0] and sorted(theirs[1:]) == sorted(ours[1:])

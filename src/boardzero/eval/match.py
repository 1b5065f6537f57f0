"""Play one game between agents, sampling chance outcomes with an explicit rng."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import CHANCE, Game, State, sample_chance
from boardzero.core.view import view_for


def play_game(game: Game, agents: Sequence[Agent], rng: np.random.Generator, *, seed: int | None = None,
              on_step: Callable[[State, int, int], None] | None = None, max_steps: int = 1_000_000) -> State:
    """Play to the end; ``agents[seat]`` moves for each seat. Returns the final state.

    ``on_step(state_before, player, action)`` is called before each action is applied.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} agents, got {len(agents)}")
    for agent in agents:
        agent.reset()
    state = game.new_state(seed=seed)
    for _ in range(max_steps):
        player = state.current_player
        if player < 0 and state.is_terminal():
            return state
        if player == CHANCE:
            action = sample_chance(state, rng)
        else:
            agent = agents[player]
            action = agent.act(view_for(state, player, getattr(agent, "full_sight", False)), rng)
        if on_step is not None:
            on_step(state, player, action)
        state.apply(action)
    raise RuntimeError(f"{game.name} did not end within {max_steps} steps")


@dataclass
class PlayedGame:
    state: State  # the final position
    moves: list[tuple[int, int]]  # (player, action) for every step, CHANCE as the player of chance outcomes

    @property
    def decisions(self) -> int:
        """Player actions (chance outcomes not counted)."""
        return sum(player != CHANCE for player, _ in self.moves)


def play_seeded(game: Game, agents: Sequence[Agent], key: Sequence[int]) -> PlayedGame:
    """Play one game whose setup seed and chance draws come from ``key`` alone (e.g. ``(seed, game index)``),
    so a game's result does not depend on which worker plays it or on the games before it."""
    rng = np.random.default_rng(list(key))
    moves: list[tuple[int, int]] = []
    final = play_game(game, agents, rng, seed=int(rng.integers(2**31)),
                      on_step=lambda _state, player, action: moves.append((player, action)))
    return PlayedGame(final, moves)

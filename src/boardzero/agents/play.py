"""Play one game between agents, chance drawn from an explicit rng: the one match runner that every caller
(the arena, tournaments, training's evaluations, the terminal) goes through. It knows only agents and the
Game API, so it sits with the agents, below the layers that use it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from boardzero.agents.base import Agent
from boardzero.core.api import CHANCE, Game, State, sample_chance
from boardzero.core.view import view_for


def play_game(
    game: Game,
    agents: Sequence[Agent],
    rng: np.random.Generator,
    *,
    seed: int | None = None,
    on_step: Callable[[State, int, int], None] | None = None,
    max_steps: int = 1_000_000,
) -> State:
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

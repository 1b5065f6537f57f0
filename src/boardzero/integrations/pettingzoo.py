"""A PettingZoo AEC environment for any registered game.

    from boardzero.integrations.pettingzoo import env
    aec = env("catan", players=4)                 # game options as keywords
    aec.reset(seed=0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, info = aec.last()
        mask = observation["action_mask"]         # int8[num_actions], 1 where legal
        action = None if termination or truncation else aec.action_space(agent).sample(mask)
        aec.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat order). Observations are
``{"observation": float32 array, "action_mask": int8 array}``: the game's own
encoding of what that seat may know (``observation="flat"`` by default; any key of
``game.observation_spec``), and the mask of legal actions, all zeros for a seat that
is not to move. Chance (dice, card draws, steals) is resolved inside the
environment from a generator seeded by ``reset(seed=...)``, so a seed fixes the
whole game for fixed actions. Rewards are the game's returns, paid to every seat
when the game ends; a game that ends by its own rules (Catan's turn cap included)
is a termination, never a truncation. Needs ``pip install 'boardzero[pettingzoo]'``.
"""

from __future__ import annotations

import numpy as np

from boardzero.core.api import State
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.integrations.common import mask_box, observation_box, observation_key, require, resolve_chance

_pettingzoo = require("pettingzoo", "pettingzoo")
_spaces = require("gymnasium.spaces", "pettingzoo")


class BoardzeroAECEnv(_pettingzoo.AECEnv):
    """Any boardzero game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "boardzero_v0", "is_parallelizable": False}

    def __init__(self, game, *, observation: str = "flat", render_mode: str | None = None):
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ConfigError("render_mode", f"{render_mode!r} is not supported; allowed: ansi or none")
        self.game = game
        self.observation_key = observation_key(game, observation)
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"boardzero_{game.name}_v0")
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        space = _spaces.Dict({"observation": observation_box(game, observation), "action_mask": mask_box(game)})
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: _spaces.Discrete(game.num_actions) for agent in self.possible_agents}
        self.state: State | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_state(seed=int(self._rng.integers(2**31)))
        resolve_chance(self.state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if self.state.current_player == seat:
            mask[self.state.legal_mask()] = 1
        return {"observation": self.state.observe(seat)[self.observation_key], "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(int(action))
        resolve_chance(self.state, self._rng)
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[self._seat[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[(self._seat[agent] + 1) % self.game.num_players]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.state.render()

    def close(self) -> None:
        self.state = None


def env(game: str, *, observation: str = "flat", render_mode: str | None = None, **options) -> BoardzeroAECEnv:
    """The AEC environment of a registered game; ``options`` are the game's (``players=3``, ``board="beginner"``)."""
    return BoardzeroAECEnv(make(game, **options), observation=observation, render_mode=render_mode)

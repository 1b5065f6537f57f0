"""A single-agent Gymnasium environment for any registered game; boardzero agents play the other seats.

    from boardzero.integrations.gym import make_env
    env = make_env("catan", opponents=["random"], players=2)    # or gymnasium.make("boardzero/catan-v0")
    observation, info = env.reset(seed=0)
    action = env.action_space.sample(env.action_masks().astype("int8"))
    observation, reward, terminated, truncated, info = env.step(action)

The learner holds one seat (``seat=``, or a seat drawn at every reset by default);
each other seat is played by an agent spec (``random``, ``heuristic``,
``mcts:sims=200``, a trained model ``az:runs/x`` ...; one spec fills every other
seat). ``step`` applies the learner's action, then lets chance and the other
seats play until the learner is to move again or the game is over, so the
reward of a step is what the learner earned from that action until its next
turn: the game's return for its seat when the game ends, 0 before.

Observations are the game's own float32 encoding of what the learner's seat may
know (``observation="flat"`` by default). Legal actions: ``env.action_masks()``
(what sb3-contrib's MaskablePPO asks for) and ``info["action_mask"]``. An illegal
action leaves the game unchanged and costs ``illegal_reward`` (``illegal="raise"``
raises IllegalActionError instead). All randomness (boards, chance, opponents'
choices, the learner's seat) comes from the generator seeded by
``reset(seed=...)``. Needs ``pip install 'boardzero[gym]'``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.api import Game, State
from boardzero.core.errors import ConfigError
from boardzero.core.registry import games, make
from boardzero.core.view import view_for
from boardzero.integrations.common import observation_box, observation_key, require, resolve_chance

gymnasium = require("gymnasium", "gym")


class BoardzeroEnv(gymnasium.Env):
    """One seat of a boardzero game as a Gymnasium environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        game: Game,
        opponents: Sequence[str | Agent] = ("random",),
        *,
        seat: int | None = None,
        observation: str = "flat",
        illegal: str = "penalty",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ):
        if seat is not None and not 0 <= seat < game.num_players:
            raise ConfigError(
                "seat", f"{seat} is not a seat of {game.name}; allowed: 0..{game.num_players - 1} or none"
            )
        if illegal not in ("penalty", "raise"):
            raise ConfigError("illegal", f"{illegal!r} is not allowed; allowed: penalty, raise")
        if render_mode not in (None, "ansi"):
            raise ConfigError("render_mode", f"{render_mode!r} is not supported; allowed: ansi or none")
        self.game = game
        self.fixed_seat = seat
        self.observation_key = observation_key(game, observation)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.opponents = _opponent_agents(game, opponents)
        self.observation_space = observation_box(game, observation)
        self.action_space = gymnasium.spaces.Discrete(game.num_actions)
        self.state: State | None = None
        self.seat = 0 if seat is None else seat

    # ------------------------------------------------------------------ Gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = int(rng.integers(self.game.num_players)) if self.fixed_seat is None else self.fixed_seat
        for agent in self.opponents:
            agent.reset()
        self.state = self.game.new_state(seed=int(rng.integers(2**31)))
        self._play_others()
        return self._observation(), self._info()

    def step(self, action):
        action = int(action)
        if not self._is_legal(action):
            if self.illegal == "raise":
                self.state.apply(action)  # raises IllegalActionError with the game's reason
            return self._observation(), self.illegal_reward, False, False, self._info(illegal_action=True)
        self.state.apply(action)
        self._play_others()
        terminated = self.state.is_terminal()
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """bool[num_actions]: the learner's legal actions now (all False once the game is over)."""
        if self.state.current_player != self.seat:
            return np.zeros(self.game.num_actions, dtype=bool)
        return self.state.legal_mask()

    def render(self) -> str | None:
        return self.state.render(self.seat) if self.render_mode == "ansi" else None

    def close(self) -> None:
        self.state = None

    # ------------------------------------------------------------------ helpers
    def _is_legal(self, action: int) -> bool:
        return (
            self.state.current_player == self.seat
            and 0 <= action < self.game.num_actions
            and bool(self.state.legal_mask()[action])
        )

    def _play_others(self) -> None:
        """Chance and the other seats move until the learner is to move or the game is over."""
        state, rng = self.state, self.np_random
        while True:
            resolve_chance(state, rng)
            player = state.current_player
            if player < 0 or player == self.seat:
                return
            agent = self.opponents[player if player < self.seat else player - 1]
            state.apply(agent.act(view_for(state, player, getattr(agent, "full_sight", False)), rng))

    def _observation(self) -> np.ndarray:
        return self.state.observe(self.seat)[self.observation_key]

    def _info(self, **extra) -> dict:
        return {"seat": self.seat, "action_mask": self.action_masks(), **extra}


def _opponent_agents(game: Game, opponents: Sequence[str | Agent]) -> list[Agent]:
    """One agent per other seat (in seat order, skipping the learner); the last spec fills the rest."""
    if isinstance(opponents, (str, Agent)):
        opponents = [opponents]
    others = game.num_players - 1
    if not 1 <= len(opponents) <= others:
        raise ConfigError(
            "opponents",
            f"{game.name} with {game.num_players} players has {others} other seat(s); got {len(opponents)} opponent(s)",
        )
    specs = list(opponents) + [opponents[-1]] * (others - len(opponents))
    # a spec repeated for several seats builds one agent per seat (agents may keep per-seat state)
    return [spec if isinstance(spec, Agent) else make_agent(spec, game) for spec in specs]


def make_env(
    game: str,
    opponents: Sequence[str | Agent] = ("random",),
    *,
    seat: int | None = None,
    observation: str = "flat",
    illegal: str = "penalty",
    render_mode: str | None = None,
    **options,
) -> BoardzeroEnv:
    """The single-agent environment of a registered game; ``options`` are the game's (``players=2``)."""
    return BoardzeroEnv(
        make(game, **options), opponents, seat=seat, observation=observation, illegal=illegal, render_mode=render_mode
    )


for _name in games():
    if f"boardzero/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(
            f"boardzero/{_name}-v0", entry_point="boardzero.integrations.gym:make_env", kwargs={"game": _name}
        )

"""Self-play: many games at once, one batched search call per move of every game.

``SelfPlay.step()`` advances every running game by one decision. Finished games
become samples: the observation and legal mask of the player to move, the
search's visit distribution (policy target) and the final returns seen from
that player (value target, seat-relative), optionally blended with the value
vector the search found at the root (``search_value_share``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from boardzero.agents.az import make_search
from boardzero.core.api import CHANCE, Game, State, sample_chance
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.learn.config import SelfPlayConfig, config_from_dict
from boardzero.nn.checkpoint import load_state
from boardzero.nn.evaluator import NetworkEvaluator, rotate_to_relative
from boardzero.nn.nets import NetworkSpec, build_network


@dataclasses.dataclass
class _Trajectory:
    obs: list = dataclasses.field(default_factory=list)
    mask: list = dataclasses.field(default_factory=list)
    policy: list = dataclasses.field(default_factory=list)
    player: list = dataclasses.field(default_factory=list)
    root_value: list = dataclasses.field(default_factory=list)  # searched value vectors, absolute seat order


class SelfPlay:
    def __init__(self, game: Game, evaluator: NetworkEvaluator, config: SelfPlayConfig, rng: np.random.Generator):
        self.game, self.config, self.rng = game, config, rng
        self.key = evaluator.spec.observation_key
        self.mcts = make_search(
            game,
            evaluator,
            simulations=config.simulations,
            c_puct=config.c_puct,
            dirichlet_alpha=config.dirichlet_alpha,
            dirichlet_fraction=config.dirichlet_fraction,
            batch_size=config.search_batch,
        )
        self.states: list[State] = [self._new_game() for _ in range(config.games_per_actor)]
        self.trajectories = [_Trajectory() for _ in self.states]
        self.games_finished = 0
        self.moves = 0  # searched decisions
        self.plies = 0  # every applied id: searched, forced and chance

    def _new_game(self) -> State:
        return self.game.new_state(seed=int(self.rng.integers(2**31)))

    def step(self) -> list[dict[str, np.ndarray]]:
        """One searched decision in every game; returns the samples of the games that ended.

        Chance outcomes and moves without an alternative are played without a search (and leave no sample)."""
        finished = [f for slot in range(len(self.states)) for f in self._settle(slot)]
        views = [SeatView(state, state.current_player) for state in self.states]
        results = self.mcts.search_many(views, self.rng, add_noise=True)
        for slot, (view, result) in enumerate(zip(views, results)):
            state, trajectory = self.states[slot], self.trajectories[slot]
            visits = np.asarray(result.visits, np.float64) * view.legal_mask
            policy = visits / visits.sum()
            trajectory.obs.append(view.observation[self.key])
            trajectory.mask.append(view.legal_mask)
            trajectory.policy.append(policy.astype(np.float32))
            trajectory.player.append(view.seat)
            trajectory.root_value.append(np.asarray(result.value, np.float32))
            state.apply(self._choose(policy, view.legal_actions, len(trajectory.player)))
            self.moves += 1
            self.plies += 1
            finished.extend(self._settle(slot))
        return finished

    def _settle(self, slot: int) -> list[dict[str, np.ndarray]]:
        """Play chance and forced moves in game ``slot`` until a seat has a choice; a game that ends is replaced by
        a new one and its samples are returned."""
        finished = []
        state = self.states[slot]
        while True:
            if state.is_terminal():
                if self.trajectories[slot].player:
                    finished.append(self._samples(self.trajectories[slot], state.returns()))
                self.games_finished += 1
                state = self.states[slot] = self._new_game()
                self.trajectories[slot] = _Trajectory()
            elif state.current_player == CHANCE:
                state.apply(sample_chance(state, self.rng))
                self.plies += 1
            else:
                legal = state.legal_actions()
                if len(legal) > 1:
                    return finished
                state.apply(int(legal[0]))
                self.plies += 1

    def _choose(self, policy: np.ndarray, legal_actions: np.ndarray, move_number: int) -> int:
        if self.config.random_move_share and self.rng.random() < self.config.random_move_share:
            return int(self.rng.choice(legal_actions))
        if move_number <= self.config.temperature_moves:
            return int(self.rng.choice(len(policy), p=policy))
        best = np.flatnonzero(policy == policy.max())
        return int(self.rng.choice(best))

    def _samples(self, trajectory: _Trajectory, returns: np.ndarray) -> dict[str, np.ndarray]:
        players = np.asarray(trajectory.player, np.int64)
        absolute: np.ndarray = np.broadcast_to(np.asarray(returns, np.float32), (len(players), len(returns)))
        share = self.config.search_value_share
        if share > 0:
            absolute = (1 - share) * absolute + share * np.stack(trajectory.root_value)
        return {
            "obs": np.stack(trajectory.obs).astype(np.float32),
            "mask": np.stack(trajectory.mask),
            "policy": np.stack(trajectory.policy),
            "value": rotate_to_relative(np.ascontiguousarray(absolute), players).astype(np.float32),
        }


class SelfPlayWorker:
    """An actor's AlphaZero self-play: ``games_per_actor`` games searched together with the newest network."""

    def __init__(self, actor_id: int, payload: dict[str, Any]):
        config = config_from_dict(payload["config"])
        self.game = make(config.game, **config.game_options)
        self.net = build_network(NetworkSpec.from_dict(payload["network"]))
        rng = np.random.default_rng([config.selfplay.seed, actor_id, payload.get("generation", 0)])
        self.selfplay = SelfPlay(
            self.game, NetworkEvaluator(self.net, precision=config.selfplay.precision), config.selfplay, rng
        )

    @property
    def games_finished(self) -> int:
        return self.selfplay.games_finished

    def load(self, version: int, weights: dict[str, np.ndarray]) -> None:
        load_state(self.net, weights, f"weights version {version}")
        self.net.eval()

    def step(self) -> list[dict[str, np.ndarray]]:
        return self.selfplay.step()

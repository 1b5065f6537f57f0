"""Agents driven by a trained policy-value network.

- ``az:<checkpoint>`` — network-guided MCTS (``sims=``, ``c_puct=``, ``solver=false``), or the
  network's policy alone with ``greedy`` (or ``sims=0``);
- ``policy:<checkpoint>`` — the network's policy alone, most probable move
  (``temperature=`` > 0 samples instead);

``<checkpoint>`` is a run directory (its newest checkpoint), a checkpoints
directory, or a checkpoint's ``.json`` / ``.safetensors`` file.
"""

from __future__ import annotations

import numpy as np

from boardzero.agents.base import Advice, Agent, ranked_advice
from boardzero.core.api import Game
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.nn.base import Network
from boardzero.nn.checkpoint import load_network
from boardzero.nn.evaluator import NetworkEvaluator, rotate_to_absolute
from boardzero.search import MCTS, MCTSConfig


def make_search(
    game: Game,
    evaluator,
    *,
    simulations: int,
    c_puct: float,
    dirichlet_alpha: float = 0.3,
    dirichlet_fraction: float = 0.25,
    batch_size: int = 8,
    solver: bool = True,
) -> MCTS:
    """A network-guided PUCT search over ``game`` (also used by self-play; noise only with ``add_noise``)."""
    config = MCTSConfig(
        simulations=simulations,
        c_puct=c_puct,
        dirichlet_alpha=dirichlet_alpha,
        dirichlet_fraction=dirichlet_fraction,
        batch_size=batch_size,
        solver=solver,
    )
    return MCTS(game, evaluator, config)


class PolicyAgent(Agent):
    """Plays from the network's policy with no search."""

    def __init__(self, game: Game, net: Network, *, temperature: float = 0.0):
        if temperature < 0:
            raise ConfigError("agent policy.temperature", f"must be >= 0, got {temperature}")
        self.game, self.temperature = game, temperature
        self.evaluator = NetworkEvaluator(net)

    def _predict(self, view: SeatView) -> tuple[np.ndarray, np.ndarray]:
        """The network's priors [A] and its values [P] in absolute seat order for the view's position."""
        obs = view.observation[self.evaluator.key][None]
        priors, relative = self.evaluator.predict(obs.astype(np.float32, copy=False), view.legal_mask[None])
        return priors[0].astype(np.float64), rotate_to_absolute(relative, np.array([view.seat]))[0]

    def advise(self, view: SeatView, rng: np.random.Generator, *, top: int = 3) -> Advice:
        """The most probable moves of the policy, and the value head's estimate for every seat."""
        prior, values = self._predict(view)
        return ranked_advice(prior, view.legal_mask, values, top)

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        prior, _ = self._predict(view)
        if self.temperature > 0:
            weights = prior ** (1.0 / self.temperature) * view.legal_mask
            return int(rng.choice(len(prior), p=weights / weights.sum()))
        return int(np.argmax(np.where(view.legal_mask, prior, -1.0)))


class AZAgent(Agent):
    """Network-guided MCTS; picks the most visited move."""

    def __init__(
        self,
        game: Game,
        net: Network,
        *,
        sims: int = 200,
        c_puct: float = 1.5,
        batch_size: int = 8,
        solver: bool = True,
    ):
        if sims < 1:
            raise ConfigError("agent az.sims", f"must be >= 1 (or use greedy), got {sims}")
        if batch_size < 1:
            raise ConfigError("agent az.batch", f"must be >= 1, got {batch_size}")
        self.game, self.sims, self.c_puct, self.batch_size, self.solver = game, sims, c_puct, batch_size, solver
        self.evaluator = NetworkEvaluator(net)
        self.reset()

    def reset(self) -> None:
        self.mcts = make_search(
            self.game,
            self.evaluator,
            simulations=self.sims,
            c_puct=self.c_puct,
            batch_size=self.batch_size,
            solver=self.solver,
        )

    def advise(self, view: SeatView, rng: np.random.Generator, *, top: int = 3) -> Advice:
        """The most visited moves of a search from here (proven losses left out), their values (exact where
        proven) and the root's value vector."""
        result = self.mcts.search(view, rng, add_noise=False)
        visits = np.where(result.choices(), np.asarray(result.visits, np.float64), 0.0)
        values = result.q if result.exact is None else np.where(np.isnan(result.exact), result.q, result.exact)
        return ranked_advice(visits, view.legal_mask, result.value, top, values)

    def act(self, view: SeatView, rng: np.random.Generator) -> int:
        result = self.mcts.search(view, rng, add_noise=False)
        visits = np.where(result.choices(), np.asarray(result.visits, np.float64), -1.0)  # proven losses out
        best = np.flatnonzero(visits == visits.max())
        return int(rng.choice(best)) if len(best) > 1 else int(best[0])


def network_agent(
    game: Game,
    net: Network,
    *,
    sims: int,
    greedy: bool = False,
    c_puct: float = 1.5,
    batch: int = 8,
    solver: bool = True,
) -> Agent:
    """An agent for an in-memory network: its policy alone when ``greedy`` or ``sims == 0``, else MCTS."""
    if greedy or sims == 0:
        return PolicyAgent(game, net)
    return AZAgent(game, net, sims=sims, c_puct=c_puct, batch_size=batch, solver=solver)


def load_for_play(game: Game, path: str, *, trainers: tuple[str, ...] = ("alphazero",)) -> Network:
    """A checkpoint's network made by one of ``trainers``, for playing (one thread: ``load_network``)."""
    if not path:
        raise ConfigError("agent", "needs a checkpoint, e.g. az:runs/c4 or az:runs/c4/checkpoints/step_00001000.json")
    net, _ = load_network(path, game=game, trainers=trainers)
    return net


def az(
    game: Game,
    path: str = "",
    *,
    sims: int = 200,
    greedy: bool = False,
    c_puct: float = 1.5,
    batch: int = 8,
    solver: bool = True,
) -> Agent:
    """A trained AlphaZero network (a run directory or checkpoint file) with search, or its policy alone.

    path: the checkpoint: a run directory (its newest checkpoint), a checkpoints directory, or a .json file
    sims: simulations per move
    greedy: play the network's policy alone, no search (also sims=0)
    c_puct: exploration weight of the search
    batch: leaves per network call
    solver: prove wins and losses from terminal states during the search
    """
    return network_agent(
        game, load_for_play(game, path), sims=sims, greedy=greedy, c_puct=c_puct, batch=batch, solver=solver
    )


def policy(game: Game, path: str = "", *, temperature: float = 0.0) -> Agent:
    """The policy alone of a trained AlphaZero or PPO network: its most probable legal move.

    path: the checkpoint (as for az)
    temperature: 0 plays the most probable move; above 0 samples policy ** (1/temperature)
    """
    return PolicyAgent(game, load_for_play(game, path, trainers=("alphazero", "ppo")), temperature=temperature)


def ppo(game: Game, path: str = "", *, greedy: bool = False) -> Agent:
    """A PPO-trained policy, sampled as it was trained.

    path: the checkpoint (as for az)
    greedy: play the most probable move instead of sampling
    """
    return PolicyAgent(game, load_for_play(game, path, trainers=("ppo",)), temperature=0.0 if greedy else 1.0)

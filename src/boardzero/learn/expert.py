"""Expert iteration over TD(lambda): the search's results become the training signal, above all in the opening.

TD(lambda) reaches a game's first positions only through a long chain of predictions (about 200 in 2-player
Catan), and what the network gains alone does not reach inside the search. Here self-play searches the first
``expert.search_moves`` decisions of every game (Catan's setup: ``4 x players``) with the network, as ``best``
searches them (PUCT over chance and the other seats' replies, value priors or, once trained, the policy head's),
and plays the rest as TD does (``learn.td``: the move whose position the network values most, rare exploring
moves, the league). Zero knowledge: the searches read the network alone, the targets come from searches and
game results.

The games step in the game's own batch (Catan: the compiled one, as TD's self-play); a searched decision gets
its game as a ``State`` from ``state_of`` (Catan: rebuilt from the board seed and the moves since the game
started, which the worker keeps while the game may still search; a game that drew a chance outcome before its
window ended plays on as TD). ``expert.search_share`` of the games search (the others are TD games throughout)
and ``expert.per_move`` caps a search at that many simulations per legal move: the searches are nearly all
of self-play's cost.

Targets, for the positions ``x_t`` after each move played:

- value: a mix, weights ``expert.search_weight``, ``expert.lambda_weight`` and ``expert.outcome_weight``
  (normalised over the parts a position has), of the search's value ``S_t`` (the root's mean value vector
  through the move played: its child's backed-up value; searched positions only), the lambda-return ``G_t``
  (``learn.td.lambda_returns`` with ``td.lam``, ``td.gamma``, ``td.outcome_moves``; the searched positions'
  values are the predictions it bootstraps from) and the outcome ``Z_t`` (the same with lambda = 1)::

      V*_t = (w_s S_t [t searched] + w_l G_t + w_o Z_t) / (w_s [t searched] + w_l + w_o)

- policy: at each searched position (the root, as its mover sees it), the visit shares of the legal moves. The
  network's policy head (the MLP's ``policy`` layer, which TD never trains) learns them by cross-entropy,
  weight ``expert.policy_weight``. A checkpoint records ``policy_head: true`` and the ``td`` agent then takes
  its searches' priors from that head, one network row per node instead of one per legal move
  (``nn.policy_prior``); from learner step ``expert.policy_priors_from`` self-play searches do the same.

Checkpoints play as ``td:RUN``; a run may start from a TD checkpoint (``--init``, e.g. a shipped Catan model):
its untrained policy head is then trained from scratch while the values go on.

Re-analysis (``expert.reanalyse``): each actor keeps the searched positions of its finished games (the ``State``
before the move, the move played, and that position's lambda-return and outcome, which the game's end fixed) in a
pool of ``expert.reanalyse_pool``. For every search of a live game it owes ``expert.reanalyse`` searches of stored
positions, drawn uniformly from the pool, with the newest network it holds. A re-searched position gives the
learner one more sample of each kind: the position after its move with the value target mixed as above, the
*new* search value in place of the old, and the root with the new visit shares. The replay keeps observations,
not states, so re-analysis happens where the states are: in the actor, at the cost of its live games.
"""

from __future__ import annotations

from collections import deque
from typing import Any, ClassVar

import numpy as np
import torch
import torch.nn.functional as F

from boardzero.agents.td import TDAgent, ValuePriorEvaluator
from boardzero.core.view import view_for
from boardzero.learn.augment import augment
from boardzero.learn.replay import ReplayBuffer
from boardzero.learn.td import TD, TDWorker, _Game, lambda_returns
from boardzero.nn.checkpoint import read_extra
from boardzero.nn.evaluator import ValueEvaluator, rotate_to_relative
from boardzero.nn.policy_prior import PolicyPriorEvaluator
from boardzero.nn.precision import autocast
from boardzero.search import MCTS, MCTSConfig


def mixed_targets(
    lam: np.ndarray,
    outcome: np.ndarray,
    search: np.ndarray,
    searched: np.ndarray,
    *,
    search_weight: float,
    lambda_weight: float,
    outcome_weight: float,
) -> np.ndarray:
    """Value targets [T, P] from the lambda-returns ``lam`` [T, P], the outcomes ``outcome`` [T, P] and the search
    values ``search`` [T, P] (read only where ``searched`` [T]), each weighted and normalised over the parts a
    position has."""
    ws = np.where(np.asarray(searched, bool), search_weight, 0.0)[:, None]
    total = ws + lambda_weight + outcome_weight
    if np.any(total <= 0):
        raise ValueError("a position with no part in its value target: lambda_weight + outcome_weight is 0")
    mixed = ws * np.nan_to_num(search) + lambda_weight * lam + outcome_weight * outcome
    return mixed / total


class _ExpertGame(_Game):
    """A running game's record with what its searches found."""

    __slots__ = ("searches", "searched", "search_value", "policy_obs", "policy_mask", "policy", "roots")

    def __init__(self, rival: tuple[int, Any] | None = None, *, searches: bool = True):
        super().__init__(rival)
        self.searches = searches  # its first decisions are searched (expert.search_share of the games)
        self.searched: list[bool] = []
        self.search_value: list[np.ndarray] = []  # [P] absolute, per recorded position (zeros where not searched)
        self.policy_obs: list[np.ndarray] = []
        self.policy_mask: list[np.ndarray] = []
        self.policy: list[np.ndarray] = []
        self.roots: list[tuple[int, Any, int]] = []  # (position index, the State searched, the move played)


class ExpertWorker(TDWorker):
    """An actor's self-play: ``games_per_actor`` games in the game's batch (Catan: the compiled one, as TD),
    the searched decisions of all of them in one batched search over the games' ``State`` (``state_of``,
    rebuilt from the moves since each game started), the others in one network call as TD."""

    def __init__(self, actor_id: int, payload: dict[str, Any]):
        super().__init__(actor_id, payload)
        self.expert = self.run_config.expert
        self.games = [self._new_game() for _ in range(self.env.num_envs)]
        self.moves: list[list[int]] = [[] for _ in range(self.env.num_envs)]  # while a game may still search
        self.version = -1
        self.searchers: dict[bool, MCTS] = {}
        # re-analysis: (State before the move, seat, move, lambda-return [P], outcome [P]) of finished games
        self.pool: deque[tuple[Any, int, int, np.ndarray, np.ndarray]] = deque(maxlen=self.expert.reanalyse_pool)
        self.owed = 0.0  # re-analysis searches owed to the live searches made
        self.reanalysed = 0

    def load(self, version: int, payload: dict[str, Any]) -> None:
        super().load(version, payload)
        self.version = version

    def _new_game(self) -> _Game:
        rival = super()._new_game().rival
        share = self.expert.search_share
        return _ExpertGame(rival, searches=share >= 1 or self.rng.random() < share)

    def searcher(self) -> MCTS:
        """The self-play search: value priors, or the policy head's from ``expert.policy_priors_from`` on."""
        start = self.expert.policy_priors_from
        policy = start >= 0 and self.version >= start
        if policy not in self.searchers:
            evaluator: ValueEvaluator = (
                PolicyPriorEvaluator(self.net, precision=self.precision)
                if policy
                else ValuePriorEvaluator(self.net, temperature=self.expert.prior_temperature, precision=self.precision)
            )
            self.searchers[policy] = MCTS(
                self.game,
                evaluator,
                MCTSConfig(
                    simulations=self.expert.simulations,
                    c_puct=self.expert.c_puct,
                    batch_size=self.expert.search_batch,
                    dirichlet_alpha=self.expert.dirichlet_alpha,
                    dirichlet_fraction=self.expert.dirichlet_fraction,
                    reuse_tree=False,
                    information_sets=self.expert.infoset,
                ),
            )
        return self.searchers[policy]

    def step(self) -> list[dict[str, np.ndarray]]:
        env = self.env
        actions = np.argmax(env.masks, axis=1)
        multi = np.flatnonzero(env.masks.sum(axis=1) > 1)
        window = [i for i in range(env.num_envs) if self._in_window(i)]  # before this step's records
        states = {i: env.state_of(i, self.moves[i]) for i in multi.tolist() if self._searches(i)}
        searched = np.array([i for i, state in states.items() if state is not None], np.int64)
        rest = np.setdiff1d(multi, searched)
        if len(searched):
            actions[searched] = self._search(searched, [states[i] for i in searched])
        if len(rest):
            actions[rest] = self._choose(rest)
            for i in rest:
                self._not_searched(self.games[i])
        for i in window:
            self.moves[i].append(int(actions[i]))
        _, _, _, rewards, done = env.step(actions)
        finished = []
        for i in np.flatnonzero(done):
            finished.append(self._samples(self.games[i], rewards[i]))
            self.games[i] = self._new_game()
            self.moves[i] = []
            self.games_finished += 1
        if self.expert.reanalyse > 0 and len(searched) and self.pool:  # owed from the first stored position on
            self.owed += self.expert.reanalyse * len(searched)
            due = min(int(self.owed), len(self.pool))
            if due:
                self.owed -= due
                finished.append(self.reanalyse(due))
        return [f for f in finished if f is not None]

    def reanalyse(self, count: int) -> dict[str, np.ndarray]:
        """Search ``count`` positions drawn from the pool again with the current network; their samples."""
        picked = [self.pool[k] for k in self.rng.choice(len(self.pool), size=count, replace=False)]
        views = [view_for(state, seat) for state, seat, _, _, _ in picked]
        results = self._search_views(views, np.array([len(view.legal_actions) for view in views]))
        key = self.spec.observation_key
        obs, seats, values, lams, outcomes = [], [], [], [], []
        policy_obs, policy_mask, policy = [], [], []
        for (state, seat, action, lam, outcome), view, result in zip(picked, views, results):
            after = state.clone()
            after.apply(action)
            obs.append(after.observe(seat)[key])
            seats.append(seat)
            values.append(_child_value(result, action))
            lams.append(lam)
            outcomes.append(outcome)
            policy_obs.append(view.observation[key])
            policy_mask.append(view.legal_mask)
            policy.append(_visit_shares(result))
        self.reanalysed += count
        targets = mixed_targets(
            np.asarray(lams),
            np.asarray(outcomes),
            np.asarray(values),
            np.ones(count, bool),
            search_weight=self.expert.search_weight,
            lambda_weight=self.expert.lambda_weight,
            outcome_weight=self.expert.outcome_weight,
        )
        return self._batch(obs, targets, seats, policy_obs, policy_mask, policy)

    def _batch(self, obs, targets, seats, policy_obs, policy_mask, policy) -> dict[str, np.ndarray]:
        """The samples for the learner: positions with their value targets (absolute ``targets`` turned to each
        position's ``seats``), and searched roots with their legal masks and visit shares."""
        shape, actions = self.spec.input_shape, self.spec.num_actions
        return {
            "obs": np.stack(obs).astype(np.float32),
            "value": rotate_to_relative(targets, np.asarray(seats, np.int64)).astype(np.float32),
            "policy_obs": np.asarray(policy_obs, np.float32).reshape(-1, *shape),
            "policy_mask": np.asarray(policy_mask, bool).reshape(-1, actions),
            "policy": np.asarray(policy, np.float32).reshape(-1, actions),
        }

    def _in_window(self, i: int) -> bool:
        """Whether game ``i`` may still search: a searching game within its first ``search_moves`` decisions."""
        game = self.games[i]
        assert isinstance(game, _ExpertGame)
        return game.searches and len(game.obs) < self.expert.search_moves

    def _searches(self, i: int) -> bool:
        """Whether game ``i``'s decision is searched: in its window (``_in_window``), not a league seat's."""
        rival = self.games[i].rival
        return self._in_window(i) and (rival is None or rival[0] != self.env.seats[i])

    def _not_searched(self, game: _Game) -> None:
        assert isinstance(game, _ExpertGame)
        game.searched.append(False)
        game.search_value.append(np.zeros(self.spec.num_players))

    def _search(self, rows: np.ndarray, states: list) -> np.ndarray:
        """Search the decisions of the games in ``rows`` (their ``states``), record them, return the moves."""
        env = self.env
        views = [view_for(state, int(env.seats[i])) for i, state in zip(rows, states)]
        results = self._search_views(views, env.masks[rows].sum(axis=1))
        chosen = np.zeros(len(rows), np.int64)
        for j, (i, result) in enumerate(zip(rows, results)):
            game = self.games[i]
            assert isinstance(game, _ExpertGame)
            seat = int(env.seats[i])
            best = result.best_action()
            drawn = len(game.obs) < self.expert.temperature_moves
            action = int(self.rng.choice(len(result.visits), p=result.policy(1.0))) if drawn else best
            value = _child_value(result, action)
            after = states[j].clone()
            after.apply(action)
            game.obs.append(after.observe(seat)[self.spec.observation_key])
            game.seat.append(seat)
            game.value.append(value)
            game.greedy.append(_child_value(result, best))
            game.explored.append(action != best)
            game.timed.append(not self.timeless[action])
            game.searched.append(True)
            game.search_value.append(value)
            game.policy_obs.append(env.obs[i].copy())
            game.policy_mask.append(env.masks[i].copy())
            game.policy.append(_visit_shares(result))
            if self.expert.reanalyse > 0:
                game.roots.append((len(game.obs) - 1, states[j], action))
            chosen[j] = action
        return chosen

    def _search_views(self, views: list, legal: np.ndarray) -> list:
        """One search result per view (``legal``: its number of legal moves), ``expert.simulations`` each, capped
        at ``expert.per_move`` per legal move; one batched search per budget."""
        budgets = np.full(len(views), self.expert.simulations)
        if self.expert.per_move:
            budgets = np.minimum(budgets, self.expert.per_move * np.asarray(legal))
        results: list = [None] * len(views)
        with autocast(self.precision):
            for budget in np.unique(budgets):
                part = np.flatnonzero(budgets == budget)
                found = self.searcher().search_many(
                    [views[j] for j in part],
                    self.rng,
                    add_noise=self.expert.dirichlet_fraction > 0,
                    simulations=int(budget),
                )
                for j, result in zip(part.tolist(), found):
                    results[j] = result
        return results

    def _samples(self, game: _Game, returns: np.ndarray) -> dict[str, np.ndarray] | None:
        assert isinstance(game, _ExpertGame)
        if not game.obs:
            return None
        td = self.config
        values, greedy, explored = np.asarray(game.value), np.asarray(game.greedy), np.asarray(game.explored)
        timed = np.asarray(game.timed, bool)  # Catan's offers and answers take no game time: not discounted
        lam = lambda_returns(values, greedy, explored, returns, td.lam, td.gamma, td.outcome_moves, timed)
        outcome = lambda_returns(values, greedy, explored, returns, 1.0, td.gamma, timed=timed)
        targets = mixed_targets(
            lam,
            outcome,
            np.asarray(game.search_value),
            np.asarray(game.searched),
            search_weight=self.expert.search_weight,
            lambda_weight=self.expert.lambda_weight,
            outcome_weight=self.expert.outcome_weight,
        )
        for t, state, action in game.roots:  # the game's end fixed these positions' returns: re-analysable now
            self.pool.append((state, game.seat[t], action, lam[t], outcome[t]))  # over the oldest once full
        return self._batch(game.obs, targets, game.seat, game.policy_obs, game.policy_mask, game.policy)


def _visit_shares(result) -> np.ndarray:
    """The root's visit shares over all actions (the policy head's target)."""
    return (result.visits / max(result.visits.sum(), 1)).astype(np.float32)


def _child_value(result, action: int) -> np.ndarray:
    """The search's mean value vector (absolute order) of the root's child through ``action``."""
    child = result.tree.child(result.root, action)
    return result.tree.mean_value(child).astype(np.float64) if child >= 0 else result.value.astype(np.float64)


class Expert(TD):
    """The learner: TD's value loss on the mixed targets, the policy head's cross-entropy on the visit shares."""

    name = "expert"
    agent = "td"
    init_from = ("td",)  # a run may start from a TD network; its policy head then starts to learn
    reads_settings_of: ClassVar[tuple[str, ...]] = ("td",)  # the [td] section and the replay settings apply as in TD
    large_extras = ("replay", "policy_replay")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.policy_replay = ReplayBuffer(
            self.config.expert.policy_replay_size,
            {
                "obs": (self.spec.input_shape, np.float32),
                "mask": ((self.spec.num_actions,), np.bool_),
                "policy": ((self.spec.num_actions,), np.float32),
            },
        )

    @classmethod
    def worker(cls, actor_id: int, payload: dict[str, Any]) -> ExpertWorker:
        return ExpertWorker(actor_id, payload)

    def ingest(self, version: int, samples: dict[str, np.ndarray]) -> int:
        kept = super().ingest(version, {"obs": samples["obs"], "value": samples["value"]})
        if len(samples["policy"]):
            self.policy_replay.add(
                {"obs": samples["policy_obs"], "mask": samples["policy_mask"], "policy": samples["policy"]}
            )
        return kept

    def update(self) -> dict[str, float]:
        self.net.train()
        batch = self.tensors(self.sample_batch())
        with autocast(self.config.train.precision):
            predicted = self.net.values(batch["obs"]).float()
        loss = F.huber_loss(predicted, batch["value"], delta=self.config.td.huber_delta)
        metrics = {"losses/value": loss.item(), "losses/mean_target": float(batch["value"][:, 0].mean())}
        weight = self.config.expert.policy_weight
        if weight > 0 and len(self.policy_replay):
            policy_loss = self.policy_loss(self.policy_batch())
            metrics["losses/policy"] = policy_loss.item()
            loss = loss + weight * policy_loss
        self.optimize(loss, metrics)
        self.net.eval()
        self.trained += self.config.train.batch_size
        return metrics

    def policy_batch(self) -> dict[str, torch.Tensor]:
        """``train.batch_size`` searched positions, each as itself or a symmetry's image."""
        sample = self.policy_replay.sample(self.config.train.batch_size, self.rng)
        return self.tensors(augment(sample, self.symmetries, self.spec.observation_key, self.rng))

    def policy_loss(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        """Cross-entropy of the visit shares against the policy head's softmax over the legal moves."""
        with autocast(self.config.train.precision):
            if self.config.expert.policy_trunk:
                logits, _ = self.net(batch["obs"], batch["mask"])
            else:  # the head alone learns: the trunk's features are held fixed for this loss
                features = self.net.trunk(batch["obs"])
                held = tuple(f.detach() for f in features) if isinstance(features, tuple) else features.detach()
                logits = self.net.policy_logits(held, batch["mask"])
        return -(batch["policy"] * F.log_softmax(logits.float(), dim=1)).sum(dim=1).mean()

    def metadata(self) -> dict[str, Any]:
        return {**super().metadata(), "policy_head": self.config.expert.policy_weight > 0}

    def extras(self) -> dict[str, dict[str, np.ndarray]]:
        extras = super().extras()
        if self.config.train.save_replay and len(self.policy_replay):
            extras["policy_replay"] = self.policy_replay.state_arrays()
        return extras

    def restore(self, json_path, meta: dict[str, Any]) -> None:
        super().restore(json_path, meta)
        if self.config.train.save_replay:
            arrays = read_extra(json_path, meta, "policy_replay")
            if arrays is not None:
                self.policy_replay.load_arrays(arrays, json_path)

    def play_agent(self):
        """The network as its checkpoints play by default with a searched opening, as in self-play."""
        expert = self.config.expert
        searched = expert.search_moves > 0
        return TDAgent(
            self.game,
            self.play_net(),
            sims=0,
            prior=expert.prior_temperature,
            infoset=expert.infoset,
            c_puct=expert.c_puct,
            opening=expert.search_moves if searched else 0,
            opening_sims=expert.simulations if searched else 0,
            policy=expert.policy_weight > 0 and 0 <= expert.policy_priors_from <= self.step,
        )

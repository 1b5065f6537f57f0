"""TD(lambda): a value network learns every seat's outcome from successive predictions of self-play.

Self-play (``TDWorker``, many games in one batch): at each decision with more
than one legal move the mover looks at the position after every legal move (as
it sees it), values them all in one network call and plays the one it values
most for itself; with probability ``td.explore`` it plays a random move, and in
a game's first ``td.opening_moves`` decisions it draws its move from the softmax
of those values (``td.opening_temperature``), so openings vary. A move that
leads to a chance node (a roll, a card draw, a steal) is valued by the network
at that node, before chance: the network learns the expectation over the
outcomes, so no outcome is enumerated (11 dice totals would cost 11 evaluations
for every roll), as TD-Gammon valued positions before the dice. A move that
ends the game is valued by its true returns.

Targets: the positions x_0 .. x_{T-1} a game went through (after each chosen
move), with predictions V_t (one value per seat, absolute order) and final
returns z, get the lambda-returns

    G_{T-1} = z,    G_t = gamma ((1 - lambda) V_{t+1} + lambda G_{t+1}),

except that after an exploring move (or an opening draw other than the best move) at
t+1 the return stops there:
G_t = gamma times the value of the best move at t+1 (what the mover would have played).
A discount ``td.gamma`` below 1 makes a win sooner worth more than a win later.
It counts the moves that take game time: a move the game declares timeless
(``Game.timeless_actions``: Catan's offers and answers) is not discounted, so
a game with trading is as long, to the discount, as the same game without it.
With ``td.outcome_moves`` N the first N positions of a game (the opening: the
setup in Catan) learn from the outcome itself (lambda = 1) instead: a
lambda-return reaches them only through a long chain of predictions (lambda^T
of the final result, T about 200 decisions in 2-player Catan), so a bias of
the predictions there persists; the outcome is noisier but unbiased.
The learner fits the network to them with a Huber loss, gradient clipping and
AdamW, from a replay buffer of recent samples. The predictions in the targets
are those made during play (by weights at most one publication old).

League (``td.league_share`` above 0): the learner keeps snapshots of its
network in the run's bank (``<run>/bank/``, ``learn/bank.py``: one every
``td.league_every`` learner steps, the newest ``td.league_size``; a resumed run
keeps them), and in that share of its games an actor seats one of them, drawn
at random, at a seat drawn at random: it plays its own best move, valued by
itself. The positions are recorded and valued by the current network as in
any game, so the values learn the game against a population of its past selves
rather than against its newest self alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch.nn.functional as F

from boardzero.agents.td import TDAgent
from boardzero.learn.actors import BatchedWorker
from boardzero.learn.bank import Bank, MemberNets
from boardzero.learn.runtime import ReplayMethod
from boardzero.nn.evaluator import afterstate_values, rotate_to_absolute, rotate_to_relative
from boardzero.nn.precision import autocast


def lambda_returns(
    values: np.ndarray,
    greedy: np.ndarray,
    explored: np.ndarray,
    final: np.ndarray,
    lam: float,
    gamma: float = 1.0,
    outcome_moves: int = 0,
    timed: np.ndarray | None = None,
) -> np.ndarray:
    """Targets for positions 0..T-1 from their predictions ``values`` [T, P], the best move's value at each
    decision ``greedy`` [T, P], which moves explored ``explored`` [T] and the final returns ``final`` [P];
    ``gamma`` discounts each step from one position to the next. The first ``outcome_moves`` positions get
    the return with lambda = 1 (the final result, discounted, or the best move's value at the first
    exploring move after them) instead. ``timed`` [T]: whether the move chosen at each decision takes game time
    (``Game.timeless_actions``); the step to a position reached by a timeless move is not discounted."""
    targets = np.empty_like(values, dtype=np.float64)
    after = outcome = np.asarray(final, np.float64)
    for t in range(len(values) - 1, -1, -1):
        targets[t] = outcome if t < outcome_moves else after
        step = gamma if timed is None or timed[t] else 1.0
        if explored[t]:
            after = outcome = step * greedy[t]
        else:
            after = step * ((1.0 - lam) * values[t] + lam * after)
            outcome = step * outcome
    return targets


def segment_argmax(scores: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Index of the first maximum of each segment ``scores[starts[j]:starts[j+1]]``."""
    best = np.maximum.reduceat(scores, starts)
    owner = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, len(scores)]))
    hits = np.flatnonzero(scores == best[owner])
    first = np.full(len(starts), len(scores))
    np.minimum.at(first, owner[hits], hits)
    return first


def softmax_draw(values: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """Index drawn with probability proportional to exp(value / temperature)."""
    weights = np.exp((values - values.max()) / temperature)
    return int(rng.choice(len(values), p=weights / weights.sum()))


class _Game:
    """One running game's record: the chosen positions and what was predicted there."""

    __slots__ = ("obs", "seat", "value", "greedy", "explored", "timed", "rival")

    def __init__(self, rival: tuple[int, Any] | None = None):
        self.obs: list[np.ndarray] = []  # the chosen afterstates' observations
        self.seat: list[int] = []
        self.value: list[np.ndarray] = []  # predicted values there, absolute seat order
        self.greedy: list[np.ndarray] = []  # the greedy move's predicted values
        self.explored: list[bool] = []
        self.timed: list[bool] = []
        self.rival = rival  # (seat, network) of a league game: that seat plays a past network


class TDWorker(BatchedWorker):
    """An actor's TD self-play: ``games_per_actor`` games stepped together, one network call per step."""

    def __init__(self, actor_id: int, payload: dict[str, Any]):
        super().__init__(actor_id, payload)
        self.config = self.run_config.td
        self.league: list[str] = []  # checkpoint paths of the league's past networks (the run's bank), oldest first
        self.league_version = -1  # the bank's version they come from
        self.league_nets = MemberNets(self.run_file, self.game, trainers=("td",))
        self.games = [_Game() for _ in range(self.env.num_envs)]
        timeless = self.game.timeless_actions()  # moves that take no game time are not discounted
        self.timeless = np.zeros(self.game.num_actions, bool) if timeless is None else timeless
        # a timeless move (an offer no seat is known to take) often leaves the position as it was: in such games
        # many of a decision's afterstates are alike, and each distinct one is valued once
        self.distinct = bool(self.timeless.any())

    def load(self, version: int, payload: dict[str, Any]) -> None:
        self.load_weights(version, payload["weights"])
        league = payload.get("league")
        if league is not None and league["version"] != self.league_version:
            self.league, self.league_version = list(league["members"]), league["version"]
            self.league_nets.keep(self.league)

    def _new_game(self) -> _Game:
        if not self.league or self.rng.random() >= self.config.league_share:
            return _Game()
        seat = int(self.rng.integers(self.spec.num_players))
        past = self.league_nets.get(self.league[int(self.rng.integers(len(self.league)))])  # None: dropped
        return _Game() if past is None else _Game((seat, past))

    def step(self) -> list[dict[str, np.ndarray]]:
        env = self.env
        actions = np.argmax(env.masks, axis=1)  # the only legal move where there is one
        multi = np.flatnonzero(env.masks.sum(axis=1) > 1)
        if len(multi):
            actions[multi] = self._choose(multi)
        _, _, _, rewards, done = env.step(actions)
        finished = []
        for i in np.flatnonzero(done):
            finished.append(self._samples(self.games[i], rewards[i]))
            self.games[i] = self._new_game()
            self.games_finished += 1
        return [f for f in finished if f is not None]

    def _choose(self, rows: np.ndarray) -> np.ndarray:
        after = self.env.afterstates(rows)
        seats = self.env.seats[after.row]
        relative = afterstate_values(self.net, after, seats, self.precision, distinct=self.distinct)
        starts = after.starts
        greedy = segment_argmax(relative[:, 0], starts)
        chosen = greedy.copy()
        explored = self.rng.random(len(rows)) < self.config.explore
        sizes = np.diff(np.r_[starts, len(after.row)])
        if explored.any():
            chosen[explored] = starts[explored] + self.rng.integers(0, sizes[explored])
        opening = np.array([len(self.games[i].obs) < self.config.opening_moves for i in rows], dtype=bool)
        for j in np.flatnonzero(opening & ~explored).tolist():
            chosen[j] = starts[j] + softmax_draw(
                relative[starts[j] : starts[j] + sizes[j], 0], self.config.opening_temperature, self.rng
            )
        explored |= opening
        self._league_moves(rows, after, chosen, explored)
        absolute = rotate_to_absolute(relative, seats)
        obs = after.obs[chosen]
        moves = after.action[chosen]
        for j, i in enumerate(rows):
            game = self.games[i]
            game.obs.append(obs[j])
            game.seat.append(int(self.env.seats[i]))
            game.value.append(absolute[chosen[j]])
            game.greedy.append(absolute[greedy[j]])
            game.explored.append(bool(explored[j]) and chosen[j] != greedy[j])
            game.timed.append(not self.timeless[moves[j]])
        return moves

    def _league_moves(self, rows: np.ndarray, after, chosen: np.ndarray, explored: np.ndarray) -> None:
        """Where a past network holds the mover's seat, ``chosen`` becomes its own best move, not explored."""
        by_rival: dict[int, tuple[Any, list[int]]] = {}  # id of a past network: it, and the rows it moves in
        for j, i in enumerate(rows):
            rival = self.games[i].rival
            if rival is not None and rival[0] == self.env.seats[i]:
                by_rival.setdefault(id(rival[1]), (rival[1], []))[1].append(j)
        if not by_rival:
            return
        starts = after.starts
        ends = np.r_[starts[1:], len(after.row)]
        for net, listed in by_rival.values():
            js = np.asarray(listed)
            index = np.concatenate([np.arange(starts[j], ends[j]) for j in js])
            part = after.take(index)
            mine = afterstate_values(net, part, self.env.seats[part.row], self.precision)[:, 0]
            chosen[js] = index[segment_argmax(mine, part.starts)]
            explored[js] = False

    def _samples(self, game: _Game, returns: np.ndarray) -> dict[str, np.ndarray] | None:
        if not game.obs:
            return None
        targets = lambda_returns(
            np.asarray(game.value),
            np.asarray(game.greedy),
            np.asarray(game.explored),
            returns,
            self.config.lam,
            self.config.gamma,
            self.config.outcome_moves,
            np.asarray(game.timed),
        )
        seats = np.asarray(game.seat, np.int64)
        value = rotate_to_relative(targets, seats).astype(np.float32)
        if self.config.learn_timeless:
            return {"obs": np.stack(game.obs), "value": value}
        kept = np.flatnonzero(game.timed)  # the positions of moves that take game time
        if not len(kept):
            return None
        return {"obs": np.stack([game.obs[i] for i in kept]), "value": value[kept]}


class TD(ReplayMethod):
    name = "td"
    agent = "td"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        td = self.config.td
        self.league = Bank(self.rundir.bank, td.league_size) if td.league_share > 0 else None

    def payload(self) -> dict[str, Any]:
        """The weights, and with a league the bank's members, the current network added to them first if the
        newest is ``td.league_every`` steps old (or the bank is empty)."""
        if self.league is not None:
            newest = max((m["step"] for m in self.league.members), default=None)
            if newest is None or self.step - newest >= self.config.td.league_every:
                self.league.add(self.net, self.step, self.snapshot_metadata(), best=True)
        return {"weights": super().payload(), "league": None if self.league is None else self.league.payload()}

    def replay_fields(self) -> dict[str, tuple[tuple[int, ...], type]]:
        return {"obs": (self.spec.input_shape, np.float32), "value": ((self.spec.num_players,), np.float32)}

    @classmethod
    def worker(cls, actor_id: int, payload: dict[str, Any]) -> TDWorker:
        return TDWorker(actor_id, payload)

    def update(self) -> dict[str, float]:
        self.net.train()
        batch = self.tensors(self.sample_batch())
        with autocast(self.config.train.precision):
            predicted = self.net.values(batch["obs"]).float()
        target = batch["value"]
        loss = F.huber_loss(predicted, target, delta=self.config.td.huber_delta)
        metrics = {"losses/value": loss.item(), "losses/mean_target": float(target[:, 0].mean())}
        self.optimize(loss, metrics)
        self.net.eval()
        self.trained += self.config.train.batch_size
        return metrics

    def play_agent(self):
        return TDAgent(self.game, self.play_net())

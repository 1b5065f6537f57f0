"""Monte Carlo tree search over the Game API, for any number of players.

One simulation:

1. ``view.sample_state(rng)``: a full state consistent with what the searching
   seat knows (a clone for perfect information), so hidden information is
   never read: determinization.
2. descend from the root, applying moves to that state: at a decision node pick
   among the moves legal *in this sampled state* by PUCT (priors from the
   evaluator) or UCT (uniform priors, e.g. random rollouts); at a chance node
   draw an outcome by its probabilities;
3. at a new decision node ask the evaluator for priors and a value vector (one
   entry per seat); at a terminal node take the returns;
4. back the vector up max^n style: every node adds the whole vector, every
   edge keeps the value of the seat that chose it.

The tree's nodes are histories of the sampled states by default: a chance
outcome the searching seat cannot see (another seat's development card, a
steal between two others) gets a child per sampled outcome. With
``information_sets`` on they are the searching seat's information sets
(single-observer information-set MCTS): such outcomes share one child, so the
statistics below it pool every determinization that agrees with what the seat
would observe, and a move's exploration term counts the simulations in which
it was legal (availability) instead of the node's visits.

With ``solver`` on (games with no hidden information), exact results climb
from terminal states: a decision node is proven once one move reaches the best
return its mover can get (``Game.return_bounds``) or all its moves are proven;
a proven move's exact value replaces its mean, a simulation that reaches a
proven node backs up its value at once, and the move chosen at the root is a
proven win if there is one and never a proven loss while another move is not.
Proofs stop at chance nodes.

Several simulations per tree run before one evaluator call (virtual loss keeps
them apart), and ``search_many`` gathers the leaves of many games into that
same call. Trees are kept between moves and reused when the public history
extends the one they were built for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, cast

import numpy as np

from boardzero.core.api import CHANCE, TERMINAL, Game, State, sample_chance
from boardzero.core.errors import ConfigError
from boardzero.core.view import SeatView
from boardzero.search.evaluator import (
    DeferringEvaluator,
    Evaluator,
    MoverObservingEvaluator,
    RandomizedEvaluator,
    unchecked_apply,
)
from boardzero.search.select import select_puct, select_uct
from boardzero.search.tree import HIDDEN_OUTCOME, ROOT_INDEX, UNEXPANDED, UNVISITED, Tree

_NOT_COUNTED = np.zeros(0)  # selection by the parent's visits (no availability counts)


@dataclass
class MCTSConfig:
    simulations: int = 200  # simulations per search (the root evaluation counts as one)
    selection: Literal["puct", "uct"] = "puct"  # puct: Q + c_puct*P*sqrt(N)/(1+n); uct: Q + c_uct*sqrt(ln N / n)
    c_puct: float = 1.5  # exploration weight of PUCT
    c_uct: float = 1.0  # exploration weight of UCT (values in [-1, 1])
    fpu_reduction: float = 0.0  # PUCT value of an unvisited move: parent's value for the mover minus this
    dirichlet_alpha: float = 0.3  # root noise concentration (self-play)
    dirichlet_fraction: float = 0.25  # share of noise in the root priors when add_noise=True
    batch_size: int = 8  # leaves gathered per tree before one evaluator call (virtual loss between them)
    virtual_loss: float = 1.0  # value taken from a pending edge (and visit added) while its leaf waits
    reuse_tree: bool = True  # keep the subtree of the moves played since the last search
    solver: bool = True  # prove wins, losses and draws from terminal states (ignored with hidden information)
    # one node per information set of the searching seat: chance outcomes it cannot see (another seat's card
    # draw, a steal between others) share one child, and a move's exploration counts the simulations in which
    # it was legal (single-observer information-set MCTS); off: a node per history of the sampled states
    information_sets: bool = False
    # end a search once the simulations left cannot lift any other root move to the most visited one's count:
    # the move played (``best_action``) is the one the full search would play, in fewer simulations. The visit
    # counts are then not a full search's, so this is for play, never for training targets. Off while the
    # solver can still prove a move (a proof changes which moves count).
    stop_when_decided: bool = False

    def __post_init__(self):
        checks = {
            "simulations": self.simulations >= 1,
            "batch_size": self.batch_size >= 1,
            "c_puct": self.c_puct >= 0,
            "c_uct": self.c_uct >= 0,
            "dirichlet_alpha": self.dirichlet_alpha > 0,
            "dirichlet_fraction": 0 <= self.dirichlet_fraction <= 1,
            "virtual_loss": self.virtual_loss >= 0,
            "selection": self.selection in ("puct", "uct"),
        }
        for name, ok in checks.items():
            if not ok:
                raise ConfigError(f"mcts.{name}", f"bad value {getattr(self, name)!r}")


@dataclass
class SearchResult:
    visits: np.ndarray  # [A] visit count of each root move
    value: np.ndarray  # [P] mean value vector of the root, absolute seat order
    prior: np.ndarray  # [A] root priors from the evaluator (before noise)
    q: np.ndarray  # [A] mean value of each root move for the seat to move (nan if unvisited)
    player: int  # seat to move at the root
    tree: Tree = field(repr=False)  # the tree after the search; the root is ROOT_INDEX
    root: int = ROOT_INDEX
    legal: np.ndarray | None = None  # [A] the root's legal mask
    exact: np.ndarray | None = None  # [A] proven value of each root move for the seat to move (nan if unknown)
    bounds: tuple[float, float] | None = None  # the game's return bounds, which tell proven wins and losses

    def choices(self) -> np.ndarray:
        """bool[A]: the moves worth playing: the proven wins if any, else the legal moves that are not
        proven losses (all legal moves if every one is)."""
        legal = self.legal if self.legal is not None else np.ones(len(self.visits), dtype=bool)
        if self.exact is None or self.bounds is None:
            return legal
        low, high = self.bounds
        with np.errstate(invalid="ignore"):
            wins, losses = legal & (self.exact >= high), legal & (self.exact <= low)
        if wins.any():
            return wins
        return legal & ~losses if (legal & ~losses).any() else legal

    def policy(self, temperature: float = 1.0) -> np.ndarray:
        """float[A]: visits ** (1 / temperature), normalised; temperature 0 splits evenly among the most visited.

        With no visits at all (a one-simulation search) it is uniform over the legal moves.
        """
        visits = self.visits.astype(np.float64)
        if visits.max() <= 0:
            legal = self.legal if self.legal is not None else np.ones_like(visits, dtype=bool)
            return legal / legal.sum()
        if temperature <= 0:
            best = visits == visits.max()
            return best / best.sum()
        scaled = visits / visits.max()
        weights = scaled ** (1.0 / temperature)
        return weights / weights.sum()

    def best_action(self) -> int:
        """The most visited of ``choices()``; ties go to the higher mean value, then the higher prior."""
        visits = np.where(self.choices(), self.visits, -1.0)
        most = np.flatnonzero(visits == visits.max())
        if len(most) == 1:
            return int(most[0])
        q = np.nan_to_num(self.q[most], nan=-np.inf)
        best = most[q == q.max()]
        return int(best[np.argmax(self.prior[best])])


@dataclass
class _StoredTree:
    tree: Tree
    history: list  # public history at the tree's root
    seat: int
    setup: object  # the sampled state's setup seed: trees are never shared across boards


@dataclass
class _Search:
    """One search in progress (one view, one tree)."""

    view: SeatView
    tree: Tree
    setup: object
    done: int = 0
    saved_prior: np.ndarray | None = None


@dataclass
class _Leaf:
    search: _Search
    nodes: list  # node numbers from the root to the leaf
    edges: list  # (node, action) for every decision edge taken
    state: State
    expand: bool  # whether the leaf node takes the evaluator's priors


class MCTS:
    """Search with ``evaluator`` at the leaves. ``search(view, rng)`` for one game, ``search_many`` for a batch."""

    def __init__(self, game: Game, evaluator: Evaluator, config: MCTSConfig | None = None):
        self.game = game
        self.evaluator = evaluator
        self.config = config if config is not None else MCTSConfig()
        # the evaluator's optional parts, read once; the casts name the protocol each flag promises
        self._evaluator_uses_rng = bool(getattr(evaluator, "uses_rng", False))
        self._randomized = cast(RandomizedEvaluator, evaluator)
        # an evaluator of afterstates (TD) observes each leaf as the seat that moved into it
        self._evaluator_observes_mover = bool(getattr(evaluator, "observes_mover", False))
        self._mover_observing = cast(MoverObservingEvaluator, evaluator)
        # costly priors wait until a simulation first chooses at the node (most nodes never do)
        self._defers_priors = bool(getattr(evaluator, "defers_priors", False))
        self._deferring = cast(DeferringEvaluator, evaluator)
        self._solving = self.config.solver and not game.has_hidden_information
        self._best_return = game.return_bounds[1] if game.return_bounds is not None else np.inf
        self._pool: list[_StoredTree] = []
        self._pool_limit = 4

    # ------------------------------------------------------------------ public
    def search(
        self, view: SeatView, rng: np.random.Generator, *, add_noise: bool = False, simulations: int | None = None
    ) -> SearchResult:
        return self.search_many([view], rng, add_noise=add_noise, simulations=simulations)[0]

    def search_many(
        self,
        views: Sequence[SeatView],
        rng: np.random.Generator,
        *,
        add_noise: bool = False,
        simulations: int | None = None,
    ) -> list[SearchResult]:
        """Search every view; leaf evaluations of all of them share evaluator calls."""
        target = self.config.simulations if simulations is None else simulations
        self._pool_limit = max(self._pool_limit, 2 * len(views))
        searches = [self._start(view, rng) for view in views]
        self._expand_roots(searches, rng)
        if add_noise:
            for search in searches:
                self._add_root_noise(search, rng)
        while True:
            active = [s for s in searches if s.done < target and not self._decided(s, target)]
            if not active:
                break
            leaves: list[_Leaf] = []
            for search in active:
                for _ in range(min(self.config.batch_size, target - search.done)):
                    leaf = self._simulate(search, rng)
                    if leaf is not None:
                        leaves.append(leaf)
            if leaves:
                self._evaluate_and_backup(leaves, rng)
        return [self._finish(search) for search in searches]

    def _decided(self, search: _Search, target: int) -> bool:
        """Whether ``stop_when_decided`` ends this search now: the most visited root move leads every other by
        more than the simulations left (each adds at most one visit to one root move), so no tie is possible."""
        if not self.config.stop_when_decided or self._solving:
            return False
        visits = search.tree.edge_visits[ROOT_INDEX]
        if len(visits) < 2:
            return False
        second, first = np.partition(visits, len(visits) - 2)[-2:]
        return first - second > target - search.done

    def reset(self) -> None:
        """Forget every kept tree (a new game, or a new opponent)."""
        self._pool.clear()

    # ------------------------------------------------------------------ setup
    def _start(self, view: SeatView, rng: np.random.Generator) -> _Search:
        if view.seat < 0 or not view.legal_mask.any():
            raise ValueError(f"cannot search: seat {view.seat} has no move in this position")
        setup = view.sample_state(rng).seed
        tree = self._reuse(view, setup) if self.config.reuse_tree else None
        if tree is None:
            tree = Tree(self.game.num_actions, self.game.num_players)
        return _Search(view=view, tree=tree, setup=setup)

    def _reuse(self, view: SeatView, setup) -> Tree | None:
        """The kept subtree for this view's public history, if one extends a stored root."""
        history = view.history
        hidden = self.game.has_hidden_information
        best, best_len, best_node = None, -1, UNVISITED
        for stored in self._pool:
            if stored.setup != setup or (hidden and stored.seat != view.seat):
                continue  # never reuse another seat's tree: it was built from that seat's knowledge
            k = len(stored.history)
            if k <= best_len or k > len(history) or history[:k] != stored.history:
                continue
            node = stored.tree.walk(ROOT_INDEX, history[k:], information_sets=self.config.information_sets)
            if node != UNVISITED and stored.tree.player[node] == view.seat:
                best, best_len, best_node = stored, k, node
        if best is None:
            return None
        self._pool.remove(best)
        return best.tree if best_node == ROOT_INDEX else best.tree.subtree(best_node)

    def _expand_roots(self, searches: list[_Search], rng: np.random.Generator) -> None:
        fresh = [s for s in searches if s.tree.player[ROOT_INDEX] == UNEXPANDED]
        if not fresh:
            return
        leaves = [_Leaf(s, [ROOT_INDEX], [], s.view.sample_state(rng), True) for s in fresh]
        self._evaluate_and_backup(leaves, rng)
        waiting = [s.tree for s in searches if ROOT_INDEX in s.tree.pending_priors]
        if waiting:  # root noise and the result need the root's priors now
            priors = self._deferring.priors([tree.pending_priors.pop(ROOT_INDEX) for tree in waiting])
            for tree, prior in zip(waiting, priors):
                tree.prior[ROOT_INDEX] = prior

    def _add_root_noise(self, search: _Search, rng: np.random.Generator) -> None:
        tree, legal = search.tree, search.view.legal_mask
        search.saved_prior = tree.prior[ROOT_INDEX].copy()
        count = int(legal.sum())
        if count < 2:
            return
        noise = rng.dirichlet(np.full(count, self.config.dirichlet_alpha))
        fraction = self.config.dirichlet_fraction
        tree.prior[ROOT_INDEX, legal] = (1 - fraction) * tree.prior[ROOT_INDEX, legal] + fraction * noise

    # ------------------------------------------------------------------ one simulation
    def _simulate(self, search: _Search, rng: np.random.Generator) -> _Leaf | None:
        """Descend once; back up at once if the walk ends at a terminal state, else return the leaf."""
        tree = search.tree
        state = search.view.sample_state(rng)
        nodes: list[int] = [ROOT_INDEX]
        edges: list[tuple[int, int]] = []
        node = ROOT_INDEX
        virtual_loss = self.config.virtual_loss
        while True:
            player = state.current_player
            if player == TERMINAL:
                if tree.player[node] == UNEXPANDED:
                    tree.player[node] = TERMINAL
                returns = np.asarray(state.returns(), dtype=np.float64)
                self._backup(search, nodes, edges, returns)
                if self._solving and not tree.proven[node]:
                    tree.proven[node], tree.proven_value[node] = True, returns
                    self._propagate_proof(tree, nodes, edges)
                return None
            if node != ROOT_INDEX and tree.proven[node]:  # exact already: no need to look further
                self._backup(search, nodes, edges, tree.proven_value[node].copy())
                return None
            kind = tree.player[node]
            if kind == UNEXPANDED:
                if player != CHANCE:
                    return self._pending(search, nodes, edges, state, rng, expand=True)
                tree.player[node] = CHANCE  # chance nodes need no evaluation
                kind = CHANCE
            if kind != player:
                # another determinization disagrees about who moves here: evaluate, do not expand
                return self._pending(search, nodes, edges, state, rng, expand=False)
            key = action = sample_chance(state, rng) if player == CHANCE else self._select(tree, node, state, rng)
            if player != CHANCE:
                tree.edge_visits[node, action] += virtual_loss
                tree.edge_value[node, action] -= virtual_loss
                edges.append((node, action))
            tree.node_visits[node] += virtual_loss
            unchecked_apply(state, action)
            if player == CHANCE and self.config.information_sets:
                seen = state.last_seen_by()
                if seen is not None and search.view.seat not in seen:
                    key = HIDDEN_OUTCOME
            child = tree.child(node, key)
            if child == UNVISITED:
                child = tree.add_child(node, key)
            node = child
            nodes.append(node)

    def _pending(self, search, nodes, edges, state, rng, *, expand: bool) -> _Leaf | None:
        """A leaf waiting for the evaluator; a state off the tree first draws its chance outcomes."""
        if not expand:
            while state.current_player == CHANCE:
                unchecked_apply(state, sample_chance(state, rng))
            if state.current_player == TERMINAL:
                self._backup(search, nodes, edges, np.asarray(state.returns(), dtype=np.float64))
                return None
        return _Leaf(search, nodes, edges, state, expand)

    def _select(self, tree: Tree, node: int, state: State, rng: np.random.Generator) -> int:
        """The move to follow from decision ``node`` among the moves legal in this sampled ``state``."""
        if tree.pending_priors:
            expanded_from = tree.pending_priors.pop(node, None)
            if expanded_from is not None:
                tree.prior[node] = self._deferring.priors([expanded_from])[0]
        legal = state.legal_mask()
        available = _NOT_COUNTED
        if self.config.information_sets:
            available = tree.edge_available[node]
            available[legal] += 1.0
        if self.config.selection == "uct":
            return select_uct(
                tree.edge_visits[node],
                tree.edge_value[node],
                tree.edge_exact[node],
                legal,
                tree.node_visits[node],
                self.config.c_uct,
                rng.random(),
                available,
            )
        real_visits = tree.node_visits[node]
        player = state.current_player
        fpu = (tree.node_value[node, player] / real_visits if real_visits > 0 else 0.0) - self.config.fpu_reduction
        return select_puct(
            tree.edge_visits[node],
            tree.edge_value[node],
            tree.edge_exact[node],
            tree.prior[node],
            legal,
            tree.node_visits[node],
            fpu,
            self.config.c_puct,
            available,
        )

    def _propagate_proof(self, tree: Tree, nodes: list, edges: list) -> None:
        """The last node of the path was just proven: prove its ancestors that now follow from it."""
        child = nodes[-1]
        for node, action in reversed(edges):
            if tree.parent[child] != node:
                return  # a chance node lies between: proofs stop there
            mover = tree.player[node]
            tree.edge_exact[node, action] = tree.proven_value[child, mover]
            if tree.proven[node]:
                return
            if tree.edge_exact[node, action] >= self._best_return:
                best = child
            else:
                exact = tree.edge_exact[node][tree.legal[node]]
                if np.isnan(exact).any() or len(exact) == 0:
                    return
                best = tree.children[node, np.flatnonzero(tree.legal[node])[np.argmax(exact)]]
            tree.proven[node], tree.proven_value[node] = True, tree.proven_value[best]
            child = node

    # ------------------------------------------------------------------ evaluation and backup
    def _evaluate_and_backup(self, leaves: list[_Leaf], rng: np.random.Generator) -> None:
        states = [leaf.state for leaf in leaves]
        movers = None
        priors: list[None] | np.ndarray
        if self._evaluator_observes_mover:
            movers = [int(leaf.search.tree.player[leaf.edges[-1][0]]) if leaf.edges else -1 for leaf in leaves]
        if self._defers_priors:  # priors later, from the state kept with the node
            priors, values = [None] * len(leaves), self._deferring.values(states, movers)
        elif self._evaluator_uses_rng:
            priors, values = self._randomized.evaluate(states, rng=rng)
        elif movers is not None:
            priors, values = self._mover_observing.evaluate(states, movers)
        else:
            priors, values = self.evaluator.evaluate(states)
        values = np.asarray(values, dtype=np.float64)
        for leaf, prior, value in zip(leaves, priors, values):
            tree, node = leaf.search.tree, leaf.nodes[-1]
            if leaf.expand and tree.player[node] == UNEXPANDED:
                tree.player[node] = leaf.state.current_player
                if prior is None:
                    tree.pending_priors[node] = leaf.state
                else:
                    tree.prior[node] = prior
                if self._solving:
                    tree.legal[node] = leaf.state.legal_mask()
            self._backup(leaf.search, leaf.nodes, leaf.edges, value)

    def _backup(self, search: _Search, nodes: list, edges: list, value: np.ndarray) -> None:
        """Add ``value`` to every node on the path and each edge's mover entry; undo the virtual loss."""
        tree = search.tree
        virtual_loss = self.config.virtual_loss
        path = np.asarray(nodes, dtype=np.int64)
        tree.node_visits[path] += 1.0
        tree.node_visits[path[:-1]] -= virtual_loss
        tree.node_value[path] += value
        for node, action in edges:
            tree.edge_visits[node, action] += 1.0 - virtual_loss
            tree.edge_value[node, action] += value[tree.player[node]] + virtual_loss
        search.done += 1

    # ------------------------------------------------------------------ result
    def _finish(self, search: _Search) -> SearchResult:
        tree = search.tree
        if search.saved_prior is not None:
            tree.prior[ROOT_INDEX] = search.saved_prior
        visits = tree.edge_visits[ROOT_INDEX].copy()
        exact = tree.edge_exact[ROOT_INDEX].copy()
        with np.errstate(invalid="ignore", divide="ignore"):
            q = np.where(visits > 0, tree.edge_value[ROOT_INDEX] / visits, np.nan)
        q = np.where(np.isnan(exact), q, exact)
        value = tree.proven_value[ROOT_INDEX].copy() if tree.proven[ROOT_INDEX] else tree.mean_value(ROOT_INDEX)
        result = SearchResult(
            visits=visits,
            value=value,
            prior=tree.prior[ROOT_INDEX].copy(),
            q=q,
            player=search.view.seat,
            tree=tree,
            legal=search.view.legal_mask.copy(),
            exact=exact if self._solving else None,
            bounds=self.game.return_bounds,
        )
        if self.config.reuse_tree:
            self._pool.append(_StoredTree(tree, list(search.view.history), search.view.seat, search.setup))
            del self._pool[: max(0, len(self._pool) - self._pool_limit)]
        return result

"""The search tree as preallocated arrays indexed by node number.

A node is a position reached from the root by a sequence of action ids (chance
outcomes included). Decision nodes keep per-edge statistics in dense rows of
``num_actions``; chance nodes keep their children in a small dict keyed by
(node, outcome), because outcome ids need not be action ids. A child always
has a larger number than its parent, which makes subtree extraction a few
vectorised passes.
"""

from __future__ import annotations

import numpy as np

from boardzero.core.api import State

ROOT_INDEX = 0
HIDDEN_OUTCOME = -1  # the one child of a chance node for every outcome the searching seat cannot see
UNVISITED = -1  # children[node, action] of an edge never taken
UNEXPANDED = -3  # player[node] before the node was evaluated (CHANCE=-1, TERMINAL=-2, or a seat)
# per-node arrays: the links hold node numbers (remapped by subtree), the data rows are copied as they are
_NODE_LINKS = ("parent", "children")
_NODE_DATA = (
    "player",
    "node_visits",
    "node_value",
    "prior",
    "edge_visits",
    "edge_value",
    "edge_available",
    "legal",
    "proven",
    "proven_value",
    "edge_exact",
)


class Tree:
    def __init__(self, num_actions: int, num_players: int, *, capacity: int = 256):
        self.num_actions = num_actions
        self.num_players = num_players
        self.size = 0
        self._allocate(max(capacity, 2))
        self.chance_children: dict[tuple[int, int], int] = {}  # (node, outcome) -> child
        # decision nodes whose priors wait until a simulation first chooses there: node -> the state it was
        # expanded from (an evaluator with costly priors, ``defers_priors``)
        self.pending_priors: dict[int, State] = {}
        self.add_node(-1)  # the root

    def _allocate(self, capacity: int) -> None:
        actions, players = self.num_actions, self.num_players
        self.capacity = capacity
        self.player = np.full(capacity, UNEXPANDED, dtype=np.int16)  # [N] seat to move, CHANCE, TERMINAL
        self.parent = np.full(capacity, -1, dtype=np.int32)  # [N]
        self.node_visits = np.zeros(capacity, dtype=np.float64)  # [N] simulations through the node
        self.node_value = np.zeros((capacity, players), dtype=np.float64)  # [N, P] sum of value vectors
        self.children = np.full((capacity, actions), UNVISITED, dtype=np.int32)  # [N, A]
        self.prior = np.zeros((capacity, actions), dtype=np.float32)  # [N, A]
        self.edge_visits = np.zeros((capacity, actions), dtype=np.float64)  # [N, A]
        self.edge_value = np.zeros((capacity, actions), dtype=np.float64)  # [N, A] sum of the mover's value
        # [N, A] simulations that found the move legal here (kept by information-set search only)
        self.edge_available = np.zeros((capacity, actions), dtype=np.float64)
        # exact results (solver): a node's proven value vector, and each edge's proven value for its mover
        self.legal = np.zeros((capacity, actions), dtype=bool)  # [N, A] moves legal at a decision node
        self.proven = np.zeros(capacity, dtype=bool)  # [N]
        self.proven_value = np.zeros((capacity, players), dtype=np.float64)  # [N, P] valid where proven
        self.edge_exact = np.full((capacity, actions), np.nan)  # [N, A] nan until the child is proven

    def _grow(self) -> None:
        old = {name: getattr(self, name) for name in _NODE_LINKS + _NODE_DATA}
        self._allocate(self.capacity * 2)
        for name, array in old.items():
            getattr(self, name)[: len(array)] = array

    def add_node(self, parent: int) -> int:
        if self.size == self.capacity:
            self._grow()
        node = self.size
        self.size += 1
        self.parent[node] = parent
        return node

    def child(self, node: int, action: int) -> int:
        """The child reached by ``action`` (or chance outcome) from ``node``; UNVISITED if none yet."""
        if self.player[node] == -1:  # CHANCE
            return self.chance_children.get((node, int(action)), UNVISITED)
        if not 0 <= action < self.num_actions:
            return UNVISITED
        return int(self.children[node, action])

    def add_child(self, node: int, action: int) -> int:
        child = self.add_node(node)
        if self.player[node] == -1:
            self.chance_children[(node, int(action))] = child
        else:
            self.children[node, action] = child
        return child

    def mean_value(self, node: int) -> np.ndarray:
        """float[P]: the mean backed-up value vector of ``node`` (zeros if never visited)."""
        visits = self.node_visits[node]
        return self.node_value[node] / visits if visits > 0 else np.zeros(self.num_players)

    def walk(self, node: int, actions, *, information_sets: bool = False) -> int:
        """Follow ``actions`` from ``node``; UNVISITED if one was never taken, or is unknown (None) where
        the tree does not keep ``information_sets`` (there an unknown chance outcome is ``HIDDEN_OUTCOME``)."""
        for action in actions:
            if node < 0:
                return UNVISITED
            if action is None:
                if not (information_sets and self.player[node] == -1):
                    return UNVISITED
                action = HIDDEN_OUTCOME
            node = self.child(node, int(action))
        return node

    def subtree(self, root: int) -> Tree:
        """A compact copy of the subtree under ``root``, which becomes node ``ROOT_INDEX``."""
        n = self.size
        parent = self.parent[:n]
        has_parent = parent >= 0
        safe_parent = np.where(has_parent, parent, 0)
        keep = np.zeros(n, dtype=bool)
        keep[root] = True
        while True:  # one pass per tree level
            grown = keep | (has_parent & keep[safe_parent])
            if np.array_equal(grown, keep):
                break
            keep = grown
        index = np.flatnonzero(keep)  # index[0] == root: descendants have larger numbers
        remap = np.full(n, UNVISITED, dtype=np.int32)
        remap[index] = np.arange(len(index), dtype=np.int32)
        out = Tree.__new__(Tree)
        out.num_actions, out.num_players = self.num_actions, self.num_players
        out._allocate(max(2 * len(index), 64))
        out.size = len(index)
        m = len(index)
        out.parent[:m] = np.where(parent[index] >= 0, remap[safe_parent[index]], -1)
        out.parent[0] = -1
        kids = self.children[index]
        out.children[:m] = np.where(kids >= 0, remap[np.maximum(kids, 0)], UNVISITED)
        for name in _NODE_DATA:
            getattr(out, name)[:m] = getattr(self, name)[index]
        out.chance_children = {
            (int(remap[node]), outcome): int(remap[child])
            for (node, outcome), child in self.chance_children.items()
            if keep[node]
        }
        out.pending_priors = {int(remap[node]): state for node, state in self.pending_priors.items() if keep[node]}
        return out

"""The array tree: growth, child lookup, subtree extraction with chance children."""

from __future__ import annotations

import numpy as np

from boardzero.core.api import CHANCE
from boardzero.search.tree import ROOT_INDEX, UNVISITED, Tree


def test_tree_grows_and_extracts_a_compact_subtree():
    tree = Tree(num_actions=3, num_players=2, capacity=2)
    tree.player[ROOT_INDEX] = 0
    a = tree.add_child(ROOT_INDEX, 1)
    b = tree.add_child(ROOT_INDEX, 2)
    tree.player[a] = CHANCE
    c = tree.add_child(a, 17)  # chance outcome ids need not be action ids
    tree.player[c] = 1
    d = tree.add_child(c, 0)
    tree.add_child(b, 0)
    tree.node_visits[[a, c, d]] = [5, 4, 2]
    tree.edge_visits[c, 0] = 2
    tree.proven[d], tree.proven_value[d], tree.edge_exact[c, 0] = True, [-1.0, 1.0], 1.0  # solver results
    assert tree.capacity >= tree.size == 6
    assert tree.walk(ROOT_INDEX, [1, 17, 0]) == d
    assert tree.walk(ROOT_INDEX, [1, None]) == UNVISITED
    sub = tree.subtree(a)
    assert sub.size == 3
    assert sub.player[ROOT_INDEX] == CHANCE and sub.parent[ROOT_INDEX] == -1
    new_c = sub.child(ROOT_INDEX, 17)
    new_d = sub.child(new_c, 0)
    assert sub.node_visits[[ROOT_INDEX, new_c, new_d]].tolist() == [5, 4, 2]
    assert sub.edge_visits[new_c, 0] == 2 and sub.parent[new_d] == new_c
    assert sub.proven[: sub.size].tolist() == [False, False, True] and sub.proven_value[new_d].tolist() == [-1, 1]
    assert sub.edge_exact[new_c, 0] == 1.0 and np.isnan(sub.edge_exact[ROOT_INDEX]).all()
    assert sub.child(new_c, 1) == UNVISITED
    assert np.all(sub.children[: sub.size] < sub.size)

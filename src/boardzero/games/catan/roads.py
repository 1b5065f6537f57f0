"""Longest road: the length of a seat's longest simple path of roads, and who holds the card (compiled)."""

from __future__ import annotations

import numpy as np
from numba import njit

from boardzero.games.catan.offsets import EDGE_OWNER, G_LONGEST_ROAD, G_NUM_PLAYERS, NODE_OWNER, P_ROAD_LEN, pb
from boardzero.games.catan.queries import node_touches_road
from boardzero.games.catan.topology import NODE_EDGES, NODE_NODES


@njit(cache=True)
def longest_road(s, p):
    """Length of p's longest simple path of roads; opponents' buildings cut it."""
    best = 0
    used = np.zeros(72, dtype=np.bool_)
    stack_node = np.empty(17, dtype=np.int64)
    stack_k = np.empty(17, dtype=np.int64)
    stack_edge = np.empty(17, dtype=np.int64)
    for start in range(54):
        if not node_touches_road(s, start, p):
            continue
        depth = 0
        stack_node[0] = start
        stack_k[0] = 0
        while depth >= 0:
            n = stack_node[depth]
            k = stack_k[depth]
            if k >= 3:
                if depth > 0:
                    used[stack_edge[depth]] = False
                depth -= 1
                continue
            stack_k[depth] = k + 1
            e = NODE_EDGES[n, k]
            if e < 0 or used[e] or s[EDGE_OWNER + e] != p:
                continue
            if depth > 0:
                owner = s[NODE_OWNER + n]
                if owner >= 0 and owner != p:
                    continue
            used[e] = True
            depth += 1
            if depth > best:
                best = depth
            stack_node[depth] = NODE_NODES[n, k]
            stack_k[depth] = 0
            stack_edge[depth] = e
    return best


@njit(cache=True)
def update_longest_road_holder(s):
    """5th-edition Almanac: the holder keeps the card while tied for longest; otherwise a sole longest
    road of 5+ takes it; if several tie (without the holder) or nobody has 5+, it is set aside."""
    n = s[G_NUM_PLAYERS]
    holder = s[G_LONGEST_ROAD]
    best = 0
    for p in range(n):
        best = max(best, s[pb(p) + P_ROAD_LEN])
    if holder >= 0 and s[pb(holder) + P_ROAD_LEN] == best and best >= 5:
        return
    count = 0
    who = -1
    for p in range(n):
        if s[pb(p) + P_ROAD_LEN] == best:
            count += 1
            who = p
    if best >= 5 and count == 1:
        s[G_LONGEST_ROAD] = who
    else:
        s[G_LONGEST_ROAD] = -1

"""Static geometry of the Catan board, computed once at import.

Hexes are pointy-topped and laid out in rows of 3, 4, 5, 4, 3. Coordinates are
in half units: a hex centred at (X, Y) has its corners at (X, Y-2) top,
(X+1, Y-1), (X+1, Y+1), (X, Y+2) bottom, (X-1, Y+1), (X-1, Y-1), clockwise.

Numbering (see docs/catan.md for the picture):
- hexes 0..18 row by row, top to bottom, left to right;
- intersections (nodes) 0..53 sorted by (row, column) of their position;
- paths (edges) 0..71 sorted by the (row, column) of their midpoint.

Every table is a plain int64 numpy array, padded with -1 where a node has
fewer neighbours. The compiled engine reads them as constants.
"""

from __future__ import annotations

import numpy as np

ROW_LENGTHS = (3, 4, 5, 4, 3)
NUM_HEXES = 19
NUM_NODES = 54
NUM_EDGES = 72
NUM_HARBOURS = 9

_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))  # clockwise from the top


def _hex_centres() -> list[tuple[int, int]]:
    centres = []
    for row, length in enumerate(ROW_LENGTHS):
        for i in range(length):
            centres.append((2 * i + abs(row - 2) + 1, 3 * row + 2))
    return centres


HEX_CENTRES = np.array(_hex_centres(), dtype=np.int64)  # [19, 2] (X, Y)
HEX_ROW = np.array([r for r, n in enumerate(ROW_LENGTHS) for _ in range(n)], dtype=np.int64)  # [19]
HEX_COL = np.array([i for n in ROW_LENGTHS for i in range(n)], dtype=np.int64)  # [19]


def _build():
    corners: dict[tuple[int, int], None] = {}  # ordered, without repeats
    for x, y in HEX_CENTRES:
        for dx, dy in _CORNER_OFFSETS:
            corners[(int(x + dx), int(y + dy))] = None
    node_xy = sorted(corners, key=lambda p: (p[1], p[0]))
    node_id = {p: i for i, p in enumerate(node_xy)}
    hex_nodes = [[node_id[(int(x + dx), int(y + dy))] for dx, dy in _CORNER_OFFSETS] for x, y in HEX_CENTRES]
    edge_set: dict[tuple[int, int], None] = {}  # ordered, without repeats
    for nodes in hex_nodes:
        for k in range(6):
            a, b = nodes[k], nodes[(k + 1) % 6]
            edge_set[(min(a, b), max(a, b))] = None

    def midpoint(e):
        (xa, ya), (xb, yb) = node_xy[e[0]], node_xy[e[1]]
        return (ya + yb, xa + xb)

    edges = sorted(edge_set, key=midpoint)
    edge_id = {e: i for i, e in enumerate(edges)}
    hex_edges = [[edge_id[(min(n[k], n[(k + 1) % 6]), max(n[k], n[(k + 1) % 6]))] for k in range(6)] for n in hex_nodes]
    return node_xy, hex_nodes, edges, hex_edges


_node_xy, _hex_nodes, _edges, _hex_edges = _build()

NODE_XY = np.array(_node_xy, dtype=np.int64)  # [54, 2] (X, Y) in half units
HEX_NODES = np.array(_hex_nodes, dtype=np.int64)  # [19, 6] clockwise from the top corner
HEX_EDGES = np.array(_hex_edges, dtype=np.int64)  # [19, 6] edge k joins corners k and k+1
EDGE_NODES = np.array(_edges, dtype=np.int64)  # [72, 2]

NODE_HEXES = np.full((NUM_NODES, 3), -1, dtype=np.int64)  # [54, 3]
NODE_EDGES = np.full((NUM_NODES, 3), -1, dtype=np.int64)  # [54, 3]
NODE_NODES = np.full((NUM_NODES, 3), -1, dtype=np.int64)  # [54, 3] NODE_NODES[n, k] is across NODE_EDGES[n, k]
for _h in range(NUM_HEXES):
    for _n in HEX_NODES[_h]:
        _row = NODE_HEXES[_n]
        _row[np.argmax(_row < 0)] = _h
for _e, (_a, _b) in enumerate(EDGE_NODES):
    for _n, _m in ((_a, _b), (_b, _a)):
        _k = int(np.argmax(NODE_EDGES[_n] < 0))
        NODE_EDGES[_n, _k] = _e
        NODE_NODES[_n, _k] = _m

EDGE_HEXES = np.full((NUM_EDGES, 2), -1, dtype=np.int64)  # [72, 2]
for _h in range(NUM_HEXES):
    for _e in HEX_EDGES[_h]:
        _row = EDGE_HEXES[_e]
        _row[np.argmax(_row < 0)] = _h

HEX_NEIGHBOURS = np.full((NUM_HEXES, 6), -1, dtype=np.int64)  # [19, 6] hexes sharing an edge
for _h in range(NUM_HEXES):
    _k = 0
    for _e in HEX_EDGES[_h]:
        for _o in EDGE_HEXES[_e]:
            if _o >= 0 and _o != _h:
                HEX_NEIGHBOURS[_h, _k] = _o
                _k += 1


def _coast_edges() -> list[int]:
    """Edges on the coast (one hex only), clockwise starting at the upper-left side of hex 3 (path 10)."""
    coast = [e for e in range(NUM_EDGES) if EDGE_HEXES[e, 1] < 0]
    cx, cy = HEX_CENTRES[:, 0].mean(), HEX_CENTRES[:, 1].mean()

    def angle(e):
        (xa, ya), (xb, yb) = NODE_XY[EDGE_NODES[e, 0]], NODE_XY[EDGE_NODES[e, 1]]
        mx, my = (xa + xb) / 2 - cx, ((ya + yb) / 2 - cy) * 0.866  # y scale makes the hexes regular
        return (np.arctan2(mx, -my) + 2 * np.pi + 0.75) % (2 * np.pi)  # clockwise from the upper left (path 10)

    return sorted(coast, key=angle)


COAST_EDGES = np.array(_coast_edges(), dtype=np.int64)  # [30] clockwise
# Harbour slots on the frame: 9 coastal paths, spaced 3, 3, 4 around the coast as on the printed frame.
HARBOUR_EDGES = COAST_EDGES[[0, 3, 6, 10, 13, 16, 20, 23, 26]]  # [9]
HARBOUR_NODES = EDGE_NODES[HARBOUR_EDGES]  # [9, 2]

assert len(NODE_XY) == NUM_NODES and len(EDGE_NODES) == NUM_EDGES and len(COAST_EDGES) == 30
assert len(set(HARBOUR_NODES.ravel().tolist())) == 18

"""Catan in brick coordinates: hexes, intersections and paths on one 11 x 21 grid, for networks with a
board branch (``Catan.board_layout``).

Rows alternate between the six rows of intersections (even rows) and the five
rows of hexes (odd rows); columns are the board's half units doubled. An
intersection at (X, Y) sits at (2 (Y // 3), 2 X), a hex centred at X in hex row
r at (2 r + 1, 2 X), a path at its midpoint: rising and falling paths lie in
the rows of intersections, upright paths in the rows of hexes. Every hex, its 6
corners and 6 sides then fall inside a 3 x 5 window around the hex, so a
3 x 5 convolution sees a hex with everything on it (the "brick coordinates"
of the cross-dimensional network for Catan).

Hex, intersection and path features keep separate channels (as they have
different meanings), plus one channel per kind marking its cells. Settlement
and city actions are read at intersections, roads at paths, robber moves at
hexes; the rest of the actions are not spatial.
"""

from __future__ import annotations

import numpy as np

from boardzero.core.layout import BoardLayout
from boardzero.games.catan import observe as O
from boardzero.games.catan.actions import A_CITY, A_ROAD, A_ROBBER, A_SETTLEMENT, NUM_ACTIONS
from boardzero.games.catan.topology import EDGE_NODES, HEX_CENTRES, HEX_ROW, NODE_XY

HEIGHT, WIDTH = 11, 21
HEX_CELLS = np.stack([2 * HEX_ROW + 1, 2 * HEX_CENTRES[:, 0]], axis=1)  # [19, 2] (row, col)
NODE_CELLS = np.stack([2 * (NODE_XY[:, 1] // 3), 2 * NODE_XY[:, 0]], axis=1)  # [54, 2]


def _edge_cells() -> np.ndarray:
    cells = []
    for a, b in EDGE_NODES:
        (xa, ya), (xb, yb) = NODE_XY[a], NODE_XY[b]
        if ya // 3 == yb // 3:  # rising or falling side: in the row of its intersections
            cells.append((2 * (ya // 3), xa + xb))
        else:  # upright side: in the hex row between its ends
            cells.append((2 * min(ya // 3, yb // 3) + 1, xa + xb))
    return np.array(cells, dtype=np.int64)


EDGE_CELLS = _edge_cells()  # [72, 2]
# input channels: hex features, intersection features, path features, then one marker channel per kind
HEX_CHANNELS = 0
NODE_CHANNELS = O.HEX_FEATURES
EDGE_CHANNELS = NODE_CHANNELS + O.NODE_FEATURES
MARKERS = EDGE_CHANNELS + O.EDGE_FEATURES
CHANNELS = MARKERS + 3


def _flat_cell(channel: int, cell: np.ndarray) -> int:
    return int((channel * HEIGHT + cell[0]) * WIDTH + cell[1])


def board_layout() -> BoardLayout:
    source, target = [], []
    for first, features, cells, at in (
        (HEX_CHANNELS, O.HEX_FEATURES, HEX_CELLS, O.HEXES_AT),
        (NODE_CHANNELS, O.NODE_FEATURES, NODE_CELLS, O.NODES_AT),
        (EDGE_CHANNELS, O.EDGE_FEATURES, EDGE_CELLS, O.EDGES_AT),
    ):
        for item, cell in enumerate(cells):
            for f in range(features):
                source.append(at + item * features + f)
                target.append(_flat_cell(first + f, cell))
    valid = np.zeros((HEIGHT, WIDTH), bool)
    for cells in (HEX_CELLS, NODE_CELLS, EDGE_CELLS):
        valid[cells[:, 0], cells[:, 1]] = True
    action_target = np.full(NUM_ACTIONS, -1, np.int64)
    for channel, (first, cells) in enumerate(
        ((A_SETTLEMENT, NODE_CELLS), (A_CITY, NODE_CELLS), (A_ROAD, EDGE_CELLS), (A_ROBBER, HEX_CELLS))
    ):
        for item, cell in enumerate(cells):
            action_target[first + item] = _flat_cell(channel, cell)
    markers = [
        _flat_cell(MARKERS + k, cell) for k, cells in enumerate((HEX_CELLS, NODE_CELLS, EDGE_CELLS)) for cell in cells
    ]
    return BoardLayout(
        channels=CHANNELS,
        height=HEIGHT,
        width=WIDTH,
        grid_source=np.array(source, np.int64),
        grid_target=np.array(target, np.int64),
        grid_ones=np.array(markers, np.int64),
        vector_source=np.arange(O.HEXES_AT, dtype=np.int64),
        valid=valid,
        action_channels=4,
        action_target=action_target,
    )

"""Board layouts: the official beginner map and random maps with the official distributions.

A board is three small arrays: ``hex_resource[19]`` (0..4 resource, 5 desert),
``hex_number[19]`` (2..12, 0 on the desert) and ``harbours[9]`` (the harbour
type of each slot of ``topology.HARBOUR_EDGES``: 0..4 a 2:1 resource harbour,
5 a generic 3:1 harbour).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from boardzero.core.errors import ConfigError
from boardzero.games.catan.topology import HARBOUR_NODES, HEX_NEIGHBOURS, NUM_HEXES, NUM_NODES

WOOD, BRICK, SHEEP, WHEAT, ORE, DESERT = range(6)
GENERIC = 5  # harbour type of a 3:1 harbour
RESOURCE_NAMES = ("wood", "brick", "sheep", "wheat", "ore")
TERRAIN_NAMES = RESOURCE_NAMES + ("desert",)

# Official distributions (5th edition): 4 forest, 3 hills, 4 pasture, 4 fields, 3 mountains, 1 desert.
TILES = (WOOD,) * 4 + (BRICK,) * 3 + (SHEEP,) * 4 + (WHEAT,) * 4 + (ORE,) * 3 + (DESERT,)
TOKENS = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)
HARBOUR_TYPES = (GENERIC,) * 4 + (WOOD, BRICK, SHEEP, WHEAT, ORE)

# The starter map of the rule book ("starting set-up for beginners"), row by row.
_BEGINNER = (
    (ORE, 10),
    (SHEEP, 2),
    (WOOD, 9),
    (WHEAT, 12),
    (BRICK, 6),
    (SHEEP, 4),
    (BRICK, 10),
    (WHEAT, 9),
    (WOOD, 11),
    (DESERT, 0),
    (WOOD, 3),
    (ORE, 8),
    (WOOD, 8),
    (ORE, 3),
    (WHEAT, 4),
    (SHEEP, 5),
    (BRICK, 5),
    (WHEAT, 6),
    (SHEEP, 11),
)
# Harbour slots clockwise from path 10, the upper-left side of hex 3 (topology.HARBOUR_EDGES order).
_BEGINNER_HARBOURS = (GENERIC, SHEEP, GENERIC, GENERIC, BRICK, WOOD, GENERIC, WHEAT, ORE)


@dataclass(frozen=True)
class Board:
    hex_resource: np.ndarray  # [19] 0..4 resource, 5 desert
    hex_number: np.ndarray  # [19] 2..12, 0 on the desert
    harbours: np.ndarray  # [9] harbour type per slot

    @property
    def desert(self) -> int:
        return int(np.flatnonzero(self.hex_resource == DESERT)[0])

    def node_harbours(self) -> np.ndarray:
        """[54] harbour type at each intersection, -1 where there is none."""
        out = np.full(NUM_NODES, -1, dtype=np.int64)
        out[HARBOUR_NODES[:, 0]] = self.harbours
        out[HARBOUR_NODES[:, 1]] = self.harbours
        return out


def beginner_board() -> Board:
    res = np.array([r for r, _ in _BEGINNER], dtype=np.int64)
    num = np.array([n for _, n in _BEGINNER], dtype=np.int64)
    return Board(res, num, np.array(_BEGINNER_HARBOURS, dtype=np.int64))


_HEX_ADJACENT = np.zeros((NUM_HEXES, NUM_HEXES), dtype=np.bool_)  # [19, 19]
for _h in range(NUM_HEXES):
    for _o in HEX_NEIGHBOURS[_h]:
        if _o >= 0:
            _HEX_ADJACENT[_h, _o] = True
_TILES = np.array(TILES, dtype=np.int64)
_RED_FIRST_TOKENS = np.array(sorted(TOKENS, key=lambda t: t not in (6, 8)), dtype=np.int64)  # 6 6 8 8 2 3 ...
_HARBOUR_TYPES = np.array(HARBOUR_TYPES, dtype=np.int64)


def red_numbers_apart(num: np.ndarray) -> bool:
    """True when no two hexes numbered 6 or 8 share a side."""
    red = (num == 6) | (num == 8)
    return not _HEX_ADJACENT[np.ix_(red, red)].any()


@njit(cache=True)
def _shuffle_until_apart(land, u, adjacent):
    """Shuffle ``land`` (Fisher-Yates with the uniforms ``u``, 17 per try) until its first four
    hexes share no side; returns the order, or an empty array when ``u`` ran out."""
    order = land.copy()
    k = 0
    while k + 17 <= u.shape[0]:
        order[:] = land
        for i in range(17, 0, -1):
            j = int(u[k] * (i + 1))
            k += 1
            order[i], order[j] = order[j], order[i]
        apart = True
        for a in range(4):
            for b in range(a + 1, 4):
                if adjacent[order[a], order[b]]:
                    apart = False
        if apart:
            return order
    return order[:0]


def random_board(rng: np.random.Generator) -> Board:
    """Shuffled tiles, tokens and harbour types, uniform over the boards whose 6s and 8s are apart.

    The land hexes are shuffled until the first four (which get 6, 6, 8, 8) share no side; the
    other tokens follow in the shuffled order. This equals rejecting whole token layouts.
    """
    res = rng.permutation(_TILES)
    land = np.flatnonzero(res != DESERT)
    while True:
        order = _shuffle_until_apart(land, rng.random(17 * 32), _HEX_ADJACENT)
        if len(order):
            break
    num = np.zeros(NUM_HEXES, dtype=np.int64)
    num[order] = _RED_FIRST_TOKENS
    return Board(res, num, rng.permutation(_HARBOUR_TYPES))


def parse_board_option(board: str) -> tuple[str, int | None]:
    """Validate the ``board`` option: 'beginner', 'random' or 'fixed:<seed>'."""
    if board in ("beginner", "random"):
        return board, None
    if board.startswith("fixed:"):
        try:
            return "fixed", int(board[6:])
        except ValueError:
            pass
    raise ConfigError("catan.board", f"{board!r} is not a board; allowed: beginner, random, fixed:<seed>")


def make_board(board: str, seed: int | None) -> Board:
    kind, fixed_seed = parse_board_option(board)
    if kind == "beginner":
        return beginner_board()
    if kind == "fixed":
        return random_board(np.random.default_rng(fixed_seed))
    return random_board(np.random.default_rng(seed))

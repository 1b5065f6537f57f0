"""Board layouts: the official beginner map and random maps with the official distributions.

A board is three small arrays: ``hex_resource[19]`` (0..4 resource, 5 desert),
``hex_number[19]`` (2..12, 0 on the desert) and ``harbours[9]`` (the harbour
type of each slot of ``topology.HARBOUR_EDGES``: 0..4 a 2:1 resource harbour,
5 a generic 3:1 harbour).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
    (ORE, 10), (SHEEP, 2), (WOOD, 9),
    (WHEAT, 12), (BRICK, 6), (SHEEP, 4), (BRICK, 10),
    (WHEAT, 9), (WOOD, 11), (DESERT, 0), (WOOD, 3), (ORE, 8),
    (WOOD, 8), (ORE, 3), (WHEAT, 4), (SHEEP, 5),
    (BRICK, 5), (WHEAT, 6), (SHEEP, 11),
)
# Harbour slots clockwise from the top-left (topology.HARBOUR_EDGES order).
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
        for slot, kind in enumerate(self.harbours):
            out[HARBOUR_NODES[slot]] = kind
        return out


def beginner_board() -> Board:
    res = np.array([r for r, _ in _BEGINNER], dtype=np.int64)
    num = np.array([n for _, n in _BEGINNER], dtype=np.int64)
    return Board(res, num, np.array(_BEGINNER_HARBOURS, dtype=np.int64))


def _red_numbers_apart(res: np.ndarray, num: np.ndarray) -> bool:
    for h in range(NUM_HEXES):
        if num[h] in (6, 8):
            for o in HEX_NEIGHBOURS[h]:
                if o >= 0 and num[o] in (6, 8):
                    return False
    return True


def random_board(rng: np.random.Generator) -> Board:
    """Shuffled tiles, tokens (6 and 8 never adjacent) and harbour types."""
    res = rng.permutation(np.array(TILES, dtype=np.int64))
    land = np.flatnonzero(res != DESERT)
    while True:
        num = np.zeros(NUM_HEXES, dtype=np.int64)
        num[land] = rng.permutation(np.array(TOKENS, dtype=np.int64))
        if _red_numbers_apart(res, num):
            break
    harbours = rng.permutation(np.array(HARBOUR_TYPES, dtype=np.int64))
    return Board(res, num, harbours)


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


def make_board(board: str, seed: int) -> Board:
    kind, fixed_seed = parse_board_option(board)
    if kind == "beginner":
        return beginner_board()
    if kind == "fixed":
        return random_board(np.random.default_rng(fixed_seed))
    return random_board(np.random.default_rng(seed))

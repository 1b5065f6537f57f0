"""The layout of a Catan state array: named offsets, action and outcome ids, phases, costs.

One game is one flat ``int32[STATE_SIZE]`` array (per-player blocks are ``P_BASE + seat * P_SIZE``):

    HEX_RES[19] HEX_NUM[19] NODE_PORT[54]          the board (part of the state)
    NODE_OWNER[54] NODE_LEVEL[54] EDGE_OWNER[72]   buildings: owner seat or -1; 1 settlement, 2 city
    per seat: hand[5] dev[5] dev_new[5] knights roads_left settlements_left cities_left
              road_len discard port_mask cards played[5]
    KNOWN[4][4][5]    KNOWN[s][p][r]: what seat s knows for sure that seat p holds (lower bound)
    BANK[5] DECK[5] and the globals G_* (phase, seats, turn, holders, ...)

These offsets belong to the engine's modules (the rules, ``fields`` and ``view``); everything else reads a
state through ``view.CatanView`` (Python) or ``fields`` (compiled code).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ----------------------------------------------------------------------------- constants
NUM_RESOURCES = 5
KNIGHT, VICTORY_POINT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY = range(5)
DEV_COUNTS = np.array([14, 5, 2, 2, 2], dtype=np.int64)
MAX_PLAYERS = 4

# action ids
A_SETTLEMENT = 0  # + node (54)
A_CITY = 54  # + node (54)
A_ROAD = 108  # + edge (72)
A_ROBBER = 180  # + hex (19)
A_VICTIM = 199  # + seat (4)
A_DISCARD = 203  # + resource (5)
A_YOP = 208  # + resource (5): year-of-plenty pick
A_MONOPOLY = 213  # + resource (5): play monopoly naming it
A_TRADE = 218  # + give * 4 + get' (20): bank/harbour trade
A_BUY_DEV = 238
A_KNIGHT = 239
A_PLAY_ROAD_BUILDING = 240
A_PLAY_YOP = 241
A_ROLL = 242
A_END_TURN = 243
NUM_ACTIONS = 244

# chance outcome ids
O_DICE = 0  # outcome = dice total 2..12
O_DEV = 20  # + dev card type
O_STEAL = 30  # + resource

# phases
PH_SETUP_SETTLEMENT = 0
PH_SETUP_ROAD = 1
PH_PRE_ROLL = 2
PH_DICE = 3  # chance
PH_DISCARD = 4
PH_ROBBER = 5
PH_VICTIM = 6
PH_STEAL = 7  # chance
PH_MAIN = 8
PH_DEV_DRAW = 9  # chance
PH_ROAD_BUILDING = 10
PH_YEAR_OF_PLENTY = 11
PH_OVER = 12
NUM_PHASES = 13

# state offsets
HEX_RES = 0
HEX_NUM = 19
NODE_PORT = 38
NODE_OWNER = 92
NODE_LEVEL = 146
EDGE_OWNER = 200
P_BASE = 272
P_HAND = 0
P_DEV = 5
P_DEV_NEW = 10
P_KNIGHTS = 15
P_ROADS_LEFT = 16
P_SETTLEMENTS_LEFT = 17
P_CITIES_LEFT = 18
P_ROAD_LEN = 19
P_DISCARD = 20
P_PORTS = 21  # bit r: 2:1 harbour of resource r; bit 5: generic 3:1
P_CARDS = 22
P_PLAYED = 23  # [5] development cards played, by type
P_SIZE = 28
KNOWN = P_BASE + MAX_PLAYERS * P_SIZE  # 384
BANK = KNOWN + MAX_PLAYERS * MAX_PLAYERS * NUM_RESOURCES  # 464
DECK = BANK + 5  # 469
G = DECK + 5  # 474
G_NUM_PLAYERS = G + 0
G_VP_TO_WIN = G + 1
G_TURN_LIMIT = G + 2
G_PHASE = G + 3
G_TURN_PLAYER = G + 4
G_DECIDER = G + 5
G_TURN = G + 6  # completed turns after setup
G_SETUP_STEP = G + 7
G_HAS_ROLLED = G + 8
G_DEV_PLAYED = G + 9  # a development card was played this turn
G_FREE_ROADS = G + 10
G_YOP_LEFT = G + 11
G_ROBBER = G + 12
G_LARGEST_ARMY = G + 13  # seat or -1
G_LONGEST_ROAD = G + 14  # seat or -1
G_WINNER = G + 15  # seat, -1 while playing or when the turn limit ended the game
G_LAST_ROLL = G + 16
G_LAST_SETTLEMENT = G + 17
G_VICTIM = G + 18
G_RETURN_PHASE = G + 19  # phase to go back to after robber / road building / year of plenty
G_STEPS = G + 20
STATE_SIZE = G + 21

COST_ROAD = np.array([1, 1, 0, 0, 0], dtype=np.int64)
COST_SETTLEMENT = np.array([1, 1, 1, 1, 0], dtype=np.int64)
COST_CITY = np.array([0, 0, 0, 2, 3], dtype=np.int64)
COST_DEV = np.array([0, 0, 1, 1, 1], dtype=np.int64)

# probability of each dice total, index = total
DICE_PROBS = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.float64) / 36.0


# ----------------------------------------------------------------------------- small helpers
@njit(cache=True, inline="always")
def pb(p):
    return P_BASE + p * P_SIZE


@njit(cache=True, inline="always")
def kn(s_, p, r):
    return KNOWN + (s_ * MAX_PLAYERS + p) * NUM_RESOURCES + r

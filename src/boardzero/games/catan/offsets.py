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
NUM_ACTIONS = 244  # the action space of games without player-to-player trading (unchanged since the first models)
# player-to-player trading (only in games with the ``trading`` option; ids after all of the above)
A_OFFER = 244  # + offer index (NUM_OFFERS, the catalogue ``OFFER_GIVE`` / ``OFFER_GET`` below)
NUM_OFFERS = 120
A_ACCEPT = A_OFFER + NUM_OFFERS  # 364: a seat answering the open offer takes it
A_DECLINE = A_ACCEPT + 1  # 365
A_TRADE_WITH = A_DECLINE + 1  # 366 + seat (4): the proposer trades with that accepting seat
A_WITHDRAW = A_TRADE_WITH + 4  # 370: the proposer takes the offer back
NUM_ACTIONS_TRADING = A_WITHDRAW + 1  # 371: the action space of games with trading
MAX_ACTIONS = NUM_ACTIONS_TRADING  # size of a buffer that holds every legal action of any game

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
PH_TRADE_ANSWER = 13  # the seats other than the proposer answer the open offer, one by one
PH_TRADE_CHOOSE = 14  # the proposer picks an accepting seat or withdraws
NUM_PHASES = 15
NUM_BASE_PHASES = 13  # the phases of games without trading (what observations one-hot)

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
# player-to-player trading (all 0 in games without it)
T_LIMIT = G + 21  # offers allowed per turn; 0: trading is off
T_MADE = G + 22  # offers made this turn
T_OFFER = G + 23  # the open offer's catalogue index (meaningful in the trade phases)
T_ANSWER = G + 24  # [4] per seat: 0 not (yet) answered, 1 accepted, 2 declined
T_DECLINED = G + 28  # [4] bit sets (30 offers a word) of the offers everyone declined this turn
STATE_SIZE = G + 32
ANSWER_NONE, ANSWER_ACCEPT, ANSWER_DECLINE = 0, 1, 2
DECLINED_BITS = 30

COST_ROAD = np.array([1, 1, 0, 0, 0], dtype=np.int64)
COST_SETTLEMENT = np.array([1, 1, 1, 1, 0], dtype=np.int64)
COST_CITY = np.array([0, 0, 0, 2, 3], dtype=np.int64)
COST_DEV = np.array([0, 0, 1, 1, 1], dtype=np.int64)


def _offer_catalogue() -> tuple[np.ndarray, np.ndarray]:
    """The offers a proposer may make: 1 card for 1, 2 for 1, 1 for 2 (a side of 2 cards is two of one resource
    or one each of two), no resource on both sides. Order: 1-for-1, 2-for-1, 1-for-2; within each, by the
    given cards, then the asked ones."""
    ones = [np.eye(5, dtype=np.int64)[r] for r in range(5)]
    twos = [2 * ones[r] for r in range(5)] + [ones[r] + ones[q] for r in range(5) for q in range(r + 1, 5)]
    twos.sort(key=lambda side: tuple(-side))  # 2 wood, wood+brick, ..., wood+ore, 2 brick, brick+sheep, ...
    give, get = [], []
    for gives, gets in ((ones, ones), (twos, ones), (ones, twos)):
        for g in gives:
            for r in gets:
                if not np.any((g > 0) & (r > 0)):
                    give.append(g)
                    get.append(r)
    return np.array(give, dtype=np.int64), np.array(get, dtype=np.int64)


OFFER_GIVE, OFFER_GET = _offer_catalogue()  # [NUM_OFFERS, 5] cards the proposer gives / asks for
assert OFFER_GIVE.shape == (NUM_OFFERS, 5)

# probability of each dice total, index = total
DICE_PROBS = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], dtype=np.float64) / 36.0


# ----------------------------------------------------------------------------- small helpers
@njit(cache=True, inline="always")
def pb(p):
    return P_BASE + p * P_SIZE


@njit(cache=True, inline="always")
def kn(s_, p, r):
    return KNOWN + (s_ * MAX_PLAYERS + p) * NUM_RESOURCES + r

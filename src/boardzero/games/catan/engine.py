"""The compiled Catan engine: one game is one flat int32 array, split by job.

Every function is a numba ``@njit(cache=True)`` function over a state array ``s`` (``int32[STATE_SIZE]``)
and the static tables of ``topology``; Python code (``game.py``) only wraps it. This module gathers them
under one name for the engine's own callers (``game``, ``batched``, the test helpers and the benchmarks):

- ``offsets``: the array's layout, action and outcome ids, phases, costs;
- ``queries``: questions that change nothing (points, trade rates, where a piece may go, who moves);
- ``roads``: longest road and its holder;
- ``legal``: legal actions and chance outcomes;
- ``transitions``: state changes shared by several actions (cards to and from the bank, pieces placed,
  production, the robber's and the turn's bookkeeping) and a fresh game's array;
- ``trades``: player-to-player trading (the ``trading`` option): offers, answers, the exchange;
- ``handlers``: one handler per kind of action or chance outcome, and ``apply_action``, which dispatches;
- ``playout``: checked application, the outcome of a uniform draw, compiled random play.

Everything outside the engine reads a state through ``view.CatanView`` (Python) or ``fields`` (compiled).
"""

from __future__ import annotations

from boardzero.games.catan.handlers import (  # noqa: F401
    apply_action,
    apply_answer,
    apply_buy_dev,
    apply_city,
    apply_dev_draw,
    apply_dice,
    apply_discard,
    apply_end_turn,
    apply_knight,
    apply_monopoly,
    apply_offer,
    apply_play_road_building,
    apply_play_year_of_plenty,
    apply_road,
    apply_robber,
    apply_roll,
    apply_settlement,
    apply_steal,
    apply_trade,
    apply_trade_with,
    apply_victim,
    apply_withdraw,
    apply_year_of_plenty_pick,
)
from boardzero.games.catan.legal import chance_outcomes, chance_possible, is_legal, legal_actions, legal_mask  # noqa: F401
from boardzero.games.catan.offsets import *  # noqa: F401,F403  (the layout, under the engine's name)
from boardzero.games.catan.playout import (  # noqa: F401
    DICE_CDF,
    apply_if_possible,
    chance_outcome_at,
    play_random,
    play_random_games,
    random_playout,
    sample_chance_outcome,
    seed_numba,
)
from boardzero.games.catan.queries import (  # noqa: F401
    any_road_ok,
    bank_total,
    can_afford,
    can_play_dev,
    current_player,
    node_free_for_settlement,
    node_touches_road,
    road_ok,
    robber_victims,
    settlement_ok,
    setup_seat,
    trade_rate,
    victory_points,
)
from boardzero.games.catan.roads import longest_road, update_longest_road_holder  # noqa: F401
from boardzero.games.catan.trades import enable_trading, holds, new_turn, trading_on  # noqa: F401
from boardzero.games.catan.transitions import (  # noqa: F401
    after_roads_changed,
    after_robber,
    check_win,
    end_turn,
    gain,
    init_state,
    lose,
    next_discarder,
    pay,
    place_road,
    place_settlement,
    produce,
    start_robber,
)

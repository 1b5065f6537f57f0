"""Catan, base game (5th edition rules), 2-4 players, on a compiled engine.

Game API::

    from boardzero.games.catan import Catan, CatanOptions, action_id
    game = Catan(CatanOptions(players=4, board="beginner"))   # or core.registry.make("catan", players=3)
    state = game.new_state(seed=7)          # CatanState; the seed fixes the board ('random') only
    state.legal_actions(); state.apply(action_id("settlement", node=23))
    state.describe(a)                       # 'settlement at 23 (wheat 6, ore 5, sheep 9)'
    state.observe(seat)                     # {"flat", "hexes", "nodes", "edges", "planes"}, seat-relative

Ids and names (see ``actions`` and docs/catan.md): ``action_id(kind, node=/edge=/hex=/seat=/resource=/give=,get=)``,
``action_name(a)``, ``outcome_name(o)``; ``NUM_ACTIONS`` = 244 (``game.num_actions``: 371 with the
``trading`` option, whose offers, answers and trades take the ids 244..370).

Fast paths for bots and benchmarks (all operate on the engine's int32 state arrays;
``state.s`` is the array of a ``CatanState``, ``game.initial_array(seed)`` a fresh one):

- ``random_playout(s, seed)``: play ``s`` (in place) to the end with uniformly random legal
  moves and true chance; returns the number of steps. ``play_random_games(template, n, seed)``
  plays ``n`` games from copies of ``template`` and returns ``[n, 2]`` (turns, winner or -1).
- ``legal_actions(s, out)`` / ``legal_mask(s, mask)`` / ``apply_action(s, a)`` /
  ``chance_outcomes(s, ids, probs)`` / ``engine.chance_outcome_at(s, u)`` (the outcome a uniform
  ``u`` picks, as ``sample_chance`` uses it) / ``sample_chance_outcome(s)`` (numba's own generator,
  seeded with ``seed_numba``) / ``current_player(s)`` (-1 chance, -2 over) / ``victory_points(s, p)``.
- ``encode(s, seat, out)``: flat observation into ``float32[FLAT_SIZE]``; ``encode_batch``.
- ``BatchedCatan(game, batch_size, seed)``: steps many games at once; ``reset()`` and
  ``step(actions)`` return legal masks ``bool[B, game.num_actions]``, flat observations ``float32[B, FLAT_SIZE]``
  of the seat to move, and the current seats, rewards and done flags (chance is resolved inside).
- ``testing``: mutators that build positions for tests without playing (give cards, place pieces, ...).

For bots: an agent gets a ``SeatView``; ``view.sample_state(rng)`` is a ``CatanState``
consistent with what the seat knows (its own hand and cards exact, opponents' hidden
cards redrawn; ~tens of microseconds). Read it by name through ``state.view`` (a ``view.CatanView``:
``hand(p)``, ``dev_cards(p)``, ``buildings(p)``, ``pieces_left(p)``, ``bank()``, ``robber()``,
``awards()``, ``phase()``, ``known_hand(observer, p)``, ``victory_points(p)``, ``settlement_ok``,
``road_ok``, ``longest_road`` ...); the array's offsets (``offsets``) stay inside the engine, and
compiled code reads through ``fields``. Static tables (``NODE_HEXES``, ``NODE_EDGES``, ``EDGE_NODES``,
``HEX_NODES``, ...) are in ``topology``; action ids (``A_ROAD``, ...) in ``actions``. ``state.describe(a)``
names an action for people. Seat-relative observations (``view.observation``) are for networks.
"""

from boardzero.core.jit_cache import stamp_with_package_sources

# before any module below defines a compiled function: editing any file of this package recompiles them all
stamp_with_package_sources(__path__[0])

from boardzero.games.catan import engine  # noqa: E402
from boardzero.games.catan.actions import (
    ACTION_KINDS,
    DEV_NAMES,
    NUM_ACTIONS,
    action_id,
    action_name,
    outcome_name,
)
from boardzero.games.catan.batched import BatchedCatan
from boardzero.games.catan.board import RESOURCE_NAMES, TERRAIN_NAMES, Board, beginner_board, random_board
from boardzero.games.catan.engine import (
    STATE_SIZE,
    apply_action,
    chance_outcomes,
    current_player,
    legal_actions,
    legal_mask,
    longest_road,
    play_random_games,
    random_playout,
    sample_chance_outcome,
    seed_numba,
    victory_points,
)
from boardzero.games.catan.game import Catan, CatanOptions, CatanState
from boardzero.games.catan.observe import FLAT_SIZE, encode, encode_batch

__all__ = [
    "ACTION_KINDS",
    "DEV_NAMES",
    "NUM_ACTIONS",
    "RESOURCE_NAMES",
    "TERRAIN_NAMES",
    "FLAT_SIZE",
    "STATE_SIZE",
    "BatchedCatan",
    "Board",
    "Catan",
    "CatanOptions",
    "CatanState",
    "action_id",
    "action_name",
    "apply_action",
    "beginner_board",
    "chance_outcomes",
    "current_player",
    "encode",
    "encode_batch",
    "engine",
    "legal_actions",
    "legal_mask",
    "longest_road",
    "outcome_name",
    "play_random_games",
    "random_board",
    "random_playout",
    "sample_chance_outcome",
    "seed_numba",
    "victory_points",
]

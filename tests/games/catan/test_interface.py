"""Boards, action ids and names, observations, hidden information, rendering, batched stepping."""

import numpy as np
import pytest

from boardzero.core.api import CHANCE
from boardzero.core.registry import make
from boardzero.games.catan import (
    NUM_ACTIONS,
    BatchedCatan,
    action_id,
    action_name,
    engine as E,
    outcome_name,
    random_playout,
    testing as T,
)
from boardzero.games.catan.board import TILES, TOKENS, beginner_board, random_board, red_numbers_apart
from boardzero.games.catan.topology import HEX_NEIGHBOURS, NODE_NODES, NUM_EDGES, NUM_HEXES, NUM_NODES

A = action_id


# ---------------------------------------------------------------- boards
def test_topology_sizes():
    assert (NUM_HEXES, NUM_NODES, NUM_EDGES) == (19, 54, 72)
    state = make("catan", board="beginner").new_state(seed=0)
    ports = state.s[E.NODE_PORT : E.NODE_PORT + 54]
    assert np.sum(ports >= 0) == 18 and np.sum(ports == 5) == 8  # 9 harbours, 4 of them 3:1


def _check_distribution(board):
    assert sorted(board.hex_resource.tolist()) == sorted(TILES)
    assert sorted(board.hex_number[board.hex_number > 0].tolist()) == sorted(TOKENS)
    assert board.hex_number[board.desert] == 0
    assert sorted(board.harbours.tolist()) == [0, 1, 2, 3, 4, 5, 5, 5, 5]


def test_random_boards_follow_the_official_distribution_and_keep_6_and_8_apart():
    rng = np.random.default_rng(0)
    for _ in range(200):
        board = random_board(rng)
        _check_distribution(board)
        for h in range(19):
            if board.hex_number[h] in (6, 8):
                assert all(board.hex_number[o] not in (6, 8) for o in HEX_NEIGHBOURS[h] if o >= 0)
    assert not red_numbers_apart(np.array([6, 8] + [0] * 17))  # hexes 0 and 1 are neighbours
    _check_distribution(beginner_board())


def test_board_options():
    fixed = make("catan", board="fixed:42")
    a, b = fixed.new_state(seed=1), fixed.new_state(seed=2)
    assert np.array_equal(a.s, b.s)
    rand = make("catan")
    assert not np.array_equal(rand.new_state(seed=1).s, rand.new_state(seed=2).s)
    assert np.array_equal(rand.new_state(seed=3).s, rand.new_state(seed=3).s)
    state = make("catan", board="beginner").new_state(seed=5)
    assert int(state.s[E.G_ROBBER]) == 9  # the robber starts on the desert


# ---------------------------------------------------------------- ids and names
def test_every_action_has_a_unique_name_and_an_id():
    names = [action_name(a) for a in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    ids = (
        [A("settlement", node=n) for n in range(54)]
        + [A("city", node=n) for n in range(54)]
        + [A("road", edge=e) for e in range(72)]
        + [A("robber", hex=h) for h in range(19)]
        + [A("rob", seat=p) for p in range(4)]
        + [A(k, resource=r) for k in ("discard", "take", "monopoly") for r in range(5)]
        + [A("trade", give=g, get=r) for g in range(5) for r in range(5) if g != r]
        + [A(k) for k in ("buy_dev", "knight", "road_building", "year_of_plenty", "roll", "end_turn")]
    )
    assert sorted(ids) == list(range(NUM_ACTIONS))


def test_names_read_like_a_person_would_say_them():
    game = make("catan", board="beginner")
    assert game.action_name(A("settlement", node=23)) == "settlement at 23 (brick 6, wood 11, desert)"
    assert action_name(A("trade", give="wood", get="ore")) == "trade wood for ore"
    assert action_name(A("monopoly", resource="wheat")) == "play monopoly on wheat"
    assert action_name(A("robber", hex=4)) == "robber to hex 4"
    state = game.new_state(seed=0)
    assert state.describe(A("robber", hex=4)) == "robber to hex 4 (brick 6; no buildings)"
    assert [outcome_name(o) for o in (8, 20, 34)] == ["dice 8", "draw knight", "steal ore"]


def test_names_say_what_a_player_needs_to_choose():
    state = T.scenario(players=3)  # beginner board: hex 4 is brick 6 with nodes 8 13 18 23 17 12
    assert state.describe(A("settlement", node=0)) == "settlement at 0 (ore 10; harbour 2:1 sheep)"
    assert state.describe(A("settlement", node=2)).endswith("; harbour 3:1)")
    assert (
        make("catan", board="beginner").action_name(A("settlement", node=0))
        == "settlement at 0 (ore 10; harbour 2:1 sheep)"
    )
    T.settlement(state, 2, 8)
    T.settlement(state, 1, 23)
    assert state.describe(A("robber", hex=4)) == "robber to hex 4 (brick 6; buildings of seats 1, 2)"
    T.give(state, 2, wood=2, ore=1)
    assert state.describe(A("rob", seat=2)) == "rob seat 2 (3 cards)"
    T.take(state, 2, wood=2)
    assert state.describe(A("rob", seat=2)) == "rob seat 2 (1 card)"


def test_other_names_a_person_may_type():
    state = T.scenario(players=3)
    road = A("road", edge=T.edge(29, 35))
    assert set(state.action_aliases(road)) == {"road 29-35", "road 35-29"}
    assert state.action_aliases(A("trade", give="wood", get="ore")) == ("trade wood for ore",)
    assert state.action_aliases(A("monopoly", resource="wheat")) == ("monopoly wheat",)
    assert "knight" in state.action_aliases(A("knight"))


def test_log_lines_say_who_receives_what_and_whom_a_steal_hits():
    state = T.scenario(players=3)
    T.settlement(state, 1, 8)  # on hex 4 (brick 6)
    T.settlement(state, 2, 13, city=True)  # hex 4 too
    T.set_turn(state, 0, "pre_roll")
    state.apply(A("roll"))
    assert state.describe_step(6, seat=0).startswith("seat 0 rolls 6: seat 1 gets 1 brick; seat 2 gets 2 brick")
    state.apply(6)
    T.set_turn(state, 0, "robber")
    T.settlement(state, 1, 0)  # alone on hex 0
    state.apply(A("robber", hex=0))  # one victim: the steal follows at once
    steal_wood = E.O_STEAL + 0
    T.give(state, 1, wood=1)
    assert state.describe_step(steal_wood, seat=2) == "seat 0 steals a card from seat 1"
    assert state.describe_step(steal_wood, seat=1) == "seat 0 steals wood from seat 1"
    assert state.describe_step(steal_wood) == "seat 0 steals wood from seat 1"


def test_log_line_of_a_monopoly_counts_what_it_took():
    state = T.scenario(players=3)
    T.give(state, 1, wheat=2)
    T.give(state, 2, wheat=1, ore=1)
    T.dev(state, 0, monopoly=1)
    assert (
        state.describe_step(A("monopoly", resource="wheat"), seat=1)
        == "play monopoly on wheat: seat 0 takes 3 wheat (seat 1: 2, seat 2: 1)"
    )


def test_action_id_rejects_bad_arguments():
    for kwargs in (
        {"kind": "settlement"},
        {"kind": "settlement", "node": 54},
        {"kind": "fly"},
        {"kind": "trade", "give": "wood", "get": "wood"},
        {"kind": "discard", "resource": "gold"},
    ):
        with pytest.raises(ValueError):
            action_id(**kwargs)


# ---------------------------------------------------------------- observations and hidden information
def test_observation_shapes_and_seat_relative_pieces():
    state = T.scenario(players=3)
    T.settlement(state, 1, 12)
    game = state.game
    for seat in range(3):
        obs = state.observe(seat)
        assert {k: v.shape for k, v in obs.items()} == {k: tuple(v) for k, v in game.observation_spec.items()}
        assert all(v.dtype == np.float32 for v in obs.values())
    assert state.observe(1)["nodes"][12, 0] == 1.0  # own settlement: relative seat 0
    assert state.observe(0)["nodes"][12, 1] == 1.0  # seat 1 is the next seat of seat 0
    assert state.observe(2)["nodes"][12, 2] == 1.0


def test_planes_use_brick_coordinates():
    state = T.scenario(players=2)
    T.settlement(state, 1, 12)  # a corner of hexes 0, 3 and 4
    planes = state.observe(0)["planes"]
    assert planes[8, 2, 4] == planes[8, 2, 5] == 1.0  # robber on the desert, hex 9: middle row, third brick
    assert planes[8].sum() == 2.0
    settled = {(r, c) for r, c in zip(*np.nonzero(planes[9 + 1]))}  # seat 1 = relative seat 1
    assert settled == {(0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (1, 4)}


def test_opponents_development_cards_are_hidden():
    a, b = T.scenario(players=3), T.scenario(players=3)
    T.dev(a, 1, knight=1)
    T.dev(b, 1, monopoly=1)
    for key in a.observe(0):
        assert np.array_equal(a.observe(0)[key], b.observe(0)[key])
    assert not np.array_equal(a.observe(1)["flat"], b.observe(1)["flat"])


def _steal(outcome):
    state = T.scenario(players=3, phase="robber")
    T.settlement(state, 1, 12)
    T.give(state, 1, wood=1, ore=1)
    state.apply(A("robber", hex=4))
    state.apply(outcome)
    return state


def test_a_steal_is_seen_by_thief_and_victim_only():
    wood, ore = _steal(E.O_STEAL + 0), _steal(E.O_STEAL + 4)
    assert np.array_equal(wood.observe(2)["flat"], ore.observe(2)["flat"])
    assert not np.array_equal(wood.observe(0)["flat"], ore.observe(0)["flat"])
    assert not np.array_equal(wood.observe(1)["flat"], ore.observe(1)["flat"])
    assert wood.public_history(2)[-1] is None
    assert wood.public_history(0)[-1] == wood.public_history(1)[-1] == E.O_STEAL


def test_a_steal_from_a_hand_known_to_be_one_kind_is_no_secret():
    state = _steal(E.O_STEAL + 4)  # seat 1 held wood and ore: seat 2 loses track of one card
    assert [int(state.s[E.kn(2, 1, r)]) for r in range(5)] == [0, 0, 0, 0, 0]
    single = T.scenario(players=3, phase="robber")
    T.settlement(single, 1, 12)
    T.give(single, 1, ore=2)
    single.apply(A("robber", hex=4))
    single.apply(E.O_STEAL + 4)
    assert [int(single.s[E.kn(2, 1, r)]) for r in range(5)] == [0, 0, 0, 0, 1]
    assert [int(single.s[E.kn(2, 0, r)]) for r in range(5)] == [0, 0, 0, 0, 1]


def test_resource_hands_are_public_except_steals():
    state = T.scenario(players=3, phase="pre_roll")
    T.settlement(state, 1, 12)
    state.apply(A("roll"))
    state.apply(6)
    known = [int(state.s[E.kn(0, 1, r)]) for r in range(5)]
    assert known == [0, 1, 0, 0, 0]  # seat 0 saw seat 1 take a brick


def test_development_draws_are_hidden_from_others_in_public_history():
    state = T.scenario(players=2)
    T.give(state, 0, sheep=1, wheat=1, ore=1)
    state.apply(A("buy_dev"))
    state.apply(E.O_DEV + E.MONOPOLY)
    assert state.public_history(0)[-1] == E.O_DEV + E.MONOPOLY
    assert state.public_history(1)[-1] is None


def test_sample_hidden_is_consistent_with_the_seats_knowledge():
    game = make("catan", players=4)
    rng = np.random.default_rng(3)
    state = game.new_state(seed=3)
    for step in range(1500):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            state.apply(int(rng.choice(state.legal_actions())))
        if step % 100 == 99:
            for seat in range(4):
                sample = state.sample_hidden(seat, rng)
                T.check_invariants(sample)
                assert np.array_equal(sample.hand(seat), state.hand(seat))
                assert np.array_equal(sample.dev_cards(seat), state.dev_cards(seat))
                assert sample.public_history(seat) == state.public_history(seat)
                seen = state.public_history(seat)
                full = sample.clone().history  # hidden entries rewritten to a plausible completion
                assert len(full) == len(seen) and all(a == b for a, b in zip(full, seen) if b is not None)
                other = (seat + 1) % 4
                nested = sample.sample_hidden(other, rng).history  # a sample of a sample keeps
                theirs = state.public_history(other)  # the first rewrite where `other` saw the entry
                assert all(nested[i] == full[i] for i in range(len(full)) if seen[i] is None and theirs[i] is not None)
                for key, value in state.observe(seat).items():
                    assert np.array_equal(sample.observe(seat)[key], value), key
                # the sample plays on to the end with every invariant intact
                snaps = np.zeros((1, E.STATE_SIZE), dtype=np.int32)
                _, _, code, _ = T.fuzz_play(sample.s.copy(), step + seat, snaps, 10**9, 10**6)
                assert code == 0, T.INVARIANT_NAMES.get(code, code)


# ---------------------------------------------------------------- rendering
def test_render_shows_board_pieces_and_status():
    state = T.scenario(players=3)
    T.settlement(state, 0, 12)
    T.settlement(state, 1, 30, city=True)
    T.road_path(state, 0, [12, 8])
    T.give(state, 1, ore=2)
    T.dev(state, 1, knight=1)
    text = state.render()
    for piece in ("(a)", "[B]", "aaa", "2:1 sheep", "3:1", "ore", "#18", "R"):
        assert piece in text
    assert "2 ore" in text and "1 knight" in text
    mine = state.render(seat=0)
    assert "*you*" in mine and "1 knight" not in mine  # seat 1's cards are not shown to seat 0
    assert "\x1b[" in state.render(color=True) and "\x1b[" not in text


# ---------------------------------------------------------------- fast paths
def test_random_playout_ends_the_game():
    game = make("catan", players=3)
    s = game.initial_array(7)
    steps = random_playout(s, 7)
    assert steps > 0 and s[E.G_PHASE] == E.PH_OVER


def test_batched_games_match_the_single_game_encoder():
    game = make("catan", players=4)
    env = BatchedCatan(game, batch_size=8, seed=0, validate=True)
    masks, obs, seats = env.reset()
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(3000):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        masks, obs, seats, rewards, done = env.step(actions)
        finished += int(done.sum())
        assert np.all(rewards[done].sum(axis=1) == pytest.approx(1.0))
    assert finished > 0
    for i in range(8):
        state = game.new_state(seed=0)
        state.s[:] = env.states[i]
        assert state.current_player == seats[i]
        assert np.array_equal(state.legal_mask(), masks[i])
        assert np.array_equal(state.observe(int(seats[i]))["flat"], obs[i])
    with pytest.raises(ValueError, match="not legal"):
        env.step(np.array([np.flatnonzero(~m)[0] for m in masks]))


def test_sampled_hands_never_give_the_player_on_turn_a_win_already():
    state = T.scenario(players=2, vp_to_win=5, seat=1)
    for node in (0, 2, 12, 30):
        T.settlement(state, 1, node)  # 4 visible points for seat 1, on turn
    T.dev(state, 1, knight=1)  # seat 0 cannot tell it from a victory point card
    rng = np.random.default_rng(0)
    for _ in range(30):
        sample = state.sample_hidden(0, rng)
        assert sample.victory_points(1) == 4
        assert sample.dev_cards(1).sum() == 1


def _rich_parts(state, seat):
    from boardzero.games.catan import observe as O

    rich = state.observe(seat)["rich"]
    extra = rich[O.FLAT_SIZE :]
    nodes = extra[: 54 * O.NODE_EXTRA].reshape(54, O.NODE_EXTRA)
    seats = extra[54 * O.NODE_EXTRA : 54 * O.NODE_EXTRA + 4 * O.SEAT_EXTRA].reshape(4, O.SEAT_EXTRA)
    return rich, nodes, seats, extra[-4:]


def test_rich_observation_counts_pips_and_production_around_intersections():
    from boardzero.games.catan.topology import NODE_HEXES

    state = T.scenario(players=2)
    T.settlement(state, 1, 12, city=True)
    rich, nodes, seats, _ = _rich_parts(state, 0)
    assert np.array_equal(rich[: len(state.observe(0)["flat"])], state.observe(0)["flat"])
    s = state.s
    expected = np.zeros(5)
    for h in NODE_HEXES[12]:
        if h >= 0 and s[E.HEX_RES + h] < 5:
            expected[s[E.HEX_RES + h]] += 6 - abs(7 - s[E.HEX_NUM + h])
    assert nodes[12, :5] == pytest.approx(expected / 5)
    assert nodes[12, 5] == pytest.approx(expected.sum() / 15)
    assert seats[1, :5] == pytest.approx(2 * expected / 10)  # the city of seat 1 (relative seat 1) yields double
    assert seats[0, :6].sum() == 0 and seats[2:].sum() == 0
    T.robber(state, int(NODE_HEXES[12][0]))  # a robbed hex yields nothing
    _, _, robbed, _ = _rich_parts(state, 0)
    assert robbed[1, 5] < seats[1, 5]


def test_rich_observation_marks_where_each_seat_can_settle_now_and_after_one_road():
    state = T.give(T.scenario(players=2), 0, wood=2, brick=2, sheep=1, wheat=1)
    T.settlement(state, 0, 12)
    a = int(next(n for n in NODE_NODES[12] if n >= 0))
    T.road_path(state, 0, [12, a])
    _, nodes, seats, own = _rich_parts(state, 0)
    legal_now = {n for n in range(54) if state.legal_mask()[A("settlement", node=n)]}
    assert {int(n) for n in np.flatnonzero(nodes[:, 6])} == legal_now == set()  # next to a, too close to 12
    after_one = {int(n) for n in NODE_NODES[a] if n >= 0 and n != 12}
    assert {int(n) for n in np.flatnonzero(nodes[:, 8])} == after_one
    assert seats[0, 7] == pytest.approx(len(after_one) / 10)
    assert own.tolist() == [1.0, 1.0, 0.0, 0.0]  # pays for a road and a settlement, not a city or a card
    b = sorted(after_one)[0]
    T.road_path(state, 0, [a, b])
    _, nodes, seats, _ = _rich_parts(state, 0)
    legal_now = {n for n in range(54) if state.legal_mask()[A("settlement", node=n)]}
    assert {int(n) for n in np.flatnonzero(nodes[:, 6])} == legal_now == {b}
    _, theirs, _, _ = _rich_parts(state, 1)  # seat 1 sees seat 0's spot as an opponent's
    assert theirs[b, 7] == 1.0 and theirs[b, 6] == 0.0


@pytest.mark.parametrize("key", ["flat", "rich"])
def test_batched_observations_of_each_key_match_the_single_game_encoder(key):
    game = make("catan", players=3)
    env = BatchedCatan(game, batch_size=4, seed=1, observation_key=key)
    masks, obs, seats = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(400):
        masks, obs, seats, _, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    after = env.afterstates(np.arange(4))
    assert obs.shape[1] == after.obs.shape[1] == game.observation_spec[key][0]
    for i in range(4):
        state = game.new_state(seed=0)
        state.s[:] = env.states[i]
        assert np.array_equal(state.observe(int(seats[i]))[key], obs[i])
        first = np.flatnonzero(after.row == i)[0]
        state.apply(int(after.action[first]))
        if not after.terminal[first]:
            assert np.array_equal(state.observe(int(seats[i]))[key], after.obs[first])
    with pytest.raises(Exception, match="'planes'"):
        BatchedCatan(game, batch_size=2, observation_key="planes")


@pytest.mark.parametrize("players", [3, 4])  # random games that end with a win (2 players: by the turn limit)
def test_a_states_compiled_afterstates_are_the_generic_ones(players, monkeypatch):
    from boardzero.core.api import CHANCE, sample_chance
    from boardzero.core.batched import afterstates_of
    from boardzero.games.catan.game import CatanState

    game = make("catan", players=players)
    rng = np.random.default_rng(players)
    state, compared, ends = game.new_state(seed=players), 0, 0
    while not state.is_terminal():
        player = state.current_player
        if player >= 0:
            for key in ("flat", "rich"):
                fast = afterstates_of(state, player, key, row=5)
                with monkeypatch.context() as patch:
                    patch.setattr(CatanState, "afterstates", lambda *args: None)
                    generic = afterstates_of(state, player, key, row=5)
                for field in ("obs", "row", "action", "terminal", "returns"):
                    assert np.array_equal(getattr(fast, field), getattr(generic, field)), (field, key)
                ends += int(fast.terminal.any())
            compared += 1
        state.apply(sample_chance(state, rng) if player == CHANCE else int(rng.choice(state.legal_actions())))
    assert compared > 300 and ends > 0  # ends: the winning move's returns were compared too
    assert state.afterstates((state.current_player + 1) % players, "rich") is None  # not the seat to move
    assert game.new_state(seed=0).afterstates(0, "planes") is None

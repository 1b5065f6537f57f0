"""Player-to-player trading (option ``trading``): who offers and when, the per-turn limits, the answers, the
exchange, what offers and answers show, names, records, and that games without it are unchanged."""

import json

import numpy as np
import pytest

from boardzero.core.api import CHANCE
from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.moves import match_move
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.games.catan import action_id as A, engine as E, testing as T
from boardzero.games.catan.actions import NUM_OFFERS, OFFER_GET, OFFER_GIVE, action_fields, action_name
from boardzero.games.catan.topology import HEX_NODES, NODE_HEXES

WOOD_FOR_ORE = A("offer", give="wood", get="ore")


def trading(players=3, seat=0, **options):
    """An empty beginner board after setup, ``seat`` in its action phase (rolled), trading on."""
    return T.scenario(players=players, seat=seat, trading=True, **options)


def known(state, observer, seat):
    return state.view.known_hand(observer, seat).tolist()


# ---------------------------------------------------------------- the option and the action space
def test_trading_off_keeps_the_action_space_and_the_options_of_a_record():
    plain = make("catan", players=3)
    assert plain.num_actions == E.NUM_ACTIONS == 244
    assert "trade_offers" not in plain.options_dict()  # records of games without trading read as before
    game = make("catan", players=3, trading=True)
    assert game.num_actions == E.NUM_ACTIONS_TRADING == 371
    assert game.options_dict()["trade_offers"] == 3
    assert game.observation_spec == plain.observation_spec  # the same observations, so the same encoders


def test_trade_offers_out_of_range_is_refused_naming_the_option():
    with pytest.raises(ConfigError, match="trade_offers.*1..10"):
        make("catan", trading=True, trade_offers=0)


def test_without_trading_no_trade_id_is_legal_or_accepted():
    state = T.scenario(players=3)
    T.give(state, 0, wood=2)
    assert state.legal_mask().shape == (244,)
    assert not any(a >= E.A_OFFER for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="trading is off"):
        state.apply(WOOD_FOR_ORE)


def test_the_catalogue_is_one_two_and_two_one_with_no_resource_on_both_sides():
    assert OFFER_GIVE.shape == OFFER_GET.shape == (NUM_OFFERS, 5)
    sizes = sorted(zip(OFFER_GIVE.sum(1).tolist(), OFFER_GET.sum(1).tolist()))
    assert sizes.count((1, 1)) == 20 and sizes.count((2, 1)) == 50 and sizes.count((1, 2)) == 50
    assert not np.any((OFFER_GIVE > 0) & (OFFER_GET > 0))
    assert len({(tuple(g), tuple(r)) for g, r in zip(OFFER_GIVE, OFFER_GET)}) == NUM_OFFERS


# ---------------------------------------------------------------- who may offer, and when
def test_only_the_seat_on_turn_offers_after_its_roll():
    state = trading(seat=0)
    T.give(state, 0, wood=1)
    T.give(state, 1, ore=1)
    assert state.legal_mask()[WOOD_FOR_ORE]
    before_roll = trading(seat=0)
    T.set_turn(before_roll, 0, "pre_roll")
    T.give(before_roll, 0, wood=1)
    assert not before_roll.legal_mask()[WOOD_FOR_ORE]
    with pytest.raises(IllegalActionError, match="roll the dice first"):
        before_roll.apply(WOOD_FOR_ORE)
    state.apply(WOOD_FOR_ORE)
    assert state.current_player == 1  # seat 1 answers; it may not make an offer of its own
    T.give(state, 1, wood=1)
    assert not state.legal_mask()[A("offer", give="ore", get="wood")]
    with pytest.raises(IllegalActionError, match="only the seat whose turn it is"):
        state.apply(A("offer", give="ore", get="wood"))


def test_the_proposer_holds_what_it_gives():
    state = trading()
    T.give(state, 0, wood=1)
    mask = state.legal_mask()
    two_wood = A("offer", give={"wood": 2}, get="ore")
    assert mask[WOOD_FOR_ORE] and not mask[two_wood] and not mask[A("offer", give="brick", get="ore")]
    with pytest.raises(IllegalActionError, match="does not hold 2 wood"):
        state.apply(two_wood)
    offers = [a - E.A_OFFER for a in state.legal_actions() if E.A_OFFER <= a < E.A_ACCEPT]
    assert offers and all(OFFER_GIVE[i].tolist() == [1, 0, 0, 0, 0] for i in offers)  # one wood: 1-for-1 and 1-for-2
    assert len(offers) == 4 + 10  # wood for one of 4 others, or for two cards of them (4 pairs, 6 mixed)


# ---------------------------------------------------------------- answers and the exchange
def test_everyone_answers_in_turn_and_accept_needs_the_asked_cards():
    state = trading(players=4, seat=2)
    T.give(state, 2, wood=1)
    T.give(state, 3, ore=1)
    T.give(state, 1, ore=2)
    state.apply(WOOD_FOR_ORE)
    order = []
    for answer in ("accept", "decline", "accept"):
        seat = state.current_player
        order.append(seat)
        mask = state.legal_mask()
        assert mask[A("decline")] and mask[A("accept")] == (state.hand(seat)[4] >= 1)
        if seat == 0:  # holds no ore: may only decline
            with pytest.raises(IllegalActionError, match="does not hold 1 ore"):
                state.apply(A("accept"))
            answer = "decline"
        state.apply(A(answer))
    assert order == [3, 0, 1]
    assert state.current_player == 2
    assert sorted(a for a in state.legal_actions()) == [A("trade_with", seat=1), A("trade_with", seat=3), A("withdraw")]
    with pytest.raises(IllegalActionError, match="seat 0 did not accept"):
        state.apply(A("trade_with", seat=0))


def test_cards_move_at_once_and_the_bank_is_untouched():
    state = trading()
    T.give(state, 0, wood=2, brick=1)
    T.give(state, 2, ore=1)
    bank = T.bank(state)
    state.apply(A("offer", give=["wood", "brick"], get="ore"))
    state.apply(A("decline"))  # seat 1
    state.apply(A("accept"))  # seat 2
    state.apply(A("trade_with", seat=2))
    assert T.hand(state, 0) == {"wood": 1, "brick": 0, "sheep": 0, "wheat": 0, "ore": 1}
    assert T.hand(state, 2) == {"wood": 1, "brick": 1, "sheep": 0, "wheat": 0, "ore": 0}
    assert T.bank(state) == bank
    assert state.phase == E.PH_MAIN and state.current_player == 0
    T.check_invariants(state)


def test_withdraw_returns_to_the_action_phase_with_nothing_moved():
    state = trading(players=2)
    T.give(state, 0, wood=1)
    T.give(state, 1, ore=1)
    state.apply(WOOD_FOR_ORE)
    state.apply(A("accept"))
    hands = (T.hand(state, 0), T.hand(state, 1))
    state.apply(A("withdraw"))
    assert (T.hand(state, 0), T.hand(state, 1)) == hands
    assert state.phase == E.PH_MAIN and state.current_player == 0
    assert state.legal_mask()[WOOD_FOR_ORE]  # withdrawn, not declined by all: it may come again


# ---------------------------------------------------------------- limits
def test_an_offer_everyone_declined_cannot_be_made_again_this_turn():
    state = trading()
    T.give(state, 0, wood=3)
    state.apply(WOOD_FOR_ORE)
    state.apply(A("decline"))
    state.apply(A("decline"))
    assert state.phase == E.PH_MAIN and state.current_player == 0  # closed at once: nobody to trade with
    assert not state.legal_mask()[WOOD_FOR_ORE]
    with pytest.raises(IllegalActionError, match="declined this offer earlier this turn"):
        state.apply(WOOD_FOR_ORE)
    assert state.view.trade().declined == (WOOD_FOR_ORE - E.A_OFFER,)
    state.apply(A("end_turn"))
    T.set_turn(state, 0, "main")  # seat 0's next turn
    assert state.legal_mask()[WOOD_FOR_ORE]


def test_at_most_trade_offers_offers_a_turn():
    state = trading(trade_offers=2)
    T.give(state, 0, wood=3)
    for get in ("ore", "wheat"):
        state.apply(A("offer", give="wood", get=get))
        state.apply(A("decline"))
        state.apply(A("decline"))
    assert not any(E.A_OFFER <= a < E.A_ACCEPT for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="made its 2 offers this turn"):
        state.apply(A("offer", give="wood", get="sheep"))
    state.apply(A("end_turn"))
    assert state.view.trade().offers_made == 0


# ---------------------------------------------------------------- what offers and answers show
def test_offer_and_acceptance_show_cards_and_samples_respect_them():
    state = trading()
    T.give(state, 0, wood=1, sheep=1)
    T.give(state, 1, ore=3, wheat=1)
    T.settlement(state, 0, 12)  # both on hex 4 (brick 6)
    T.settlement(state, 1, 23)
    T.set_turn(state, 1, "robber")
    state.apply(A("robber", hex=4))
    state.apply(E.O_STEAL + 2)  # seat 1 takes seat 0's sheep: seat 2 no longer knows seat 0's wood for sure
    T.set_turn(state, 0, "robber")
    other = next(int(h) for h in NODE_HEXES[23] if h >= 0 and h != 4 and 12 not in HEX_NODES[h])
    state.apply(A("robber", hex=other))
    state.apply(E.O_STEAL + 3)  # seat 0 takes seat 1's wheat: seat 2 loses track of seat 1's sheep too
    T.set_turn(state, 0, "main")
    assert known(state, 2, 0) == [0, 0, 0, 0, 0] and known(state, 2, 1) == [0, 0, 0, 0, 2]
    assert state.hand(0).tolist() == [1, 0, 0, 1, 0] and state.hand(1).tolist() == [0, 0, 1, 0, 3]
    state.apply(A("offer", give="wood", get=["sheep", "ore"]))
    assert known(state, 2, 0)[0] == 1  # offering shows the proposer holds what it gives
    state.apply(A("accept"))  # seat 1
    assert known(state, 2, 1) == [0, 0, 1, 0, 2]  # accepting shows the asked cards
    assert known(state, 0, 1)[2] == 1
    rng = np.random.default_rng(0)
    for _ in range(30):
        sample = state.sample_hidden(2, rng)
        assert sample.hand(1)[2] >= 1 and sample.hand(1)[4] >= 1 and sample.hand(0)[0] >= 1
        T.check_invariants(sample)
    state.apply(A("decline"))  # seat 2
    for _ in range(30):  # the proposer's choice stays open in every sample: the acceptor holds the cards
        sample = state.sample_hidden(2, rng)
        assert sample.legal_mask()[A("trade_with", seat=1)]
        sample.apply(A("trade_with", seat=1))
        T.check_invariants(sample)


def test_declining_shows_nothing():
    state = trading()
    T.give(state, 0, wood=1)
    T.give(state, 1, ore=1)
    before = known(state, 2, 1)
    state.apply(WOOD_FOR_ORE)
    state.apply(A("decline"))
    assert known(state, 2, 1) == before


def test_the_public_view_shows_the_offer_and_the_answers():
    state = trading()
    T.give(state, 0, wood=1)
    T.give(state, 2, ore=1)
    assert "trade" not in T.scenario(players=3).public_view(None)
    state.apply(WOOD_FOR_ORE)
    state.apply(A("decline"))
    state.apply(A("accept"))
    view = state.public_view(None)
    assert view["phase"] == "trade_choose"
    assert view["trade"] == {
        "offers_per_turn": 3,
        "offers_made": 1,
        "offer": {"give": {"wood": 1}, "get": {"ore": 1}, "index": WOOD_FOR_ORE - E.A_OFFER},
        "answers": [None, "decline", "accept"],
        "declined": [],
    }
    assert json.loads(json.dumps(view)) == view
    assert "offer 1 wood for 1 ore" in state.render(seat=1)


# ---------------------------------------------------------------- names, log lines, records
def test_names_parse_round_trip():
    game = make("catan", players=4, trading=True)
    for a in range(E.A_OFFER, game.num_actions):
        fields = action_fields(a)
        kind = fields.pop("kind")
        assert A(kind, **fields) == a, (a, action_name(a))
    assert action_name(A("offer", give=["wood", "brick"], get="ore")) == "offer 1 wood + 1 brick for 1 ore"
    assert action_name(A("trade_with", seat=2)) == "trade with seat 2"
    state = trading(players=4)
    T.give(state, 0, wood=1, brick=1)
    T.give(state, 2, ore=1)
    typed = {
        "offer 1 wood + 1 brick for 1 ore": A("offer", give=["wood", "brick"], get="ore"),
        "offer wood + brick for ore": A("offer", give=["wood", "brick"], get="ore"),
    }
    for text, a in typed.items():
        assert match_move(SeatView(state, 0), text).action == a
    state.apply(A("offer", give=["wood", "brick"], get="ore"))
    assert match_move(SeatView(state, 1), "decline").action == A("decline")
    state.apply(A("decline"))
    assert match_move(SeatView(state, 2), "accept").action == A("accept")
    state.apply(A("accept"))
    state.apply(A("decline"))
    assert match_move(SeatView(state, 0), "trade with seat 2").action == A("trade_with", seat=2)
    assert match_move(SeatView(state, 0), "withdraw").action == A("withdraw")


def test_an_offer_beyond_the_catalogue_is_refused_saying_what_exists():
    with pytest.raises(ValueError, match="1 card for 1, 2 for 1 or 1 for 2"):
        A("offer", give={"wood": 2}, get={"ore": 2})
    with pytest.raises(ValueError, match="no offer gives 1 wood for 1 wood"):
        A("offer", give="wood", get="wood")


def test_log_lines_of_a_trade():
    state = trading()
    T.give(state, 0, wood=2)
    T.give(state, 2, ore=1)
    steps = []
    for a in (A("offer", give={"wood": 2}, get="ore"), A("decline"), A("accept"), A("trade_with", seat=2)):
        steps.append(state.describe_step(a, 1))
        state.apply(a)
    assert steps == [
        "seat 0 offers 2 wood for 1 ore",
        "seat 1 declines",
        "seat 2 accepts",
        "seat 0 trades with seat 2: gives 2 wood, gets 1 ore",
    ]
    T.give(state, 0, wood=1)
    T.give(state, 1, ore=1)
    state.apply(WOOD_FOR_ORE)
    state.apply(A("accept"))
    state.apply(A("decline"))
    assert state.describe_step(A("withdraw"), None) == "seat 0 withdraws the offer"
    state.apply(A("withdraw"))
    state.apply(A("offer", give="wood", get="wheat"))
    state.apply(A("decline"))
    assert state.describe_step(A("decline"), None) == "seat 2 declines; nobody accepted, the offer is off"


def _played(game, seed, *, steps=4000):
    state = game.new_state(seed=seed)
    rng = np.random.default_rng(seed)
    trades = 0
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player == CHANCE:
            ids, probs = zip(*state.chance_outcomes())
            state.apply(int(rng.choice(ids, p=probs)))
        else:
            a = int(rng.choice(state.legal_actions()))
            trades += E.A_TRADE_WITH <= a < E.A_WITHDRAW
            state.apply(a)
    return state, trades


def test_records_replay_with_trading():
    game = make("catan", players=3, trading=True)
    state, trades = _played(game, 5)
    assert trades > 0  # the record holds completed trades
    record = json.loads(json.dumps(state.to_record()))
    assert record["options"]["trading"] is True and record["options"]["trade_offers"] == 3
    again = game.state_from_record(record)
    assert np.array_equal(again.s, state.s) and again.history == state.history


# ---------------------------------------------------------------- positions agents weigh
def test_trade_outcome_is_the_position_the_moves_lead_to():
    for offer_first in (True, False):
        state = trading(players=3, seat=0)
        T.give(state, 0, wood=2)
        T.give(state, 1, ore=1)
        T.give(state, 2, ore=1)
        moved = state.clone()
        moved.apply(WOOD_FOR_ORE)
        asked = moved.clone()
        moved.apply(A("accept"))
        moved.apply(A("decline"))
        weighed = state.trade_outcome(1, WOOD_FOR_ORE - E.A_OFFER) if offer_first else asked.trade_outcome(1)
        moved.apply(A("trade_with", seat=1))
        moved.s[E.G_STEPS] = weighed.s[E.G_STEPS]  # it counts the moves applied; a weighed position applies none
        assert np.array_equal(weighed.s, moved.s)
        withdrawn = asked.clone()
        withdrawn.apply(A("decline"))
        withdrawn.apply(A("decline"))
        closed = asked.trade_outcome(-1)
        assert T.hand(closed, 0) == T.hand(withdrawn, 0) and closed.current_player == withdrawn.current_player == 0
        assert T.hand(state, 0)["wood"] == 2  # the position weighed from is untouched


def test_trade_outcome_refuses_what_the_rules_refuse():
    state = trading(players=3, seat=0)
    T.give(state, 0, wood=1)
    with pytest.raises(ValueError, match="no offer is open"):
        state.trade_outcome(1)
    with pytest.raises(ValueError, match="does not hold"):
        state.trade_outcome(1, WOOD_FOR_ORE - E.A_OFFER)
    with pytest.raises(ValueError, match="not legal"):
        state.trade_outcome(1, A("offer", give="ore", get="wood") - E.A_OFFER)
    T.give(state, 1, ore=1)
    with pytest.raises(ValueError, match="another seat"):
        state.trade_outcome(0, WOOD_FOR_ORE - E.A_OFFER)


def test_without_trading_keeps_the_position_and_forgets_the_offers():
    state = trading(players=3, seat=0)
    T.give(state, 0, wood=1)
    T.give(state, 1, ore=1)
    state.apply(WOOD_FOR_ORE)
    with pytest.raises(ValueError, match="an offer is open"):
        state.without_trading()
    state.apply(A("decline"))
    state.apply(A("decline"))
    plain = state.without_trading()
    assert plain.game.num_actions == 244 and plain.game.options.players == 3 and not plain.game.options.trading
    assert plain.game is state.game.without_trading()  # one twin per game
    assert plain.history == state.history and T.hand(plain, 0) == T.hand(state, 0)
    assert known(plain, 1, 0) == known(state, 1, 0) == [1, 0, 0, 0, 0]  # what the offer showed stays known
    assert np.array_equal(plain.observe(1)["rich"], state.observe(1)["rich"])
    assert not any(a >= E.A_OFFER for a in plain.legal_actions())


def test_self_play_weighs_trade_moves_by_the_trades_they_make():
    """The compiled afterstates (what TD self-play values) of an answer are the positions after the trade and
    with the offer closed; of an offer, after the trade with the first seat known to hold the asked cards."""
    from boardzero.games.catan.batched import afterstates_of_array

    state = trading(players=3, seat=0)
    T.give(state, 0, wood=2)
    T.give(state, 1, ore=1)
    T.give(state, 2, ore=1)
    state.s[E.kn(0, 1, 4)] = 0  # seat 0 saw seat 2's ore come in, not seat 1's (as if stolen)
    after = afterstates_of_array(state.game, state.s, "rich")
    at = list(after.action).index(WOOD_FOR_ORE)
    assert np.array_equal(after.obs[at], state.trade_outcome(2, WOOD_FOR_ORE - E.A_OFFER).observe(0)["rich"])
    unknown = A("offer", give="wood", get="brick")  # nobody is known to hold a brick: the offer stays open
    opened = state.clone()
    opened.apply(unknown)
    assert np.array_equal(after.obs[list(after.action).index(unknown)], opened.observe(0)["rich"])
    state.apply(WOOD_FOR_ORE)
    answers = afterstates_of_array(state.game, state.s, "rich")
    by_action = dict(zip(answers.action.tolist(), answers.obs))
    assert np.array_equal(by_action[A("accept")], state.trade_outcome(1).observe(1)["rich"])
    assert np.array_equal(by_action[A("decline")], state.trade_outcome(-1).observe(1)["rich"])
    assert not np.array_equal(by_action[A("accept")], by_action[A("decline")])

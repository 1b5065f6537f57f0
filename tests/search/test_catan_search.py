"""Chance and hidden information in the Catan search, with the searchers that play Catan.

The searchers: network PUCT (``az``, self-play's ``make_search``), rollout UCT (``mcts``) and the TD
agent's ``sims=`` search (uniform priors, value network at the leaves).

- A search never reads a hidden card: two true states that one seat cannot tell apart (they differ
  only in the opponents' development cards and unknown resource cards) give exactly the same search
  from that seat's view with the same seed. A deliberately leaky view that searches the true state
  gives different searches from the same two states, so the equality is not a blind spot.
- Chance branches follow their probabilities: a dice roll's children are visited as 2d6 says, a
  development card draw follows the seat's belief (the unseen pool), not the true deck, and the
  engine's draw, steal and dice distributions match the cards there.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from boardzero.agents.az import AZAgent
from boardzero.agents.mcts_agent import MCTSAgent
from boardzero.agents.td import TDAgent
from boardzero.core.api import CHANCE, TERMINAL, sample_chance
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.games.catan import engine as E, testing as T
from boardzero.nn import build_network, spec_for_game
from boardzero.nn.threads import use_play_threads
from boardzero.search import ROOT_INDEX

TURN_LIMIT = 80  # short games keep the rollouts of ``mcts`` cheap
# chi-square critical values at p = 0.001 by degrees of freedom: a seeded test, so a margin against bad luck
CHI2_CRITICAL = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 10: 29.59}


# ---------------------------------------------------------------- positions
def _mid_game(players: int, seed: int):
    """A position after seeded random play where the seat to move has several moves, some opponent holds
    a development card and the deck is not empty."""
    game = make("catan", players=players, turn_limit=TURN_LIMIT)
    for attempt in range(50):
        rng = np.random.default_rng([seed, attempt])
        state = game.new_state(seed=seed + attempt)
        for _ in range(3000):
            player = state.current_player
            if player == TERMINAL:
                break
            if player >= 0 and state.turn >= 5 and _has_hidden_cards(state, player) and state.legal_mask().sum() >= 3:
                return game, state
            state.apply(sample_chance(state, rng) if player == CHANCE else int(rng.choice(state.legal_actions())))
    raise AssertionError(f"no suitable {players}-player position found")


def _has_hidden_cards(state, seat: int) -> bool:
    opponents = [o for o in range(state.game.num_players) if o != seat]
    return sum(state.dev_cards(o).sum() for o in opponents) > 0 and state.s[E.DECK : E.DECK + 5].sum() > 0


def _hidden_cards(state, seat: int) -> tuple:
    """What ``seat`` cannot see: the opponents' hands and development cards, and the deck."""
    opponents = [o for o in range(state.game.num_players) if o != seat]
    return (
        tuple(tuple(state.hand(o)) for o in opponents),
        tuple(tuple(state.dev_cards(o)) for o in opponents),
        tuple(state.s[E.DECK : E.DECK + 5]),
    )


def _twin(state, seat: int, seed: int):
    """A second true state that ``seat`` cannot tell from ``state``: its hidden cards redrawn until they differ."""
    rng = np.random.default_rng(seed)
    for _ in range(100):
        twin = state.sample_hidden(seat, rng)
        if _hidden_cards(twin, seat) != _hidden_cards(state, seat):
            break
    else:
        raise AssertionError("sample_hidden never changed a hidden card")
    # the seat's own knowledge is the same in both
    assert all(np.array_equal(a, b) for a, b in zip(state.observe(seat).values(), twin.observe(seat).values()))
    assert np.array_equal(state.legal_mask(), twin.legal_mask())
    assert state.public_history(seat) == twin.public_history(seat)
    return twin


class LeakyView(SeatView):
    """A view that searches the true state itself: what a search that read hidden cards would do."""

    __slots__ = ()

    def sample_state(self, rng):
        return self._state.clone()


# ---------------------------------------------------------------- searchers
def _tiny_net(game, seed: int):
    torch.manual_seed(seed)
    use_play_threads()  # as every network that plays: one thread, not one per (shared) core
    return build_network(spec_for_game(game, "mlp", hidden=32, blocks=1))


def _az(game):
    return AZAgent(game, _tiny_net(game, 0), sims=48, batch_size=8)


def _mcts(game):
    return MCTSAgent(game, sims=24, batch=4)


def _td_search(game):
    return TDAgent(game, _tiny_net(game, 1), sims=48)


def _infoset_search(game):
    return MCTSAgent(game, sims=24, batch=4, infoset=True)


SEARCHERS = {
    "az": (_az, "mcts"),
    "mcts": (_mcts, "mcts"),
    "td_sims": (_td_search, "search"),
    "infoset_mcts": (_infoset_search, "mcts"),
}


def _search(game, which: str, view: SeatView, seed: int):
    make_agent, attribute = SEARCHERS[which]
    search = getattr(make_agent(game), attribute)
    result = search.search(view, np.random.default_rng(seed))
    return result.visits, result.value, result.q, result.best_action()


def _same(a, b) -> bool:
    visits_a, value_a, q_a, best_a = a
    visits_b, value_b, q_b, best_b = b
    return (
        np.array_equal(visits_a, visits_b)
        and np.array_equal(value_a, value_b)
        and np.array_equal(q_a, q_b, equal_nan=True)
        and best_a == best_b
    )


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("which", sorted(SEARCHERS))
def test_a_search_never_reads_a_hidden_card(which, players):
    game, state = _mid_game(players, seed=players)
    seat = state.current_player
    twin = _twin(state, seat, seed=7)
    honest = [_search(game, which, SeatView(s, seat), seed=3) for s in (state, twin)]
    assert _same(*honest), f"{which}: the search from seat {seat} depends on cards that seat cannot see"
    # the check has teeth: a search of the true state sees the difference between the two
    leaky = [_search(game, which, LeakyView(s, seat), seed=3) for s in (state, twin)]
    assert not _same(*leaky), f"{which}: the hidden cards of this position do not change a leaky search"


# ---------------------------------------------------------------- chance
def _chi_square(counts: np.ndarray, probs: np.ndarray) -> float:
    expected = counts.sum() * probs / probs.sum()
    return float(((counts - expected) ** 2 / expected).sum())


def _chance_child_visits(result, action: int, outcomes: list[int]) -> np.ndarray:
    """Visits of each outcome's child under the chance node that ``action`` from the root leads to."""
    tree = result.tree
    chance = tree.child(ROOT_INDEX, action)
    assert chance >= 0 and tree.player[chance] == CHANCE
    visits = np.array(
        [tree.node_visits[tree.child(chance, o)] if tree.child(chance, o) >= 0 else 0.0 for o in outcomes]
    )
    assert visits.sum() == tree.node_visits[chance]  # every simulation through the node went on to one child
    assert set(tree.chance_children) >= {(chance, o) for o in outcomes if visits[outcomes.index(o)]}
    return visits


def _before_a_roll(players: int, seed: int):
    """A mid-game position whose seat to move can only roll the dice."""
    game = make("catan", players=players, turn_limit=TURN_LIMIT)
    rng = np.random.default_rng(seed)
    state = game.new_state(seed=seed)
    for _ in range(3000):
        player = state.current_player
        if player >= 0 and state.turn >= 5 and np.flatnonzero(state.legal_mask()).tolist() == [E.A_ROLL]:
            return game, state
        assert player != TERMINAL, "the game ended before a roll"
        state.apply(sample_chance(state, rng) if player == CHANCE else int(rng.choice(state.legal_actions())))
    raise AssertionError("no roll found")


@pytest.mark.parametrize("players", [2, 3])
def test_dice_children_are_visited_by_their_2d6_probabilities(players):
    game, state = _before_a_roll(players, seed=players)
    seat = state.current_player
    agent = AZAgent(game, _tiny_net(game, 0), sims=600, batch_size=16)
    result = agent.mcts.search(SeatView(state, seat), np.random.default_rng(0))
    totals = list(range(2, 13))
    outcomes = [E.O_DICE + t for t in totals]
    rolled = state.clone()
    rolled.apply(E.A_ROLL)
    assert [o for o, _ in rolled.chance_outcomes()] == outcomes
    visits = _chance_child_visits(result, E.A_ROLL, outcomes)
    assert visits.sum() >= 550
    two_dice = E.DICE_PROBS[2:13]
    assert _chi_square(visits, two_dice) < CHI2_CRITICAL[10], dict(zip(totals, visits))
    # the test can tell: uniform totals (one die of 11 faces) would be far outside
    assert _chi_square(visits, np.ones(11)) > 3 * CHI2_CRITICAL[10]


def test_a_development_card_draw_follows_the_seats_belief_not_the_true_deck():
    """Seat 0 buys a card while seat 1 secretly holds 9 knights: the true deck is 5 of 16 knights, but seat 0
    only knows that 14 of the 25 cards it has not seen are knights, and its search must draw by that."""
    state = T.scenario(players=2, phase="main", turn_limit=TURN_LIMIT)
    T.give(state, 0, ore=1, sheep=1, wheat=1)
    T.dev(state, 1, knight=9)
    assert state.legal_mask()[E.A_BUY_DEV]
    game = state.game
    agent = AZAgent(game, _tiny_net(game, 0), sims=1500, batch_size=16)
    result = agent.mcts.search(SeatView(state, 0), np.random.default_rng(1))
    outcomes = [E.O_DEV + d for d in range(5)]
    visits = _chance_child_visits(result, E.A_BUY_DEV, outcomes)
    assert visits.sum() >= 300
    unseen = E.DEV_COUNTS.astype(float)  # seat 0 holds no card and none was played: every card is unseen
    assert _chi_square(visits, unseen) < CHI2_CRITICAL[4], visits
    true_deck = state.s[E.DECK : E.DECK + 5].astype(float)
    assert true_deck[E.KNIGHT] == 5
    assert _chi_square(visits, true_deck) > 3 * CHI2_CRITICAL[4], "indistinguishable from the true deck"


def _draw_counts(state, outcomes: list[int], draws: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    counts = np.zeros(len(outcomes))
    for _ in range(draws):
        counts[outcomes.index(sample_chance(state, rng))] += 1
    return counts


def test_the_engine_draws_development_cards_by_the_deck():
    state = T.scenario(players=3, phase="main")
    T.dev(state, 1, knight=10, monopoly=1)
    T.give(state, 0, ore=1, sheep=1, wheat=1)
    state.apply(E.A_BUY_DEV)
    assert state.current_player == CHANCE
    deck = state.s[E.DECK : E.DECK + 5].astype(float)  # 4 knights, 5 points, 2 road building, 2 plenty, 1 monopoly
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == [E.O_DEV + d for d in range(5)]
    assert np.allclose([p for _, p in outcomes], deck / deck.sum())
    counts = _draw_counts(state, [o for o, _ in outcomes], 4000, seed=0)
    assert _chi_square(counts, deck) < CHI2_CRITICAL[4], counts


def test_the_engine_steals_by_the_victims_hand():
    state = T.scenario(players=2, phase="robber")
    T.settlement(state, 1, 0)
    T.give(state, 1, wood=3, ore=1, wheat=2)
    robber_moves = [a for a in np.flatnonzero(state.legal_mask()) if E.A_ROBBER <= a < E.A_VICTIM]
    for move in robber_moves:  # the hex next to seat 1's settlement leads to a steal from seat 1
        probe = state.clone()
        probe.apply(int(move))
        if probe.current_player == CHANCE:
            break
    else:
        raise AssertionError("no robber move leads to a steal")
    outcomes = probe.chance_outcomes()
    hand = {E.O_STEAL + r: n for r, n in enumerate(probe.hand(1)) if n}
    assert dict(outcomes) == pytest.approx({o: n / 6 for o, n in hand.items()})
    counts = _draw_counts(probe, list(hand), 3000, seed=1)
    assert _chi_square(counts, np.array(list(hand.values()), float)) < CHI2_CRITICAL[2], counts


def test_the_engine_rolls_two_dice():
    state = T.scenario(players=2, phase="pre_roll")
    state.apply(E.A_ROLL)
    outcomes = state.chance_outcomes()
    assert dict(outcomes) == pytest.approx({E.O_DICE + t: E.DICE_PROBS[t] for t in range(2, 13)})
    assert E.DICE_PROBS[2:13].tolist() == pytest.approx([min(t - 1, 13 - t) / 36 for t in range(2, 13)])
    counts = _draw_counts(state, [o for o, _ in outcomes], 3600, seed=2)
    assert _chi_square(counts, E.DICE_PROBS[2:13]) < CHI2_CRITICAL[10], counts


def test_a_td_search_reads_each_leaf_as_the_seat_that_moved_into_it():
    game, state = _mid_game(2, seed=2)
    agent = TDAgent(game, _tiny_net(game, 1), sims=96)
    evaluator = agent.search.evaluator
    asked = []
    original = evaluator.evaluate

    def spy(states, movers=None):
        asked.extend(zip((s.current_player for s in states), movers, (s.clone() for s in states)))
        return original(states, movers)

    evaluator.evaluate = spy
    agent.search.search(SeatView(state, state.current_player), np.random.default_rng(0))
    assert asked[0][1] == -1  # the root: no move above it, read by the seat to move
    assert all(mover >= 0 for _, mover, _ in asked[1:])
    crossed = [(to_move, mover, s) for to_move, mover, s in asked[1:] if to_move != mover]
    assert crossed, "no leaf after another seat's move"
    to_move, mover, leaf = crossed[0]
    _, values = original([leaf], [mover])
    obs = torch.from_numpy(leaf.observe(mover)[evaluator.key][None].astype(np.float32))
    with torch.no_grad():
        relative = evaluator.net.values(obs).float().numpy()[0]
    assert np.allclose(values[0], np.roll(relative, mover), atol=1e-2)  # the mover's view, in absolute order
    _, as_to_move = original([leaf], [-1])
    assert not np.allclose(values[0], as_to_move[0])

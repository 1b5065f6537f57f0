"""MCTS behaviour: tactics, max^n, priors, chance, hidden information, batching, tree reuse."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.core.api import CHANCE
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.search import MCTS, MCTSConfig, RolloutEvaluator, UniformEvaluator, uniform_priors
from boardzero.search.tree import HIDDEN_OUTCOME, ROOT_INDEX
from tests.conftest import play_actions
from tests.search.tiny_games import (
    GAMBLE,
    MAXN_PATH,
    MAXN_ROOT_MOVE,
    MAXN_VALUE,
    OUTCOME_BAD,
    OUTCOME_GOOD,
    SAFE,
    CoinGame,
    GuessGame,
    HiddenDrawGame,
    ShapeShiftGame,
    ThreePlayerTree,
)

# X (seat 0) has 0,1,2 on the bottom row: column 3 wins at once.
WIN_IN_ONE = [0, 6, 1, 6, 2, 5]
# O (seat 1) has 0,1,2 on the bottom row and X is to move: only column 3 avoids losing at once.
BLOCK_IN_ONE = [6, 0, 6, 1, 5, 2]


def view_of(state):
    return SeatView(state, state.current_player)


def rollout_mcts(game, sims, **config):
    config.setdefault("selection", "uct")
    config.setdefault("batch_size", 1)
    config.setdefault("virtual_loss", 0.0)
    return MCTS(game, RolloutEvaluator(game), MCTSConfig(simulations=sims, **config))


@pytest.mark.parametrize("seed", range(4))
def test_connect4_takes_a_win_in_one(seed):
    state = play_actions("connect4", WIN_IN_ONE)
    result = rollout_mcts(state.game, 200).search(view_of(state), np.random.default_rng(seed))
    assert result.best_action() == 3
    assert result.value[0] > 0.5 > -0.5 > result.value[1]


@pytest.mark.parametrize("seed", range(4))
def test_connect4_blocks_a_loss_in_one(seed):
    state = play_actions("connect4", BLOCK_IN_ONE)
    result = rollout_mcts(state.game, 400).search(view_of(state), np.random.default_rng(seed))
    assert result.best_action() == 3


def test_connect4_tactics_with_puct_and_batched_leaves(rng):
    state = play_actions("connect4", BLOCK_IN_ONE)
    mcts = MCTS(state.game, RolloutEvaluator(state.game), MCTSConfig(simulations=400, batch_size=8))
    assert mcts.search(view_of(state), rng).best_action() == 3


def test_result_shapes_and_policy(rng):
    state = play_actions("connect4", [3])
    result = rollout_mcts(state.game, 50).search(view_of(state), rng)
    assert result.visits.shape == (7,) and result.value.shape == (2,)
    assert result.visits.sum() == 49  # the root evaluation is the first simulation
    assert np.isclose(result.policy(1.0).sum(), 1.0)
    greedy = result.policy(0.0)
    assert greedy[result.visits.argmax()] > 0 and np.isclose(greedy.sum(), 1.0)
    assert result.player == 1


# solver=False is how the rollout `mcts` agent searches: the tiny tree is then settled by the backup alone,
# not proven exactly from its terminal states
@pytest.mark.parametrize("solver", [False, True])
def test_maxn_with_three_players(rng, solver):
    game = ThreePlayerTree()
    mcts = rollout_mcts(game, 3000, c_uct=0.3, solver=solver)
    result = mcts.search(SeatView(game.new_state(), 0), rng)
    assert result.best_action() == MAXN_ROOT_MOVE
    # the deeper seats choose by their own value: seat 1 then seat 2 under the chosen move (by visits; with the
    # solver, by the proven values, as a proven node is not explored further)
    tree = result.tree
    node = ROOT_INDEX
    for move in MAXN_PATH[:-1]:
        node = tree.child(node, move)
        seen = np.nan_to_num(tree.edge_exact[node, :2], nan=-np.inf) if solver else tree.edge_visits[node, :2]
        assert int(np.argmax(seen)) == MAXN_PATH[tree.player[node]]
    assert np.allclose(result.value, MAXN_VALUE, atol=0.1)


@pytest.mark.parametrize("solver", [False, True])
def test_maxn_with_puct_and_uniform_evaluator(rng, solver):
    game = ThreePlayerTree()
    mcts = MCTS(
        game,
        UniformEvaluator(game),
        MCTSConfig(simulations=3000, c_puct=0.5, batch_size=1, virtual_loss=0.0, solver=solver),
    )
    assert mcts.search(SeatView(game.new_state(), 0), rng).best_action() == MAXN_ROOT_MOVE


class BiasedEvaluator:
    """Uniform values; priors put ``weight`` on one move."""

    def __init__(self, game, favourite, weight=0.9):
        self.game, self.favourite, self.weight = game, favourite, weight
        self.calls, self.batch_sizes = 0, []

    def evaluate(self, states):
        self.calls += 1
        self.batch_sizes.append(len(states))
        priors = uniform_priors(states, self.game.num_actions)
        for row, state in enumerate(states):
            legal = state.legal_mask()
            if legal[self.favourite]:
                priors[row] = np.where(legal, (1 - self.weight) / max(legal.sum() - 1, 1), 0.0)
                priors[row, self.favourite] = self.weight
        return priors, np.zeros((len(states), self.game.num_players), dtype=np.float32)


def test_priors_steer_the_visits(rng):
    state = make("connect4").new_state()
    for favourite in (1, 5):
        mcts = MCTS(state.game, BiasedEvaluator(state.game, favourite), MCTSConfig(simulations=200))
        result = mcts.search(view_of(state), rng)
        assert result.best_action() == favourite
        assert result.visits[favourite] > 0.5 * result.visits.sum()
        assert result.prior[favourite] == pytest.approx(0.9)
    uniform = MCTS(state.game, UniformEvaluator(state.game), MCTSConfig(simulations=200)).search(view_of(state), rng)
    assert uniform.visits.max() < 0.5 * uniform.visits.sum()


def test_root_noise_changes_priors_only_during_the_search(rng):
    state = make("connect4").new_state()
    mcts = MCTS(
        state.game,
        BiasedEvaluator(state.game, 2),
        MCTSConfig(simulations=100, dirichlet_alpha=0.3, dirichlet_fraction=0.5),
    )
    noisy = mcts.search(view_of(state), rng, add_noise=True)
    plain = MCTS(state.game, BiasedEvaluator(state.game, 2), MCTSConfig(simulations=100)).search(view_of(state), rng)
    assert not np.array_equal(noisy.visits, plain.visits)
    assert noisy.prior[2] == pytest.approx(0.9)  # the stored priors are the evaluator's


class StateEvaluator:
    """Priors and values that depend on the state (its history), counting the states given priors; with
    ``defer`` the search asks priors only where it chooses (``defers_priors``)."""

    def __init__(self, game, *, defer: bool):
        self.game, self.defers_priors, self.prior_states = game, defer, 0

    def priors(self, states):
        self.prior_states += len(states)
        priors = np.zeros((len(states), self.game.num_actions), dtype=np.float32)
        for row, state in enumerate(states):
            legal = np.flatnonzero(state.legal_mask())
            weights = 1.0 + (np.arange(len(legal)) + len(state.history)) % 3
            priors[row, legal] = weights / weights.sum()
        return priors

    def values(self, states, movers=None):
        return np.array(
            [[np.sin(len(s.history) + sum(s.history)) * 0.3 * (-1) ** p for p in range(2)] for s in states],
            dtype=np.float32,
        )

    def evaluate(self, states):
        return self.priors(states), self.values(states)


@pytest.mark.parametrize("noise", [False, True])
def test_deferred_priors_give_the_same_search_and_skip_the_nodes_that_never_choose(noise):
    game = make("connect4")
    state = play_actions("connect4", [3, 3])
    results, evaluators = [], []
    for defer in (False, True):
        evaluator = StateEvaluator(game, defer=defer)
        mcts = MCTS(game, evaluator, MCTSConfig(simulations=300, batch_size=8, reuse_tree=True))
        first = mcts.search(view_of(state), np.random.default_rng(5), add_noise=noise)
        moved = state.clone()
        moved.apply(first.best_action())
        moved.apply(int(np.argmax(first.tree.edge_visits[first.tree.child(ROOT_INDEX, first.best_action())])))
        second = mcts.search(view_of(moved), np.random.default_rng(6), add_noise=noise)  # a reused subtree
        results.append((first, second))
        evaluators.append(evaluator)
    (eager, eager_again), (deferred, deferred_again) = results
    np.testing.assert_array_equal(eager.visits, deferred.visits)
    np.testing.assert_array_equal(eager.prior, deferred.prior)
    np.testing.assert_array_equal(eager_again.visits, deferred_again.visits)
    chosen = deferred.tree.edge_visits[: deferred.tree.size].sum(axis=1) > 0
    np.testing.assert_array_equal(
        deferred.tree.prior[: deferred.tree.size][chosen], eager.tree.prior[: eager.tree.size][chosen]
    )
    assert evaluators[1].prior_states < 0.7 * evaluators[0].prior_states
    assert deferred_again.tree.pending_priors  # leaves never chosen at still wait


@pytest.mark.parametrize("p_good, best", [(0.7, GAMBLE), (0.4, SAFE)])
def test_chance_nodes_are_expected_values(rng, p_good, best):
    game = CoinGame(p_good=p_good, safe=0.3)  # gamble is worth 2*p_good - 1
    result = rollout_mcts(game, 3000, c_uct=1.0).search(SeatView(game.new_state(), 0), rng)
    assert result.best_action() == best


def test_chance_children_visited_by_probability(rng):
    game = CoinGame(p_good=0.7)
    result = rollout_mcts(game, 2000, c_uct=5.0).search(SeatView(game.new_state(), 0), rng)
    tree = result.tree
    chance = tree.child(ROOT_INDEX, GAMBLE)
    assert tree.player[chance] == CHANCE
    good, bad = tree.child(chance, OUTCOME_GOOD), tree.child(chance, OUTCOME_BAD)
    total = tree.node_visits[chance]
    assert total > 300
    assert tree.node_visits[good] / total == pytest.approx(0.7, abs=0.06)
    assert tree.node_visits[good] + tree.node_visits[bad] == total
    assert result.q[GAMBLE] == pytest.approx(2 * 0.7 - 1, abs=0.12)  # the expectation over outcomes


def _guess_view(card):
    game = GuessGame()
    state = game.new_state()
    state.apply(card)
    state.guarded = True
    return game, SeatView(state, 0)


def test_hidden_information_is_never_read():
    results = []
    for card in (0, 2):
        game, view = _guess_view(card)
        result = rollout_mcts(game, 600, c_uct=0.5).search(view, np.random.default_rng(7))
        assert game.sample_calls >= 600  # one determinization per simulation
        results.append(result)
    assert np.array_equal(results[0].visits, results[1].visits)
    assert np.array_equal(results[0].value, results[1].value)
    # a searcher that knew the card would raise and win; not knowing it, folding (-0.2) beats guessing (-1/3)
    assert results[0].best_action() == 0


@pytest.mark.parametrize("selection", ["puct", "uct"])
def test_an_information_set_tree_keeps_one_node_for_outcomes_the_seat_cannot_see(rng, selection):
    game = HiddenDrawGame()
    for information_sets in (False, True):
        mcts = rollout_mcts(game, 400, selection=selection, information_sets=information_sets, reuse_tree=False)
        result = mcts.search(SeatView(game.new_state(), 0), rng)
        tree = result.tree
        assert result.best_action() == 1 and result.q[1] == pytest.approx(1 / 6, abs=0.1)
        draw = tree.child(ROOT_INDEX, 1)
        assert tree.player[draw] == CHANCE
        children = [tree.child(draw, c) for c in (HIDDEN_OUTCOME, 0, 1, 2)]
        seen = [c for c in children if c >= 0]
        if information_sets:
            assert children[0] >= 0 and len(seen) == 1  # seat 0's one information set after the draw
            below = children[0]
            assert tree.node_visits[below] == tree.node_visits[draw]
            # seat 1's move 2 is legal after one draw in three, move 0 after every draw: availability counts
            available = tree.edge_available[below]
            assert available[0] == tree.node_visits[below] - 1  # every pass but the one that expanded it
            assert 0.2 < available[2] / available[0] < 0.47
        else:
            assert children[0] < 0 and len(seen) == 3  # a node per sampled card
            assert tree.edge_available[: tree.size].sum() == 0


def test_a_hidden_draw_walks_to_the_information_set_node():
    game = HiddenDrawGame()
    mcts = rollout_mcts(game, 200, information_sets=True)
    state = game.new_state()
    mcts.search(SeatView(state, 0), np.random.default_rng(0))
    stored = mcts._pool[-1].tree
    assert stored.walk(ROOT_INDEX, [1, None], information_sets=True) == stored.child(
        stored.child(ROOT_INDEX, 1), HIDDEN_OUTCOME
    )
    assert stored.walk(ROOT_INDEX, [1, None]) == -1  # a history tree cannot follow an unknown outcome


class DecisionOnlyEvaluator(UniformEvaluator):
    """Fails if the search ever asks about a chance or terminal state."""

    def evaluate(self, states):
        assert all(state.current_player >= 0 for state in states)
        return super().evaluate(states)


@pytest.mark.parametrize("selection", ["puct", "uct"])
def test_determinizations_that_disagree_about_a_node(rng, selection):
    game = ShapeShiftGame()
    state = game.new_state()
    state.apply(1)
    mcts = MCTS(game, DecisionOnlyEvaluator(game), MCTSConfig(simulations=300, selection=selection, batch_size=4))
    result = mcts.search(SeatView(state, 0), rng)
    assert result.visits.sum() == 299
    assert result.best_action() == 0  # as good as move 1 where the bit is 1, better (1 against 0) where it is 0


def test_search_many_matches_single_searches():
    game = make("connect4")
    positions = [play_actions("connect4", h) for h in ([], [3], WIN_IN_ONE, BLOCK_IN_ONE)]
    config = MCTSConfig(simulations=120, batch_size=4, reuse_tree=False)
    many = MCTS(game, UniformEvaluator(game), config).search_many(
        [view_of(s) for s in positions], np.random.default_rng(0)
    )
    for state, batched in zip(positions, many):
        single = MCTS(game, UniformEvaluator(game), config).search(view_of(state), np.random.default_rng(0))
        assert np.array_equal(single.visits, batched.visits)
        assert np.allclose(single.value, batched.value)


def test_search_many_batches_leaves_across_games(rng):
    game = make("connect4")
    positions = [play_actions("connect4", h) for h in ([], [3], [3, 3], [2, 4])]
    evaluator = BiasedEvaluator(game, 3, weight=0.3)
    results = MCTS(game, evaluator, MCTSConfig(simulations=33, batch_size=4)).search_many(
        [view_of(s) for s in positions], rng, add_noise=True
    )
    assert evaluator.calls <= 1 + 8  # the roots, then 32 simulations in rounds of 4 per game
    assert max(evaluator.batch_sizes) > 4  # leaves of several games in one call
    assert all(r.visits.sum() == 32 for r in results)


def test_tree_is_reused_after_the_moves_played(rng):
    game = make("connect4")
    state = game.new_state()
    mcts = rollout_mcts(game, 300)
    first = mcts.search(view_of(state), rng)
    move = first.best_action()
    state.apply(move)
    reply = int(np.argmax(first.tree.edge_visits[first.tree.child(ROOT_INDEX, move)]))
    kept = first.tree.edge_visits[first.tree.child(first.tree.child(ROOT_INDEX, move), reply)].sum()
    state.apply(reply)
    second = mcts.search(view_of(state), rng)
    assert kept > 0
    assert second.visits.sum() == kept + 300  # the old subtree's visits plus this search's
    assert second.tree.size < first.tree.size + 300  # a compacted subtree, not the whole old tree


def test_tree_is_not_reused_for_another_position(rng):
    game = make("connect4")
    mcts = rollout_mcts(game, 100)
    mcts.search(view_of(play_actions("connect4", [3])), rng)
    other = mcts.search(view_of(play_actions("connect4", [2, 2])), rng)
    assert other.visits.sum() == 99
    mcts.reset()
    again = mcts.search(view_of(play_actions("connect4", [3, 3])), rng)
    assert again.visits.sum() == 99


def test_hidden_information_trees_are_not_shared_between_seats(rng):
    game = make("kuhn_poker")
    state = game.new_state()
    for card in (0, 1, 2):
        state.apply(card)
    mcts = MCTS(game, RolloutEvaluator(game), MCTSConfig(simulations=100))
    mcts.search(SeatView(state, 0), rng)
    state.apply(0)
    second = mcts.search(SeatView(state, 1), rng)
    assert second.visits.sum() == 99  # seat 1 must not inherit statistics built from seat 0's card


@pytest.mark.parametrize(
    "cards, bettor_line, seat, expected",
    [
        ((0, 1, 3), [1, 0], 2, 1),  # seat 2 holds the ace facing a bet: call
        ((3, 1, 0), [1, 0], 2, 0),  # seat 2 holds the jack facing a bet: fold
    ],
)
def test_kuhn_poker_three_players_sensible_calls(cards, bettor_line, seat, expected):
    game = make("kuhn_poker", players=3)
    state = game.new_state()
    for card in cards:
        state.apply(card)
    for action in bettor_line:
        state.apply(action)
    assert state.current_player == seat
    for seed in range(3):
        mcts = MCTS(game, RolloutEvaluator(game), MCTSConfig(simulations=300, batch_size=4))
        result = mcts.search(SeatView(state, seat), np.random.default_rng(seed))
        assert result.best_action() == expected
        assert result.value.shape == (3,)


def test_config_errors_name_the_field():
    with pytest.raises(ConfigError, match="simulations"):
        MCTSConfig(simulations=0)
    with pytest.raises(ConfigError, match="selection"):
        MCTSConfig(selection="best-first")


def test_a_one_simulation_search_still_names_a_legal_move(rng):
    state = play_actions("connect4", [3, 3, 3, 3, 3, 3])  # column 3 is full
    result = MCTS(state.game, UniformEvaluator(state.game), MCTSConfig(simulations=1)).search(view_of(state), rng)
    assert result.visits.sum() == 0
    assert result.best_action() != 3
    assert result.policy(1.0)[3] == 0 and np.isclose(result.policy(1.0).sum(), 1.0)


# ---------------------------------------------------------------- solver
def test_solver_proves_a_win_in_one_and_plays_it(rng):
    state = play_actions("connect4", WIN_IN_ONE)
    result = MCTS(state.game, UniformEvaluator(state.game), MCTSConfig(simulations=40)).search(view_of(state), rng)
    assert result.exact[3] == 1.0 and result.tree.proven[ROOT_INDEX]
    assert result.value.tolist() == [1.0, -1.0]  # the root's value is the proven one, not a mean
    assert result.choices().tolist() == [False, False, False, True, False, False, False]
    assert result.best_action() == 3


def test_solver_proves_losing_moves_and_never_chooses_them(rng):
    state = play_actions("connect4", BLOCK_IN_ONE)
    result = MCTS(state.game, UniformEvaluator(state.game), MCTSConfig(simulations=300)).search(view_of(state), rng)
    lost = np.flatnonzero(result.exact == -1.0)
    assert len(lost) >= 3 and 3 not in lost  # moves that leave the open three are proven lost
    assert not result.choices()[lost].any() and result.best_action() == 3


@pytest.mark.parametrize("history", [[4, 0, 8], [0, 4, 8, 2], [4, 0, 1, 7, 3], [4, 1, 0]])
def test_solver_proves_tictactoe_endgames_exactly(history, rng):
    from boardzero.agents.solver import ILLEGAL, solved_move_values

    state = play_actions("tictactoe", history)
    result = rollout_mcts(state.game, 2000, solver=True).search(view_of(state), rng)
    solved = solved_move_values(state.game, history)
    legal = solved != ILLEGAL
    known = legal & ~np.isnan(result.exact)
    assert np.array_equal(result.exact[known], solved[known].astype(float))  # every proof is right
    best = result.best_action()
    assert result.exact[best] == solved[best] == solved.max()  # the optimal move, proven
    if solved.max() == 1:  # a proven win proves the root
        assert result.tree.proven[ROOT_INDEX] and result.value[state.current_player] == 1.0


def test_solver_off_and_hidden_information_give_no_proofs(rng):
    state = play_actions("connect4", WIN_IN_ONE)
    off = MCTS(state.game, UniformEvaluator(state.game), MCTSConfig(simulations=40, solver=False))
    result = off.search(view_of(state), rng)
    assert result.exact is None and not result.tree.proven.any()
    game, view = _guess_view(0)
    hidden = rollout_mcts(game, 200, solver=True).search(view, rng)
    assert hidden.exact is None and not hidden.tree.proven.any()


def test_solver_proofs_stop_at_chance_nodes(rng):
    game = CoinGame(p_good=0.7, safe=0.3)
    result = rollout_mcts(game, 500, solver=True).search(SeatView(game.new_state(), 0), rng)
    tree = result.tree
    chance = tree.child(ROOT_INDEX, GAMBLE)
    assert tree.proven[tree.child(chance, OUTCOME_GOOD)]  # a terminal under the chance node
    assert not tree.proven[chance] and np.isnan(result.exact[GAMBLE])
    assert result.q[GAMBLE] == pytest.approx(2 * 0.7 - 1, abs=0.15)


# ---------------------------------------------------------------- stopping once decided
def _random_connect4_position(moves: int, seed: int):
    """Connect 4 after ``moves`` random moves; under 7 no game can have ended."""
    rng = np.random.default_rng(seed)
    state = make("connect4").new_state(seed=seed)
    for _ in range(moves):
        state.apply(int(rng.choice(np.flatnonzero(state.legal_mask))))
    return state


@pytest.mark.parametrize("seed", range(12))
def test_stopping_once_decided_plays_the_full_searchs_move_in_fewer_simulations(seed):
    state = _random_connect4_position(seed % 7, seed)
    sims, found = 300, {}
    for stop in (False, True):
        config = MCTSConfig(simulations=sims, batch_size=8, solver=False, stop_when_decided=stop)
        mcts = MCTS(state.game, RolloutEvaluator(state.game), config)
        found[stop] = mcts.search(view_of(state), np.random.default_rng(seed))
    assert found[True].best_action() == found[False].best_action()
    assert found[False].visits.sum() == sims - 1  # the root's own evaluation is the other simulation
    assert found[True].visits.sum() <= sims - 1
    second, first = np.sort(found[True].visits)[-2:]
    lead = first - second
    assert found[True].visits.sum() == sims - 1 or lead > sims - 1 - found[True].visits.sum()


def test_stopping_once_decided_ends_an_obvious_search_early(rng):
    state = play_actions("connect4", WIN_IN_ONE)
    config = MCTSConfig(simulations=400, batch_size=8, solver=False, stop_when_decided=True)
    result = MCTS(state.game, RolloutEvaluator(state.game), config).search(view_of(state), rng)
    assert result.best_action() == 3
    assert result.visits.sum() < 399 - 100


def test_stopping_once_decided_waits_while_the_solver_can_prove_moves():
    state = play_actions("connect4", BLOCK_IN_ONE)
    results = [
        MCTS(state.game, UniformEvaluator(state.game), MCTSConfig(simulations=120, stop_when_decided=stop)).search(
            view_of(state), np.random.default_rng(3)
        )
        for stop in (False, True)
    ]
    assert results[0].visits.tolist() == results[1].visits.tolist()

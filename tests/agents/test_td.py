"""The TD agent's search settings: value priors, the leaf observer, the opening search, bad options."""

import dataclasses
from dataclasses import replace

import numpy as np
import pytest
import torch

import boardzero.agents.td as td_module
from boardzero.agents.td import TDAgent, ValuePriorEvaluator
from boardzero.core.api import CHANCE, sample_chance
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from boardzero.nn import build_network, spec_for_game


def _net(game):
    torch.manual_seed(0)
    return build_network(spec_for_game(game, "mlp", hidden=32, blocks=1))


def _decisions(game, count, seed):
    rng = np.random.default_rng(seed)
    state, found = game.new_state(seed=seed), []
    while len(found) < count:
        player = state.current_player
        if player >= 0 and len(state.legal_actions()) > 2:
            found.append(state.clone())
        state.apply(sample_chance(state, rng) if player == CHANCE else int(rng.choice(state.legal_actions())))
    return found


@pytest.mark.parametrize("depth", [1, 2])
def test_value_priors_are_a_softmax_of_the_values_the_agent_plans_with(depth):
    game = make("catan", players=2)
    net = _net(game)
    agent = TDAgent(game, net, depth=depth, precision="float32")
    evaluator = ValuePriorEvaluator(net, temperature=0.05, precision="float32", depth=depth)
    states = _decisions(game, 6, seed=3)
    priors, values = evaluator.evaluate(states)
    assert values.shape == (6, 2)
    for state, prior in zip(states, priors):
        legal = state.legal_mask()
        assert prior.sum() == pytest.approx(1.0, abs=1e-5) and not prior[~legal].any() and (prior[legal] > 0).all()
        actions, best, _ = agent.plan(SeatView(state, state.current_player), np.random.default_rng(0))
        assert np.argmax(prior) == actions[np.argmax(best)]  # the move the agent plays gets the largest prior
        expected = np.exp((best - best.max()) / 0.05)
        assert np.allclose(prior[actions], expected / expected.sum(), atol=1e-4)


def _own_turn_decisions(game, count, seed):
    """Decisions after which some move leaves the same seat to decide again (a build, a trade...)."""
    found = []
    for state in _decisions(game, 4 * count, seed):
        seat = state.current_player
        again = [a for a in state.legal_actions() if _after(state, a).current_player == seat]
        if again and len(found) < count:
            found.append(state)
    return found


def _after(state, action):
    state = state.clone()
    state.apply(int(action))
    return state


def test_planning_the_own_turn_values_a_move_by_the_best_position_it_reaches():
    from boardzero.agents.td import plan_own_turns
    from boardzero.core.batched import afterstates_of
    from boardzero.learn.td import afterstate_values

    game = make("catan", players=3)
    net = _net(game)
    key = net.spec.observation_key
    score = lambda after, seats: afterstate_values(net, after, seats, "float32")  # noqa: E731
    states = _own_turn_decisions(game, 5, seed=11)
    seats = np.array([s.current_player for s in states])
    after, values, best = plan_own_turns(states, seats, key, net, "float32", depth=2, width=1000)
    _, _, together = plan_own_turns(states, seats, key, net, "float32", depth=3, width=2)
    raised = 0
    for j, (state, seat) in enumerate(zip(states, seats)):
        mine = np.flatnonzero(after.row == j)
        assert sorted(after.action[mine]) == sorted(state.legal_actions())
        for k in mine:  # by hand: the move's own value, or the best of the seat's moves after it
            expected = values[k, 0]
            nxt = _after(state, after.action[k])
            if not after.terminal[k] and nxt.current_player == seat:
                deeper = afterstates_of(nxt, int(seat), key)
                expected = max(expected, score(deeper, np.full(len(deeper.action), seat))[:, 0].max())
            assert best[k] == pytest.approx(expected, abs=1e-6)
            raised += best[k] > values[k, 0] + 1e-9
        # planned together or alone, a state's plan is the same (the width is kept per state)
        _, _, alone = plan_own_turns([state], np.array([seat]), key, net, "float32", depth=3, width=2)
        assert np.allclose(together[mine], alone, atol=1e-6)
    assert raised  # some move's value came from the move after it


@pytest.mark.parametrize(
    "options, field",
    [
        ({"prior": -1.0}, "td.prior"),
        ({"observer": "me"}, "td.observer"),
        ({"sims": -1}, "td.sims"),
        ({"opening": 8}, "td.opening"),
        ({"opening_sims": 100}, "td.opening"),
        ({"opening": -1, "opening_sims": 100}, "td.opening"),
        ({"prior_depth": 2}, "td.prior_depth"),
        ({"prior": 0.02, "prior_depth": 0}, "td.prior_depth"),
        ({"batch": 0}, "td.batch"),
        ({"opening_batch": 4}, "td.opening_batch"),
        ({"opening": 8, "opening_sims": 100, "opening_batch": -1}, "td.opening_batch"),
        ({"fpu": -0.1}, "td.fpu"),
    ],
)
def test_bad_search_settings_name_the_field(options, field):
    game = make("catan", players=2)
    with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
        TDAgent(game, _net(game), sims=options.pop("sims", 8), **options)


def _searches_used(game, agent, names, count):
    """(history length, searcher name, simulations) of the agent's first ``count`` searches in one game."""
    used = []
    for name in names:
        searcher = getattr(agent, name)
        original = searcher.search

        def counted(view, rng, original=original, name=name):
            result = original(view, rng)
            used.append((len(view.history), name, int(result.visits.sum())))
            return result

        searcher.search = counted
    _self_play(game, agent, lambda state: len(used) >= count, np.random.default_rng(0))
    return used


def _self_play(game, agent, done, rng):
    """The agent in every seat of one game (board seed 5), chance drawn from ``rng``, until ``done(state)``."""
    state = game.new_state(seed=5)
    while not done(state):
        player = state.current_player
        if player == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(agent.act(SeatView(state, player), rng))


def test_the_opening_search_plays_the_games_first_decisions_only():
    game = make("catan", players=2)
    agent = TDAgent(game, _net(game), sims=4, prior=0.02, opening=8, opening_sims=12, precision="float32")
    used = _searches_used(game, agent, ("search", "opening_search"), 12)
    assert {name for made, name, _ in used if made < 8} == {"opening_search"}
    assert {name for made, name, _ in used if made >= 8} == {"search"}
    opening = [visits for _, name, visits in used if name == "opening_search"]
    later = [visits for _, name, visits in used if name == "search"]
    assert opening and later and min(opening) > max(later)  # 12 simulations against 4


def test_planned_priors_guide_the_search_after_the_opening_only():
    game = make("catan", players=2)
    agent = TDAgent(
        game, _net(game), sims=4, prior=0.02, prior_depth=2, opening=8, opening_sims=12, early=0, precision="float32"
    )
    assert agent.search.evaluator.depth == 2 and agent.opening_search.evaluator.depth == 1


def test_an_opening_network_guides_the_opening_search_only():
    game = make("catan", players=2)
    main, opening = _net(game), build_network(spec_for_game(game, "mlp", hidden=32, blocks=1))
    agent = TDAgent(
        game, main, sims=4, prior=0.02, opening=8, opening_sims=12, precision="float32", opening_net=opening
    )
    assert agent.opening_search.evaluator.net is opening and agent.search.evaluator.net is main
    view = SeatView(game.new_state(seed=5), 0)
    rng = np.random.default_rng(0)
    chosen = agent.opening_search.search(view, rng).visits
    plain = TDAgent(game, main, sims=4, prior=0.02, opening=8, opening_sims=12, precision="float32")
    assert not np.array_equal(chosen, plain.opening_search.search(view, np.random.default_rng(0)).visits)
    with pytest.raises(ConfigError, match=r"td\.opening_model"):
        TDAgent(game, main, sims=4, opening_net=opening)


@pytest.mark.parametrize("players", [2, 4])
def test_the_value_prior_search_asks_priors_only_where_it_chooses_and_searches_the_same(players):
    game = make("catan", players=players)
    agent = TDAgent(game, _net(game), sims=96, prior=0.02, infoset=True, precision="float32")
    evaluator = agent.search.evaluator
    assert evaluator.defers_priors
    asked = []
    priors = evaluator.priors
    evaluator.priors = lambda states: asked.append(len(states)) or priors(states)
    for state in [game.new_state(seed=4)] + _decisions(game, 2, seed=4):  # the setup and mid-game positions
        view = SeatView(state, state.current_player)
        asked.clear()
        deferred = agent.search.search(view, np.random.default_rng(1))
        asked_deferred = sum(asked)
        evaluator.defers_priors = False  # every new node gets its priors at once
        eager = agent.search.__class__(game, evaluator, agent.search.config).search(view, np.random.default_rng(1))
        evaluator.defers_priors = True
        np.testing.assert_array_equal(deferred.visits, eager.visits)
        np.testing.assert_allclose(deferred.prior, eager.prior, atol=1e-6)
        expanded = int((deferred.tree.player[: deferred.tree.size] >= 0).sum())
        assert asked_deferred + len(deferred.tree.pending_priors) == expanded
        assert deferred.tree.pending_priors  # nodes reached once were never given priors


def test_early_moves_past_the_opening_are_valued_by_the_opening_network(monkeypatch):
    game = make("catan", players=2)
    main, opening = _net(game), build_network(spec_for_game(game, "mlp", hidden=32, blocks=1))
    agent = TDAgent(
        game, main, sims=4, prior=0.02, opening=8, opening_sims=12, precision="float32", opening_net=opening, early=30
    )
    assert agent.early_search.evaluator.net is opening and agent.search.evaluator.net is main
    used = _searches_used(game, agent, ("search", "opening_search", "early_search"), 40)
    assert {name for made, name, _ in used if made < 8} == {"opening_search"}
    assert {name for made, name, _ in used if 8 <= made < 30} == {"early_search"}
    assert {name for made, name, _ in used if made >= 30} == {"search"}
    # played greedily (no search), the opening network values the early moves
    greedy = TDAgent(game, main, opening=8, opening_sims=12, precision="float32", opening_net=opening, early=30)
    made, seen = [0], []  # the history length of the move being chosen; (that length, network) of each valuation
    act, planned = greedy.act, td_module.plan_own_turns
    greedy.act = lambda view, rng: made.__setitem__(0, len(view.history)) or act(view, rng)
    monkeypatch.setattr(
        td_module,
        "plan_own_turns",
        lambda states, seats, key, net, *rest, **options: (
            seen.append((made[0], net)) or planned(states, seats, key, net, *rest, **options)
        ),
    )
    _self_play(game, greedy, lambda state: len(state.history) >= 60, np.random.default_rng(1))
    assert all(net is (opening if at < 30 else main) for at, net in seen if at >= 8)
    assert {id(net) for _, net in seen} == {id(main), id(opening)}
    for options in ({"early": 30}, {"early": 8, "opening_net": opening}, {"early": -1, "opening_net": opening}):
        with pytest.raises(ConfigError, match=r"td\.early"):
            TDAgent(game, main, sims=4, opening=8, opening_sims=12, **options)


def test_a_td_agent_averages_the_values_of_the_networks_named_by_mean_with(tmp_path):
    from boardzero.agents.registry import make_agent
    from boardzero.nn import save_network
    from boardzero.nn.ensemble import MeanValueNet

    game = make("catan", players=2)
    paths = []
    for seed, hidden in ((0, 16), (1, 16), (2, 24)):
        torch.manual_seed(seed)
        net = build_network(spec_for_game(game, "mlp", hidden=hidden, blocks=1))
        paths.append(
            save_network(
                tmp_path / f"n{seed}", net, {"game": "catan", "game_options": game.options_dict(), "trainer": "td"}
            )
        )
    agent = make_agent(f"td:{paths[0]},mean_with={paths[1]},mean_weight=0.25", game)
    assert isinstance(agent.net, MeanValueNet) and agent.net.weights == [0.75, 0.25]
    state = _decisions(game, 1, seed=2)[0]
    view = SeatView(state, state.current_player)
    actions, best, _ = agent.plan(view, np.random.default_rng(0))
    alone = [make_agent(f"td:{p}", game).plan(view, np.random.default_rng(0))[1] for p in paths[:2]]
    np.testing.assert_allclose(best, 0.75 * alone[0] + 0.25 * alone[1], atol=1e-5)
    searching = make_agent(f"td:{paths[0]},mean_with={paths[1]},sims=4,prior=0.02", game)
    assert searching.search.evaluator.net is searching.net
    with pytest.raises(ConfigError, match=r"td\.mean_with: network 2 reads"):
        make_agent(f"td:{paths[0]},mean_with={paths[2]}", game)
    for spec, field in (
        (f"td:{paths[0]},mean_weight=0.3", "td.mean_weight"),
        (f"td:{paths[0]},mean_with={paths[1]},mean_weight=1", "td.mean_weight"),
    ):
        with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
            make_agent(spec, game)


def test_a_td_agent_reads_its_network_over_the_games_symmetries_when_asked(tmp_path):
    from boardzero.agents.registry import make_agent
    from boardzero.nn import save_network
    from boardzero.nn.ensemble import SymmetricValueNet

    game = make("catan", players=2)
    torch.manual_seed(0)
    path = save_network(
        tmp_path / "n",
        build_network(spec_for_game(game, "mlp", hidden=16, blocks=1)),
        {"game": "catan", "game_options": game.options_dict(), "trainer": "td"},
    )
    agent = make_agent(f"td:{path},symmetries=true", game)
    assert isinstance(agent.net, SymmetricValueNet)
    state = _decisions(game, 1, seed=2)[0]
    view = SeatView(state, state.current_player)
    actions, best, _ = agent.plan(view, np.random.default_rng(0))
    plain = make_agent(f"td:{path}", game)
    assert not np.allclose(best, plain.plan(view, np.random.default_rng(0))[1], atol=1e-6)
    searching = make_agent(f"td:{path},symmetries=true,sims=4,prior=0.02", game)
    assert searching.search.evaluator.net is searching.net
    assert isinstance(searching.net, SymmetricValueNet)


def test_the_agents_searches_stop_once_decided_and_play_the_full_searchs_move():
    game = make("catan", players=2)
    agent = TDAgent(game, _net(game), sims=96, prior=0.02, infoset=True, precision="float32")
    assert agent.search.config.stop_when_decided
    full = agent.search.__class__(game, agent.search.evaluator, replace(agent.search.config, stop_when_decided=False))
    shortened = 0
    for state in [game.new_state(seed=6)] + _decisions(game, 5, seed=6):
        view = SeatView(state, state.current_player)
        stopped = agent.search.search(view, np.random.default_rng(2))
        whole = full.search(view, np.random.default_rng(2))
        assert stopped.best_action() == whole.best_action()
        assert whole.visits.sum() == 95
        shortened += stopped.visits.sum() < 95
    assert shortened  # the bound ended some of these searches early


def test_first_play_urgency_keeps_the_search_on_the_moves_it_tried():
    game = make("catan", players=2)
    net = _net(game)
    spread = {}
    for fpu in (0.0, 1.0):
        agent = TDAgent(game, net, sims=48, infoset=True, precision="float32", fpu=fpu)
        assert agent.search.config.fpu_reduction == fpu
        spread[fpu] = [
            int((agent.search.search(SeatView(s, s.current_player), np.random.default_rng(3)).visits > 0).sum())
            for s in _decisions(game, 4, seed=9)
        ]
    # uniform priors: at the parent's value every move is tried; a whole win share less, far fewer are
    assert sum(spread[1.0]) < sum(spread[0.0])


def test_a_reusing_agent_goes_on_from_the_subtree_its_last_search_reached():
    game = make("catan", players=2)
    net = _net(game)
    rng = np.random.default_rng(4)
    reached = {}
    for reuse in (False, True):
        agent = TDAgent(game, net, sims=64, prior=0.02, infoset=True, precision="float32", reuse=reuse)
        assert agent.search.config.reuse_tree is reuse
        state = game.new_state(seed=11)
        state.apply(agent.act(SeatView(state, 0), rng))  # the first settlement; the same seat places its road
        result = agent.search.search(SeatView(state, 0), rng)
        reached[reuse] = result.tree.node_visits[0]
        agent.reset()
        assert not agent.search._pool
    assert reached[False] <= 64
    assert reached[True] > 64  # the road's search began with the visits the settlement's search had left there


def test_opening_per_move_caps_the_opening_search_by_the_legal_moves():
    game = make("catan", players=2)
    rng = np.random.default_rng(5)
    agent = TDAgent(
        game,
        _net(game),
        sims=8,
        prior=0.02,
        infoset=True,
        precision="float32",
        opening=8,
        opening_sims=200,
        opening_per_move=10,
    )
    state = game.new_state(seed=12)
    counted = []
    original = agent.opening_search.search

    def search(view, rng, **options):
        result = original(view, rng, **options)
        counted.append((len(view.legal_actions), options.get("simulations")))
        return result

    agent.opening_search.search = search
    state.apply(agent.act(SeatView(state, 0), rng))  # a settlement: 54 choices, the full 200
    agent.act(SeatView(state, 0), rng)  # its road: a few choices, 10 each
    (settlements, first), (roads, second) = counted
    assert first == 200 and second == 10 * roads < 200
    with pytest.raises(ConfigError, match="opening_per_move"):
        TDAgent(game, _net(game), opening_per_move=-1)


def test_the_td_agents_options_are_the_fields_of_its_settings_record_with_the_same_defaults():
    import dataclasses
    import inspect

    from boardzero.agents.settings import TDPlay
    from boardzero.agents.td import td

    options = {p.name: p.default for p in inspect.signature(td).parameters.values() if p.kind == p.KEYWORD_ONLY}
    record = {f.name: f.default for f in dataclasses.fields(TDPlay)}
    assert {k: v for k, v in options.items() if k not in ("opening_model", "mean_with")} == record


def test_td_settings_are_checked_once_naming_the_field_and_what_it_allows():
    from boardzero.agents.settings import TDPlay

    for values, message in (
        ({"sims": -1}, "agent td.sims: must be >= 0, got -1"),
        ({"c_puct": float("inf")}, "agent td.c_puct: expected a finite number"),
        ({"depth": True}, "agent td.depth: expected an integer, got True"),
        ({"observer": "me"}, "agent td.observer: 'me' is not allowed; allowed: mover, to_move"),
        ({"opening": 8}, "agent td.opening: opening and opening_sims go together"),
    ):
        with pytest.raises(ConfigError, match=message):
            TDPlay("agent td", **values)
    settings = TDPlay("agent td", sims=4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.sims = 8  # type: ignore[misc]
    assert settings.changed("agent best", sims=8).sims == 8 and settings.sims == 4

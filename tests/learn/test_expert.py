"""Expert iteration: mixed value targets by hand, searched self-play samples, the policy head's loss, a tiny run
that trains and resumes, and TD checkpoints that still load and play."""

import numpy as np
import pytest
import torch

from boardzero.agents.registry import make_agent
from boardzero.agents.td import TDAgent
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import view_for
from boardzero.games.catan.batched import BatchedCatan
from boardzero.games.catan.offsets import PH_SETUP_ROAD, PH_SETUP_SETTLEMENT
from boardzero.learn import config_from_dict, train
from boardzero.learn.expert import Expert, ExpertWorker, mixed_targets
from boardzero.learn.runtime import Trainer
from boardzero.nn import spec_for_game
from boardzero.nn.checkpoint import read_metadata
from boardzero.nn.policy_prior import PolicyPriorEvaluator

TINY = {
    "method": "expert",
    "game": "tictactoe",
    "network": {"hidden": 32, "blocks": 1},
    "selfplay": {"games_per_actor": 8, "publish_every": 5, "precision": "float32"},
    "train": {
        "steps": 30,
        "batch_size": 64,
        "lr": 0.003,
        "min_replay": 100,
        "sample_reuse": 8.0,
        "replay_size": 5000,
        "checkpoint_every": 15,
        "log_every": 15,
    },
    "eval": {"every": 0},
    "td": {"explore": 0.0, "lam": 0.8},
    "expert": {"search_moves": 2, "simulations": 16, "temperature_moves": 1, "policy_replay_size": 1000},
}


def tiny(**sections) -> dict:
    return {**TINY, **{name: {**TINY.get(name, {}), **table} for name, table in sections.items()}}


def test_mixed_targets_by_hand():
    lam = np.array([[0.6, 0.4], [0.7, 0.3], [1.0, 0.0]])
    outcome = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
    search = np.array([[0.2, 0.8], [0.0, 0.0], [0.0, 0.0]])
    searched = np.array([True, False, False])
    mixed = mixed_targets(lam, outcome, search, searched, search_weight=2.0, lambda_weight=1.0, outcome_weight=1.0)
    # searched: (2 * 0.2 + 0.6 + 1.0) / 4 = 0.5 for seat 0; the others leave the search out: (0.7 + 1.0) / 2
    assert np.allclose(mixed, [[0.5, 0.5], [0.85, 0.15], [1.0, 0.0]])
    only_search = mixed_targets(lam, outcome, search, searched, search_weight=1, lambda_weight=0, outcome_weight=1)
    assert np.allclose(only_search[0], [0.6, 0.4]) and np.allclose(only_search[1], [1.0, 0.0])
    with pytest.raises(ValueError, match="no part"):
        mixed_targets(lam, outcome, search, searched, search_weight=1.0, lambda_weight=0.0, outcome_weight=0.0)


def worker(**sections) -> ExpertWorker:
    config = config_from_dict(tiny(**sections))
    spec = spec_for_game(make("tictactoe"), "mlp", hidden=8, blocks=1)
    return ExpertWorker(0, {"config": config.to_dict(), "network": spec.to_dict(), "generation": 0})


def test_searched_decisions_give_visit_shares_and_search_values_in_their_targets():
    actor = worker(expert={"lambda_weight": 0.0, "outcome_weight": 1.0})
    samples = []
    while not samples:
        samples = actor.step()
    batch = samples[0]
    moves = len(batch["obs"])
    assert len(batch["policy"]) == 2  # the first two decisions of the game were searched
    assert np.allclose(batch["policy"].sum(axis=1), 1.0)
    assert not (batch["policy"] * ~batch["policy_mask"]).any()  # visits only on legal moves
    assert batch["policy_obs"].shape == (2, *make("tictactoe").observation_spec["flat"])
    assert moves > 2 and batch["value"].shape == (moves, 2)
    # a position not searched learns the outcome alone here (lambda_weight 0); seen from its mover
    last = batch["value"][-1]
    assert sorted(np.round(last, 6).tolist()) in ([-1.0, 1.0], [0.0, 0.0])


def game_with_moves(actor: ExpertWorker, moves: int):
    """The first game of ``actor`` to reach ``moves`` recorded positions, stepping self-play until one does."""
    while True:
        for game in actor.games:
            if len(game.obs) >= moves:
                return game
        actor.step()


def test_the_search_targets_enter_as_weighted():
    """With all weight on the search, a searched position's target is its search value, not the outcome."""
    actor = worker(expert={"search_weight": 1.0, "lambda_weight": 0.0, "outcome_weight": 1e-12})
    game = game_with_moves(actor, 3)
    assert game.searched[:2] == [True, True] and not any(game.searched[2:])
    samples = actor._samples(game, np.array([1.0, -1.0]))
    seat = game.seat[0]
    expected = np.roll(game.search_value[0], -seat)  # seat-relative
    assert np.allclose(samples["value"][0], expected, atol=1e-6)


def test_every_move_is_marked_timed_or_not_and_a_timeless_move_is_not_discounted():
    """Searched moves are marked as TD's are (Catan's offers and answers take no game time), and the targets
    discount only the moves that take game time."""
    actor = worker(td={"gamma": 0.5}, expert={"search_weight": 1e-12, "lambda_weight": 0.0, "outcome_weight": 1.0})
    game = game_with_moves(actor, 4)
    assert len(game.timed) == len(game.obs) and all(game.timed)  # no tic-tac-toe move is timeless
    final = np.array([1.0, -1.0])
    discounted = actor._samples(game, final)["value"][0]
    assert abs(discounted).max() < 0.5  # four or more moves at gamma 0.5 from the end
    game.timed = [False] * len(game.obs)
    timeless = actor._samples(game, final)["value"][0]
    assert np.allclose(abs(timeless), 1.0, atol=1e-6)


@pytest.mark.parametrize("through_trunk, falls_to", [(True, 0.9), (False, 0.95)])
def test_policy_loss_falls_on_a_fixed_batch(tmp_path, through_trunk, falls_to):
    method = Trainer(config_from_dict(tiny(expert={"policy_trunk": through_trunk})), tmp_path / "run").method
    assert isinstance(method, Expert)
    rng = np.random.default_rng(0)
    shape, actions = method.spec.input_shape, method.spec.num_actions
    masks = rng.random((32, actions)) < 0.6
    masks[:, 0] = True
    visits = rng.random((32, actions)) * masks
    batch = method.tensors(
        {
            "obs": rng.random((32, *shape)).astype(np.float32),
            "mask": masks,
            "policy": (visits / visits.sum(axis=1, keepdims=True)).astype(np.float32),
        }
    )

    def cross_entropy() -> float:  # by hand, not through the method's loss
        with torch.no_grad():
            logits, _ = method.net(batch["obs"], batch["mask"])
        return float(-(batch["policy"] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean())

    method.net.train()
    before = cross_entropy()
    assert abs(method.policy_loss(batch).item() - before) < 1e-5
    for _ in range(60):
        method.optimize(method.policy_loss(batch), {})
    assert cross_entropy() < falls_to * before


@pytest.mark.parametrize("kind", ["mlp", "conv"])
def test_a_policy_head_off_the_trunk_learns_without_moving_the_values(tmp_path, kind):
    """With ``policy_trunk = false`` the policy loss reaches the head alone: the trunk and values do not move."""
    game = "connect4" if kind == "conv" else "tictactoe"
    network = {"kind": "conv", "channels": 8, "blocks": 1} if kind == "conv" else TINY["network"]
    settings = tiny(expert={"policy_trunk": False}) | {"game": game, "network": network}
    method = Trainer(config_from_dict(settings), tmp_path / "run").method
    rng = np.random.default_rng(0)
    shape, actions = method.spec.input_shape, method.spec.num_actions
    masks = np.ones((16, actions), bool)
    visits = rng.random((16, actions))
    batch = method.tensors(
        {
            "obs": rng.random((16, *shape)).astype(np.float32),
            "mask": masks,
            "policy": (visits / visits.sum(axis=1, keepdims=True)).astype(np.float32),
        }
    )
    method.net.train()
    with torch.no_grad():
        logits, _ = method.net(batch["obs"], batch["mask"])
    loss = method.policy_loss(batch)
    assert abs(loss.item() + (batch["policy"] * torch.log_softmax(logits, dim=1)).sum(dim=1).mean().item()) < 1e-4
    head = {"policy", "policy_conv"}
    before = {name: p.detach().clone() for name, p in method.net.named_parameters()}
    for _ in range(5):
        method.optimize(method.policy_loss(batch), {})
    moved = {name for name, p in method.net.named_parameters() if not torch.equal(p, before[name])}
    assert moved and {name.split(".")[0] for name in moved} <= head  # the head learned, nothing else moved


def test_a_tiny_run_trains_resumes_and_plays_with_its_policy_head(tmp_path):
    run = tmp_path / "run"
    summary = train(config_from_dict(tiny(train={"steps": 15})), run)
    assert summary["step"] == 15
    trainer = Trainer(config_from_dict(tiny()), run)
    assert trainer.step == 15 and len(trainer.method.policy_replay) > 0  # the searched positions came back
    trainer.run()
    assert trainer.step == 30
    meta = read_metadata(sorted((run / "checkpoints").glob("step_*.json"))[-1])
    assert meta["trainer"] == "expert" and meta["policy_head"] is True
    agent = make_agent(f"td:{run},sims=8", make("tictactoe"))
    assert isinstance(agent, TDAgent) and isinstance(agent.search.evaluator, PolicyPriorEvaluator)
    plain = make_agent(f"td:{run},sims=8,prior=0.1,policy=off", make("tictactoe"))
    assert not isinstance(plain.search.evaluator, PolicyPriorEvaluator)


def test_a_td_checkpoint_starts_an_expert_run_and_keeps_its_value_priors(tmp_path):
    td = {**tiny(), "method": "td", "expert": {}}
    del td["expert"]
    train(config_from_dict({**td, "train": {**td["train"], "steps": 5, "checkpoint_every": 5}}), tmp_path / "td")
    game = make("tictactoe")
    agent = make_agent(f"td:{tmp_path / 'td'},sims=8,prior=0.1", game)
    assert not isinstance(agent.search.evaluator, PolicyPriorEvaluator)  # no policy head learned: value priors
    trainer = Trainer(config_from_dict(tiny()), tmp_path / "expert", init=tmp_path / "td")
    assert trainer.initialised_from is not None
    state = game.new_state(seed=0)
    with torch.no_grad():
        value = trainer.method.net.values(torch.from_numpy(state.observe(0)["flat"][None]))
    assert value.shape == (1, 2)
    assert agent.act(view_for(state, 0), np.random.default_rng(0)) in state.legal_actions()


def test_the_policy_option_is_checked():
    with pytest.raises(ConfigError, match="policy"):
        make_agent("td:nowhere,policy=maybe", make("tictactoe"))
    with pytest.raises(ConfigError, match="expert.simulations"):
        config_from_dict(tiny(expert={"simulations": 0}))
    with pytest.raises(ConfigError, match="applies to method expert"):
        config_from_dict({**tiny(), "method": "td"})


def catan_worker(**expert) -> ExpertWorker:
    config = config_from_dict(
        tiny(expert={"search_moves": 3, "simulations": 6, **expert})
        | {"game": "catan", "game_options": {"players": 2}, "selfplay": {**TINY["selfplay"], "games_per_actor": 3}}
    )
    spec = spec_for_game(make("catan", players=2), "mlp", hidden=8, blocks=1)
    return ExpertWorker(0, {"config": config.to_dict(), "network": spec.to_dict(), "generation": 0})


def test_catan_self_play_steps_the_compiled_batch_and_searches_the_setup_on_rebuilt_states():
    actor = catan_worker()
    assert isinstance(actor.env, BatchedCatan)
    searched_positions = []
    search_many = actor.searcher().search_many

    def spy(views, rng, **kwargs):
        searched_positions.extend((len(view.history), view.sample_state(rng).phase) for view in views)
        return search_many(views, rng, **kwargs)

    actor.searcher().search_many = spy
    for _ in range(12):
        actor.step()
    for game in actor.games:
        assert game.searched[:3] == [True, True, True] and not any(game.searched[3:])
        assert len(game.policy) == 3 and len(game.obs) > 3
    # nine searches, each in the setup of its game with every placement so far in its history
    assert [length for length, _ in searched_positions] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert all(phase in (PH_SETUP_SETTLEMENT, PH_SETUP_ROAD) for _, phase in searched_positions)


def test_a_search_share_of_zero_plays_every_game_as_td_and_per_move_caps_the_budget():
    actor = worker(expert={"search_share": 0.0})
    for _ in range(12):
        actor.step()
    assert not any(any(game.searched) for game in actor.games)
    capped = worker(expert={"per_move": 1, "simulations": 16, "search_moves": 1})
    budgets = []
    search_many = capped.searcher().search_many
    capped.searcher().search_many = lambda views, rng, **kwargs: (
        budgets.append(kwargs["simulations"]) or search_many(views, rng, **kwargs)
    )
    capped.step()
    assert budgets == [9]  # tic-tac-toe's first move: 9 legal moves at 1 simulation each, under 16
    with pytest.raises(ConfigError, match="search_share"):
        config_from_dict(tiny(expert={"search_share": 1.5}))


def reanalysing_worker(**expert) -> ExpertWorker:
    return worker(expert={"reanalyse": 1.0, "dirichlet_fraction": 0.0, **expert})


def test_finished_games_fill_the_reanalysis_pool_with_their_searched_positions_and_returns():
    actor = reanalysing_worker(reanalyse_pool=5, lambda_weight=1.0)
    while actor.reanalysed == 0:
        actor.step()
    assert len(actor.pool) == 5  # two searched positions a game, the oldest replaced once full
    for state, seat, action, lam, outcome in actor.pool:
        assert state.current_player == seat and state.legal_mask()[action]
        assert lam.shape == outcome.shape == (2,)
        assert np.allclose(sorted(outcome.tolist()), [-1.0, 1.0]) or np.allclose(outcome, 0.0)


def test_a_reanalysed_position_learns_the_newest_networks_search_of_it():
    """The sample of a re-searched position: the position after the move once played, with the value of a new
    search through that move (here all the weight), and the root with the new visit shares."""
    actor = reanalysing_worker(search_weight=1.0, lambda_weight=0.0, outcome_weight=1e-12)
    while not actor.pool:
        actor.step()
    with torch.no_grad():  # a newer network: the targets must come from it, not from the stored search
        for p in actor.net.parameters():
            p.add_(torch.randn_like(p))
    while len(actor.pool) > 1:  # one stored position left
        actor.pool.pop()
    state, seat, action, _, _ = actor.pool[0]
    sample = actor.reanalyse(1)
    by_hand = actor.searcher().search_many([view_for(state, seat)], np.random.default_rng(0), add_noise=False)[0]
    after = state.clone()
    after.apply(action)
    assert np.array_equal(sample["obs"][0], after.observe(seat)["flat"])
    child = by_hand.tree.child(by_hand.root, action)
    assert np.allclose(sample["value"][0], np.roll(by_hand.tree.mean_value(child), -seat), atol=1e-5)
    assert np.allclose(sample["policy"][0], by_hand.visits / by_hand.visits.sum())
    assert np.array_equal(sample["policy_obs"][0], state.observe(seat)["flat"])


def test_reanalysis_searches_as_many_stored_positions_as_owed_per_live_search():
    actor = reanalysing_worker(reanalyse=0.5)
    live = []
    search_views = actor._search_views
    actor._search_views = lambda views, budgets: live.append(len(views)) or search_views(views, budgets)
    while actor.reanalysed < 6:
        actor.step()
    searches = sum(live) - actor.reanalysed  # every call went through _search_views: live ones and re-analyses
    before_pool = 16  # the 8 first games' 2 searches each, made before any game had ended
    assert actor.reanalysed == int(0.5 * (searches - before_pool))
    with pytest.raises(ConfigError, match="reanalyse"):
        config_from_dict(tiny(expert={"reanalyse": -1.0}))


def test_a_tiny_run_with_reanalysis_trains_and_resumes(tmp_path):
    run = tmp_path / "run"
    settings = {"reanalyse": 0.5, "reanalyse_pool": 64}
    assert train(config_from_dict(tiny(train={"steps": 15}, expert=settings)), run)["step"] == 15
    trainer = Trainer(config_from_dict(tiny(expert=settings)), run)
    assert trainer.config.expert.reanalyse == 0.5
    trainer.run()
    assert trainer.step == 30

"""Opening values by Monte Carlo: recorded positions carry their game's result; the fit keeps its best epoch;
the fitted network ships beside a model and ``best`` searches the opening with it."""

import numpy as np
import pytest
import torch

import boardzero.agents.best as best_module
from boardzero.agents.registry import make_agent
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import make
from boardzero.learn.export import export_model
from boardzero.learn.opening import collect, fit, save_games
from boardzero.nn import build_network, save_network, spec_for_game
from boardzero.nn.checkpoint import load_network, read_metadata


def _td_model(path, game, hidden=16, seed=0, trainer="td"):
    torch.manual_seed(seed)
    net = build_network(spec_for_game(game, "mlp", hidden=hidden, blocks=1))
    return save_network(
        path,
        net,
        {
            "game": game.name,
            "game_options": game.options_dict(),
            "trainer": trainer,
            "play": {
                "sims": 4,
                "prior": 0.02,
                "opening": 4,
                "opening_sims": 8,
                "fast": {"sims": 0, "opening": 0, "opening_sims": 0},
            },
        },
    )


def test_collected_opening_positions_carry_their_games_result_for_the_mover(tmp_path):
    game = make("tictactoe")
    model = _td_model(tmp_path / "m", game)
    data = collect(str(model), seed=3, moves=2, temperature=0.5, games=40, batch=8)
    numbers, counts = np.unique(data["game"], return_counts=True)
    assert len(numbers) >= 40 and set(counts) == {2}  # two opening positions of every game, the first two moves
    assert data["obs"].dtype == np.float16 and data["obs"].shape[1:] == tuple(game.observation_spec["flat"])
    # tic-tac-toe returns are +1 / -1 / 0: the two movers of a game's opening see opposite results
    first, second = data["target"][::2, 0], data["target"][1::2, 0]
    assert np.array_equal(first, -second) and set(np.unique(first)) <= {-1.0, 0.0, 1.0}
    assert np.array_equal(data["target"][:, 1], -data["target"][:, 0])


def test_later_decisions_are_recorded_at_their_share(tmp_path):
    game = make("tictactoe")
    model = _td_model(tmp_path / "m", game)
    data = collect(str(model), seed=4, moves=2, temperature=0.5, games=30, batch=8, later=3, share=1.0)
    numbers, counts = np.unique(data["game"], return_counts=True)
    assert set(counts) == {5}  # every tic-tac-toe game has at least five moves with a choice
    assert all(sorted(data["decision"][data["game"] == n]) == [0, 1, 2, 3, 4] for n in numbers)
    sampled = collect(str(model), seed=4, moves=2, temperature=0.5, games=200, batch=8, later=3, share=0.5)
    later = np.mean(sampled["decision"] >= 2) / np.mean(sampled["decision"] < 2) / 3 * 2
    assert 0.35 < later < 0.65  # about half of the three later decisions per game (two opening ones)


def test_the_fit_keeps_its_best_held_out_epoch_and_learns_the_results(tmp_path):
    game = make("tictactoe")
    model = _td_model(tmp_path / "m", game)
    save_games(tmp_path / "games_1.npz", collect(str(model), seed=1, moves=3, temperature=0.3, games=400, batch=32))
    net, meta = fit(str(model), [tmp_path / "games_1.npz"], epochs=4, lr=3e-3, batch=64)
    report = meta["notes"]["opening_fit"]
    mse = report["held_out_mse"]
    assert len(mse) == 5 and min(mse[1:]) < mse[0]  # it learned something held out
    assert report["epoch"] == int(np.argmin(mse))
    assert meta["trainer"] == "td" and meta["game"] == "tictactoe"
    path = save_network(tmp_path / "opening", net, meta)
    assert load_network(path, game=game, trainers=("td",))[0].spec == net.spec


def _first_move_positions(game, net):
    """The afterstates of tic-tac-toe's first move and ``net``'s values of them for the mover."""
    env = game.batched(1, seed=0, observation_key=net.spec.observation_key)
    env.reset()
    after = env.afterstates(np.array([0]))
    return after.obs, net.values(torch.from_numpy(after.obs)).detach().numpy()[:, 0]


def test_a_drawing_network_picks_the_opening_moves_and_the_fit_can_start_from_it(tmp_path):
    game = make("tictactoe")
    model = _td_model(tmp_path / "m", game, seed=0)
    drawer_path = _td_model(tmp_path / "d", game, seed=5)
    drawer = load_network(drawer_path)[0]
    positions, by_drawer = _first_move_positions(game, drawer)
    _, by_model = _first_move_positions(game, load_network(model)[0])
    assert np.argmax(by_drawer) != np.argmax(by_model)  # the two networks open differently
    for draws, values in (("", by_model), (str(drawer_path), by_drawer)):
        data = collect(str(model), seed=2, moves=1, temperature=1e-6, games=12, batch=4, draws=draws)
        first = data["obs"].astype(np.float32)
        assert np.array_equal(first, np.repeat(positions[[np.argmax(values)]], len(first), axis=0))
    games = [tmp_path / "games_2.npz"]  # varied games to fit (a near-greedy tic-tac-toe game repeats itself)
    save_games(
        games[0], collect(str(model), seed=2, moves=3, temperature=0.5, games=100, batch=16, draws=str(drawer_path))
    )
    _, meta = fit(str(model), games, epochs=1, lr=1e-3, batch=4, init=str(drawer_path))
    report = meta["notes"]["opening_fit"]
    assert report["init"] == str(drawer_path) and meta["trainer"] == "td" and len(report["held_out_mse"]) == 2
    # epoch 0 is the network the fit started from: the drawer's held-out loss, not the model's
    as_drawer = fit(str(drawer_path), games, epochs=0, batch=4)[1]["notes"]["opening_fit"]["held_out_mse"][0]
    as_model = fit(str(model), games, epochs=0, batch=4)[1]["notes"]["opening_fit"]["held_out_mse"][0]
    assert report["held_out_mse"][0] == as_drawer != as_model


def test_best_searches_the_opening_with_the_shipped_opening_network(tmp_path, monkeypatch):
    game = make("catan", players=2, turn_limit=30)
    model = _td_model(tmp_path / "run" / "m", game, hidden=8)
    opening = _td_model(tmp_path / "run" / "o", game, hidden=8, seed=1)
    notes = {"run": "test"}
    shipped = export_model(
        model,
        play=read_metadata(model)["play"],
        out_dir=tmp_path / "catan",
        name="model-2p",
        notes=notes,
        opening=opening,
    )
    assert (tmp_path / "catan" / "model-2p.opening.safetensors").is_file()
    assert notes == {"run": "test"} and set(read_metadata(shipped)["notes"]) == {"run", "opening"}
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    agent = make_agent("best", game)
    expected = load_network(opening)[0].state_dict()
    used = agent.opening_search.evaluator.net.state_dict()
    assert all(torch.equal(used[k], expected[k]) for k in expected)
    assert agent.search.evaluator.net is agent.net and agent.opening_search.evaluator.net is not agent.net
    assert make_agent("best:fast", game).opening_search is None
    # td: names the shipped opening network as PATH#opening
    named = make_agent(f"td:{shipped},sims=2,opening=4,opening_sims=8,opening_model={shipped}#opening", game)
    assert all(torch.equal(named.opening_search.evaluator.net.state_dict()[k], expected[k]) for k in expected)
    # a stored "early" lets the opening network value the moves after the opening too; best:fast has none
    export_model(
        model,
        play={**read_metadata(model)["play"], "early": 20},
        out_dir=tmp_path / "catan",
        name="model-2p",
        opening=opening,
    )
    agent = make_agent("best", game)
    assert agent.early == 20 and agent.early_search.evaluator.net.state_dict().keys() == expected.keys()
    assert all(torch.equal(agent.early_search.evaluator.net.state_dict()[k], expected[k]) for k in expected)
    assert make_agent("best:fast", game).early == 0
    # exported again with one setting given, a shipped model keeps its other settings and its opening network
    again = export_model(shipped, play={"sims": 5, "fast": {"depth": 2}}, out_dir=tmp_path / "again", name="m")
    stored = read_metadata(shipped)
    assert read_metadata(again)["play"] == {**stored["play"], "sims": 5, "fast": {**stored["play"]["fast"], "depth": 2}}
    assert read_metadata(again)["notes"] == {"opening": stored["notes"]["opening"]}
    assert (tmp_path / "again" / "m.opening.safetensors").read_bytes() == (
        tmp_path / "catan" / "model-2p.opening.safetensors"
    ).read_bytes()
    # a network of another shape is refused and nothing is written
    other = _td_model(tmp_path / "run" / "x", game, hidden=12)
    with pytest.raises(CheckpointError, match="not the shape"):
        export_model(model, play={}, out_dir=tmp_path / "other", name="model-2p", opening=other)
    assert not (tmp_path / "other").exists() and shipped.is_file()


def test_an_expert_run_s_value_network_is_fitted_and_shipped_as_a_td_one_is(tmp_path):
    """Expert iteration's checkpoints are TD value networks with a policy head: the opening fit collects with
    and starts from them, and export ships them beside a model."""
    game = make("catan", players=2, turn_limit=30)
    model = _td_model(tmp_path / "run" / "m", game, hidden=8, trainer="expert")
    drawer = _td_model(tmp_path / "run" / "d", game, hidden=8, seed=1, trainer="expert")
    save_games(
        tmp_path / "g.npz", collect(str(model), seed=1, moves=1, temperature=0.5, games=4, batch=4, draws=str(drawer))
    )
    _, meta = fit(str(model), [tmp_path / "g.npz"], epochs=0, batch=2, init=str(drawer))
    assert meta["trainer"] == "expert" and meta["notes"]["opening_fit"]["init"] == str(drawer)
    shipped = export_model(
        model, play=read_metadata(model)["play"], out_dir=tmp_path / "catan", name="m", opening=drawer
    )
    assert set(read_metadata(shipped)["notes"]) >= {"opening"}


def test_best_averages_the_values_of_a_network_shipped_with_it(tmp_path, monkeypatch):
    from boardzero.nn.ensemble import MeanValueNet

    game = make("catan", players=2, turn_limit=30)
    model = _td_model(tmp_path / "run" / "m", game, hidden=8)
    partner = _td_model(tmp_path / "run" / "p", game, hidden=8, seed=1)
    opening = _td_model(tmp_path / "run" / "o", game, hidden=8, seed=2)
    shipped = export_model(
        model,
        play={**read_metadata(model)["play"], "mean_weight": 0.4},
        out_dir=tmp_path / "catan",
        name="model-2p",
        opening=opening,
        mean_with=partner,
    )
    assert read_metadata(shipped)["notes"]["mean_with"] == {"source": "p.json"}
    monkeypatch.setattr(best_module, "MODELS_DIR", tmp_path)
    for spec in ("best", "best:fast", "best:greedy"):
        agent = make_agent(spec, game)
        assert isinstance(agent.net, MeanValueNet) and agent.net.weights == pytest.approx([0.6, 0.4])
        expected = load_network(partner)[0].state_dict()
        assert all(torch.equal(agent.net.nets[1].state_dict()[k], expected[k]) for k in expected)
    agent = make_agent("best", game)
    assert agent.search.evaluator.net is agent.net
    assert not isinstance(agent.opening_search.evaluator.net, MeanValueNet)  # the opening network stays alone
    # a share of 0 leaves the second network out: here of the searching best, not of best:fast
    export_model(
        shipped, play={"mean_weight": 0, "fast": {"mean_weight": 0.5}}, out_dir=tmp_path / "catan", name="model-2p"
    )
    assert not isinstance(make_agent("best", game).net, MeanValueNet)
    assert isinstance(make_agent("best:fast", game).net, MeanValueNet)
    assert make_agent("best:mean_weight=0.25", game).net.weights == [0.75, 0.25]  # the stored share overridden
    assert not isinstance(make_agent("best:fast,mean_weight=0", game).net, MeanValueNet)
    with pytest.raises(ConfigError, match=r"mean_weight: the share .* between 0 and 1"):
        make_agent("best:mean_weight=1.5", game)
    # exported again without it, the model keeps both networks; a partner of another shape is refused
    again = export_model(shipped, play={"sims": 5}, out_dir=tmp_path / "again", name="m")
    assert set(read_metadata(again)["extras"]) == {"opening", "mean_with"}
    assert (tmp_path / "again" / "m.mean_with.safetensors").read_bytes() == (
        tmp_path / "catan" / "model-2p.mean_with.safetensors"
    ).read_bytes()
    other = _td_model(tmp_path / "run" / "x", game, hidden=12)
    with pytest.raises(CheckpointError, match="not the shape"):
        export_model(model, play={}, out_dir=tmp_path / "other", name="model-2p", mean_with=other)
    assert not (tmp_path / "other").exists()


def test_the_command_refuses_a_network_it_cannot_use_before_any_self_play(tmp_path):
    from typer.testing import CliRunner

    from boardzero.cli.main import app

    model = _td_model(tmp_path / "m", make("tictactoe"))
    other_game = _td_model(tmp_path / "c4", make("connect4"))
    for flag, value, message in (
        ("--draws", f"{model}#opening", "has no extra network 'opening'"),
        ("--init", str(other_game), "connect4"),
    ):
        args = ["opening", str(model), "--out", str(tmp_path / "out"), "--minutes", "1", flag, value]
        result = CliRunner().invoke(app, args)
        assert result.exit_code != 0 and message in str(result.exception)
        assert not (tmp_path / "out").exists()

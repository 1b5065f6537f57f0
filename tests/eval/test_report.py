"""Reports: plots are written and not empty; a training run's checkpoints are rated over time."""

import json

import pytest
from matplotlib.image import imread

from boardzero.core.errors import ConfigError
from boardzero.eval.checkpoints import rate_run, run_checkpoints, spread
from boardzero.eval.figures import collect
from boardzero.eval.report import report
from boardzero.eval.tournament import Entrant, run_tournament
from boardzero.learn import config_from_dict, train

TINY_RUN = {
    "game": "tictactoe",
    "network": {"hidden": 16, "blocks": 1},
    "selfplay": {"games_per_actor": 4, "simulations": 8, "publish_every": 5},
    "train": {"steps": 12, "batch_size": 16, "min_replay": 32, "checkpoint_every": 4, "log_every": 4},
    "eval": {"every": 6, "games_vs_random": 2, "games_vs_mcts": 0, "games_vs_best": 0, "simulations": 4},
}


def assert_drawn(path):
    """A PNG with something on it: not one flat colour."""
    assert path.suffix == ".png" and path.stat().st_size > 5000
    pixels = imread(path)
    assert pixels.ndim == 3 and pixels[..., :3].std() > 0.05


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("runs") / "ttt"
    train(config_from_dict(json.loads(json.dumps(TINY_RUN))), run)
    return run


def test_tournament_report_draws_matrix_ratings_and_catan_figures(tmp_path):
    out = tmp_path / "catan.json"
    specs = ["random", "weighted", "heuristic"]
    tournament = run_tournament(
        "catan",
        [Entrant(s, s) for s in specs],
        games_per_lineup=2,
        workers=1,
        out=out,
        options={"players": "2", "vp_to_win": "5"},
    )
    written = report(out)
    names = {p.name for p in written}
    assert names == {"matrix.png", "ratings.png", "distributions.png", "outcomes.png", "report.md"}
    for path in written:
        if path.suffix == ".png":
            assert_drawn(path)
    text = (tmp_path / "catan_report" / "report.md").read_text()
    assert "| heuristic |" in text and "points_by_source" in text and "dice_rolls" in text
    figures = collect(g.facts for g in tournament.games).to_dict()
    assert figures["games"] == 6 and figures["winners"]["points"]["min"] >= 5
    assert {"roll", "end_turn", "settlement", "road"} <= set(figures["actions"])
    assert sum(figures["winner_parts"]["points_by_source"].values()) == pytest.approx(
        figures["winners"]["points"]["mean"]
    )


def test_run_checkpoints_are_rated_over_time_and_reported(tiny_run):
    checkpoints = run_checkpoints(tiny_run)
    assert [c.step for c in checkpoints] == [4, 8, 12] and {c.agent for c in checkpoints} == {"az"}
    assert [c.step for c in spread(checkpoints, 2)] == [4, 12]
    tournament = rate_run(tiny_run, games_per_lineup=2, most=3, agent_options="greedy", workers=1)
    assert (tiny_run / "ratings.json").is_file()
    assert {e.name: e.step for e in tournament.entrants} == {
        "random": None,
        "step 4 (greedy)": 4,
        "step 8 (greedy)": 8,
        "step 12 (greedy)": 12,
    }
    assert tournament.entrants[1].spec.startswith("az:") and tournament.entrants[1].spec.endswith(",greedy")
    assert len(tournament.current_games()) == 6 * 2  # four agents: six pairs
    written = report(tiny_run)
    assert {p.name for p in written} == {"learning_curves.png", "ratings.png", "report.md"}
    for path in written[:2]:
        assert_drawn(path)
    text = (tiny_run / "report" / "report.md").read_text()
    assert "step 12 (greedy)" in text and "eval/greedy_vs_random" in text


def test_a_td_run_is_rated_with_its_own_agent(tmp_path):
    config = {
        "method": "td",
        "game": "tictactoe",
        "network": {"hidden": 16, "blocks": 1},
        "selfplay": {"games_per_actor": 4, "publish_every": 5},
        "train": {"steps": 4, "batch_size": 16, "min_replay": 32, "checkpoint_every": 2, "log_every": 2},
        "eval": {"every": 0},
    }
    train(config_from_dict(config), tmp_path / "td")
    tournament = rate_run(tmp_path / "td", games_per_lineup=2, workers=1)
    assert [e.spec.split(":")[0] for e in tournament.entrants] == ["random", "td", "td"]
    assert len(tournament.current_games()) == 3 * 2 and tournament.ratings().names[1] == "step 2"


def test_each_training_method_names_the_agent_of_its_checkpoints(tiny_run, tmp_path):
    source = run_checkpoints(tiny_run)[0].path
    meta = json.loads(source.read_text())
    run = tmp_path / "td_run"
    (run / "checkpoints").mkdir(parents=True)
    (run / "checkpoints" / "step_00000007.json").write_text(json.dumps(dict(meta, trainer="td")))
    [checkpoint] = run_checkpoints(run)
    assert checkpoint.agent == "td" and checkpoint.entrant().spec.startswith("td:")
    (run / "checkpoints" / "step_00000007.json").write_text(json.dumps(dict(meta, trainer="dqn")))
    with pytest.raises(ConfigError, match="step_00000007.json: .*unknown method 'dqn'"):
        run_checkpoints(run)
    with pytest.raises(ConfigError, match="has no checkpoints"):
        run_checkpoints(tmp_path)


def test_records_report_and_a_missing_target(tmp_path):
    from boardzero.eval.arena import run_arena

    path = tmp_path / "games.jsonl"
    run_arena("connect4", ["greedy", "random"], num_games=4, workers=1, records=path)
    written = report(path)
    assert {p.name for p in written} == {"distributions.png", "outcomes.png", "report.md"}
    assert_drawn(written[0])
    with pytest.raises(ConfigError, match="neither a run directory"):
        report(tmp_path / "nothing.json")

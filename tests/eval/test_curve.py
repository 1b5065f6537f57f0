"""Learning curves from checkpoints: every method's checkpoints rated the same way, against training time."""

import json
from dataclasses import asdict

from boardzero.eval.curve import checkpoint_curve, load_curve, save_curve
from boardzero.eval.plots import win_rates_over_time
from boardzero.learn import config_from_dict, train

TINY_TD = {
    "method": "td",
    "game": "tictactoe",
    "network": {"hidden": 16, "blocks": 1},
    "selfplay": {"games_per_actor": 8, "precision": "float32"},
    "train": {"steps": 6, "batch_size": 16, "min_replay": 32, "checkpoint_every": 3, "log_every": 3},
    "eval": {"every": 0},
}


def test_a_run_curve_has_a_point_per_checkpoint_and_opponent(tmp_path):
    run = tmp_path / "td"
    train(config_from_dict(TINY_TD), run)
    points = checkpoint_curve(run, ["random", "greedy"], games=4, most=2, workers=1)
    assert [(p.step, p.opponent) for p in points] == [(3, "random"), (3, "greedy"), (6, "random"), (6, "greedy")]
    seconds = [p.train_seconds for p in points]
    assert seconds[0] <= seconds[2] and seconds[2] > 0  # later checkpoints had more training time
    for p in points:
        assert p.games == 4 and 0 <= p.wins <= 4 and 0 <= p.score <= 1 and p.ci95[0] <= p.wins / 4 <= p.ci95[1]
    path = save_curve(points, tmp_path / "curve.json", run)
    assert len(load_curve(path)["points"]) == 4 and json.loads(path.read_text())["run"] == str(run)
    png = win_rates_over_time({"td": [asdict(p) for p in points]}, tmp_path / "curve.png")
    assert png.stat().st_size > 5000


def test_saved_curves_are_redrawn_side_by_side_without_playing(tmp_path):
    from typer.testing import CliRunner

    from boardzero.cli.main import app

    for name, score in (("td", 0.9), ("ppo", 0.6)):
        (tmp_path / name).mkdir()
        point = {
            "step": 10,
            "train_seconds": 60.0,
            "opponent": "weighted",
            "games": 40,
            "wins": int(40 * score),
            "score": score,
            "ci95": [score - 0.1, score + 0.05],
        }
        (tmp_path / name / "curve.json").write_text(json.dumps({"run": str(tmp_path / name), "points": [point]}))
    png = tmp_path / "both.png"
    done = CliRunner().invoke(
        app,
        [
            "curve",
            str(tmp_path / "td" / "curve.json"),
            "--beside",
            str(tmp_path / "ppo" / "curve.json"),
            "--plot",
            str(png),
        ],
    )
    assert done.exit_code == 0, done.output
    assert png.stat().st_size > 5000
    (tmp_path / "bad.json").write_text("{}")
    refused = CliRunner().invoke(app, ["curve", str(tmp_path / "bad.json"), "--plot", str(tmp_path / "bad.png")])
    assert refused.exit_code != 0 and "not a curve JSON" in str(refused.exception)
    assert not (tmp_path / "bad.png").exists()


def test_a_run_curve_from_its_own_evaluations(tmp_path):
    import pytest

    from boardzero.core.errors import ConfigError
    from boardzero.eval.curve import metrics_curve

    run = tmp_path / "td"
    train(config_from_dict({**TINY_TD, "eval": {"every": 3, "games": 4, "opponents": ["random"]}}), run)
    with (run / "metrics.jsonl").open("a") as metrics:
        metrics.write('{"step": 9, "eval/vs_ran')  # the torn last line of a killed run
    points = metrics_curve(run)
    assert [(p.step, p.opponent, p.games) for p in points] == [(3, "random", 4), (6, "random", 4)]
    assert points[0].train_seconds <= points[1].train_seconds and all(0 <= p.wins <= 4 for p in points)
    train(config_from_dict(TINY_TD), tmp_path / "td_no_eval")
    with pytest.raises(ConfigError, match="no evaluation lines"):
        metrics_curve(tmp_path / "td_no_eval")

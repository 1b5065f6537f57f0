"""PPO with a bank: GAE by hand, the delayed reward, the activity loss, the bank's admission rule, and a short
run that must learn."""

import dataclasses

import numpy as np
import pytest
import torch
from torch import nn

from boardzero.agents.registry import make_agent
from boardzero.core.errors import CheckpointError
from boardzero.core.registry import make
from boardzero.learn import config_from_dict, train
from boardzero.learn.bank import Bank, admits, draw_opponent
from boardzero.learn.evaluation import score
from boardzero.learn.ppo import PPOWorker, gae, ppo_loss
from boardzero.nn import build_network, spec_for_game
from boardzero.nn.checkpoint import save_network
from boardzero.nn.nets import masked_logits

TINY = {
    "method": "ppo",
    "game": "tictactoe",
    "network": {"hidden": 64, "blocks": 1},
    "selfplay": {"games_per_actor": 32, "publish_every": 1, "precision": "float32"},
    "train": {"steps": 30, "lr": 0.003, "checkpoint_every": 10, "log_every": 10},
    "eval": {"every": 0},
    "ppo": {"batch_samples": 512, "epochs": 4, "minibatches": 4, "admit_every": 10, "admit_games": 20},
}


def test_gae_by_hand():
    values = np.array([0.5, 0.6, 0.3])
    gamma, lam = 1.0, 0.5
    d2 = 1.0 - 0.3  # last decision: the final reward, nothing after
    d1 = 0.3 - 0.6
    d0 = 0.6 - 0.5
    a2 = d2
    a1 = d1 + lam * a2
    a0 = d0 + lam * a1
    advantages, returns = gae(values, 1.0, gamma, lam)
    assert np.allclose(advantages, [a0, a1, a2]) and np.allclose(returns, advantages + values)
    assert np.allclose(gae(values, 1.0, 1.0, 1.0)[1], [1.0, 1.0, 1.0])  # lambda 1: every return is the outcome


def test_the_reward_reaches_the_learner_on_its_last_decision_whoever_ends_the_game(tmp_path):
    """In tic-tac-toe an opponent's winning move ends the game after the learner's last decision: that decision
    must still carry the learner's result (its return is the reward: nothing follows it)."""
    config = config_from_dict(TINY)
    game = make("tictactoe")
    spec = spec_for_game(game, "mlp", hidden=8, blocks=1)
    net = build_network(spec)
    member = save_network(tmp_path / "member", net, {"game": "tictactoe", "game_options": {}})
    worker = PPOWorker(0, {"config": config.to_dict(), "network": spec.to_dict(), "generation": 0})
    weights = {k: v.numpy() for k, v in net.state_dict().items()}
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [str(member)], "best": str(member)}})
    by_learner = by_opponent = 0
    while min(by_learner, by_opponent) < 5:
        games, movers = list(worker.games), worker.env.seats.copy()
        samples = worker.step()
        finished = [
            (games[i], movers[i], worker.env.rewards[i].copy()) for i in np.flatnonzero(worker.env.done) if games[i].obs
        ]
        assert len(samples) == len(finished)
        for sample, (played, last_mover, rewards) in zip(samples, finished):
            assert len(sample["action"]) == len(played.action)
            assert sample["return"][-1] == pytest.approx(rewards[played.seat])
            if last_mover == played.seat:
                by_learner += 1
            else:
                by_opponent += 1
                assert rewards[played.seat] <= 0  # the opponent's move ended it: a loss or a draw for the learner


def test_games_keep_playing_when_the_bank_drops_the_member_they_drew(tmp_path):
    """A member can be dropped from the bank (its files deleted) after an actor's game drew it and before the
    actor loaded it: that game plays the bank's best instead of stopping the actor."""
    config = config_from_dict(TINY)
    game = make("tictactoe")
    spec = spec_for_game(game, "mlp", hidden=8, blocks=1)
    net = build_network(spec)
    meta = {"game": "tictactoe", "game_options": {}}
    best, dropped = (save_network(tmp_path / name, net, meta) for name in ("best", "dropped"))
    worker = PPOWorker(0, {"config": config.to_dict(), "network": spec.to_dict(), "generation": 0})
    weights = {k: v.numpy() for k, v in net.state_dict().items()}
    worker.load(
        0, {"weights": weights, "bank": {"version": 0, "members": [str(best), str(dropped)], "best": str(best)}}
    )
    for played in worker.games:
        played.opponent = str(dropped)
    for path in tmp_path.glob("dropped.*"):
        path.unlink()
    worker.load(1, {"weights": weights, "bank": {"version": 1, "members": [str(best)], "best": str(best)}})
    for _ in range(6):
        worker.step()
    assert str(dropped) not in worker.opponents.nets and {g.opponent for g in worker.games} == {str(best)}
    for path in tmp_path.glob("best.*"):  # a bank never drops its best: gone, it is an error, not a loop
        path.unlink()
    worker.opponents.nets.clear()
    with pytest.raises(CheckpointError, match="the bank's best is missing"):
        for _ in range(6):
            worker.step()


class _Logits(nn.Module):
    """A 'network' whose policy is a learnable logit vector (and a zero value)."""

    def __init__(self, logits):
        super().__init__()
        self.logits = nn.Parameter(torch.tensor(logits))

    def forward(self, obs, mask):
        batch = obs.shape[0]
        return masked_logits(self.logits.expand(batch, -1), mask), torch.zeros(batch, 1)


def test_the_activity_loss_pulls_rare_legal_logits_back_towards_zero():
    config = config_from_dict(TINY).ppo
    mask = torch.tensor([[True, True, True, False]] * 8)
    batch = {
        "obs": torch.zeros(8, 1),
        "mask": mask,
        "action": torch.zeros(8, dtype=torch.long),
        "logp": torch.zeros(8),
        "advantage": torch.zeros(8),
        "return": torch.zeros(8),
    }

    def gradient(activity_weight):
        net = _Logits([2.0, 0.0, -30.0, 0.0])  # action 2: legal but almost never played
        cfg = dataclasses.replace(config, activity_weight=activity_weight, entropy_weight=0.0)
        loss, _ = ppo_loss(net, batch, cfg, value_weight=0.0)
        loss.backward()
        return net.logits.grad

    without, with_activity = gradient(0.0), gradient(0.01)
    assert abs(without[2]) < 1e-6  # nothing else moves a logit whose probability is ~0
    assert with_activity[2] < -1e-3  # gradient descent raises it towards 0
    assert with_activity[0] > 1e-3 and with_activity[3] == 0  # the large one is lowered; illegal ones untouched


def test_bank_admission_rule_and_members(tmp_path):
    assert admits(0.55, 0.55) and admits(0.8, 0.55) and not admits(0.54, 0.55)
    game = make("tictactoe")
    net = build_network(spec_for_game(game, "mlp", hidden=8, blocks=1))
    bank = Bank(tmp_path / "bank", size=3)
    meta = {"game": "tictactoe", "game_options": {}}
    bank.add(net, 0, meta, best=True)
    for step in (10, 20, 30):
        bank.add(net, step, meta, best=False)
    bank.add(net, 40, meta, best=False)
    steps = [m["step"] for m in bank.members]
    assert bank.best == 0 and 0 in steps and len(steps) == 3  # the best is never dropped
    assert steps == [0, 30, 40]
    reloaded = Bank(tmp_path / "bank", size=3)
    assert reloaded.members == bank.members and reloaded.version == bank.version
    payload = bank.payload()
    rng = np.random.default_rng(0)
    draws = [draw_opponent(payload, 0.8, rng) for _ in range(2000)]
    share = np.mean([d == payload["best"] for d in draws])
    assert 0.8 < share < 0.9  # 80 % the best, plus its share of the uniform 20 %
    (tmp_path / "bank" / "member_00000030.json").unlink()
    with pytest.raises(CheckpointError, match="missing"):
        Bank(tmp_path / "bank", size=3)


def test_a_short_run_learns_tictactoe_against_random(tmp_path):
    """An untrained policy scores about 0.55 against random; 30 updates reach about 0.85."""
    run = tmp_path / "ppo"
    summary = train(config_from_dict(TINY), run)
    assert summary["step"] == 30
    assert (run / "bank" / "bank.json").is_file()
    game = make("tictactoe")
    agent = make_agent(f"ppo:{run}", game)
    result = score(game, agent, lambda: make_agent("random", game), 200, np.random.default_rng(0))
    assert result >= 0.75
    greedy = make_agent(f"ppo:{run},greedy", game)
    assert greedy.temperature == 0.0


def test_the_clipped_objective_takes_the_pessimistic_side_of_each_sample():
    """Ratios 2 and 1/2 with advantages +1 and -1, clip 0.2: the surrogate of each sample is the minimum of the
    plain and the clipped term (1.2, -0.8, -2, 0.5), so a ratio pushed past the clip gains nothing more."""
    config = dataclasses.replace(config_from_dict(TINY).ppo, clip=0.2, entropy_weight=0.0, activity_weight=0.0)
    net = _Logits([0.0, 0.0])  # both actions at probability 1/2
    half = float(np.log(0.5))
    ratios = torch.tensor([2.0, 0.5, 2.0, 0.5])
    batch = {
        "obs": torch.zeros(4, 1),
        "mask": torch.ones(4, 2, dtype=torch.bool),
        "action": torch.zeros(4, dtype=torch.long),
        "logp": half - torch.log(ratios),
        "advantage": torch.tensor([1.0, -1.0, -1.0, 1.0]),
        "return": torch.zeros(4),
    }
    loss, metrics = ppo_loss(net, batch, config, value_weight=0.0)
    expected = -np.mean([1.2, -0.8, -2.0, 0.5])
    assert metrics["losses/policy"] == pytest.approx(expected, abs=1e-5)
    assert loss.item() == pytest.approx(expected, abs=1e-5)
    assert metrics["losses/clipfrac"] == pytest.approx(1.0)
    loss.backward()  # only the unclipped samples (the last two) move the policy
    clipped_only = dict(batch, advantage=torch.tensor([1.0, -1.0, 0.0, 0.0]))
    net.logits.grad = None
    ppo_loss(net, clipped_only, config, value_weight=0.0)[0].backward()
    assert torch.allclose(net.logits.grad, torch.zeros(2), atol=1e-7)


def _players(best, best_plays: str, learner_plays: str):
    """Stands in for ``PolicyAgent``: the bank's best network (``best``) plays as ``best_plays``, any other
    network as ``learner_plays``."""
    return lambda game, net, temperature=1.0: make_agent(best_plays if net is best else learner_plays, game)


def test_the_admission_trial_scores_the_learner_not_the_best(tmp_path, monkeypatch):
    """A learner that plays perfectly against a best that plays at random scores high and is admitted as the
    new best; one that plays at random against a perfect best is not."""
    import boardzero.learn.ppo as ppo_module
    from boardzero.learn.runtime import Trainer

    config = config_from_dict({**TINY, "ppo": {**TINY["ppo"], "admit_games": 12}})
    for learner_plays_perfectly in (True, False):
        method = Trainer(config, tmp_path / f"run_{learner_plays_perfectly}").method
        method.payload()  # the bank starts with the network as it starts, as its best
        assert method.bank.best == 0
        best = object()
        monkeypatch.setattr(ppo_module, "load_network", lambda *args, best=best, **kwargs: (best, {}))
        learner, rival = ("solver", "random") if learner_plays_perfectly else ("random", "solver")
        monkeypatch.setattr(ppo_module, "PolicyAgent", _players(best, best_plays=rival, learner_plays=learner))
        method.step = 9
        metrics = method._trial()
        if learner_plays_perfectly:
            assert metrics["bank/trial_score"] > 0.75 and metrics["bank/admitted"] == 1.0
            assert method.bank.best == 10 and method.latest_trial == metrics["bank/trial_score"]
        else:
            assert metrics["bank/trial_score"] < 0.5 and metrics["bank/admitted"] == 0.0
            assert method.bank.best == 0

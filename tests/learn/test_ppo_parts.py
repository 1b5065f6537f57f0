"""PPO's pieces one at a time, in seconds (test_ppo.py also trains a short run, which takes minutes): GAE with
a discount, the sampled actions, the worker's games and samples, each term of the loss, the learner's update
loop and its bank. These are the tests the mutation score of learn/ppo.py runs (bench/mutation.py)."""

import dataclasses

import numpy as np
import pytest
import torch
from torch import nn

import boardzero.learn.ppo as ppo_module
from boardzero.agents.az import PolicyAgent
from boardzero.core.errors import CheckpointError, ConfigError
from boardzero.core.registry import make
from boardzero.learn import config_from_dict
from boardzero.learn.ppo import PPO, PPOWorker, _Game, gae, ppo_loss, sample_actions
from boardzero.learn.runtime import Trainer
from boardzero.nn import build_network, spec_for_game
from boardzero.nn.checkpoint import save_network
from boardzero.nn.nets import masked_logits

TINY = {
    "method": "ppo",
    "game": "tictactoe",
    "network": {"hidden": 16, "blocks": 1},
    "selfplay": {"games_per_actor": 8, "publish_every": 1, "precision": "float32"},
    "train": {"steps": 30, "lr": 0.003, "checkpoint_every": 10, "log_every": 10},
    "eval": {"every": 0},
    "ppo": {"batch_samples": 10, "epochs": 2, "minibatches": 4, "admit_every": 3, "admit_games": 4},
}


def _config(**ppo):
    return config_from_dict({**TINY, "ppo": {**TINY["ppo"], **ppo}})


# ---- GAE --------------------------------------------------------------------------------------------------------


def test_gae_with_a_discount_and_lambda_by_hand():
    values = np.array([0.2, -0.4, 0.7, 0.1])
    gamma, lam, reward = 0.9, 0.6, -1.0
    deltas = [
        0.0 + gamma * values[1] - values[0],
        0.0 + gamma * values[2] - values[1],
        0.0 + gamma * values[3] - values[2],
        reward - values[3],  # the final reward at the last decision, nothing after it
    ]
    expected = np.zeros(4)
    running = 0.0
    for t in (3, 2, 1, 0):
        running = deltas[t] + gamma * lam * running
        expected[t] = running
    advantages, returns = gae(values, reward, gamma, lam)
    assert advantages.dtype == np.float64 and advantages.shape == (4,)
    assert np.allclose(advantages, expected, atol=1e-12)
    assert np.allclose(returns, expected + values, atol=1e-12)
    # lambda 0: one-step targets; the return of a decision is the discounted value of the next one
    _, one_step = gae(values, reward, gamma, 0.0)
    assert np.allclose(one_step, [gamma * values[1], gamma * values[2], gamma * values[3], reward])


def test_gae_of_a_single_decision_is_the_reward_less_the_value():
    advantages, returns = gae(np.array([0.25]), 1.0, 0.5, 0.5)
    assert advantages.tolist() == [0.75] and returns.tolist() == [1.0]


# ---- sampling ---------------------------------------------------------------------------------------------------


def test_sampled_actions_follow_the_masked_policy_and_report_their_log_probs():
    logits = torch.tensor([[0.0, float(np.log(3.0)), float("-inf")]] * 4000)
    actions, logp = sample_actions(logits, np.random.default_rng(0))
    assert actions.shape == (4000,) and set(np.unique(actions)) == {0, 1}  # never the masked action
    assert np.mean(actions == 1) == pytest.approx(0.75, abs=0.03)
    assert np.allclose(logp, np.where(actions == 1, np.log(0.75), np.log(0.25)), atol=1e-6)
    again, _ = sample_actions(logits, np.random.default_rng(0))
    other, _ = sample_actions(logits, np.random.default_rng(1))
    assert np.array_equal(actions, again) and not np.array_equal(actions, other)  # from the generator given


def test_sampled_actions_follow_a_policy_of_three_actions():
    """With three actions the Gumbel noise must be added, not subtracted (two actions cannot tell)."""
    probs = np.array([0.2, 0.3, 0.5])
    logits = torch.tensor(np.log(probs), dtype=torch.float32).expand(6000, 3)
    actions, _ = sample_actions(logits, np.random.default_rng(3))
    assert np.allclose(np.bincount(actions, minlength=3) / 6000, probs, atol=0.025)


def test_sampling_reads_half_precision_logits_as_float32():
    logits = torch.tensor([[0.0, 1.0, -1.0]], dtype=torch.bfloat16)
    _, logp = sample_actions(logits, np.random.default_rng(0))
    assert logp.dtype == np.float32


# ---- the worker -------------------------------------------------------------------------------------------------


def _worker(tmp_path, **ppo):
    config = _config(**ppo)
    game = make("tictactoe")
    spec = spec_for_game(game, "mlp", hidden=8, blocks=1)
    net = build_network(spec)
    meta = {"game": "tictactoe", "game_options": {}}
    paths = [str(save_network(tmp_path / name, net, meta)) for name in ("best", "other")]
    worker = PPOWorker(0, {"config": config.to_dict(), "network": spec.to_dict(), "generation": 0})
    weights = {k: v.numpy() for k, v in net.state_dict().items()}
    return worker, weights, paths


def test_the_worker_starts_one_game_per_batch_slot_and_keeps_them_across_loads(tmp_path):
    worker, weights, (best, other) = _worker(tmp_path, best_share=1.0)
    assert worker.bank == {"version": -1} and worker.games == []
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [best, other], "best": best}})
    assert len(worker.games) == worker.env.num_envs == 8
    assert {g.opponent for g in worker.games} == {best}  # best_share 1: every game plays the best
    games = list(worker.games)
    worker.load(1, {"weights": weights, "bank": {"version": 0, "members": [best], "best": best}})
    assert worker.games == games and worker.bank["members"] == [best, other]  # same bank version: kept


def test_a_new_bank_forgets_members_no_game_plays(tmp_path):
    worker, weights, (best, other) = _worker(tmp_path, best_share=1.0)
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [best, other], "best": best}})
    worker._opponent(best), worker._opponent(other)
    assert set(worker.opponents.nets) == {best, other}
    worker.games[0].opponent = other  # a game still playing a member keeps it loaded
    worker.load(1, {"weights": weights, "bank": {"version": 1, "members": [best], "best": best}})
    assert worker.bank["version"] == 1 and set(worker.opponents.nets) == {best, other}
    worker.games[0].opponent = best
    worker.load(2, {"weights": weights, "bank": {"version": 2, "members": [best], "best": best}})
    assert set(worker.opponents.nets) == {best}


def test_the_worker_refuses_a_member_of_another_game_and_names_bad_weights(tmp_path):
    worker, weights, (best, _) = _worker(tmp_path)
    net = build_network(spec_for_game(make("tictactoe"), "mlp", hidden=8, blocks=1))
    stranger = str(save_network(tmp_path / "stranger", net, {"game": "connect4", "game_options": {}}))
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [best, stranger], "best": best}})
    with pytest.raises(CheckpointError, match="for game 'connect4', not 'tictactoe'"):
        worker._opponent(stranger)
    broken = dict(weights)
    broken.pop(next(iter(broken)))
    with pytest.raises(CheckpointError, match="weights version 7"):
        worker.load(7, {"weights": broken, "bank": worker.bank})


def test_only_the_games_that_drew_a_dropped_member_switch_to_the_best(tmp_path):
    worker, weights, (best, other) = _worker(tmp_path)
    gone = str(save_network(tmp_path / "gone", build_network(worker.spec), {"game": "tictactoe", "game_options": {}}))
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [best, other, gone], "best": best}})
    for i, game in enumerate(worker.games):
        game.opponent = gone if i % 2 else other
    for path in tmp_path.glob("gone.*"):
        path.unlink()
    assert worker._opponent(gone) is worker.opponents.nets[best]
    assert [g.opponent for g in worker.games] == [other if i % 2 == 0 else best for i in range(8)]


def test_new_games_draw_the_learners_seat_and_opponent(tmp_path):
    worker, weights, (best, other) = _worker(tmp_path, best_share=0.0)
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [best, other], "best": best}})
    games = [worker._new_game() for _ in range(200)]
    assert {g.seat for g in games} == {0, 1}
    assert 0.3 < np.mean([g.opponent == other for g in games]) < 0.7  # best_share 0: any member alike
    assert all(g.obs == [] and g.action == [] and g.value == [] for g in games)


def test_the_worker_records_only_the_learners_decisions_with_a_choice(tmp_path):
    worker, weights, (best, _) = _worker(tmp_path)
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [best], "best": best}})
    played = []
    step = worker.env.step
    worker.env.step = lambda actions: (played.append(actions.copy()), step(actions))[1]
    recorded = forced = opponents_first = opponents = 0
    for _ in range(40):
        seats, multi = worker.env.seats.copy(), worker.env.masks.sum(axis=1) > 1
        games = list(worker.games)  # a game that ends in this step is replaced by a new one
        learner = np.array([g.seat for g in games])
        before = [len(g.action) for g in games]
        obs, masks = worker.env.obs.copy(), worker.env.masks.copy()
        worker.step()
        for i, game in enumerate(games):
            if multi[i] and seats[i] != learner[i]:  # the opponent's network samples its move
                opponents += 1
                opponents_first += int(played[-1][i] == np.argmax(masks[i]))
            grew = len(game.action) - before[i]
            assert grew == int(multi[i] and seats[i] == learner[i])
            forced += int(not multi[i] and seats[i] == learner[i])  # tic-tac-toe's ninth move is forced
            if grew:
                recorded += 1
                assert np.array_equal(game.obs[-1], obs[i]) and np.array_equal(game.mask[-1], masks[i])
                assert masks[i][game.action[-1]] and game.logp[-1] <= 0.0
                assert played[-1][i] == game.action[-1]  # the move recorded is the move played
                with torch.no_grad():
                    _, value = worker.net(torch.from_numpy(obs[i : i + 1]), torch.from_numpy(masks[i : i + 1]))
                assert game.value[-1] == pytest.approx(float(value[0, 0]), abs=1e-6)  # the value for its seat
                assert len(game.obs) == len(game.mask) == len(game.logp) == len(game.value) == len(game.action)
    assert recorded > 20 and forced > 0
    assert opponents > 20 and opponents_first < opponents / 2  # not just the first legal move


def test_finished_games_give_samples_and_are_replaced(tmp_path):
    worker, weights, (best, _) = _worker(tmp_path)
    worker.load(0, {"weights": weights, "bank": {"version": 0, "members": [best], "best": best}})
    samples, ended = [], 0
    while not samples or ended < 3:
        games = list(worker.games)
        samples = worker.step()
        ended += int(worker.env.done.sum())
    done = np.flatnonzero(worker.env.done)
    assert worker.games_finished == ended and len(samples) <= len(done)
    for i in done:
        assert worker.games[i] is not games[i] and worker.games[i].obs == []
    assert set(samples[0]) == {"obs", "mask", "action", "logp", "advantage", "return"}


def test_samples_use_the_configured_discount_and_lambda(tmp_path):
    """gamma and lambda go to GAE in that order: swapped, the advantages differ."""
    worker, _, _ = _worker(tmp_path, gamma=0.9, gae_lambda=0.5)
    game = _Game(1, "best")
    for t, value in enumerate([0.1, 0.4, -0.2]):
        game.obs.append(np.full(3, t, np.float32))
        game.mask.append(np.array([True, False, True]))
        game.action.append(np.int64(2))
        game.logp.append(np.float32(-0.5 - t))
        game.value.append(np.float32(value))
    sample = worker._samples(game, -1.0)
    advantages, returns = gae(np.array([0.1, 0.4, -0.2], np.float32).astype(np.float64), -1.0, 0.9, 0.5)
    assert np.allclose(sample["advantage"], advantages) and np.allclose(sample["return"], returns)
    assert not np.allclose(sample["advantage"], gae(np.array([0.1, 0.4, -0.2]), -1.0, 0.5, 0.9)[0])
    assert sample["obs"].shape == (3, 3) and sample["obs"][2, 0] == 2
    assert sample["mask"].shape == (3, 3) and sample["mask"].dtype == np.bool_
    assert sample["action"].dtype == np.int64 and sample["action"].tolist() == [2, 2, 2]
    assert sample["logp"].dtype == np.float32 and np.allclose(sample["logp"], [-0.5, -1.5, -2.5])
    assert sample["advantage"].dtype == np.float32 and sample["return"].dtype == np.float32


def test_advantages_are_summed_in_float64_before_they_are_stored(tmp_path):
    """The worker's values are float32; GAE runs over them in float64 and only its results are rounded to
    float32 (summed in float32 over a long game, they come out some units in the last place apart)."""
    worker, _, _ = _worker(tmp_path, gamma=0.99, gae_lambda=0.95)
    values = np.random.default_rng(5).uniform(-1, 1, 200).astype(np.float32)
    game = _Game(0, "best")
    for value in values:
        game.obs.append(np.zeros(3, np.float32))
        game.mask.append(np.ones(3, bool))
        game.action.append(np.int64(0))
        game.logp.append(np.float32(-1.0))
        game.value.append(value)
    sample = worker._samples(game, 1.0)
    advantages, returns = gae(values.astype(np.float64), 1.0, 0.99, 0.95)
    assert np.array_equal(sample["advantage"], advantages.astype(np.float32))
    assert np.array_equal(sample["return"], returns.astype(np.float32))


# ---- the loss ---------------------------------------------------------------------------------------------------


class _Policy(nn.Module):
    """A 'network' whose policy is a learnable logit vector and whose value is a learnable constant."""

    def __init__(self, logits, value=0.0):
        super().__init__()
        self.logits = nn.Parameter(torch.tensor(logits))
        self.value = nn.Parameter(torch.tensor(value))

    def forward(self, obs, mask):
        batch = obs.shape[0]
        return masked_logits(self.logits.expand(batch, -1), mask), self.value.expand(batch, 1) * 1.0


def _by_hand(logits, value, batch, clip, value_weight, entropy_weight, activity_weight):
    """Every term of ppo_loss in numpy, with float64."""
    mask = batch["mask"].numpy()
    z = np.where(mask, np.asarray(logits, np.float64), -np.inf)
    logp_all = z - np.log(np.exp(z).sum(1, keepdims=True))
    actions = batch["action"].numpy()
    logp = logp_all[np.arange(len(actions)), actions]
    ratio = np.exp(logp - batch["logp"].numpy())
    adv = batch["advantage"].numpy()
    surrogate = np.minimum(ratio * adv, np.clip(ratio, 1 - clip, 1 + clip) * adv) if clip > 0 else ratio * adv
    policy = -surrogate.mean()
    value_loss = np.mean((value - batch["return"].numpy()) ** 2)
    probs = np.exp(logp_all)
    entropy = -np.where(mask, probs * np.where(mask, logp_all, 0.0), 0.0).sum(1).mean()
    activity = (np.where(mask, z, 0.0) ** 2).sum(1) / mask.sum(1)
    total = policy + value_weight * value_loss - entropy_weight * entropy + activity_weight * activity.mean()
    kl = ((ratio - 1) - np.log(ratio)).mean()
    clipfrac = float(np.mean(np.abs(ratio - 1) > clip)) if clip > 0 else 0.0
    return total, {
        "losses/policy": policy,
        "losses/value": value_loss,
        "losses/entropy": entropy,
        "losses/activity": activity.mean(),
        "losses/approx_kl": kl,
        "losses/clipfrac": clipfrac,
    }


def _batch():
    mask = torch.tensor([[True, True, True, False], [True, False, True, True], [True, True, True, True]])
    return {
        "obs": torch.zeros(3, 1),
        "mask": mask,
        "action": torch.tensor([1, 3, 2]),
        "logp": torch.tensor([-3.3, -2.0, -1.0]),  # ratios about 1.06, 0.96, 1.87
        "advantage": torch.tensor([0.8, -1.3, 0.4]),
        "return": torch.tensor([1.0, -1.0, 0.5]),
    }


@pytest.mark.parametrize("clip", [0.2, 0.0])
def test_each_term_of_the_loss_by_hand(clip):
    """The policy, value, entropy and activity terms, their weights and signs, and the diagnostics: with
    ``clip = 0`` the surrogate is the plain ratio times the advantage and no sample counts as clipped."""
    logits, value = [0.5, -1.0, 2.0, 0.3], 0.25
    cfg = dataclasses.replace(_config().ppo, clip=clip, entropy_weight=0.03, activity_weight=0.002)
    batch = _batch()
    loss, metrics = ppo_loss(_Policy(logits, value), batch, cfg, value_weight=0.7)
    total, expected = _by_hand(logits, value, batch, clip, 0.7, 0.03, 0.002)
    assert set(metrics) == set(expected)
    for key, number in expected.items():
        assert metrics[key] == pytest.approx(number, rel=1e-5, abs=1e-6), key
    assert loss.item() == pytest.approx(total, rel=1e-5)
    if clip > 0:
        assert metrics["losses/clipfrac"] == pytest.approx(1 / 3)  # the third ratio only


def test_the_entropy_bonus_raises_the_entropy_and_the_value_loss_pulls_the_value_to_the_return():
    cfg = dataclasses.replace(_config().ppo, entropy_weight=1.0, activity_weight=0.0)
    batch = dict(_batch(), advantage=torch.zeros(3), **{"return": torch.full((3,), 2.0)})
    net = _Policy([3.0, 0.0, 0.0, 0.0], value=0.0)
    loss, _ = ppo_loss(net, batch, cfg, value_weight=1.0)
    loss.backward()
    assert net.logits.grad[0] > 0  # descent lowers the dominant logit: the policy spreads out
    assert net.value.grad < 0  # descent raises the value towards the return 2


def test_the_loss_runs_the_network_under_the_precision_given(monkeypatch):
    seen = []

    def recording(precision):
        seen.append(precision)
        return torch.autocast("cpu", enabled=False)

    monkeypatch.setattr(ppo_module, "autocast", recording)
    ppo_loss(_Policy([0.0, 0.0, 0.0, 0.0]), _batch(), _config().ppo, 1.0, "bfloat16")
    ppo_loss(_Policy([0.0, 0.0, 0.0, 0.0]), _batch(), _config().ppo, 1.0)
    assert seen == ["bfloat16", "float32"]


# ---- the learner ------------------------------------------------------------------------------------------------


def _method(tmp_path, **ppo) -> PPO:
    return Trainer(_config(**ppo), tmp_path / "run").method


def _samples(n, seed=0):
    rng = np.random.default_rng(seed)
    mask = np.ones((n, 9), bool)
    return {
        "obs": rng.random((n, 18), dtype=np.float32),
        "mask": mask,
        "action": rng.integers(9, size=n).astype(np.int64),
        "logp": np.full(n, -np.log(9), np.float32),
        "advantage": rng.normal(3.0, 2.0, n).astype(np.float32),
        "return": rng.uniform(-1, 1, n).astype(np.float32),
    }


def test_the_method_builds_its_worker_agent_and_metadata(tmp_path):
    method = _method(tmp_path)
    assert PPO.name == "ppo" and PPO.agent == "ppo"
    assert method.buffer == [] and method.buffered == 0 and method.latest_trial is None
    assert method.bank.size == 20 and method.bank.directory == method.rundir.bank
    agent = method.play_agent()
    assert isinstance(agent, PolicyAgent) and agent.temperature == 1.0 and agent.evaluator.net is method.net
    assert agent.game is method.game
    payload = method.payload()
    assert set(payload) == {"weights", "bank"} and payload["bank"]["best"] == payload["bank"]["members"][0]
    assert method.metadata() == {"bank": {"version": method.bank.version, "best": 0, "size": 1}}
    worker = PPO.worker(0, method.actor_payload(0))
    assert isinstance(worker, PPOWorker)


def test_the_first_payload_puts_the_starting_network_in_the_bank_once(tmp_path):
    method = _method(tmp_path)
    assert len(method.bank) == 0
    method.payload()
    assert len(method.bank) == 1 and method.bank.best == 0
    method.step = 5
    method.payload()
    assert len(method.bank) == 1 and method.bank.best == 0


def test_samples_are_buffered_until_a_batch_is_there(tmp_path):
    method = _method(tmp_path, batch_samples=10)
    assert method.ingest(0, _samples(6)) == 6 and not method.ready()
    assert method.ingest(0, _samples(4)) == 4 and method.ready()  # exactly batch_samples is enough
    assert method.buffered == 10 and len(method.buffer) == 2


def test_an_update_passes_over_the_batch_in_minibatches_with_normalised_advantages(tmp_path, monkeypatch):
    """10 samples, 4 minibatches: minibatches of 2 (10 // 4), five a pass (the tail that does not fill one is
    left out), each sample once a pass in a shuffled order, for 2 passes; the advantages normalised over the
    whole batch."""
    method = _method(tmp_path, batch_samples=10, epochs=2, minibatches=4, admit_every=1000)
    config = dataclasses.replace(method.config, train=dataclasses.replace(method.config.train, value_weight=0.3))
    method.config = config
    calls = []

    def loss(net, batch, cfg, value_weight, precision):
        calls.append((batch, value_weight, precision))
        return ppo_loss(net, batch, cfg, value_weight, precision)

    monkeypatch.setattr(ppo_module, "ppo_loss", loss)
    steps = []
    monkeypatch.setattr(method, "optimize", lambda loss, metrics: steps.append(loss.item()))
    method.ingest(0, _samples(4, seed=1))
    method.ingest(0, _samples(6, seed=2))
    data = np.concatenate([_samples(4, seed=1)["advantage"], _samples(6, seed=2)["advantage"]])
    normalised = (data - data.mean()) / (data.std() + 1e-8)
    metrics = method.update()
    assert len(calls) == len(steps) == 10
    assert all(len(batch["action"]) == 2 and w == 0.3 and p == "float32" for batch, w, p in calls)
    assert all(batch["advantage"].dtype == torch.float32 for batch, _, _ in calls)
    for epoch in (calls[:5], calls[5:]):
        seen = np.sort(np.concatenate([batch["advantage"].numpy() for batch, _, _ in epoch]))
        assert np.allclose(seen, np.sort(normalised), atol=1e-5)
    orders = [np.concatenate([b["advantage"].numpy() for b, _, _ in epoch]) for epoch in (calls[:5], calls[5:])]
    assert not np.allclose(orders[0], orders[1])  # shuffled again each pass
    assert method.buffer == [] and method.buffered == 0
    returns = np.concatenate([_samples(4, seed=1)["return"], _samples(6, seed=2)["return"]])
    assert metrics["charts/update_samples"] == 10.0
    assert metrics["charts/mean_return"] == pytest.approx(float(returns.mean()), rel=1e-6)
    assert "losses/policy" in metrics and "bank/trial_score" not in metrics
    assert not method.net.training  # back to evaluation mode for the actors


def test_an_update_steps_the_optimizer_and_reports_the_gradient_norm(tmp_path):
    method = _method(tmp_path, batch_samples=8, epochs=1, minibatches=2, admit_every=1000)
    before = [p.detach().clone() for p in method.net.parameters()]
    method.ingest(0, _samples(8))
    metrics = method.update()
    assert metrics["losses/grad_norm"] > 0  # train.grad_clip is on by default
    assert any(not torch.equal(a, b) for a, b in zip(before, method.net.parameters()))


def test_a_batch_smaller_than_the_minibatch_count_is_one_sample_a_minibatch(tmp_path, monkeypatch):
    method = _method(tmp_path, batch_samples=3, epochs=1, minibatches=4, admit_every=1000)
    sizes = []
    monkeypatch.setattr(method, "optimize", lambda loss, metrics: sizes.append(None))
    method.ingest(0, _samples(3))
    method.update()
    assert len(sizes) == 3


def test_the_admission_trial_runs_every_admit_every_steps(tmp_path, monkeypatch):
    method = _method(tmp_path, batch_samples=4, epochs=1, minibatches=1, admit_every=3)
    monkeypatch.setattr(method, "optimize", lambda loss, metrics: None)
    monkeypatch.setattr(method, "_trial", lambda: {"bank/trial_score": 0.5})
    trials = []
    for step in range(7):
        method.step = step
        method.ingest(0, _samples(4, seed=step))
        trials.append("bank/trial_score" in method.update())
    assert trials == [False, False, True, False, False, True, False]  # after the 3rd and the 6th update


def test_the_trial_plays_the_configured_games_at_temperature_one_and_reports(tmp_path, monkeypatch):
    method = _method(tmp_path, admit_games=6, admit_score=0.55)
    method.payload()
    method.step = 8
    built, played = [], []

    class Agent:
        def __init__(self, game, net, temperature=None):
            built.append((net, temperature))

    monkeypatch.setattr(ppo_module, "PolicyAgent", Agent)

    def fake_score(game, agent, opponent, games, rng):
        opponent()
        played.append((game, games, rng))
        return 0.6

    monkeypatch.setattr(ppo_module, "score", fake_score)
    logged = []
    monkeypatch.setattr(method.console, "log", lambda text: logged.append(text))
    metrics = method._trial()
    assert played == [(method.game, 6, method.rng)]
    assert built[0] == (method.net, 1.0) and built[1][1] == 1.0 and built[1][0] is not method.net
    assert metrics == {"bank/trial_score": 0.6, "bank/admitted": 1.0, "bank/size": 2.0}
    assert method.bank.best == 9 and method.latest_trial == 0.6
    assert logged == ["step 9: scored 0.60 against the bank's best; admitted as the new best (2 in the bank)"]
    monkeypatch.setattr(ppo_module, "score", lambda *args: 0.5)
    method.step = 11
    assert method._trial() == {"bank/trial_score": 0.5, "bank/admitted": 0.0, "bank/size": 2.0}
    assert method.bank.best == 9 and method.latest_trial == 0.5 and len(logged) == 1


def test_the_trial_refuses_a_best_of_another_game(tmp_path, monkeypatch):
    method = _method(tmp_path)
    method.payload()
    stranger = save_network(tmp_path / "stranger", method.net, {"game": "connect4", "game_options": {}})
    monkeypatch.setattr(method.bank, "best_path", lambda: stranger)
    with pytest.raises(CheckpointError, match="for game 'connect4', not 'tictactoe'"):
        method._trial()


@pytest.mark.parametrize(
    ("field", "value"),
    [("clip", -0.1), ("gamma", 1.5), ("gae_lambda", -0.2), ("epochs", 0), ("admit_score", 2.0)],
)
def test_ppo_settings_out_of_range_are_refused_by_name(field, value):
    with pytest.raises(ConfigError, match=field):
        _config(**{field: value})

import numpy as np
import pytest
import torch
from torch import nn

from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.nn import (
    NetworkEvaluator,
    NetworkSpec,
    build_network,
    rotate_to_absolute,
    rotate_to_relative,
    spec_for_game,
)
from boardzero.nn.nets import MASKED_LOGIT


@pytest.mark.parametrize(
    "game_name,kind", [("connect4", "mlp"), ("connect4", "conv"), ("tictactoe", "conv"), ("kuhn_poker", "mlp")]
)
def test_masked_logits_and_shapes(game_name, kind):
    game = make(game_name)
    net = build_network(spec_for_game(game, kind, hidden=16, blocks=1, channels=8)).eval()
    key = net.spec.observation_key
    obs = torch.rand(5, *game.observation_spec[key])
    mask = torch.zeros(5, game.num_actions, dtype=torch.bool)
    mask[:, 0] = True
    mask[2:, -1] = True
    logits, values = net(obs, mask)
    assert logits.shape == (5, game.num_actions) and values.shape == (5, game.num_players)
    assert torch.all(logits[~mask] == MASKED_LOGIT)
    probs = torch.softmax(logits, dim=1)
    assert torch.all(probs[~mask] == 0)
    assert torch.allclose(probs.sum(1), torch.ones(5))
    # a zero target on a masked move contributes nothing (no NaN from -inf * 0)
    target = mask.float() / mask.float().sum(1, keepdim=True)
    loss = -(target * torch.log_softmax(logits, 1)).sum(1).mean()
    assert torch.isfinite(loss)


def test_conv_needs_planes():
    with pytest.raises(ConfigError, match="network.kind"):
        spec_for_game(make("kuhn_poker"), "conv")


def test_spec_round_trip_and_validation():
    spec = spec_for_game(make("connect4"), "mlp", hidden=32, blocks=2)
    assert NetworkSpec.from_dict(spec.to_dict()) == spec
    with pytest.raises(ConfigError, match="network.kind"):
        NetworkSpec.from_dict({**spec.to_dict(), "kind": "transformer"})
    with pytest.raises(ConfigError, match="network.width"):
        NetworkSpec.from_dict({**spec.to_dict(), "width": 3})


def test_an_mlp_may_read_another_flat_observation_and_old_specs_read_flat():
    game = make("catan", players=2)
    spec = spec_for_game(game, "mlp", hidden=8, blocks=1, observation="rich")
    assert spec.observation_key == "rich" and spec.input_shape == game.observation_spec["rich"]
    assert NetworkSpec.from_dict(spec.to_dict()) == spec
    old = {k: v for k, v in spec_for_game(game, "mlp").to_dict().items() if k != "observation"}
    assert NetworkSpec.from_dict(old).observation_key == "flat"  # checkpoints written before the field existed
    with pytest.raises(ConfigError, match="network.observation"):
        NetworkSpec.from_dict({**spec.to_dict(), "kind": "xdim", "layout": "catan"})
    with pytest.raises(ConfigError, match="'rich'"):
        spec_for_game(make("connect4"), "mlp", observation="rich")


def test_rotation_round_trip_three_players():
    absolute = np.array([[1.0, 2.0, 3.0]] * 3, np.float32)
    players = np.array([0, 1, 2])
    relative = rotate_to_relative(absolute, players)
    # entry 0 is the observer, entry 1 the next seat
    assert relative.tolist() == [[1, 2, 3], [2, 3, 1], [3, 1, 2]]
    assert np.array_equal(rotate_to_absolute(relative, players), absolute)


class _Fixed(nn.Module):
    """Outputs seat-relative values (10, 20, 30) and uniform logits, to check the evaluator's rotation."""

    def __init__(self, spec):
        super().__init__()
        self.spec = spec

    def forward(self, obs, mask):
        values = torch.tensor([10.0, 20.0, 30.0][: self.spec.num_players]).expand(len(obs), -1)
        return torch.zeros(len(obs), self.spec.num_actions).masked_fill(~mask, MASKED_LOGIT), values


def test_evaluator_rotates_values_to_absolute_seats():
    game = make("kuhn_poker")  # 3 players, chance deals first
    rng = np.random.default_rng(0)
    states = []
    state = game.new_state(seed=0)
    while len(states) < 3:
        if state.current_player < 0:
            state.apply(state.chance_outcomes()[0][0] if state.current_player == -1 else 0)
            continue
        states.append(state.clone())
        state.apply(0)  # everyone passes: seats 0, 1, 2 move in turn
    evaluator = NetworkEvaluator(_Fixed(spec_for_game(game, "mlp")))
    priors, values = evaluator.evaluate(states)
    assert [s.current_player for s in states] == [0, 1, 2]
    # the player to move gets entry 0 (10), the next seat entry 1 (20)
    assert values.tolist() == [[10, 20, 30], [30, 10, 20], [20, 30, 10]]
    assert np.allclose(priors.sum(1), 1) and np.all(priors[~np.stack([s.legal_mask() for s in states])] == 0)
    del rng


def test_evaluator_priors_zero_on_illegal_connect4():
    game = make("connect4")
    state = game.new_state()
    for _ in range(6):
        state.apply(3)  # column 3 full
    net = build_network(spec_for_game(game, "mlp", hidden=16, blocks=1))
    priors, values = NetworkEvaluator(net).evaluate([state])
    assert priors[0, 3] == 0 and abs(priors[0].sum() - 1) < 1e-5
    assert values.shape == (1, 2)


def test_every_network_kind_has_a_builder_and_the_config_offers_the_same_kinds():
    import typing

    from boardzero.learn.config import NetworkConfig
    from boardzero.nn.nets import BUILDERS
    from boardzero.nn.spec import NETWORK_KINDS

    assert tuple(BUILDERS) == NETWORK_KINDS
    assert typing.get_args(typing.get_type_hints(NetworkConfig)["kind"]) == NETWORK_KINDS


def test_the_config_network_section_is_the_specs_chosen_part():
    import dataclasses

    from boardzero.learn.config import NetworkConfig
    from boardzero.nn.spec import NetworkSizes, NetworkSpec

    assert NetworkConfig is NetworkSizes
    sizes = {f.name for f in dataclasses.fields(NetworkSizes)}
    assert sizes == {"kind", "hidden", "blocks", "channels", "observation"}
    assert sizes < {f.name for f in dataclasses.fields(NetworkSpec)}
    spec = spec_for_game(make("connect4"), "conv", hidden=32, blocks=2)
    assert (
        spec.sizes
        == NetworkSizes(kind="conv", hidden=32, blocks=2)
        == NetworkSizes(kind="conv", hidden=32, blocks=2).spec_for(make("connect4")).sizes
    )
    with pytest.raises(ConfigError, match="network.width: unknown field; allowed: blocks, channels, hidden"):
        spec_for_game(make("connect4"), "mlp", width=3)


def test_the_shipped_models_network_specs_load_and_store_as_they_were():
    import json
    from pathlib import Path

    from boardzero.nn.spec import NetworkSpec

    models = Path(__file__).resolve().parents[2] / "src" / "boardzero" / "models"
    metas = sorted(models.rglob("model*.json"))
    assert len(metas) >= 6
    for meta_path in metas:
        stored = json.loads(meta_path.read_text())["network"]
        again = NetworkSpec.from_dict(stored).to_dict()
        assert {name: again[name] for name in stored} == stored, meta_path  # older ones lack layout, observation

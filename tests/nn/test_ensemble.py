"""Several value networks read as one: the weighted mean of their values, refused where they do not fit."""

import pytest
import torch

from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.nn import build_network, spec_for_game
from boardzero.nn.ensemble import MeanValueNet


def _nets(game, *hiddens):
    nets = []
    for seed, hidden in enumerate(hiddens):
        torch.manual_seed(seed)
        nets.append(build_network(spec_for_game(game, "mlp", hidden=hidden, blocks=1)).eval())
    return nets


def test_the_mean_is_each_networks_values_weighted_by_its_share():
    game = make("connect4")
    a, b = _nets(game, 16, 16)
    obs = torch.randn(5, *game.observation_spec["flat"])
    with torch.no_grad():
        va, vb = a.values(obs), b.values(obs)
        assert not torch.allclose(va, vb)
        torch.testing.assert_close(MeanValueNet([a, b]).values(obs), (va + vb) / 2)
        torch.testing.assert_close(MeanValueNet([a, b], [3, 1]).values(obs), 0.75 * va + 0.25 * vb)
    assert MeanValueNet([a, b]).spec == a.spec


def test_networks_of_another_shape_or_bad_weights_are_refused():
    game = make("connect4")
    a, b, wide = _nets(game, 16, 16, 32)
    with pytest.raises(ConfigError, match=r"agent td\.mean_with: network 2 reads .* same game, observation and shape"):
        MeanValueNet([a, wide], what="agent td.mean_with")
    for weights in ([1.0], [1.0, 0.0], [1.0, -1.0]):
        with pytest.raises(ConfigError, match="one positive weight per network"):
            MeanValueNet([a, b], weights)
    with pytest.raises(ConfigError, match="at least one network"):
        MeanValueNet([])

"""Several value networks read as one, and one network read over a game's symmetries: the (weighted) mean of
their values, refused where they do not fit."""

import numpy as np
import pytest
import torch

from boardzero.core.api import CHANCE, sample_chance
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.nn import build_network, spec_for_game
from boardzero.nn.ensemble import MeanValueNet, SymmetricValueNet


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


def _positions_and_images(game, moves, seed):
    """A position ``moves`` steps into a random game and its image under each of the game's symmetries."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed=seed)
    images = [game.symmetric_state(symmetry, seed=seed) for symmetry in game.symmetries()]
    for _ in range(moves):
        player = state.current_player
        action = sample_chance(state, rng) if player == CHANCE else int(rng.choice(state.legal_actions()))
        for symmetry, image in zip(game.symmetries(), images):
            image.apply(symmetry.apply_action(action) if player >= 0 else action)
        state.apply(action)
    return state, images


def test_the_symmetric_mean_is_the_networks_mean_over_a_positions_images_and_the_same_for_each_image():
    game = make("catan", players=2)
    torch.manual_seed(0)
    net = build_network(spec_for_game(game, "mlp", hidden=16, blocks=1, observation="rich")).eval()
    state, images = _positions_and_images(game, 60, seed=4)
    seat = max(state.current_player, 0)
    views = [torch.as_tensor(s.observe(seat)["rich"])[None] for s in (state, *images)]
    symmetric = SymmetricValueNet(net, game.symmetries())
    with torch.no_grad():
        separate = [net.values(v) for v in views]
        assert not torch.allclose(separate[0], separate[1])  # the views are valued differently one by one...
        mean = torch.stack(separate).mean(0)
        for view in views:  # ...and alike, as their mean, from any of them
            torch.testing.assert_close(symmetric.values(view), mean, rtol=1e-5, atol=1e-5)
        both = symmetric.values(torch.cat([views[0], views[1]]))  # rows of a batch stay apart
        torch.testing.assert_close(both, torch.cat([mean, mean]), rtol=1e-5, atol=1e-5)
    assert symmetric.spec == net.spec


def test_a_game_without_symmetries_has_none_to_average_over():
    game = make("kuhn_poker")
    (net,) = _nets(game, 8)
    with pytest.raises(ConfigError, match=r"agent td\.symmetries: this game declares no symmetries"):
        SymmetricValueNet(net, game.symmetries(), what="agent td.symmetries")

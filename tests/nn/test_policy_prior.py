"""Search priors from a policy head: the softmax of the masked logits at decision nodes, one row per node."""

import numpy as np
import torch

from boardzero.core.registry import make
from boardzero.nn import spec_for_game
from boardzero.nn.nets import build_network
from boardzero.nn.policy_prior import PolicyPriorEvaluator


def test_priors_are_the_policy_heads_softmax_over_the_legal_moves():
    game = make("tictactoe")
    torch.manual_seed(0)
    net = build_network(spec_for_game(game, "mlp", hidden=16, blocks=1)).eval()
    state = game.new_state(seed=0)
    state.apply(4)
    priors = PolicyPriorEvaluator(net).priors([state])
    mask = state.legal_mask()
    with torch.no_grad():
        logits, _ = net(
            torch.from_numpy(state.observe(state.current_player)["flat"][None]), torch.from_numpy(mask[None])
        )
    expected = torch.softmax(logits, dim=1).numpy()[0] * mask
    assert np.allclose(priors[0], expected / expected.sum(), atol=1e-6)
    assert priors[0][~mask].sum() == 0 and not np.allclose(priors[0][mask], 1 / mask.sum())  # not uniform

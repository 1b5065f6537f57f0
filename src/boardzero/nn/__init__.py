"""Policy-value networks, batched network evaluation and network checkpoints."""

from boardzero.nn.checkpoint import load_network, resolve_checkpoint, save_network
from boardzero.nn.evaluator import NetworkEvaluator, rotate_to_absolute, rotate_to_relative
from boardzero.nn.nets import NetworkSpec, ResidualConv, ResidualMLP, build_network, masked_logits, spec_for_game

__all__ = [
    "NetworkEvaluator",
    "NetworkSpec",
    "ResidualConv",
    "ResidualMLP",
    "build_network",
    "load_network",
    "masked_logits",
    "resolve_checkpoint",
    "rotate_to_absolute",
    "rotate_to_relative",
    "save_network",
    "spec_for_game",
]

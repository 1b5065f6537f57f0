"""Self-play training: one runtime (run directory, actors, checkpoints, metrics, evaluation) and a module
per method (``alphazero``, ``td``, ``ppo``), chosen by the config's ``method``."""

from boardzero.learn.config import (
    Config,
    EvalConfig,
    NetworkConfig,
    SelfPlayConfig,
    TrainConfig,
    config_from_dict,
    load_config,
)
from boardzero.learn.methods import method_names, register_method
from boardzero.learn.runtime import Method, Trainer, train

__all__ = [
    "Config",
    "EvalConfig",
    "NetworkConfig",
    "SelfPlayConfig",
    "TrainConfig",
    "Trainer",
    "config_from_dict",
    "load_config",
    "Method",
    "method_names",
    "register_method",
    "train",
]

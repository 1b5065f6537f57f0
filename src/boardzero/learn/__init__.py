"""Self-play training: configs, actors, replay buffer, learner, checkpoints."""

from boardzero.learn.alphazero import Trainer, train
from boardzero.learn.config import Config, EvalConfig, NetworkConfig, SelfPlayConfig, TrainConfig, config_from_dict, load_config

__all__ = ["Config", "EvalConfig", "NetworkConfig", "SelfPlayConfig", "TrainConfig", "Trainer", "config_from_dict",
           "load_config", "train"]

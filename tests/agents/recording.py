"""An agent wrapper for tests that keeps what the agent saw and chose at each decision."""

from __future__ import annotations


class Recording:
    """Wraps an agent and keeps (legal moves, chosen move) of each decision in ``seen``."""

    def __init__(self, agent):
        self.agent, self.spec, self.seen = agent, getattr(agent, "spec", ""), []

    def reset(self):
        self.agent.reset()

    def act(self, view, rng):
        action = self.agent.act(view, rng)
        self.seen.append(([int(a) for a in view.legal_actions], action))
        return action

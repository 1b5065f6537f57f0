"""Where a Connect 4 network alone goes wrong: its policy's move against the same policy after one ply of look-ahead.

For each move of a test position the look-ahead plays it on a copy of the state. A move that ends the game
scores its result (the game's own rules, the same terminal check every search makes). Every other move scores
``w * value + (1 - w) * prior``: ``value`` is the network's value of the position after the move, for the
mover, and ``prior`` is its policy's probability of that move. With ``w = 0`` this is the policy alone plus
"take a win in one"; with ``w = 1`` the value head alone, one ply deep. Nothing here is hand-written
evaluation; it reads the network and the rules. It is a measurement, not an agent boardzero ships.

    python examples/connect4_one_ply.py src/boardzero/models/connect4/model.json --weights 0 0.5 1
"""

from __future__ import annotations

import argparse

import numpy as np

from boardzero.agents.az import load_for_play
from boardzero.agents.base import Agent
from boardzero.core.registry import make
from boardzero.eval.accuracy import ALL, load_positions, move_accuracy
from boardzero.nn.evaluator import NetworkEvaluator

WIN_SCORE = 10.0  # above any mix of a value (at most 1) and a prior (at most 1)


class OnePly(Agent):
    """The move with the best score after one ply (see the module's text)."""

    def __init__(self, evaluator: NetworkEvaluator, weight: float):
        self.evaluator, self.weight = evaluator, weight

    def act(self, view, rng: np.random.Generator) -> int:
        key = self.evaluator.key
        state = view.sample_state(rng)
        prior, _ = self.evaluator.predict(view.observation[key][None].astype(np.float32), view.legal_mask[None])
        scores, children, child_obs, child_masks = [], [], [], []
        for action in view.legal_actions:
            child = state.clone()
            child.apply(int(action))
            if child.is_terminal():
                scores.append(WIN_SCORE * float(child.returns()[view.seat]))
                children.append(None)
            else:
                scores.append(0.0)
                children.append(len(child_obs))
                child_obs.append(child.observe(child.current_player)[key])
                child_masks.append(child.legal_mask())
        if child_obs:
            _, values = self.evaluator.predict(np.stack(child_obs).astype(np.float32), np.stack(child_masks))
            for i, (action, row) in enumerate(zip(view.legal_actions, children)):
                if row is not None:  # values are for the seat to move after the move: the opponent
                    scores[i] = self.weight * -float(values[row][0]) + (1 - self.weight) * float(prior[0][action])
        return int(view.legal_actions[int(np.argmax(scores))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", help="a Connect 4 AlphaZero model or checkpoint (.json)")
    parser.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.5, 1.0], help="values of w")
    parser.add_argument("--positions", default="data/connect4_testset.json")
    args = parser.parse_args()
    game = make("connect4")
    evaluator = NetworkEvaluator(load_for_play(game, args.model))
    positions = load_positions(args.positions, game)
    for weight in args.weights:
        result = move_accuracy(OnePly(evaluator, weight), game, positions, np.random.default_rng(0))
        correct, total = result.by_group[f"{ALL}/{ALL}"]
        low, high = result.interval
        print(f"w={weight:g}: {correct}/{total} = {100 * correct / total:.1f} % [{100 * low:.1f}, {100 * high:.1f}]")


if __name__ == "__main__":
    main()

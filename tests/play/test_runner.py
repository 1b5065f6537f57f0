"""The match runner: agents built once per seat and reset, randomness from the game's key alone, chance from
the game's own stream (common random numbers), and the arena, tournaments and training's evaluation all seated
by the one rotation."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.agents.base import Agent
from boardzero.agents.registry import make_agent
from boardzero.core.api import CHANCE
from boardzero.core.registry import make
from boardzero.eval.arena import run_arena
from boardzero.eval.tournament import Entrant, run_tournament
from boardzero.learn.evaluation import score
from boardzero.play import rotation
from boardzero.play.records import read_records, replay
from boardzero.play.runner import MatchGame, Table, play_game


class Counting(Agent):
    """A random player that counts its resets and notes the seat of each game's first decision."""

    def __init__(self, game, spec="random"):
        self.inner, self.spec = make_agent("random", game), spec
        self.resets, self.seats, self._new = 0, [], True

    def reset(self):
        self.resets += 1
        self._new = True

    def act(self, view, rng):
        if self._new:
            self.seats.append(view.seat)
            self._new = False
        return self.inner.act(view, rng)


def test_a_table_builds_each_seats_agent_once_and_resets_it_before_every_game():
    game = make("kuhn_poker", players=3)
    built = []

    def factory():
        built.append(Counting(game))
        return built[-1]

    table = Table(game, {"a": factory, "b": factory})
    for number in range(4):
        table.play(MatchGame((0, number), ("a", "b", "b")))
    assert len(built) == 3  # one for a, one per seat of b
    assert [agent.seats for agent in built] == [[0] * 4, [1] * 4, [2] * 4]
    table.play(MatchGame((0, 9), ("b", "b", "a")))  # b's first seat takes its first agent, the second its second
    assert len(built) == 3 and [agent.resets for agent in built] == [5, 5, 5]
    assert [agent.seats[-1] for agent in built] == [2, 0, 1]


def test_a_game_depends_on_its_key_alone():
    game = make("catan", players=2)
    table = Table(game, {"w": lambda: make_agent("weighted", game), "r": lambda: make_agent("random", game)})
    one = table.play(MatchGame((5, 1), ("w", "r")))
    table.play(MatchGame((5, 2), ("w", "r")))
    again = table.play(MatchGame((5, 1), ("w", "r")))
    assert one.actions == again.actions and one.state.seed == again.state.seed
    assert table.play(MatchGame((5, 3), ("w", "r"))).actions != one.actions


def chance_by_lane(session) -> dict[int, list[tuple[tuple, int]]]:
    """Lane -> (the chance node's outcomes and probabilities, the outcome drawn) of each chance step in that
    lane, in order, over a finished game."""
    drawn: dict[int, list[tuple[tuple, int]]] = {}

    def note(state, player, action):
        if player == CHANCE:
            drawn.setdefault(state.chance_lane(), []).append((tuple(state.chance_outcomes()), action))

    replay(session.record(), session.game, on_step=note, keep_log=False)
    return drawn


@pytest.mark.parametrize("key", [(0, 0), (3, 1), (11, 7)])
def test_paired_games_with_different_agents_roll_the_same_kth_dice(key):
    """Common random numbers: the same key, other agents (which draw differently from their own stream and
    make other moves), and the k-th roll of the dice is the same in both games, roll for roll."""
    game = make("catan", players=2)
    factories = {spec: (lambda spec=spec: make_agent(spec, game)) for spec in ("random", "weighted", "heuristic")}
    table = Table(game, factories)
    games = [table.play(MatchGame(key, seats)) for seats in (("random", "random"), ("weighted", "heuristic"))]
    assert games[0].actions != games[1].actions  # the agents did play differently
    assert len(games[0].actions) != len(games[1].actions)  # so the plies of later rolls differ
    first, second = (chance_by_lane(g)[0] for g in games)
    n = min(len(first), len(second))
    assert n >= 10
    assert [outcome for _, outcome in first[:n]] == [outcome for _, outcome in second[:n]]


def test_arena_matches_with_the_same_seed_share_their_dice(tmp_path):
    """What ``boardzero compare`` relies on: game i of two arena matches with the same seed rolls the same
    first dice, whichever agents play it."""
    rolls = []
    for agents in (["random"], ["heuristic", "weighted"]):
        path = tmp_path / f"{len(agents)}.jsonl"
        run_arena("catan", agents, num_games=3, seed=4, workers=1, records=path, options={"players": 2})
        records = sorted(read_records(path), key=lambda r: r["index"])
        rolls.append([record["actions"][9] for record in records])  # the dice: after the setup (8 plies) and "roll"
    assert rolls[0] == rolls[1]


def test_play_game_plays_agents_already_built_through_a_session():
    game = make("connect4")
    agents = [Counting(game), Counting(game, "other")]
    steps = []
    final = play_game(game, agents, np.random.default_rng(0), on_step=lambda s, p, a: steps.append((p, a)))
    assert final.is_terminal() and [a for _, a in steps] == final.history
    assert [agent.resets for agent in agents] == [1, 1] and [agent.seats for agent in agents] == [[0], [1]]
    with pytest.raises(ValueError, match="needs 2 agents"):
        play_game(game, agents[:1], np.random.default_rng(0))


def slipped_order(num_players: int, number: int) -> list[int]:
    """A distinctive seat order: the rotation run backwards."""
    return [(number - seat) % num_players for seat in range(num_players)]


def test_the_arena_tournaments_and_training_evaluation_all_seat_by_the_one_rotation(monkeypatch):
    """Change the one rotation and every caller follows it: none keeps a rotation of its own."""
    monkeypatch.setattr(rotation, "seat_order", slipped_order)
    expected = [rotation.seating(["a", "b"], 2, g) for g in range(4)]
    assert expected[0] == ("a", "b") and expected[1] == ("b", "a")
    names = {"a": 0, "b": 1}
    arena = run_arena("tictactoe", ["random", "greedy"], num_games=4, workers=1)
    assert [tuple(g.seats) for g in arena.games] == [tuple(names[e] for e in s) for s in expected]

    expected3 = [rotation.seating(["a", "b", "c"], 3, g) for g in range(3)]
    assert expected3[1] == ("b", "a", "c")  # not a rotation of ("a", "b", "c"): only the slip seats like this
    tournament = run_tournament(
        "kuhn_poker", [Entrant(n, "random") for n in "abc"], games_per_lineup=3, workers=1, options={"players": 3}
    )
    assert [tuple(g.seats) for g in sorted(tournament.games, key=lambda g: g.number)] == expected3

    game = make("kuhn_poker", players=3)
    agent = Counting(game)
    score(game, agent, lambda: make_agent("random", game), 3, np.random.default_rng(0))
    assert agent.seats == [s.index("agent") for s in (rotation.seating(["agent", "opponent"], 3, g) for g in range(3))]
    assert agent.seats == [0, 1, 2]  # the slip's seats; the true rotation gives 0, 2, 1

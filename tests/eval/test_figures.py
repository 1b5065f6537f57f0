"""Game figures: the per-agent split of wins, chosen actions and each seat's summary."""

from boardzero.agents.registry import make_agent
from boardzero.core.registry import make
from boardzero.eval.figures import collect, figures_markdown, game_facts
from boardzero.play.runner import MatchGame, Table


def facts(returns, agents, seat_actions, points):
    return {
        "returns": returns,
        "decisions": 10,
        "actions": {},
        "seat_actions": seat_actions,
        "agents": agents,
        "summary": {"turns": 5, "points": points, "points_by_source": [{"cities": p - 1, "roads": 1} for p in points]},
    }


def test_each_agent_gets_the_wins_actions_and_summary_of_the_seats_it_held():
    games = [
        facts([1.0, 0.0], ["a", "b"], [{"build": 3}, {"build": 1, "trade": 2}], [10, 4]),
        facts([0.0, 1.0], ["b", "a"], [{"trade": 4}, {"build": 5}], [6, 10]),
        facts([0.0, 1.0], ["a", "b"], [{"build": 1}, {}], [2, 10]),
    ]
    by_agent = collect(games).to_dict()["by_agent"]
    a, b = by_agent["a"], by_agent["b"]
    assert (a["seats"], a["wins"], b["seats"], b["wins"]) == (3, 2, 3, 1)
    assert a["actions_per_game"] == {"build": 3.0}
    assert b["actions_per_game"] == {"build": 1 / 3, "trade": 2.0}
    assert a["means"]["points"] == (10 + 10 + 2) / 3 and b["means"]["points"] == (4 + 6 + 10) / 3
    assert b["means"]["points_by_source: cities"] == (3 + 5 + 9) / 3
    assert "turns" not in a["means"]  # a number per game, not per seat
    table = figures_markdown(collect(games))
    assert "| by agent (per seat held) | a | b |" in table and "| trade, per game | 0.00 | 2.00 |" in table


def test_facts_of_a_played_game_count_each_seats_own_moves():
    game = make("connect4")
    table = Table(game, {"random": lambda: make_agent("random", game), "greedy": lambda: make_agent("greedy", game)})
    played = table.play(MatchGame((0, 1), ("random", "greedy")))
    one = game_facts(game, played, ["random", "greedy"])
    assert sum(sum(c.values()) for c in one["seat_actions"]) == sum(one["actions"].values()) == played.decisions
    moves = [sum(c.values()) for c in one["seat_actions"]]
    assert moves[0] - moves[1] in (0, 1)  # seat 0 moves first, then they alternate
    figures = collect([one, game_facts(game, played)])  # facts without agents add nothing to the split
    assert figures.by_agent["random"].seats == 1 and figures.by_agent["greedy"].seats == 1

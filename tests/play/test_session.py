"""GameSession: one decision at a time, seats checked, hidden outcomes hidden, rebuilt sessions go on alike."""

from __future__ import annotations

import numpy as np
import pytest

from boardzero.core.errors import ConfigError, IllegalActionError
from boardzero.core.registry import make
from boardzero.play.records import replay
from boardzero.play.session import (
    HINT_FALLBACKS,
    HUMAN,
    OPPONENT_FALLBACKS,
    GameSession,
    NotYourTurnError,
    agent_for,
    win_chances,
)


def test_people_and_agents_take_turns_one_decision_at_a_time():
    session = GameSession(make("connect4"), [HUMAN, "random"], seed=0)
    assert session.pending().kind == HUMAN and session.pending().seat == 0
    with pytest.raises(NotYourTurnError, match="played by random"):
        session.play(1, 3)
    with pytest.raises(ConfigError, match="seats 0..1"):
        session.play(2, 3)
    with pytest.raises(IllegalActionError):
        session.play(0, 7)
    assert session.ply == 0
    entry = session.play(0, 3)
    assert (entry.ply, entry.actor, entry.action, entry.text) == (0, 0, 3, "column 3")
    assert session.pending().kind == "agent"
    with pytest.raises(NotYourTurnError, match="seat 1 is to move"):
        session.play(0, 3)
    assert session.advance() == 1 and session.pending().seat == 0
    assert session.legal_moves(0)[0] == {"action": 0, "name": "column 0", "kind": "drop", "column": 0}
    assert session.legal_moves(1) == []


def test_choose_changes_nothing_and_a_rebuilt_session_chooses_alike():
    game = make("catan", players=3)
    session = GameSession(game, ["random", "heuristic", "weighted"], seed=4)
    for _ in range(60):
        session.step()
    rebuilt = replay(session.record(), game, with_agents=True)
    history = list(session.state.history)
    assert session.choose() == rebuilt.choose() and session.state.history == history
    for _ in range(40):
        assert session.step().action == rebuilt.step().action


def test_hidden_chance_outcomes_are_logged_for_those_who_saw_them():
    session = GameSession(make("kuhn_poker", players=3), ["random"] * 3, seed=2)
    deals = [session.step() for _ in range(3)]
    assert [d.seen_by for d in deals] == [(0,), (1,), (2,)]
    mine = session.log_for(1)
    assert mine[1]["text"].startswith("deal ") and mine[1]["action"] == deals[1].action
    assert mine[0] == {"ply": 0, "actor": None, "action": None, "text": "deal a card to seat 0"}
    assert all(entry["action"] is None for entry in session.log_for(None)[:3])
    session.advance()
    assert [entry["action"] for entry in session.log_for(None)[:3]] == [d.action for d in deals]  # shown at the end


def test_a_record_replays_into_a_session_without_agents():
    session = GameSession(make("tictactoe"), ["random", "random"], seed=0)
    session.advance()
    replayed = replay(session.record())
    assert replayed.actions == session.actions and replayed.agents == {} and replayed.seats == ["random", "random"]
    assert replayed.state.public_view(None) == session.state.public_view(None)
    assert [e.text for e in replayed.log] == [e.text for e in session.log]


def test_bad_sessions_are_refused():
    with pytest.raises(ConfigError, match="has 2 seats, got 3"):
        GameSession(make("connect4"), [HUMAN] * 3, seed=0)
    with pytest.raises(ConfigError, match="non-negative"):
        GameSession(make("connect4"), [HUMAN] * 2, seed=-5)
    with pytest.raises(ConfigError, match="unknown agent"):
        GameSession(make("connect4"), [HUMAN, "nobody"], seed=0)


def test_default_agents_fall_back_to_what_plays_the_game():
    spec, agent = agent_for(make("catan"), None, ("nosuchmodel", "heuristic"))
    assert spec == "heuristic" and agent.spec == "heuristic"
    assert agent_for(make("connect4"), None, ("heuristic", "random"))[0] == "random"
    assert agent_for(make("catan"), "weighted", OPPONENT_FALLBACKS)[0] == "weighted"
    with pytest.raises(ConfigError, match="unknown agent"):
        agent_for(make("catan"), "nosuchbot", OPPONENT_FALLBACKS)
    with pytest.raises(ConfigError, match="no agent plays"):
        agent_for(make("connect4"), None, ("heuristic",))
    assert HINT_FALLBACKS[-1].startswith("mcts")


def test_win_chances_scale_returns_by_the_games_bounds():
    assert win_chances(make("connect4"), np.array([1.0, -1.0])) == [1.0, 0.0]
    assert win_chances(make("connect4"), np.array([0.0, 0.0])) == [0.5, 0.5]
    assert win_chances(make("catan", players=3), np.array([0.2, 0.5, 1.3])) == [0.2, 0.5, 1.0]


def test_games_with_one_seed_roll_the_same_dice_whatever_the_agents_do():
    """Chance is keyed by lane and count (Catan: the k-th roll of the dice), not by the ply: two games of
    different random players on one seed make different moves yet roll the same dice, roll by roll."""
    from boardzero.agents.registry import make_agent
    from boardzero.core.api import CHANCE
    from boardzero.play.runner import play_game

    game = make("catan", players=2)

    def dice(agent_seed: int) -> tuple[list[int], int]:
        rolls: list[int] = []

        def on_step(state, player, action):
            if player == CHANCE and state.chance_lane() == 0:
                rolls.append(action)

        agents = [make_agent("random", game), make_agent("random", game)]
        final = play_game(game, agents, np.random.default_rng(agent_seed), seed=5, on_step=on_step)
        return rolls, len(final.history)

    (first, plies_a), (second, plies_b) = dice(1), dice(2)
    assert plies_a != plies_b  # the games went differently
    n = min(len(first), len(second))
    assert n > 20 and first[:n] == second[:n]


def test_a_trade_and_a_monopoly_are_logged_with_the_cards_they_moved():
    game = make("catan", players=3, trading=True)
    session = GameSession(game, ["random"] * 3, seed=3)
    trades = monopolies = 0
    while not session.state.is_terminal() and not (trades and monopolies):
        entry = session.step()
        if entry is None or entry.actor < 0:
            continue
        name = session.state.game.action_name(entry.action)
        if name.startswith("trade with seat"):
            trades += 1
            assert entry.text.startswith(name.replace("trade", "trades", 1) + ": gives ") and ", gets " in entry.text
        if name.startswith("play monopoly"):
            monopolies += 1
            assert entry.text.startswith(f"{name}: seat {entry.actor} takes "), entry.text
        assert not entry.text.startswith(f"seat {entry.actor} "), entry.text  # the entry names its actor already
    assert trades and monopolies

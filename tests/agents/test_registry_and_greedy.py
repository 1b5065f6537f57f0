import pytest

from boardzero.agents.registry import make_agent, parse_spec
from boardzero.core.errors import ConfigError
from boardzero.core.registry import make
from boardzero.core.view import SeatView
from tests.conftest import play_actions


def test_parse_spec_splits_words_and_options():
    assert parse_spec("mcts:sims=400") == ("mcts", [], {"sims": "400"})
    assert parse_spec("az:runs/c4,sims=200,greedy") == ("az", ["runs/c4", "greedy"], {"sims": "200"})
    assert parse_spec("best:greedy") == ("best", ["greedy"], {})


@pytest.mark.parametrize(
    "spec,message",
    [
        ("bogus", "unknown agent 'bogus'; known agents: .*random"),
        ("random:sims=3", "unknown option 'sims'; allowed: "),
        ("random:extra", "unexpected argument"),
        ("", "empty agent spec"),
        ("9lives", "bad agent name"),
        ("mcts:temperature=-1", "agent mcts.temperature: must be >= 0, got -1"),
        ("solver:opening_sims=-5", "agent solver.opening_sims: must be >= 1, got -5"),
        ("best:sims=-3", "agent best.sims: must be >= 0"),
        ("best:batch=-1", "agent best.batch: must be >= 0"),
    ],
)
def test_bad_specs_are_clear_config_errors(spec, message):
    with pytest.raises(ConfigError, match=message):
        make_agent(spec, make("connect4"))


def test_greedy_refuses_games_it_cannot_play():
    with pytest.raises(ConfigError, match="two-player game without chance"):
        make_agent("greedy", make("kuhn_poker"))


def test_greedy_takes_a_win_in_one(rng):
    state = play_actions("connect4", [0, 1, 0, 1, 0, 1])  # X threatens column 0, O threatens column 1
    agent = make_agent("greedy", state.game)
    assert all(agent.act(SeatView(state, 0), rng) == 0 for _ in range(10))


def test_greedy_blocks_a_loss_in_one(rng):
    state = play_actions("connect4", [0, 1, 0, 1, 6, 1])  # O threatens column 1; X has no win
    agent = make_agent("greedy", state.game)
    assert all(agent.act(SeatView(state, 0), rng) == 1 for _ in range(10))


def test_random_agent_plays_only_legal_moves(rng):
    state = play_actions("connect4", [3] * 6)
    agent = make_agent("random", state.game)
    moves = {agent.act(SeatView(state, 0), rng) for _ in range(100)}
    assert 3 not in moves and len(moves) == 6


def test_every_agent_says_what_it_does_and_documents_every_option():
    from boardzero.agents.registry import agent_names, describe_agent

    for name in agent_names():
        info = describe_agent(name)
        assert info.summary and "SeatView" not in info.summary, name  # its own docstring, not Agent's
        for option in info.options:
            assert option.doc, f"{name}.{option.name} has no 'option: meaning' line in its docstring"
    mcts = {o.name: o for o in describe_agent("mcts").options}
    assert mcts["sims"].default == 400 and mcts["sims"].type == "int" and mcts["sims"].doc == "simulations per move"
    assert [o.name for o in describe_agent("az").options if o.positional] == ["path"]

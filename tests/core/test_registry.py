import pytest

import boardzero
from boardzero.core.errors import ConfigError
from boardzero.core.registry import coerce, games, make, option_docs


def test_games_lists_the_registered_games():
    assert {"tictactoe", "connect4", "kuhn_poker", "catan"} <= set(games())
    assert boardzero.game_names() == games()


def test_make_builds_a_game_with_options_coerced_from_strings():
    game = boardzero.make("kuhn_poker", players="2")
    assert game.num_players == 2 and game.options.players == 2


def test_unknown_game_names_the_known_ones():
    with pytest.raises(ConfigError, match="unknown game 'chess'; known games: .*connect4"):
        make("chess")


def test_unknown_option_names_the_allowed_ones():
    with pytest.raises(ConfigError, match=r"kuhn_poker\.colour: unknown option; allowed: players"):
        make("kuhn_poker", colour="red")


def test_option_value_outside_its_choices_is_refused():
    with pytest.raises(ConfigError, match=r"kuhn_poker\.players: 5 is not allowed; allowed: 2, 3"):
        make("kuhn_poker", players=5)


def test_game_without_options_refuses_any():
    with pytest.raises(ConfigError, match="takes no options"):
        make("connect4", rows=5)


@pytest.mark.parametrize(
    "value,annotation,expected",
    [("3", int, 3), ("0.5", float, 0.5), ("yes", bool, True), ("off", bool, False), ("none", int | None, None)],
)
def test_coerce(value, annotation, expected):
    assert coerce("field", value, annotation) == expected


@pytest.mark.parametrize("value,annotation", [("three", int), ("maybe", bool), (2.5, int)])
def test_coerce_rejects_bad_values_naming_the_field(value, annotation):
    with pytest.raises(ConfigError, match="^field: expected"):
        coerce("field", value, annotation)


@pytest.mark.parametrize(
    "value,annotation", [(float("inf"), int), (float("-inf"), int), ("1e999", float), ("nan", float), ("-inf", float)]
)
def test_coerce_refuses_non_finite_numbers_with_a_config_error(value, annotation):
    with pytest.raises(ConfigError, match="^field: expected a finite"):
        coerce("field", value, annotation)


def test_option_docs_describe_each_option():
    ((name, type_name, default, doc),) = option_docs("kuhn_poker")
    assert (name, type_name, default) == ("players", "2|3", 3) and "players" in doc

"""The browser tests' seeds still bring about what those tests need (replayed by the server's session, no
browser): a change of the chance stream that breaks one fails here first, and ``python -m
tests.web.browser_seeds`` finds new ones."""

from tests.web.browser_seeds import (
    CITIES_SEED,
    DISCARD_SEED,
    LAYOUT_SEED,
    cities_of_seat_0,
    discard_game,
    layout_seed_works,
)


def test_the_discard_seed_brings_a_bank_trade_and_a_discard_of_several_cards():
    found = discard_game(DISCARD_SEED)
    assert not found.first_roll_seven
    assert found.traded_at is not None and found.discarded_at is not None and found.discard >= 2, found


def test_the_cities_seed_ends_with_two_cities_for_red():
    assert cities_of_seat_0(CITIES_SEED) == 2


def test_the_layout_seeds_first_roll_is_no_7_and_brings_no_bank_trade():
    assert layout_seed_works(LAYOUT_SEED)

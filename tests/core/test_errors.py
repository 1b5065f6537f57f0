"""boardzero's errors survive the trip from a worker process to its parent."""

import copy
import multiprocessing

import pytest

from boardzero.core.errors import CheckpointError, ConfigError, IllegalActionError
from boardzero.play.session import NotYourTurnError

ERRORS = [
    ConfigError("train.lr", "bad value -1; allowed: > 0"),
    IllegalActionError(17, "seat 2 has no settlement there", name="build city at node 17"),
    IllegalActionError(3, "the game is over"),
    NotYourTurnError(4, "seat 1 is to move"),
    CheckpointError("runs/x.json: not a boardzero checkpoint"),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_an_error_is_rebuilt_with_its_message_and_fields(error):
    # deepcopy rebuilds an object through __reduce__ as pickle does (the pool test below pickles for real)
    rebuilt = copy.deepcopy(error)
    assert type(rebuilt) is type(error)
    assert str(rebuilt) == str(error)
    assert vars(rebuilt) == vars(error)


def _raise_config_error(field: str) -> None:
    raise ConfigError(field, "no game ended; collect longer (--minutes)")


def test_a_config_error_raised_in_a_pool_worker_reaches_the_parent():
    # Before errors rebuilt themselves from their fields, the pool's result thread died unpickling this
    # one and the parent waited forever.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        pending = pool.apply_async(_raise_config_error, ("opening",))
        with pytest.raises(ConfigError, match="opening: no game ended") as raised:
            pending.get(timeout=120)
    assert raised.value.field == "opening"

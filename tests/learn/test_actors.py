import queue

from boardzero.learn.actors import drain_one


class _Queue:
    def __init__(self, error):
        self.error = error

    def get(self, timeout):
        raise self.error


def test_draining_stops_at_a_broken_sample_pipe_and_goes_on_past_an_empty_one():
    assert drain_one(_Queue(queue.Empty())) is True
    assert drain_one(_Queue(EOFError())) is False  # a message cut off mid-way: leave the rest to terminate
    assert drain_one(_Queue(OSError("handle is closed"))) is False

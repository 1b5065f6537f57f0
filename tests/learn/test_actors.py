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


class _Process:
    name = "boardzero-actor-0"

    def __init__(self):
        self.alive, self.terminated = True, False

    def is_alive(self):
        return self.alive

    def terminate(self):
        self.terminated, self.alive = True, False

    def join(self, timeout):
        pass


class _Reads(_Queue):
    def __init__(self, error):
        super().__init__(error)
        self.reads = 0

    def get(self, timeout=None):
        self.reads += 1
        raise self.error

    def get_nowait(self):
        return self.get()

    def cancel_join_thread(self):
        pass

    def close(self):
        pass


def test_a_read_cut_off_by_an_interrupt_skips_the_drain_and_terminates_the_actors():
    """A second Ctrl-C in the middle of a message leaves half of it in the pipe; reading on could wait for bytes
    that never come, so closing the pool goes straight to terminating its actors."""
    from threading import Event

    import pytest

    from boardzero.learn.actors import LocalActorPool

    pool = object.__new__(LocalActorPool)
    pool.samples, pool.weight_queues, pool.processes = _Reads(KeyboardInterrupt()), [], [_Process()]
    pool.stop, pool.cut = Event(), False
    with pytest.raises(KeyboardInterrupt):
        pool.collect(wait=1.0)
    assert pool.cut and pool.samples.reads == 1
    pool.close()
    assert pool.samples.reads == 1 and pool.processes[0].terminated

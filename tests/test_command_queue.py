"""The command queue: posted from many threads, run in order on the thread that drains it."""

from __future__ import annotations

import threading

from companion.service.command_queue import CommandQueue


def test_commands_from_other_threads_run_on_the_draining_thread_in_post_order():
    queue = CommandQueue()
    ran_on: list[tuple[int, int, int]] = []
    posted = threading.Barrier(5)

    def poster(worker: int) -> None:
        posted.wait()
        for index in range(50):
            queue.post(lambda w=worker, i=index: ran_on.append((w, i, threading.get_ident())))

    threads = [threading.Thread(target=poster, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    posted.wait()
    for thread in threads:
        thread.join()
    assert queue.drain(limit=1000) == 200
    assert {ident for *_, ident in ran_on} == {threading.get_ident()}
    for worker in range(4):
        assert [i for w, i, _ in ran_on if w == worker] == list(range(50))


def test_a_failing_command_is_reported_and_the_rest_still_run():
    errors: list[Exception] = []
    queue = CommandQueue(on_error=errors.append)
    done: list[str] = []
    queue.post(lambda: done.append("first"))
    queue.post(lambda: 1 / 0)
    queue.post(lambda: done.append("third"))
    assert queue.drain() == 3
    assert done == ["first", "third"]
    assert len(errors) == 1 and isinstance(errors[0], ZeroDivisionError)


def test_drain_respects_its_limit_and_leaves_the_rest_queued():
    queue = CommandQueue()
    done: list[int] = []
    for index in range(5):
        queue.post(lambda i=index: done.append(i))
    assert queue.drain(limit=2) == 2 and done == [0, 1]
    assert queue.drain() == 3 and done == [0, 1, 2, 3, 4]
    assert queue.drain() == 0


def test_drain_with_a_timeout_waits_for_a_command_posted_later():
    queue = CommandQueue()
    done = threading.Event()
    timer = threading.Timer(0.05, lambda: queue.post(done.set))
    timer.start()
    assert queue.drain(timeout=5.0) == 1
    assert done.is_set()
    assert queue.drain(timeout=0.01) == 0

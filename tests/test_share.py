"""Each connection's share of the server's CPU (cribcli.ui.serve.share), on a real event
loop, without sockets: work is measured in CPU time, so no test here depends on the
machine's speed (each burns a given amount of CPU, however long that takes)."""

from __future__ import annotations

import asyncio
import time

from cribcli.ui.serve.share import Share, charge_to, in_thread, metered


def burn(seconds: float) -> None:
    """Use ``seconds`` of this thread's CPU."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def run(coroutine_function: object) -> None:
    async def main() -> None:
        with metered(asyncio.get_running_loop()):
            await coroutine_function()  # type: ignore[operator]

    asyncio.run(asyncio.wait_for(main(), 60))


def test_work_is_charged_to_the_task_that_did_it() -> None:
    overs: list[str] = []
    ann = Share(lambda: overs.append("ann"))
    bob = Share(lambda: overs.append("bob"))

    async def person(share: Share, work: float) -> None:
        charge_to(share)
        for _ in range(5):
            burn(work / 5)
            await asyncio.sleep(0)

    async def lobby() -> None:
        burn(0.05)  # the room's own work: nobody's
        await asyncio.sleep(0)

    async def main() -> None:
        await asyncio.gather(person(ann, 0.1), person(bob, 0.02), lobby())

    run(main)
    assert 0.1 <= ann.used < 0.15
    assert 0.02 <= bob.used < 0.05
    assert overs == []


def test_callbacks_scheduled_from_a_task_are_its_work() -> None:
    ann = Share(lambda: None)

    async def main() -> None:
        charge_to(ann)
        loop = asyncio.get_running_loop()
        done = asyncio.Event()
        loop.call_soon(burn, 0.02)
        loop.call_later(0, burn, 0.02)
        loop.call_soon_threadsafe(burn, 0.02)
        loop.call_soon(done.set)
        await done.wait()
        await asyncio.sleep(0.01)

    run(main)
    assert ann.used >= 0.06


def test_a_search_in_a_thread_is_charged_too() -> None:
    ann = Share(lambda: None)

    async def main() -> None:
        charge_to(ann)

        def search() -> int:
            burn(0.05)
            return 7

        assert await in_thread(search) == 7

    run(main)
    assert ann.used >= 0.05


def test_over_its_share_it_is_told_once() -> None:
    overs: list[float] = []

    async def main() -> None:
        share = Share(lambda: overs.append(share.used), rate=0.0, at_once=0.03)
        charge_to(share)
        for _ in range(10):
            burn(0.01)
            await asyncio.sleep(0)
        await asyncio.sleep(0)

    run(main)
    assert len(overs) == 1
    assert overs[0] > 0.03


def test_within_its_share_it_is_never_told() -> None:
    share = Share(lambda: overs.append(1), rate=1.0, at_once=1.0)
    overs: list[int] = []
    now = 0.0
    for _ in range(100):  # half a core's work for 100 s, by the clock given
        now += 1.0
        share.charge(0.5, now)
    assert overs == [] and not share.spent


def test_the_loop_is_as_it_was_afterwards() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        before = loop.call_soon
        with metered(loop):
            assert loop.call_soon != before
        assert loop.call_soon == before
        assert "call_soon" not in vars(loop)

    asyncio.run(main())

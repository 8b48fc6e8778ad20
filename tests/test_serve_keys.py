"""The line editor's keys from the SSH channel, with no file descriptor: typed before the
prompt or during it, they reach the editor; the channel closed ends the prompt; an editor
too far behind is a flood."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("asyncssh")

from prompt_toolkit import PromptSession
from prompt_toolkit.application import create_app_session
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.output import DummyOutput

from cribcli.ui.serve.keys import KEYS_WAITING, ChannelInput, TooManyKeys


async def prompted(keys: ChannelInput) -> str:
    with create_app_session(input=keys, output=DummyOutput()):
        return await PromptSession[str]().prompt_async("> ")


def test_keys_sent_while_the_prompt_waits_are_its_line() -> None:
    async def main() -> list[str]:
        keys = ChannelInput()
        asking = asyncio.create_task(prompted(keys))
        await asyncio.sleep(0)
        keys.send_text("7")
        keys.send_text("H\r")
        first = await asyncio.wait_for(asking, 30)
        keys.send_text("go\r")  # typed before the next prompt: kept for it
        second = await asyncio.wait_for(prompted(keys), 30)
        return [first, second]

    assert asyncio.run(main()) == ["7H", "go"]


def test_the_channel_closed_ends_the_prompt() -> None:
    async def main() -> None:
        keys = ChannelInput()
        asking = asyncio.create_task(prompted(keys))
        await asyncio.sleep(0)
        keys.close()
        with pytest.raises(EOFError):
            await asyncio.wait_for(asking, 30)
        keys.send_text("lost\r")  # (nobody reads a closed input: nothing kept)
        assert keys.read_keys() == []

    asyncio.run(main())


def test_an_editor_too_far_behind_is_a_flood() -> None:
    async def main() -> None:
        keys = ChannelInput()  # (nobody reading)
        keys.send_text("x" * KEYS_WAITING)
        with pytest.raises(TooManyKeys):
            keys.send_text("x")

    asyncio.run(main())


def test_it_holds_no_file_descriptor() -> None:
    with pytest.raises(NotImplementedError):
        ChannelInput().fileno()


def test_keys_typed_ahead_are_kept_for_their_own_connection_alone() -> None:
    """prompt_toolkit keeps keys typed past an Enter by input: a connection that closes
    takes its own with it, and a new one (perhaps at the same address in memory) never
    gets another's."""
    from prompt_toolkit.input import typeahead

    first = ChannelInput()
    typeahead.store_typeahead(first, [KeyPress("q")])
    name = first.typeahead_hash()
    first.close()
    del first
    later = [ChannelInput() for _ in range(100)]
    assert name not in {keys.typeahead_hash() for keys in later}
    assert typeahead.get_typeahead(later[0]) == []
    assert name not in typeahead._buffer

"""The hard computer's measured tables are what their tools make: each tool is run again
on a part of its work, and the part must equal the shipped table's, to the last digit;
and each table's file is exactly what the tool's writer writes."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from cribcli.players import measured, odds
from cribcli.players.habits import Style

TOOLS = Path(__file__).resolve().parent.parent / "tools"
CRIB_STYLES = (Style.CAREFUL, Style.GREEDY, Style.CRIB_MINDED)
"""The styles with a crib table of their own (tools/crib_table.py --style)."""
NAMES = ("pegs.json", *(style.crib_table or "" for style in CRIB_STYLES), "deal_points.json")


def tool(name: str) -> ModuleType:
    """A script of tools/, loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", NAMES)
def test_each_file_is_exactly_what_its_writer_writes(name: str) -> None:
    shipped = (measured.FOLDER / name).read_text(encoding="utf-8")
    assert measured.dumps(json.loads(shipped)) == shipped
    assert measured.read(name) == json.loads(shipped)
    assert {"about", "made_by"} <= set(measured.read(name))


@pytest.mark.slow
def test_the_pegging_table_is_what_the_tool_plays() -> None:
    pegging = tool("pegging_table")
    shipped = measured.read("pegs.json")
    hands = int(shipped["made_by"].split("--hands ")[1])
    for keep in ((4, 5, 6, 7), (5, 5, 5, 5), (1, 1, 13, 13)):
        as_dealer, as_pone = pegging.average((keep, hands))
        entry = shipped["keeps"][measured.ranks_key(keep)]
        assert (round(as_dealer, 2), round(as_pone, 2)) == (entry["dealer"], entry["pone"])


@pytest.mark.slow
@pytest.mark.parametrize("style", CRIB_STYLES)
def test_the_crib_table_is_worked_out_from_its_throws(style: Style) -> None:
    crib = tool("crib_table")
    assert style in crib.MEASURED and style.crib_table is not None
    shipped = measured.read(style.crib_table)
    blocks = {
        (key.split()[0], int(key.split()[1])): Counter(
            {measured.key_ranks(pair): n for pair, n in throws.items()}
        )
        for key, throws in shipped["throws"].items()
    }
    assert crib.table(blocks, style) == shipped


@pytest.mark.slow
@pytest.mark.parametrize("style", CRIB_STYLES)
def test_the_crib_table_throws_are_what_the_tool_deals(style: Style) -> None:
    crib = tool("crib_table")
    assert style.crib_table is not None
    shipped = measured.read(style.crib_table)["throws"]
    for thrower in ("pone", "dealer"):
        again = crib.block_throws(thrower, 0, style)
        assert {measured.ranks_key(pair): n for pair, n in again.items()} == shipped[f"{thrower} 0"]


def test_the_deal_counts_add_up_from_their_blocks() -> None:
    shipped = measured.read("deal_points.json")
    assert len(shipped["blocks"]) == 40 and "--games 4000" in shipped["made_by"]
    totals = odds.counts()
    # every deal is counted once for each source: the 32,414 deals the odds come from
    assert {sum(totals[source]) for source in odds.SOURCES} == {32414}


@pytest.mark.slow
def test_the_deal_counts_are_what_the_tool_plays() -> None:
    deal_odds = tool("deal_odds")
    shipped = measured.read("deal_points.json")
    made_by = shipped["made_by"].split()
    level, seed = made_by[made_by.index("--level") + 1], made_by[made_by.index("--seed") + 1]
    first = next(iter(shipped["blocks"]))
    assert deal_odds.block_counts(level, seed, 0) == shipped["blocks"][first]


def test_the_rank_points_module_is_what_its_tool_writes() -> None:
    shipped = (TOOLS.parent / "cribcli" / "rules" / "rank_points.py").read_text()
    assert shipped == tool("rank_points").module_text()

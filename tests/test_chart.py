"""The game's story as a chart (``review``) and a history's losses month by month
(``stats``): the series worked out from the log, and the chart pinned as people see it,
in block characters and in plain ones, at 80 and 40 columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from cribcli.players.odds import dealer_chance
from cribcli.record.reader import loads
from cribcli.record.replay import replay
from cribcli.review.history import History
from cribcli.review.stats import GameRecord, Lost
from cribcli.review.story import Chance, chances
from cribcli.ui.chart import lost_lines, story_lines
from cribcli.ui.render import Style
from cribcli.ui.reports import stats_lines
from tests.conftest import Run

FIXTURE = Path(__file__).parent / "logs" / "2-players.toml"


def _story() -> list[Chance]:
    log = loads(FIXTURE.read_text(encoding="utf-8"))
    return chances(log.info, replay(log).events, 0)


def test_the_story_follows_the_scores_and_the_deal() -> None:
    """Each point is the chance the table gives from the scores after that deal, with the
    next deal's dealer to deal; it starts before the first deal and ends at 0 or 1."""
    log = loads(FIXTURE.read_text(encoding="utf-8"))
    story = _story()
    assert story[0] == Chance(0, (0, 0), 1 - dealer_chance(121, 121))  # Bob deals first
    assert story[-1].chance == 0.0 and max(story[-1].scores) == 121  # Ann lost
    rounds = [record for record in log.rounds if record.scores is not None]
    for record, point in zip(rounds, story[1:], strict=False):
        assert point.round == record.round and point.scores == record.scores
        needs = [121 - s for s in point.scores]
        next_dealer = 1 - record.dealer  # the deal passes
        dealing = dealer_chance(needs[next_dealer], needs[1 - next_dealer])
        assert point.chance == pytest.approx(dealing if next_dealer == 0 else 1 - dealing)


@pytest.mark.parametrize("unicode", [True, False])
@pytest.mark.parametrize("width", [80, 40])
def test_the_story_s_chart(snapshot: SnapshotAssertion, unicode: bool, width: int) -> None:
    lines = story_lines(_story(), [], "Ann", Style(unicode=unicode), width)
    assert all(len(line) <= width for line in lines)
    assert "\n".join(lines) == snapshot


def test_review_json_carries_the_series(cribbage: Run) -> None:
    rows = [
        json.loads(line) for line in cribbage("review", str(FIXTURE), "--json").out.splitlines()
    ]
    series = rows[-1]["summary"]["chances"]
    assert series == [point.as_json() for point in _story()]
    assert series[0]["round"] == 0 and series[-1]["chance"] == 0.0


def _reviewed(day: str, deals: int, lost: float) -> GameRecord:
    return GameRecord(
        "g.toml", day, "", "hard", 2, 0, (121, 100), ("", ""), deals, (), 12,
        lost=Lost(deals, lost, 0.0, 0.0, (deals, 0, 0)),
    )  # fmt: skip


def test_stats_draws_the_losses_once_they_span_months(snapshot: SnapshotAssertion) -> None:
    history = History()
    history.add(_reviewed("2026-10-03", 10, 15.0))
    assert not any("month by month" in line for line in stats_lines(history))  # one month
    history.add(_reviewed("2026-11-12", 12, 9.0))
    history.add(_reviewed("2026-11-20", 8, 3.0))
    history.add(_reviewed("2026-12-01", 10, 4.0))
    assert history.months["2026-11"][0] == 2
    assert history.as_json()["lost_by_month"]["2026-11"]["total"] == pytest.approx(0.6)  # type: ignore[index]
    drawn = {
        f"{'block' if unicode else 'plain'} {width}": lost_lines(
            [(m, g, lost.per_deal()["total"]) for m, (g, lost) in sorted(history.months.items())],
            Style(unicode=unicode),
            width,
        )
        for unicode in (True, False)
        for width in (80, 40)
    }
    for name, lines in drawn.items():
        assert all(len(line) <= int(name.split()[1]) for line in lines), name
    assert drawn == snapshot
    assert drawn["plain 80"] == stats_lines(history)[-len(drawn["plain 80"]) - 1 : -1]

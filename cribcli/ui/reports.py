"""Reports of many games: a match's figures, a tournament's crosstable and standings, a
player's history, and the daily game's result. Strings only; nothing prints.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from cribcli.players.base import Level
from cribcli.review.grading import GRADE_WINDOWS, KINDS
from cribcli.rules.errors import printable
from cribcli.ui.chart import lost_lines
from cribcli.ui.render import PLAIN, WIDE, Style, fit

if TYPE_CHECKING:
    from cribcli.review.history import DailyResult, History
    from cribcli.services.match import Report
    from cribcli.services.tournament import Tournament


def match_lines(report: Report) -> list[str]:
    """A match's report for people."""
    from cribcli.rules.tally import ROLES

    first, second = (printable(report.label(player)) for player in (0, 1))
    rate, low, high = report.win_rate(0)
    if report.duplicate:
        who, how = f"{first} v {second}", "each deal twice, the seats swapped"
    else:
        who, how = f"{first} (seat 0) v {second} (seat 1)", "taking turns to deal first"
    if report.best_of > 1:
        twice = "each match twice, the seats swapped; " if report.duplicate else ""
        how = f"{twice}a match's first deal cut for, then the loser of each game deals"
    games = f"{report.games} game{'s' if report.games != 1 else ''}"
    lines = [f"{who}: {games}, {how}, seed {report.seed}"]
    if report.best_of > 1:
        games = f"{report.matches} matches of best of {report.best_of} ({games})"
        lines = [f"{who}: {games}, seed {report.seed}", f"  ({how})"]
    if report.best_of > 1:
        share, least, most = report.match_rate(0)
        lines.append(
            f"  matches: {first} won {report.match_wins[0]}, {second} {report.match_wins[1]}: "
            f"{first} {100 * share:.1f}% (95% CI {100 * least:.1f}%-{100 * most:.1f}%)"
        )
    lines += [
        f"  {first} won {report.wins[0]}: {100 * rate:.1f}%"
        f" (95% CI {100 * low:.1f}%-{100 * high:.1f}%)",
        f"  {second} won {report.wins[1]}: {100 * (1 - rate):.1f}%",
        f"  skunks: {first} gave {report.skunks[0]} ({report.double_skunks[0]} double), "
        f"{second} gave {report.skunks[1]} ({report.double_skunks[1]} double)",
        f"  the first dealer won {100 * report.first_dealer_wins / max(report.games, 1):.1f}%",
        "",
        f"  a game (95% CI)   {first[:24]:>26}{second[:24]:>26}",
    ]
    for measure, scale in (("game points", 1), ("skunks", 100), ("double skunks", 100)):
        cells = [_interval(report.per_game(measure, p), scale) for p in (0, 1)]
        label = measure if scale == 1 else f"{measure} %"
        lines.append(f"  {label:<18}{cells[0]:>26}{cells[1]:>26}")
    spread = [_interval(report.per_game("spread", p), 1) for p in (0, 1)]
    lines.append(f"  {'spread':<18}{spread[0]:>26}{spread[1]:>26}")
    lines.append(
        f"  (game points: {report.game_points[0]} to {report.game_points[1]}; "
        f"spread: {report.spread:+d} for {first})"
    )
    for player, name in enumerate((first, second)):
        if report.forfeits[player]:
            lines.append(f"  {name} forfeited {report.forfeits[player]}:")
            lines.extend(f"    {printable(reason)}" for reason in report.reasons[player])
    if report.voids:
        lines.append(f"  no result in {report.voids} (not counted above):")
        lines.extend(f"    {printable(reason)}" for reason in report.void_reasons)
    lines += ["", f"  points a deal            {'pegging':>8}{'hand':>8}{'crib':>8}{'total':>8}"]
    for player, name in enumerate((first, second)):
        for role in ROLES:
            values = report.per_deal(player, role)
            crib = f"{values['crib']:8.2f}" if role == "dealer" else f"{'':>8}"
            lines.append(
                f"  {name[:14] + ' ' + str(player) + ' as ' + role:<24}{values['pegging']:8.2f}"
                f"{values['hand']:8.2f}{crib}{values['total']:8.2f}"
            )
    return lines


CROSSTABLE_MOST = 16
"""The most players whose crosstable is shown (16 fit 120 columns)."""


def tournament_lines(tournament: Tournament, width: int = WIDE) -> list[str]:
    """A tournament's report for people: the crosstable, the standings with their
    tie-breaks, the bracket, each player's rating, the champion; every line within
    ``width`` columns (the standings as a table where it fits, a line or two a player
    where it does not)."""
    from cribcli.services.tournament import crosstable, qualifiers, ratings

    setup = tournament.setup
    names = [_player(printable(name))[:16] for name in setup.names]
    count = len(names)
    kind = "round-robin" if setup.format == "round-robin" else "ACC: round-robin qualifying"
    twice = ", each deal twice" if setup.duplicate else ""
    lines = fit(
        f"Tournament ({kind}): {count} players, each pair {setup.games} "
        f"game{'s' * (setup.games != 1)}{twice}, to {setup.target}, seed "
        f"{printable(str(setup.seed))}",
        width,
    )
    if count <= CROSSTABLE_MOST and 18 + 6 * count <= width:
        lines += ["", "  games won-lost  " + "".join(f"{n + 1:>6}" for n in range(count))]
        table = crosstable(count, tournament.matches, tournament.results)
        for player, row in enumerate(table):
            cells = "".join(f"{cell or '.':>6}" for cell in row)
            lines.append(f"  {player + 1:>2} {names[player][:13]:<13}{cells}")
    else:
        lines += [
            "",
            *fit(f"  (the crosstable of {count} players is too wide here: --json has it)", width),
        ]
    rated = {r.player: r for r in ratings(tournament)}
    wide = width >= STANDINGS_WIDTH
    lines.append("")
    if wide:
        lines.append(
            f"  {'place':>5}  {'player':<16}{'games':>6}{'won':>5}{'points':>7}{'spread':>7}"
            f"{'rating':>7}{'(95%)':>6}  ahead on"
        )
    for standing in tournament.standings():
        rating = rated[standing.player]
        name, within = names[standing.player], f"±{rating.within:.0f}"
        if wide:
            lines.append(
                f"  {standing.place:>5}  {name:<16}{standing.games:>6}"
                f"{standing.wins:>5}{standing.game_points:>7}{standing.spread:>+7}"
                f"{round(rating.elo):>+7d}{within:>6}  {standing.decided_by}"
            )
            continue
        ahead = f"; ahead on {standing.decided_by}" if standing.decided_by else ""
        lines += fit(
            f"  {standing.place}. {name}: {standing.games} games, {standing.wins} won, "
            f"{standing.game_points} points, spread {standing.spread:+}, rating "
            f"{round(rating.elo):+d} {within}{ahead}",
            width,
        )
    lines += fit(
        "  (points: game points, 2 a win, 3 a skunk; ranked by them, then games won, then "
        "spread; rating: Elo against the field's average, from every game)",
        width,
    )
    if setup.format == "acc" and tournament.knockout:
        qualified = qualifiers(count)
        lines += [
            "",
            *fit(f"  The knockout: the top {qualified} of {count}, best of {setup.best_of}", width),
        ]
        last = max(match.round for match in tournament.knockout)
        for match in tournament.knockout:
            title = "final" if match.round == last else f"round {match.round}"
            high, low = match.seeds
            first = f"({high}) {names[tournament.seeds[high - 1]]}"
            if low is None:
                lines += fit(f"  {title:<9} {first}: a bye", width)
                continue
            second = f"({low}) {names[tournament.seeds[low - 1]]}"
            told = ""
            if match.winner is not None:
                won = names[tournament.seeds[match.winner - 1]]
                told = f": {won} {max(match.score)}-{min(match.score)}"
            lines += fit(f"  {title:<9} {first} v {second}{told}", width)
    champion = tournament.champion
    if champion is not None:
        lines += ["", f"  The winner: {names[champion]}"]
    if tournament.voids:
        lines += fit(f"  ({tournament.voids} games had no result and are not counted)", width)
    return lines


STANDINGS_WIDTH = 78
"""The columns the standings take as a table (else a line or two a player)."""


def _player(name: str) -> str:
    """A tournament's player as people read it: a numbered level is ``level 5``."""
    number, _, more = name.partition(" ")
    return f"level {name}" if number.isdecimal() and (not more or more.startswith("#")) else name


def _interval(measured: tuple[float, float, float], scale: float) -> str:
    """A measure and its interval, as ``1.23 (1.10-1.36)`` (no interval from one unit)."""
    value, low, high = (x * scale for x in measured)
    if not math.isfinite(low):
        return f"{value:.2f}"
    return f"{value:.2f} ({low:.2f} to {high:.2f})"


def _ladder_order(item: tuple[str, object]) -> tuple[int, str]:
    """Opponents by their place on the ladder (the rest, as engines and people, after)."""
    level = Level.parse(item[0])
    return (level.number if level else len(Level) + 1, item[0])


def stats_lines(
    history: History, *, served: bool = False, style: Style = PLAIN, width: int = WIDE
) -> list[str]:
    """A player's history for people (``served``: in a served room's lobby, where only
    what can be done there is suggested, and a daily streak means nothing); once reviewed
    games span more than one month, the points a deal lost to mistakes, month by month,
    drawn as a chart in ``style``, ``width`` columns at most."""
    if not history.games:
        if served:
            return ["No finished games yet: `solo` plays the computer, `new` opens a table."]
        return [
            "No finished games yet: 'cribbage play' starts one.",
            f"Daily streak: {history.daily_streak}.",
        ]
    share = 100 * history.wins / history.games
    lines = [f"Games: {history.games} played, {history.wins} won ({share:.0f}%)"]
    if history.with_takebacks:
        lines[0] += f"; {history.with_takebacks} with moves taken back"
    for level, (played, won) in sorted(history.by_level.items(), key=_ladder_order):
        known = Level.parse(level)
        lines.append(
            f"  against {known.label if known else printable(level)}: {played} played, {won} won"
        )
    lines.append(f"Skunks: {history.skunks_given} given, {history.skunks_taken} taken")
    lines.append(
        f"Points a deal        {'deals':>6}{'pegging':>9}{'hand':>7}{'crib':>7}{'total':>7}"
    )
    from cribcli.rules.tally import ROLES

    for role in ROLES:
        v = history.per_deal(role)
        crib = f"{v['crib']:7.2f}" if role == "dealer" else f"{'':>7}"
        figures = f"{v['pegging']:9.2f}{v['hand']:7.2f}{crib}{v['total']:7.2f}"
        lines.append(f"  as {role:<16}{int(v['deals']):>6}{figures}")
    lines.append(f"Best hand: {history.best_hand} ({printable(history.best_game)})")
    if served:
        return lines
    lines.extend(_lost_lines(history))
    months = [
        (month, games, lost.per_deal()["total"])
        for month, (games, lost) in sorted(history.months.items())
    ]
    lines.extend(lost_lines(months, style, width))
    streak = history.daily_streak
    lines.append(f"Daily streak: {streak} day{'s' if streak != 1 else ''} in a row")
    return lines


def _lost_lines(history: History) -> list[str]:
    """How your decisions did in reviewed games, the last 10, the last 100 and all: the
    points they lost a decision by kind and in all, the accuracy and the rating."""
    games, _ = history.lost()
    if not games:
        return ["Your decisions: none of your games reviewed yet ('cribbage review --last')."]
    graded, _ = history.grade()
    if not graded:
        return ["Your decisions: review a game again to grade them ('cribbage review --last')."]
    lines = [
        "Your decisions in reviewed games: points lost a decision, accuracy, rating",
        f"{'':<17}{'games':>6}{'throws':>8}{'lays':>7}{'counts':>8}{'all':>6}{'accuracy':>10}",
    ]
    rows = [(window, *history.grade(last)) for window, last in GRADE_WINDOWS]
    for (window, games, grade), wider in zip(rows, [*rows[1:], None], strict=True):
        if wider is not None and wider[1] == games:  # the same games as the next row's
            continue
        widths = zip(KINDS, (8, 7, 8), grade.decisions, strict=True)
        rates = "".join(
            f"{grade.error_rate(kind):{width}.2f}" if n else f"{'-':>{width}}"
            for kind, width, n in widths
        )
        lines.append(
            f"  {window.replace('_', ' '):<15}{games:>6}{rates}{grade.error_rate():6.2f}"
            f"{grade.accuracy:10.1f}  {grade.rating}"
        )
    return lines


def daily_opening(day: str, *, today: bool) -> str:
    """What ``cribbage daily`` says as it starts: which day's deal it is."""
    if today:
        return f"The daily deal of {day}: everyone who plays today gets these cards."
    return f"The daily deal of {day}, a past day's: the cards everyone got that day."


def daily_lines(result: DailyResult, *, today: bool = True) -> list[str]:
    """What ``cribbage daily`` shows once a day's game is over (``today``: today's)."""
    share_alone = "'cribbage daily --share' prints the line above alone."
    streak = result.streak
    return [
        result.share,
        f"Daily streak: {streak} day{'s' if streak != 1 else ''} in a row.",
        f"A new deal comes tomorrow; {share_alone}" if today else share_alone,
    ]

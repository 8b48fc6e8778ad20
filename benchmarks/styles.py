"""Hard against players unlike our levels: a greedy pegger and keeper, a crib-minded
thrower, a random player (the easy level), normal or any level, in duplicate (each deal
sequence played twice, the seats swapped), and hard's share of the games with its 95%
interval over the pairs. The figures of issue 31 (hard reading the player across the
table by how it plays).

``--hard seer-play`` puts in hard's seat a hard that sees the other's cards in the play
(its hand, and the two it threw), and ``--hard seer`` one that also knows, as it throws,
the two cards the other throws: not a player, a bound on what knowing those cards gives
hard's own search and throw. No reading of the other's play can tell hard more than its
cards; hard's search still answers as a careful player lays, so against a player who
lays otherwise (greedy) a better model of its lays could gain beyond the seer.

Run:
  python benchmarks/styles.py [--pairs N] [--first N] [--jobs J] [--hard KIND] [OPPONENT...]
      plays pairs FIRST to FIRST+N-1 against each opponent (all four by default), the
      opponents taken in turn pair by pair, and prints each pair's wins as a JSON line
      as it ends (so a long run stopped half way keeps what it played), then the figures;
  python benchmarks/styles.py --compare BEFORE AFTER
      reads two runs' lines (of two versions of hard, files concatenated as they come)
      and prints, for the pairs both played, the change pair by pair with its interval;
  python benchmarks/styles.py --throws HANDS
      deals HANDS random hands to hard, as dealer and as pone (the score 0-0), and prints
      how often it throws otherwise when it has read the other as each style than when
      it reads it as careful.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path

from cribcli.players import Level, Player, computer, odds, pegs
from cribcli.players.habits import Habits, Style
from cribcli.players.hard import (
    PEGGING,
    PLAY_DEALS,
    HardPlayer,
    Option,
    discard_options,
    needs,
    pick_throw,
    warm,
)
from cribcli.players.reading import Hands, Sample
from cribcli.players.styles import STYLES
from cribcli.record.log import GameInfo, Seat
from cribcli.record.session import Session
from cribcli.rules.cards import Card, deck
from cribcli.rules.engine import Rules, State, View, new_game
from cribcli.rules.engine import view as seat_view
from cribcli.rules.events import GameOver
from cribcli.rules.scoring import MAX_SHOW, show_total
from cribcli.services.match import mean_interval, share_interval

OPPONENTS = ("greedy", "crib-minded", "easy", "normal")


def opponent(name: str, seed: str, seat: int) -> Player:
    if name in STYLES:
        return STYLES[name](seed, seat)
    return computer(name, seed, seat)


class Seer(HardPlayer):
    """Hard that is shown the game's state (by :func:`pair`, before each decision): in
    the play it searches against the other's real hand and throw, not sampled ones; with
    ``throws``, it discards knowing the other's throw too, each keep valued over the 40
    starters left (hand, crib and pegging as hard adds them, and near the end the chance
    of winning as hard weighs it, with the hand and crib's spreads exact)."""

    def __init__(self, seed: str, seat: int, other: Player, throws: bool) -> None:
        super().__init__(seed, seat)
        self.other = other
        self.throws = throws
        self.state: State | None = None

    def _sample_hands(self, view: View) -> Hands:
        assert self.state is not None
        other = 1 - self.seat
        held = self.state.hands[other]
        assert len(held) == view.held[other]
        thrown = self.state.discards[other]
        assert thrown is not None  # (both have thrown before the play)
        sample = Sample(tuple(sorted(c.rank for c in held)), tuple(sorted(c.rank for c in thrown)))
        return [(sample, 1)] * PLAY_DEALS

    def discard(self, view: View) -> tuple[Card, ...]:
        state = self.state
        if not self.throws or state is None or view.rules.players != 2:
            return super().discard(view)
        other = 1 - self.seat
        # The other's throw, asked of it now if it has not thrown yet: each opponent here
        # decides the same from the same view (easy draws from a stream named by the
        # decision), so this is the throw it will make.
        theirs = state.discards[other] or self.other.discard(seat_view(state, other))
        unseen = [c for c in deck() if c not in view.hand and c not in state.dealt[other]]
        mine, their_need = needs(view)
        racing = self._racing(view)
        valued: list[Option] = []
        for option in discard_options(view):
            keep, throw = option.value.keep, option.value.discard
            hands = [show_total(keep, s) for s in unseen]
            cribs = [show_total(throw + theirs, s, crib=True) for s in unseen]
            crib = sum(cribs) / len(cribs)
            net = sum(hands) / len(hands) + (crib if view.is_dealer else -crib)
            net += PEGGING * pegs.edge(keep, dealer=view.is_dealer)
            chance = None
            if racing:
                hand = odds.spread([hands.count(n) for n in range(MAX_SHOW + 1)])
                crib_spread = odds.spread([cribs.count(n) for n in range(MAX_SHOW + 1)])
                chance = odds.deal_chance(
                    mine, their_need, view.is_dealer, hand, crib_spread, self.objective
                )
            valued.append(Option(net, crib, option.value, chance))
        return pick_throw(valued).value.discard  # as hard chooses


def pair(task: tuple[str, int, str]) -> tuple[str, int]:
    """Hard's (or a seer's) wins in one duplicate pair against ``name`` (0, 1 or 2)."""
    name, index, hard = task
    seed = f"styles {index}"
    wins = 0
    for hard_seat in (0, 1):
        players = [opponent(name, seed, 1 - hard_seat)] * 2
        seer = None
        if hard == "hard":
            players[hard_seat] = computer(Level.HARD, seed, hard_seat)
        else:
            seer = Seer(seed, hard_seat, players[1 - hard_seat], throws=hard == "seer")
            players[hard_seat] = seer
        seats = tuple(Seat(f"seat {n}", "computer", Level.NORMAL) for n in (0, 1))
        info = GameInfo(Rules(first_dealer=index % 2), seats, seed)
        session = Session.start(info, dict(enumerate(players)))
        while not session.over:
            if seer is not None:
                seer.state = session.state
            session.computer_step()
        over = next(e for e in session.events if isinstance(e, GameOver))
        wins += over.winner == hard_seat
    return name, wins


def play(pairs: int, first: int, jobs: int, opponents: list[str], hard: str) -> None:
    warm(True)  # hard's tables, once, before the workers fork
    start = time.perf_counter()
    tasks = [(name, n, hard) for n in range(first, first + pairs) for name in opponents]
    results: dict[str, list[int]] = {name: [] for name in opponents}
    with get_context("fork").Pool(jobs) as pool:
        for (name, index, _), (_, wins) in zip(tasks, pool.imap(pair, tasks), strict=True):
            results[name].append(wins)
            print(json.dumps({"opponent": name, "pair": index, "wins": wins}), flush=True)
    took = time.perf_counter() - start
    last = first + pairs - 1
    print(f"{hard} against each, pairs {first} to {last} ({2 * pairs} games each), {took:.0f} s")
    for name in opponents:
        share, low, high = share_interval([(wins, 2) for wins in results[name]])
        print(f"  {name:12} hard wins {100 * share:5.1f}%  ({100 * low:.1f}% to {100 * high:.1f}%)")


def runs(path: Path) -> dict[str, dict[int, int]]:
    """A run's wins by opponent and pair, from its JSON lines (other lines passed over)."""
    found: dict[str, dict[int, int]] = {}
    for line in path.read_text().splitlines():
        if line.startswith("{"):
            row = json.loads(line)
            found.setdefault(row["opponent"], {})[row["pair"]] = row["wins"]
    return found


def share(wins: Iterable[int]) -> str:
    share, low, high = share_interval([(w, 2) for w in wins])
    return f"{100 * share:.1f}% ({100 * low:.1f}%-{100 * high:.1f}%)"


def compare(before_path: Path, after_path: Path) -> None:
    before, after = runs(before_path), runs(after_path)
    print("| against | pairs | hard before | hard after | change (95% interval) |")
    print("|---|---|---|---|---|")
    for name in after:
        both = sorted(set(before.get(name, {})) & set(after[name]))
        if not both:
            continue
        change, low, high = mean_interval([(after[name][n] - before[name][n], 2) for n in both])
        print(
            f"| {name} | {len(both)} | {share(before[name][n] for n in both)}"
            f" | {share(after[name][n] for n in both)}"
            f" | {100 * change:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f}) |"
        )


def throws(hands: int) -> None:
    games = {
        dealer: new_game(Rules(first_dealer=0 if dealer else 1), "throws")[0]
        for dealer in (True, False)
    }
    styles = [style for style in Style if style is not Style.CAREFUL]
    otherwise = {(style, dealer): 0 for style in styles for dealer in (True, False)}
    for index in range(hands):
        six = tuple(random.Random(f"throws {index}").sample(deck(), 6))
        for dealer, state in games.items():
            seen = seat_view(replace(state, hands=(six, state.hands[1])), 0)

            def chosen(style: Style, seen: View = seen) -> frozenset[Card]:
                read = Habits(((style, 1.0),))
                best = max(discard_options(seen, habits=read), key=lambda o: o.net)
                return frozenset(best.value.discard)

            careful = chosen(Style.CAREFUL)
            for style in styles:
                otherwise[style, dealer] += chosen(style) != careful
    print(f"hard's throw, read as each style, against careful's ({hands} hands each side)")
    for style in styles:
        as_dealer, as_pone = (100 * otherwise[style, side] / hands for side in (True, False))
        print(f"  {style:12} as dealer {as_dealer:4.1f}% otherwise, as pone {as_pone:4.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--hard", choices=("hard", "seer-play", "seer"), default="hard")
    parser.add_argument("--throws", type=int, metavar="HANDS")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("opponents", nargs="*", default=list(OPPONENTS))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    elif args.throws:
        throws(args.throws)
    else:
        play(args.pairs, args.first, args.jobs, args.opponents, args.hard)
    sys.stdout.flush()


if __name__ == "__main__":
    main()

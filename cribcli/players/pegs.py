"""How well four kept cards peg: the play's points, as dealer and as pone.

The exact analysis counts the hand and the crib; the play is worth points too, and some
cards peg better than others (low cards, pairs and runs do; a pone with nothing but fives
and tens does not). ``tools/pegging_table.py`` played, for every four ranks a player can
keep, 1,000 plays against other players' hands (each the best four of six random cards),
each side laying as a careful player does from its own cards and the cards laid (the
normal computer's rule), and averaged the keeper's pegging less the other's. Those
averages are in ``data/pegs.json``: about +1.15 a deal as dealer and -1.35 as pone, from
-0.62 to 2.97 and from -3.91 to 1.41 by the cards kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from cribcli.players import measured
from cribcli.rules.cards import Card


@cache
def table() -> dict[tuple[int, ...], tuple[float, float]]:
    """For each four ranks kept (in order): the play's points less the other player's,
    on average, as dealer and as pone."""
    keeps = measured.read("pegs.json")["keeps"]
    return {measured.key_ranks(key): (e["dealer"], e["pone"]) for key, e in keeps.items()}


def edge(keep: Iterable[Card], dealer: bool) -> float:
    """The play's points for ``keep`` less the other player's, on average (as dealer when
    ``dealer``, else as pone)."""
    as_dealer, as_pone = table()[tuple(sorted(card.rank for card in keep))]
    return as_dealer if dealer else as_pone

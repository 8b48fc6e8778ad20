"""What a crib is worth, against how a good player throws rather than at random.

The exact analysis values the crib as if the other player's two cards were random. They
are not: a pone throws the dealer cards that help a crib least, a dealer throws its own
crib the cards that help it most. ``tools/crib_table.py`` dealt 20,000 hands to each side,
let each throw as the exact analysis would, and measured for every pair of ranks thrown
how much the crib's fifteens, pairs and runs move against those throws: less in your own
crib (by about half a point), more in the other's (by about a third).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement

from cribcli.cards import Card

# By the ranks thrown: (A, A), (A, 2), ... (A, K), (2, 2), (2, 3), ... (K, K).
# fmt: off
MY_CRIB = (
    -0.47, -0.48, -0.35, -0.24, -0.38, -0.58, -0.43, -0.47, -0.79, -0.74, -0.72, -0.66, -0.53,
    -0.4, -0.17, -0.59, -0.42, -0.64, -0.56, -0.7, -0.63, -0.72, -0.69, -0.63, -0.51, -0.51,
    -0.89, -0.59, -0.71, -0.76, -0.53, -0.59, -0.69, -0.67, -0.61, -0.48, -0.67, -0.77, -1.31,
    -0.58, -0.53, -0.62, -0.7, -0.68, -0.62, -0.49, -0.48, -0.7, -0.5, -0.33, -0.41, -0.6,
    -0.54, -0.51, -0.41, -0.75, -0.79, -0.36, -0.65, -0.83, -0.81, -0.75, -0.63, -0.32, -0.37,
    -0.41, -0.67, -0.64, -0.58, -0.46, -0.34, -0.33, -0.57, -0.6, -0.54, -0.42, -0.61, -0.79,
    -0.7, -0.68, -0.56, -0.93, -0.76, -0.95, -0.72, -0.82, -0.46, -0.53, -0.81, -0.73, -0.63
)
THEIR_CRIB = (
    0.29, 0.28, 0.23, 0.11, 0.25, 0.47, 0.55, 0.57, 0.49, 0.33, 0.32, 0.3, 0.27, 0.28, 0.12,
    0.27, 0.33, 0.52, 0.58, 0.57, 0.52, 0.41, 0.4, 0.37, 0.34, 0.31, 0.22, 0.21, 0.44, 0.5,
    0.52, 0.51, 0.36, 0.36, 0.33, 0.3, 0.2, 0.17, 0.28, 0.42, 0.47, 0.42, 0.22, 0.2, 0.18,
    0.15, 0.12, 0.31, 0.48, 0.46, 0.36, 0.22, 0.2, 0.18, 0.16, 0.54, 0.61, 0.63, 0.5, 0.44,
    0.43, 0.41, 0.39, 0.61, 0.64, 0.68, 0.52, 0.53, 0.51, 0.48, 0.67, 0.65, 0.55, 0.55, 0.53,
    0.5, 0.63, 0.49, 0.43, 0.47, 0.45, 0.37, 0.27, 0.26, 0.29, 0.32, 0.13, 0.19, 0.29, 0.18,
    0.26
)
# fmt: on

_PAIRS = {pair: i for i, pair in enumerate(combinations_with_replacement(range(1, 14), 2))}


def bias(thrown: Iterable[Card], own_crib: bool) -> float:
    """How much more (or less) the crib is worth with ``thrown`` in it than the exact
    analysis says, the other player throwing well."""
    low, high = sorted(card.rank for card in thrown)
    return (MY_CRIB if own_crib else THEIR_CRIB)[_PAIRS[low, high]]

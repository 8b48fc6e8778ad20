"""The coach: what a decision in the play is worth, for ``cribbage peg-advice`` (and the
review of a game, which judges each card laid the same way).

A moment of the play is given as a player knows it: the cards held, the cards laid this
round in order and by whom, the starter, the cards thrown, who deals. Each card that can
be laid is valued by the hard computer's search of the rest of the play, over the hands
the other player could hold that fit everything seen: never a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cribcli.cards import Card, check_distinct, deck
from cribcli.engine import IllegalAction, Phase, Play, Rules, View, apply, new_game, view
from cribcli.errors import UsageProblem
from cribcli.players.hard import HardPlayer
from cribcli.players.pegging import points, value
from cribcli.scoring import HAND_SIZE

ME, THEM = 0, 1
SEED = "peg-advice"
"""The seed of the hands sampled for the other player: the same advice every time."""


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of a two-player play, as the player to lay knows it."""

    hand: tuple[Card, ...]
    """The cards still held."""
    laid: tuple[tuple[int, Card], ...]
    """The cards laid this round, in order, each with who laid it (``ME`` or ``THEM``)."""
    starter: Card
    thrown: tuple[Card, ...]
    """The two cards this player put in the crib."""
    dealer: bool
    """Whether the crib is this player's."""
    scores: tuple[int, int] = (0, 0)
    """This player's score and the other's, before any card laid this round."""


@dataclass(frozen=True, slots=True)
class LayValue:
    """What laying one card is worth."""

    card: Card
    now: int
    """The points it makes as it is laid."""
    net: float
    """Its points and the rest of the play's, less the other player's, on average."""

    def as_json(self) -> dict[str, object]:
        """For scripts."""
        return {"card": str(self.card), "now": self.now, "net": round(self.net, 2)}


def moment_view(moment: Moment) -> View:
    """The player's view of the moment: a game set up to it, through the engine (which
    checks that the cards laid keep the rules), the other player's unseen cards filled in
    with cards that fit its gos. Only the view is used: those cards are never looked at.
    Raises UsageProblem for a moment that cannot be."""
    mine = tuple(card for seat, card in moment.laid if seat == ME)
    theirs = tuple(card for seat, card in moment.laid if seat == THEM)
    if len(moment.thrown) != 2:
        raise UsageProblem(f"give the 2 cards you threw, not {len(moment.thrown)}")
    if len(moment.hand) + len(mine) != HAND_SIZE:
        raise UsageProblem(
            f"you hold {len(moment.hand)} and laid {len(mine)}: that should make {HAND_SIZE}"
        )
    if len(theirs) > HAND_SIZE:
        raise UsageProblem(f"the other player laid {len(theirs)} cards: at most {HAND_SIZE}")
    known = [*moment.hand, *mine, *theirs, moment.starter, *moment.thrown]
    check_distinct(known)
    # The other's unseen cards: ten-cards first, which fit any go it may have said.
    unseen = sorted(set(deck()) - set(known), key=lambda card: (-card.value, card))
    hidden = tuple(unseen[: HAND_SIZE - len(theirs)])
    their_throw = tuple(unseen[HAND_SIZE - len(theirs) : HAND_SIZE - len(theirs) + 2])
    dealer = ME if moment.dealer else THEM
    start, _ = new_game(Rules(first_dealer=dealer), SEED)
    dealt = (
        (*moment.hand, *mine, *moment.thrown),
        (*theirs, *hidden, *their_throw),
    )
    state = replace(
        start,
        phase=Phase.PLAY,
        dealer=dealer,
        scores=moment.scores,
        dealt=dealt,
        hands=((*moment.hand, *mine), (*theirs, *hidden)),
        discards=(moment.thrown, their_throw),
        crib=(*moment.thrown, *their_throw),
        starter=moment.starter,
        to_play=1 - dealer,
    )
    for number, (seat, card) in enumerate(moment.laid, start=1):
        try:
            state, _ = apply(state, Play(seat, card))
        except IllegalAction as error:
            who = "you" if seat == ME else "they"
            raise UsageProblem(f"card {number} laid ({who}, {card}): {error}") from None
    if state.phase is not Phase.PLAY or state.to_play != ME:
        raise UsageProblem("it is not yours to lay after those cards: the other player lays next")
    return view(state, ME)


@dataclass(frozen=True, slots=True)
class PegAdvice:
    """Every card that can be laid at a moment, best first."""

    pile: tuple[Card, ...]
    """The cards of the count so far (since the last go or 31)."""
    count: int
    values: tuple[LayValue, ...]
    their_go: bool = False
    """Whether the other player has said go on this count."""


def peg_advice(moment: Moment) -> PegAdvice:
    """Each card that can be laid at the moment, best first, with what it is worth."""
    seen = moment_view(moment)
    options = seen.playable()
    if not options:
        raise UsageProblem(f"no card you hold can be laid on {seen.count}: it is a go")
    pile = tuple(card.rank for card in seen.pile)
    values = HardPlayer(SEED, ME).lay_values(seen)
    if not values:
        raise UsageProblem("no hand the other player could hold fits the gos it said")
    ranked = [
        LayValue(card, points((*pile, card.rank), seen.count + value(card.rank)), net)
        for card, net in values.items()
    ]
    ranked.sort(key=lambda lay: (-lay.net, lay.card))
    return PegAdvice(seen.pile, seen.count, tuple(ranked), THEM in seen.passed)


def parse_laid(text: str) -> tuple[tuple[int, Card], ...]:
    """Cards laid, as typed: ``them 10S me 4H them 9D`` (``you`` or ``I`` for ``me``,
    ``they`` for ``them``; commas allowed)."""
    words = text.replace(",", " ").split()
    if len(words) % 2:
        raise UsageProblem('give each card laid after who laid it: "them 10S me 4H"')
    laid: list[tuple[int, Card]] = []
    for who, card in zip(words[::2], words[1::2], strict=True):
        if who.lower() not in ("me", "you", "i", "them", "they"):
            shown = who if who.isprintable() and len(who) <= 12 else "that"
            raise UsageProblem(f"`{shown}` is not who laid a card: say `me` or `them`")
        laid.append((THEM if who.lower() in ("them", "they") else ME, Card.parse(card)))
    return tuple(laid)

"""A cribbage engine in plain Python: the engine protocol (docs/engine-protocol.md).

It keeps the four cards with the best simple count (fifteens, pairs, runs, flush) and
lays a card that scores if it can, else the highest card that leaves no easy fifteen or
thirty-one. Run it against cribcli's hard computer:

    cribbage match hard 'engine:python3 examples/simple_bot.py' --games 100
"""

import itertools
import json
import sys

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def rank(card):
    return RANKS.get(card[:-1]) or int(card[:-1])


def value(card):
    return min(rank(card), 10)


def count(cards):
    """Fifteens, pairs, runs and a four-card flush of a hand (no starter)."""
    points = 0
    for size in range(2, len(cards) + 1):
        for combo in itertools.combinations(cards, size):
            points += 2 * (sum(value(c) for c in combo) == 15)
    points += sum(2 for a, b in itertools.combinations(cards, 2) if rank(a) == rank(b))
    for size in (5, 4, 3):
        runs = [
            combo
            for combo in itertools.combinations(sorted(cards, key=rank), size)
            if all(rank(b) - rank(a) == 1 for a, b in itertools.pairwise(combo))
        ]
        if runs:
            points += size * len(runs)
            break
    return points + 4 * (len({card[-1] for card in cards}) == 1)


def discard(message):
    hand, throw = message["hand"], message["throw"]
    keep = max(itertools.combinations(hand, len(hand) - throw), key=count)
    return {"cards": [card for card in hand if card not in keep]}


def play(message):
    total, pile = message["count"], message["pile"]

    def worth(card):
        after = total + value(card)
        scores = after in (15, 31) or (pile and rank(pile[-1]) == rank(card))
        risky = after in (5, 21) or 21 < after < 31
        return (scores, not risky, value(card))

    return {"card": max(message["playable"], key=worth)}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            answer = {"type": "hello", "name": "Simple bot", "author": "cribcli", "protocol": 1}
        elif kind in ("discard", "play"):
            answer = discard(message) if kind == "discard" else play(message)
        elif kind == "quit":
            return
        else:
            continue  # new_game and events: this bot learns nothing from them
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()

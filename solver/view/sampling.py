"""Hidden layouts of an information set: exact count, uniform sampling, full enumeration.

Regions with the same allowed cards form a class.  A layout is (1) which cards go to each
class, then (2) how a class's cards spread over its regions.  Every assignment of cards to
classes leaves the same number of spreads (hands are sets, pile and stock places single), so
uniform layouts are: an assignment drawn with probability proportional to nothing but its
existence (counted exactly by dynamic programming over the cards and the room left in each
class), then a uniformly shuffled spread.  No rejection, so voids cost nothing.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from functools import lru_cache
from math import prod

from stich.model.cards import Card

from .infoset import InfoSet, layouts_per_assignment

EXACT_LIMIT = 200        # `stich suggest` enumerates every layout when there are at most this many

Layout = dict            # region index -> tuple of cards


class _Assignments:
    """Counts the ways to put the pool's cards into the classes, each class filled exactly."""

    def __init__(self, info: InfoSet):
        self.info = info
        self.cards: tuple[Card, ...] = info.pool
        self.room = tuple(sum(len(info.regions[i][1]) for i in members) for members in info.classes)
        self.options = tuple(tuple(k for k, members in enumerate(info.classes)
                                   if card in info.allowed[members[0]]) for card in self.cards)
        self.ways = lru_cache(maxsize=None)(self._ways)

    def _ways(self, j: int, room: tuple[int, ...]) -> int:
        if j == len(self.cards):
            return 1 if not any(room) else 0
        total = 0
        for k in self.options[j]:
            if room[k]:
                total += self.ways(j + 1, room[:k] + (room[k] - 1,) + room[k + 1:])
        return total

    def count(self) -> int:
        return self.ways(0, self.room)

    def draw(self, rng: random.Random) -> list[int]:
        """One assignment (class per card), uniformly among all."""
        room, out = self.room, []
        for j in range(len(self.cards)):
            weights = []
            for k in self.options[j]:
                weights.append(self.ways(j + 1, room[:k] + (room[k] - 1,) + room[k + 1:]) if room[k] else 0)
            pick = rng.randrange(sum(weights))
            for k, w in zip(self.options[j], weights):  # noqa: B007 - k is the pick, used after the loop
                if pick < w:
                    break
                pick -= w
            out.append(k)
            room = room[:k] + (room[k] - 1,) + room[k + 1:]
        return out

    def every(self) -> Iterator[list[int]]:
        def walk(j: int, room: tuple[int, ...], acc: list[int]):
            if j == len(self.cards):
                yield list(acc)
                return
            for k in self.options[j]:
                if room[k]:
                    nxt = room[:k] + (room[k] - 1,) + room[k + 1:]
                    if self.ways(j + 1, nxt):
                        acc.append(k)
                        yield from walk(j + 1, nxt, acc)
                        acc.pop()
        yield from walk(0, self.room, [])


def count_layouts(info: InfoSet) -> int:
    """The number of distinct hidden layouts consistent with the information (0: none)."""
    if not info.pool:
        return 1
    return _Assignments(info).count() * prod(layouts_per_assignment(info))


def _spread(info: InfoSet, members: tuple[int, ...], cards: list[Card]) -> dict[int, tuple]:
    out, at = {}, 0
    for i in members:
        size = len(info.regions[i][1])
        out[i] = tuple(sorted(cards[at:at + size]))
        at += size
    return out


def sample_layouts(info: InfoSet, k: int, seed: int) -> list[Layout]:
    """``k`` layouts drawn independently and uniformly (with replacement), reproducibly."""
    rng = random.Random(seed)
    if not info.pool:
        return [{} for _ in range(k)]
    assign = _Assignments(info)
    if assign.count() == 0:
        raise ValueError("no consistent layout")
    out = []
    for _ in range(k):
        classes = assign.draw(rng)
        layout: Layout = {}
        for c, members in enumerate(info.classes):
            cards = [card for card, cl in zip(info.pool, classes) if cl == c]
            rng.shuffle(cards)
            layout.update(_spread(info, members, cards))
        out.append(layout)
    return out


def every_layout(info: InfoSet) -> Iterator[Layout]:
    """Every distinct consistent layout once, in a fixed order."""
    if not info.pool:
        yield {}
        return
    for classes in _Assignments(info).every():
        per_class = []
        for c, members in enumerate(info.classes):
            cards = [card for card, cl in zip(info.pool, classes) if cl == c]
            per_class.append(list(_spreads(info, members, cards)))
        for combo in itertools.product(*per_class):
            layout: Layout = {}
            for part in combo:
                layout.update(part)
            yield layout


def _spreads(info: InfoSet, members: tuple[int, ...], cards: list[Card]) -> Iterator[dict[int, tuple]]:
    """Every way to spread ``cards`` over the regions ``members`` (a hand takes a set)."""
    if not members:
        yield {}
        return
    first, rest = members[0], members[1:]
    size = len(info.regions[first][1])
    choices: Iterator[tuple[Card, ...]] = (itertools.combinations(cards, size)
                                           if info.regions[first][0].unordered
                                           else itertools.permutations(cards, size))
    for chosen in choices:
        left = [c for c in cards if c not in chosen]
        for tail in _spreads(info, rest, left):
            yield {first: tuple(sorted(chosen)), **tail}


def layout_key(info: InfoSet, layout: Layout) -> tuple:
    """A hashable form of a layout (region -> sorted cards), for counting."""
    return tuple((info.regions[i][0], tuple(sorted(layout[i]))) for i in sorted(layout))

"""An independent brute-force reference solver, written from ``docs/rules.md`` alone.

Plain minimax over every legal card: no pruning, no move ordering, no equivalence classes,
no bounds.  The only shortcut is an optional memo keyed on the *complete* future-relevant
state (every seat's cards and piles, the cards waiting to be turned up, the stock, the
trick so far and its leader); what a state is still worth does not depend on how it was
reached, because every game here just adds up points (tricks, card points or honours) trick
by trick.  ``Reference(..., memo=False)`` switches it off and the tests compare both.

It uses nothing of the solver but the ``Card`` type (and the parsed ``Deal`` as input, in
``from_deal``): trump orders, plain orders, card values, the follow rules, piles, the
Elfern stock and the sides are all written out again here.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from stich.model.cards import Card

# Suits and ranks, spelled out here instead of imported.
C, S, H, D = 0, 1, 2, 3                 # clubs/Eichel, spades/Grün, hearts/Rot, diamonds/Schellen
SUITS = (C, S, H, D)
R6, R7, R8, R9, R10, J, Q, K, A = 6, 7, 8, 9, 10, 11, 12, 13, 14   # J = Unter, Q = Ober

TRUMP = 4                               # the effective suit of every trump

GAMES = ("scharwenzel", "schafkopf2", "elfern")


# --------------------------------------------------------------------------------------------
# Rules: the card order, card values, sides and the follow rules of one deal.
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    game: str
    players: int
    pack: frozenset                      # every card of the pack
    trumps: tuple                        # trumps, high to low (empty in Elfern)
    plain: dict                          # suit -> its non-trump cards, high to low
    options: dict = field(hash=False, compare=False)

    # -- card classification ------------------------------------------------------------

    def is_trump(self, card: Card) -> bool:
        return card in self.trumps

    def suit_of(self, card: Card) -> int:
        """The effective suit: TRUMP for every trump, else the printed suit."""
        return TRUMP if card in self.trumps else card.suit

    def value(self, card: Card) -> int:
        """Card points (Schafkopf) or honours (Elfern); Scharwenzel counts tricks instead."""
        if self.game == "schafkopf2":
            return {A: 11, R10: 10, K: 4, Q: 3, J: 2}.get(card.rank, 0)
        if self.game == "elfern":
            return 1 if card.rank in (A, K, Q, J, R10) else 0
        return 0

    def trick_points(self, cards: Iterable[Card]) -> int:
        if self.game == "scharwenzel":
            return 1
        return sum(self.value(c) for c in cards)

    def side(self, seat: int) -> int:
        """0 for seat 1's side, 1 for the other; ``seat`` is 0-based.  Odd seats (1, 3, ...)
        against even seats; with two players that is seat 1 against seat 2."""
        return seat % 2

    # -- tricks ---------------------------------------------------------------------------

    def winner(self, cards: tuple) -> int:
        """Index (in play order) of the card winning the trick so far: the highest trump, or
        with no trump the highest card of the (effective) suit led."""
        led = self.suit_of(cards[0])
        best = 0
        for i in range(1, len(cards)):
            if self._beats(cards[i], cards[best], led):
                best = i
        return best

    def _beats(self, card: Card, other: Card, led: int) -> bool:
        t1, t2 = self.is_trump(card), self.is_trump(other)
        if t1 and t2:
            return self.trumps.index(card) < self.trumps.index(other)
        if t1 != t2:
            return t1
        # neither is a trump: only a card of the suit led can win
        if card.suit != led:
            return False
        if other.suit != led:
            return True
        order = self.plain[led]
        return order.index(card) < order.index(other)

    def legal(self, playable: list, trick: tuple, stock_left: bool) -> list:
        """The cards the player to move may play from ``playable`` (his playable cards: his
        hand, or the face-up tops of his piles) to ``trick`` (the cards played to it so far).
        ``stock_left``: Elfern's stock still holds cards."""
        if not trick:
            return list(playable)                       # leading is free in every game
        led = self.suit_of(trick[0])
        follow = [c for c in playable if self.suit_of(c) == led]
        if self.game == "scharwenzel":
            if follow:
                return follow
            trumps = [c for c in playable if self.is_trump(c)]
            if self.options["must_trump"] and trumps:
                return trumps
            return list(playable)
        if self.game == "schafkopf2":
            if follow:
                allowed = follow
            else:
                trumps = [c for c in playable if self.is_trump(c)]
                allowed = trumps if trumps else list(playable)
            if self.options["must_beat"]:
                # must beat the card currently winning, if some allowed card can
                beaters = [c for c in allowed if self.winner(trick + (c,)) == len(trick)]
                if beaters:
                    return beaters
            return allowed
        # Elfern
        if stock_left:
            return list(playable)                       # free while the stock lasts
        if not follow:
            return list(playable)
        if self.options["must_head"]:
            # must also beat the card led, if able
            beaters = [c for c in follow if self._beats(c, trick[0], led)]
            if beaters:
                return beaters
        return follow


def _check_order(pack: frozenset, trumps: list, plain: dict) -> None:
    """Every card of the pack is exactly one trump or one plain card of its suit."""
    listed = list(trumps) + [c for s in SUITS for c in plain[s]]
    assert len(listed) == len(set(listed)), "a card is ranked twice"
    assert set(listed) == set(pack), "the ranking does not cover the pack"
    for s in SUITS:
        assert all(c.suit == s for c in plain[s])


def scharwenzel_rules(players: int, trump: int, plain_order: str = "AKQ10",
                      must_trump: bool = False) -> Rules:
    """rules.md §1."""
    assert players in (4, 6, 8) and trump in SUITS and plain_order in ("AKQ10", "A10KQ")
    six = players == 6                                   # the 36-card pack
    ranks = (A, K, Q, J, R10, R9, R8, R7) + ((R6,) if six else ())
    pack = frozenset(Card(s, r) for s in SUITS for r in ranks)
    T = trump
    trumps = [Card(C, Q), Card(T, R7), Card(S, Q), Card(C, J), Card(S, J), Card(H, J), Card(D, J),
              Card(T, A), Card(T, K)]
    if T in (H, D):
        trumps.append(Card(T, Q))
    trumps += [Card(T, R10), Card(T, R9), Card(T, R8)]
    if six:
        trumps.append(Card(T, R6))
    assert len(trumps) == (12 if T in (C, S) else 13) + (1 if six else 0)
    ranking = [A, K, Q, R10, R9, R8, R7, R6] if plain_order == "AKQ10" else [A, R10, K, Q, R9, R8, R7, R6]
    plain = {s: tuple(Card(s, r) for r in ranking if Card(s, r) in pack and Card(s, r) not in trumps)
             for s in SUITS}
    _check_order(pack, trumps, plain)
    return Rules("scharwenzel", players, pack, tuple(trumps), plain,
                 {"plain_order": plain_order, "must_trump": must_trump})


def schafkopf2_rules(trump_mode: str = "schellen", trump: int | None = None,
                     must_beat: bool = False) -> Rules:
    """rules.md §2 (without the Mariage variant)."""
    pack = frozenset(Card(s, r) for s in SUITS for r in (A, K, Q, J, R10, R9, R8, R7))
    if trump_mode == "schellen":
        trumps = [Card(C, Q), Card(S, Q), Card(H, Q), Card(D, Q),
                  Card(C, J), Card(S, J), Card(H, J), Card(D, J),
                  Card(D, A), Card(D, R10), Card(D, K), Card(D, R9), Card(D, R8), Card(D, R7)]
    elif trump_mode == "card17":
        assert trump in SUITS
        T = trump
        trumps = [Card(C, Q), Card(T, R7), Card(S, Q),
                  Card(C, J), Card(S, J), Card(H, J), Card(D, J),
                  Card(T, A), Card(T, R10), Card(T, K)]
        if T in (H, D):
            trumps.append(Card(T, Q))
        trumps += [Card(T, R9), Card(T, R8)]
    else:
        raise ValueError(trump_mode)
    ranking = [A, R10, K, Q, R9, R8, R7]
    plain = {s: tuple(Card(s, r) for r in ranking if Card(s, r) not in trumps) for s in SUITS}
    _check_order(pack, trumps, plain)
    return Rules("schafkopf2", 2, pack, tuple(trumps), plain,
                 {"trump_mode": trump_mode, "must_beat": must_beat})


def elfern_rules(must_head: bool = False) -> Rules:
    """rules.md §3."""
    ranking = [A, K, Q, J, R10, R9, R8, R7]
    pack = frozenset(Card(s, r) for s in SUITS for r in ranking)
    plain = {s: tuple(Card(s, r) for r in ranking) for s in SUITS}
    _check_order(pack, [], plain)
    return Rules("elfern", 2, pack, (), plain, {"must_head": must_head})


# --------------------------------------------------------------------------------------------
# Games from TOML rule files (README "How to add a game"), read here again with tomllib: the
# pack, the trumps (top trumps, then the trump suit), the plain order, the values, the follow
# rules, the last-trick bonus; the layout (hands, piles, stock) is the deal's.
# --------------------------------------------------------------------------------------------

RULES_DIR = Path(__file__).resolve().parent.parent / "solver" / "games" / "rules"
RANK = {"A": A, "D": A, "K": K, "Q": Q, "O": Q, "J": J, "U": J, "10": R10, "T": R10,
        "9": R9, "8": R8, "7": R7, "6": R6}
SUIT_LETTER = {"C": C, "S": S, "H": H, "D": D}


def _merged(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        out[key] = _merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) \
            else value
    return out


def read_rule_file(path) -> dict:
    """The rule file's table, its ``extends`` chain merged under it."""
    path = Path(path)
    with open(path, "rb") as handle:
        data = tomllib.load(handle)
    ref = data.pop("extends", None)
    if ref is None:
        return data
    base = Path(ref) if (ref.endswith(".toml") or "/" in ref) else RULES_DIR / f"{ref}.toml"
    if not base.is_absolute() and base.parent != RULES_DIR:
        base = path.parent / base
    return _merged(read_rule_file(base), data)


@dataclass(frozen=True)
class FileRules(Rules):
    """A rule-file game: card values by rank (or one per trick), the follow rules as written."""

    value_of: dict = field(default_factory=dict, hash=False, compare=False)
    per_trick: int = 0
    follow_suit: bool = True
    must_trump: bool = False
    must_beat: bool = False
    stock_free: bool = True
    last_trick: int = 0
    next_higher: bool = False             # the reply wins only with the next higher card of the suit

    def _beats(self, card: Card, other: Card, led: int) -> bool:
        if not self.next_higher:
            return super()._beats(card, other, led)
        if card.suit != other.suit:
            return False
        order = self.plain[card.suit]
        return order.index(card) == order.index(other) - 1

    def value(self, card: Card) -> int:
        return self.value_of.get(card.rank, 0)

    def trick_points(self, cards: Iterable[Card]) -> int:
        return self.per_trick + sum(self.value(c) for c in cards)

    def legal(self, playable: list, trick: tuple, stock_left: bool) -> list:
        if not trick:
            return list(playable)
        free = not self.follow_suit or (stock_left and self.stock_free)
        if free:
            return list(playable)
        led = self.suit_of(trick[0])
        allowed = [c for c in playable if self.suit_of(c) == led]
        if not allowed:
            trumps = [c for c in playable if self.is_trump(c)]
            allowed = trumps if (self.must_trump and trumps) else list(playable)
        if self.must_beat and not stock_left:
            beaters = [c for c in allowed if self.winner(trick + (c,)) == len(trick)]
            if beaters:
                return beaters
        return allowed


def file_rules(path, players: int, trump: int | None, options: dict) -> FileRules:
    data = read_rule_file(path)
    for name, spec in data.get("options", {}).items():
        value = options.get(name, spec["default"])
        for choice, over in spec.get("set", {}).items():
            if str(choice).lower() == str(value).lower():
                data = _merged(data, over)
    play_ = data.get("play", {})
    ranks = [RANK[w.upper()] for w in data["pack"]["ranks"].split()]
    words = data["pack"].get("suits", "clubs spades hearts diamonds").split()
    suit_of_word = {"clubs": C, "spades": S, "hearts": H, "diamonds": D, "eichel": C, "gruen": S,
                    "rot": H, "schellen": D}
    pack = frozenset(Card(suit_of_word[w.lower()], r) for w in words for r in ranks)
    kind = play_.get("trump", "none")
    if kind == "fixed":
        word = play_["trump_suit"].lower()
        trump = {"clubs": C, "spades": S, "hearts": H, "diamonds": D, "eichel": C, "gruen": S,
                 "rot": H, "schellen": D}[word]
    elif kind == "none":
        trump = None
    plain_ranks = [RANK[w.upper()] for w in play_["plain_order"].split()]
    trumps: list = []
    if trump is not None:
        for word in play_.get("top_trumps", "").split():
            w = word.upper()
            card = Card(trump, RANK[w[1:]]) if w[0] == "T" else Card(SUIT_LETTER[w[0]], RANK[w[1:]])
            if card in pack and card not in trumps:
                trumps.append(card)
        trump_ranks = [RANK[w.upper()] for w in play_.get("trump_order", play_["plain_order"]).split()]
        trumps += [Card(trump, r) for r in trump_ranks if Card(trump, r) in pack and Card(trump, r) not in trumps]
    plain = {s: tuple(Card(s, r) for r in plain_ranks if Card(s, r) in pack and Card(s, r) not in trumps)
             for s in SUITS}
    if trump is not None:
        plain[trump] = ()
    _check_order(pack, trumps, plain)
    unit = play_.get("unit", "points")
    values = {RANK[str(w).upper()]: v for w, v in data.get("values", {}).items()}
    return FileRules(data["name"], players, pack, tuple(trumps), plain, dict(options),
                     value_of={} if unit == "tricks" else values, per_trick=1 if unit == "tricks" else 0,
                     follow_suit=play_.get("follow", "suit") == "suit",
                     must_trump=bool(play_.get("must_trump", False)),
                     must_beat=bool(play_.get("must_beat", False)),
                     stock_free=play_.get("stock_follow", "free") == "free",
                     last_trick=int(play_.get("last_trick", 0)),
                     next_higher=play_.get("beat", "higher") == "next_higher")


def make_rules(game: str, players: int, trump: int | None, options: dict) -> Rules:
    if game == "scharwenzel":
        return scharwenzel_rules(players, trump, options.get("plain_order", "AKQ10"),
                                 bool(options.get("must_trump", False)))
    if game == "schafkopf2":
        mode = options.get("trump_mode", "schellen")
        return schafkopf2_rules(mode, trump if mode == "card17" else None,
                                bool(options.get("must_beat", False)))
    if game == "elfern":
        return elfern_rules(bool(options.get("must_head", False)))
    path = Path(game) if game.endswith(".toml") else RULES_DIR / f"{game}.toml"
    return file_rules(path, players, trump, options)


# --------------------------------------------------------------------------------------------
# State: who holds what, the trick so far.  Immutable, so it can be a memo key.
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    # per seat (0-based): the seat's piles, each a tuple of cards, the playable card first.
    # A card in a hand is a pile of one card; a Schafkopf pile UP/DOWN is (UP, DOWN).
    holdings: tuple
    # piles played from in this trick: (seat, rest of the pile); the next card is turned up
    # only after the trick
    pending: tuple
    stock: tuple                  # Elfern stock, top card first
    leader: int                   # 0-based seat leading the current trick
    trick: tuple                  # cards played to the current trick, in order

    def to_move(self, players: int) -> int:
        return (self.leader + len(self.trick)) % players

    def is_over(self) -> bool:
        return not self.trick and not self.pending and not self.stock and not any(self.holdings)

    def playable(self, seat: int) -> list:
        return sorted(pile[0] for pile in self.holdings[seat])


def start_state(players: int, leader: int, hands: dict | None = None, piles: dict | None = None,
                stock: Iterable[Card] = ()) -> State:
    """``leader`` 1-based; ``hands``: seat (1-based) -> cards; ``piles``: seat -> (up, down|None)."""
    holdings = []
    for seat in range(1, players + 1):
        mine = []
        for card in (hands or {}).get(seat, ()):
            mine.append((card,))
        for up, down in (piles or {}).get(seat, ()):
            mine.append((up,) if down is None else (up, down))
        holdings.append(frozenset(mine))
    return State(tuple(holdings), (), tuple(stock), leader - 1, ())


class IllegalCard(ValueError):
    pass


def legal_moves(rules: Rules, state: State) -> list:
    if state.is_over():
        return []
    seat = state.to_move(rules.players)
    return rules.legal(state.playable(seat), state.trick, bool(state.stock))


def play(rules: Rules, state: State, card: Card) -> tuple[State, tuple[int, int]]:
    """Play ``card`` for the player to move: the new state and the points it brings (a, b)
    (non-zero only when it completes a trick)."""
    n = rules.players
    seat = state.to_move(n)
    if card not in legal_moves(rules, state):
        raise IllegalCard(f"{card} is not a legal card for seat {seat + 1}")
    pile = next(p for p in state.holdings[seat] if p[0] == card)
    holdings = list(state.holdings)
    holdings[seat] = state.holdings[seat] - {pile}
    pending = state.pending + (((seat, pile[1:]),) if len(pile) > 1 else ())
    trick = state.trick + (card,)
    if len(trick) < n:
        return State(tuple(holdings), pending, state.stock, state.leader, trick), (0, 0)
    # the trick is complete
    winner = (state.leader + rules.winner(trick)) % n
    points = [0, 0]
    points[rules.side(winner)] += rules.trick_points(trick)
    if isinstance(rules, FileRules) and rules.last_trick and not state.stock and \
            not any(holdings) and all(not rest for _, rest in pending):
        points[rules.side(winner)] += rules.last_trick
    # face-down cards under the piles played from are turned up now
    for owner, rest in pending:
        holdings[owner] = holdings[owner] | {rest}
    stock = state.stock
    if stock:
        # Elfern: the winner draws the top card, then the loser the next
        assert n == 2 and len(stock) >= 2
        loser = 1 - winner
        holdings[winner] = holdings[winner] | {(stock[0],)}
        holdings[loser] = holdings[loser] | {(stock[1],)}
        stock = stock[2:]
    return State(tuple(holdings), (), stock, winner, ()), (points[0], points[1])


# --------------------------------------------------------------------------------------------
# Minimax
# --------------------------------------------------------------------------------------------

class Reference:
    """Perfect play from a state: seat 1's side maximises its final total, the other side
    minimises it (every game here is constant-sum)."""

    def __init__(self, rules: Rules, memo: bool = True):
        self.rules = rules
        self.memo: dict | None = {} if memo else None
        self.nodes = 0

    def future(self, state: State) -> tuple[int, int]:
        """What each side still takes from ``state`` on, with perfect play."""
        if self.memo is not None and state in self.memo:
            return self.memo[state]
        self.nodes += 1
        if state.is_over():
            return (0, 0)
        rules = self.rules
        maximise = rules.side(state.to_move(rules.players)) == 0
        best = None
        for card in legal_moves(rules, state):
            child, gain = play(rules, state, card)
            rest = self.future(child)
            value = (gain[0] + rest[0], gain[1] + rest[1])
            if best is None or (value[0] > best[0] if maximise else value[0] < best[0]):
                best = value
        assert best is not None, "a player to move without a legal card"
        if self.memo is not None:
            self.memo[state] = best
        return best


@dataclass
class RefResult:
    totals: tuple[int, int]              # final totals (seat 1's side, the other side)
    moves: dict                          # legal card -> final totals after it
    to_move: int | None                  # 1-based seat to move, None when over
    base: tuple[int, int]                # taken + the tricks completed in ``play``
    rules: Rules
    state: State                         # the position after ``play``


def rules_from_deal(deal) -> Rules:
    opts = deal.options
    if deal.game == "scharwenzel":
        return scharwenzel_rules(deal.players, deal.trump_suit, opts["plain_order"], opts["must_trump"])
    if deal.game == "schafkopf2":
        if opts.get("mariage"):
            return schafkopf2_rules("card17", deal.trump_suit, opts["must_beat"])
        if opts["trump_mode"] == "schellen":
            return schafkopf2_rules("schellen", None, opts["must_beat"])
        return schafkopf2_rules("card17", deal.trump_suit, opts["must_beat"])
    if deal.game == "elfern":
        return elfern_rules(opts["must_head"])
    # a game from a rule file: only the file's path is taken from the deal
    return file_rules(deal.game_spec.rule_file, deal.players, deal.trump_suit, opts)


def replay(rules: Rules, state: State, tricks, base=(0, 0)) -> tuple[State, tuple[int, int]]:
    """Play the tricks of a ``play`` list (each from its leader), checking each card."""
    a, b = base
    for t, trick in enumerate(tricks):
        if state.trick:
            raise IllegalCard(f"trick {t + 1} starts while trick {t} is unfinished")
        for card in trick:
            state, gain = play(rules, state, card)
            a, b = a + gain[0], b + gain[1]
    return state, (a, b)


def play_line(rules: Rules, state: State, line, base=(0, 0)) -> tuple[State, tuple[int, int]]:
    """Play a sequence of cards (not grouped by tricks), checking each card."""
    a, b = base
    for card in line:
        state, gain = play(rules, state, card)
        a, b = a + gain[0], b + gain[1]
    return state, (a, b)


def initial(deal) -> tuple[Rules, State]:
    rules = rules_from_deal(deal)
    piles = {seat: [(p.up, p.down) for p in ps] for seat, ps in deal.piles.items()}
    state = start_state(deal.players, deal.leader, deal.hands, piles, deal.stock)
    return rules, state


def solve(deal, memo: bool = True) -> RefResult:
    """The reference result for the position of a parsed deal (after its ``play``)."""
    rules, state = initial(deal)
    state, base = replay(rules, state, deal.play, tuple(deal.taken))
    ref = Reference(rules, memo)
    rest = ref.future(state)
    totals = (base[0] + rest[0], base[1] + rest[1])
    moves = {}
    for card in legal_moves(rules, state):
        child, gain = play(rules, state, card)
        after = ref.future(child)
        moves[card] = (base[0] + gain[0] + after[0], base[1] + gain[1] + after[1])
    to_move = None if state.is_over() else state.to_move(rules.players) + 1
    return RefResult(totals, moves, to_move, base, rules, state)


# --------------------------------------------------------------------------------------------
# The Mariage variant (rules.md §2): 66 wins, the last trick counts 10, marriages announced by
# the player on lead with any card, the Wäsche; scored for points or for strokes.
# --------------------------------------------------------------------------------------------
#
# Readings (README): the forced outcome for the score is the minimax of seat 1's rank on the
# ladder (points) or of seat 1's strokes minus seat 2's (strokes); the totals for points are
# the minimax of the difference of points; the Wäsche counts only when all four of the last
# tricks are in the known play; the loser is Schneider at 32 or fewer and Schwarz without a
# trick, with 1 / 2 / 4 strokes.

LAST_TRICK = 10
WASCHE_TRICKS = 4


@dataclass(frozen=True)
class MState:
    """A Mariage position with every bit of history the rest can depend on."""

    cards: State
    points: tuple                 # card points (and, for points, bonuses) of each side so far
    bonus: tuple                  # strokes of marriages and the Wäsche (strokes scoring)
    won: tuple                    # has each side won a trick
    announced: frozenset          # suits whose marriage was announced
    winners: tuple                # sides that won the known tricks, in order (None: unknown)
    left: int                     # tricks not yet finished


class Mariage:
    """Plain minimax of the Mariage variant; ``scoring`` is "points" or "strokes"."""

    def __init__(self, rules: Rules, trump: int, scoring: str):
        self.rules, self.trump, self.scoring = rules, trump, scoring
        self.memo: dict = {}
        # the marriages: King and Ober of a suit, neither a trump Wenzel: Eichel-Ober (der
        # Alte) and Grün-Ober (Baste) are always trump Wenzels, whatever the trump suit, so
        # Eichel and Grün cannot marry (Rot- and Schellen-Ober are ordinary cards of their
        # suits, trump only as the trump suit's Ober); 20 or 40 in trump, 1 or 2 strokes
        self.marriages = {}
        for suit in SUITS:
            king, ober = Card(suit, K), Card(suit, Q)
            wenzel = suit in (C, S)
            if not wenzel:
                in_trump = suit == trump
                self.marriages[suit] = (king, ober, (2 if in_trump else 1) if scoring == "strokes"
                                        else (40 if in_trump else 20))

    # -- moves --------------------------------------------------------------------------

    def announceable(self, m: MState) -> list:
        c = m.cards
        if c.trick or c.is_over():
            return []
        seat = c.to_move(2)
        if not m.won[self.rules.side(seat)]:
            return []
        up = c.playable(seat)
        return [s for s, (king, ober, _) in self.marriages.items()
                if s not in m.announced and king in up and ober in up]

    def moves(self, m: MState, forced: bool = False) -> list:
        """(suit announced or None, card) for every legal card; with ``forced`` only what
        the solver lists (announcing whenever possible)."""
        cards = legal_moves(self.rules, m.cards)
        suits = self.announceable(m)
        if forced and suits:
            return [(s, c) for s in suits for c in cards]
        return [(None, c) for c in cards] + [(s, c) for s in suits for c in cards]

    def play(self, m: MState, move) -> MState:
        suit, card = move
        seat = m.cards.to_move(2)
        side = self.rules.side(seat)
        points, bonus, announced = list(m.points), list(m.bonus), m.announced
        if suit is not None:
            assert suit in self.announceable(m), "an illegal announcement"
            worth = self.marriages[suit][2]
            (bonus if self.scoring == "strokes" else points)[side] += worth
            announced = announced | {suit}
        cards, gain = play(self.rules, m.cards, card)
        won, winners, left = m.won, m.winners, m.left
        if not cards.trick:                       # the trick is complete
            w = self.rules.side(cards.leader)
            left -= 1
            points[0] += gain[0]
            points[1] += gain[1]
            if left == 0:
                points[w] += LAST_TRICK
            won = tuple(True if s == w else won[s] for s in (0, 1))
            winners = None if winners is None else winners + (w,)
            if left == 0 and winners is not None and len(winners) >= WASCHE_TRICKS \
                    and set(winners[-WASCHE_TRICKS:]) == {w}:
                (bonus if self.scoring == "strokes" else points)[w] += \
                    1 if self.scoring == "strokes" else 20
        return MState(cards, tuple(points), tuple(bonus), won, announced, winners, left)

    # -- what a finished deal is worth ----------------------------------------------------

    def game(self, m: MState):
        """(winner side or None, level, strokes) of the game by its card points."""
        p = m.points
        winner = 0 if p[0] >= 66 and p[0] > p[1] else 1 if p[1] >= 66 and p[1] > p[0] else None
        if winner is None:
            return None, "tie", 0
        loser = 1 - winner
        if not m.won[loser]:
            return winner, "schwarz", 4
        if p[loser] <= 32:
            return winner, "schneider", 2
        return winner, "simple", 1

    def score(self, m: MState) -> int:
        """Points: seat 1's rank (6 Schwarz .. 3 undecided .. 0 Schwarz against).  Strokes:
        seat 1's strokes minus seat 2's."""
        winner, level, strokes = self.game(m)
        if self.scoring == "strokes":
            d = m.bonus[0] - m.bonus[1]
            return d if winner is None else d + (strokes if winner == 0 else -strokes)
        if winner is None:
            return 3
        rank = {"schwarz": 6, "schneider": 5, "simple": 4}[level]
        return rank if winner == 0 else 6 - rank

    def total(self, m: MState) -> int:
        """What the totals objective plays for: the difference of points (points; the
        bonuses make the game non-constant-sum), seat 1's card points (strokes)."""
        return m.points[0] - m.points[1] if self.scoring == "points" else m.points[0]

    # -- minimax --------------------------------------------------------------------------

    def best(self, m: MState, payoff) -> tuple:
        """(value, final state) of perfect play for ``payoff`` (seat 1 maximises)."""
        key = (m, payoff)
        if key in self.memo:
            return self.memo[key]
        if m.cards.is_over():
            result = (payoff(m), m)
        else:
            maximise = self.rules.side(m.cards.to_move(2)) == 0
            result = None
            for move in self.moves(m):
                value, final = self.best(self.play(m, move), payoff)
                if result is None or (value > result[0] if maximise else value < result[0]):
                    result = (value, final)
        self.memo[key] = result
        return result


@dataclass
class MariageResult:
    scoring: str
    totals: tuple                 # final points of a best line for the totals
    total_value: int              # its value (difference for points, seat 1's points for strokes)
    score: int                    # forced rank (points) or stroke difference (strokes)
    moves: dict                   # (suit or None, card) -> (total value, score, final points)
    forced: set                   # the moves the solver lists (announcing whenever possible)
    to_move: int | None
    state: MState
    mariage: Mariage


def solve_mariage(deal) -> MariageResult:
    """The reference result of a Mariage deal after its ``play`` (announcements included)."""
    rules, cards = initial(deal)
    opts = deal.options
    scoring = opts["mariage_score"]
    game = Mariage(rules, deal.trump_suit, scoring)
    taken = tuple(deal.taken)
    won = tuple(bool(w) for w in deal.won_trick) if deal.won_trick is not None else \
        tuple(t > 0 for t in taken)
    size = sum(len(p) for seat in cards.holdings for p in seat)
    m = MState(cards, taken, (0, 0), won, frozenset(deal.announced), (), size // 2)
    shows = {(t, k): suit for t, k, suit in deal.shows}
    for t, trick in enumerate(deal.play):
        for k, card in enumerate(trick):
            m = game.play(m, (shows.get((t, k)), card))
    total_value, final = game.best(m, game.total)
    score, _ = game.best(m, game.score)
    moves = {}
    for move in game.moves(m):
        child = game.play(m, move)
        value, end = game.best(child, game.total)
        moves[move] = (value, game.best(child, game.score)[0], end.points)
    forced = set(game.moves(m, forced=True))
    to_move = None if m.cards.is_over() else m.cards.to_move(2) + 1
    return MariageResult(scoring, final.points, total_value, score, moves, forced, to_move, m, game)

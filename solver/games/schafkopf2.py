"""Two-handed Wendish Schafkopf: two players, eight piles each, card points count.

``trump_mode = schellen``: EO GO RO SO EU GU RU SU, then Schellen A 10 K 9 8 7 (14 trumps);
Eichel, Grün, Rot: A 10 K 9 8 7.  ``trump_mode = card17``: the suit T of the 17th card dealt
(forehand's first face-up card): EO, T7, GO, the four Unter, TA T10 TK (TO if T is Rot or
Schellen) T9 T8; plain suits A 10 K O 9 8 7 without their trumps.
"""

from __future__ import annotations

from typing import Any

from stich.model.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    EIGHT,
    GERMAN,
    HEARTS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SEVEN,
    SPADES,
    SUITS,
    TEN,
    Card,
)
from stich.model.outcome import ALWAYS, AtLeast, Lead, Outcome, Own, Rung, Streak, tricks_of
from stich.model.position import Position
from stich.model.protocols import DealFacts
from stich.model.rules import FollowRule, RuleSet

from .base import EVERY_TRICK, OPTIONAL, SCHNEIDER, WIN, Game, Option, View
from .layouts import Piles

# a new option: also a row of the README's option table and its effect in tests/reference.py,
# both by hand (README "How to add an option")
OPTIONS = (
    Option("trump_mode", "schellen",
           "schellen: Ober, Unter and Schellen are trump; card17: the suit of the 17th card "
           "dealt (forehand's first face-up card) is trump, with der Alte, Spitze and Baste",
           "rules.md §2 (old German rule text; Wikipedia 'Wendish Schafkopf', 'Officers' Schafkopf')",
           ("schellen", "card17")),
    Option("must_beat", False,
           "a follower must beat the card led if he can (after following suit or trumping)",
           "rules.md §2 (no duty to beat in the old rule text)"),
    Option("schneider_at", 30,
           "the loser is Schneider with this many card points or fewer: 30 or 29",
           "rules.md §2 (30 in the old rule text; 29 as in Skat)", (30, 29)),
    Option("mariage", False,
           "Mariage variant: trump by the 17th card, 66 wins, last trick 10, marriages "
           "announced with any lead, the Wäsche (the last four tricks)", "rules.md §2"),
    Option("mariage_score", "points",
           "Mariage: points: a marriage counts 20 card points (40 in trump), the Wäsche 20; "
           "strokes: the game winner scores 1 stroke (Schneider 2, Schwarz 4, our reading), "
           "each marriage 1 stroke (2 in trump) to its announcer, the Wäsche 1 stroke",
           "rules.md §2 (the old rule text names both ways)", ("points", "strokes")),
)

LAYOUT = Piles(count=8)
VALUES = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2}
PACK = tuple(Card(s, r) for s in SUITS for r in (ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN))


def trump_order(mode: str, trump: int) -> tuple[Card, ...]:
    if mode == "schellen":
        return tuple([Card(s, QUEEN) for s in SUITS] + [Card(s, JACK) for s in SUITS]
                     + [Card(DIAMONDS, r) for r in (ACE, TEN, KING, NINE, EIGHT, SEVEN)])
    order = [Card(CLUBS, QUEEN), Card(trump, SEVEN), Card(SPADES, QUEEN)]
    order += [Card(s, JACK) for s in SUITS]
    order += [Card(trump, ACE), Card(trump, TEN), Card(trump, KING)]
    if trump in (HEARTS, DIAMONDS):
        order.append(Card(trump, QUEEN))
    order += [Card(trump, NINE), Card(trump, EIGHT)]
    return tuple(order)


def build(trump: int | None, options: dict, players: int = 2) -> RuleSet:
    mode = "card17" if options["mariage"] else options["trump_mode"]
    trump_suit = DIAMONDS if mode == "schellen" else trump
    trumps = trump_order(mode, trump_suit)  # type: ignore[arg-type]  # None: not checked here
    plain = {}
    for suit in SUITS:
        if suit != trump_suit:
            plain[suit] = tuple(Card(suit, r) for r in (ACE, TEN, KING, QUEEN, NINE, EIGHT, SEVEN)
                                if Card(suit, r) not in trumps)
    marriages: tuple = ()
    strokes = options["mariage"] and options["mariage_score"] == "strokes"
    if options["mariage"]:
        # Eichel-Ober and Grün-Ober are always trump Wenzels, so only Rot and Schellen marry.
        worth = (2, 1) if strokes else (40, 20)
        marriages = tuple((Card(s, KING), Card(s, QUEEN), worth[0] if s == trump_suit else worth[1])
                          for s in (HEARTS, DIAMONDS))
    return RuleSet(
        game="schafkopf2", unit="points", seats=2, layout=LAYOUT, deck=PACK,
        trump=trump_suit, trumps=trumps, plain=plain,
        values={c: VALUES.get(c.rank, 0) for c in PACK},
        follow=FollowRule(follow_suit=True, must_trump=True, must_beat=options["must_beat"]),
        last_trick_bonus=10 if options["mariage"] else 0, pairs=marriages, pair_word="marriage",
        run_bonus=(4, 1 if strokes else 20) if options["mariage"] else (0, 0),
        bonus_in_points=not strokes, final_payoff=stroke_difference if strokes else None,
        options=dict(options))


# --- scoring -----------------------------------------------------------------------------------

SEAT_NAMES = ("forehand (seat 1)", "dealer (seat 2)")
STROKES = {"simple": 1, "schneider": 2, "schwarz": 4}
NEXT_GAME = "the next game counts 2 / 3 / 5"


def thresholds(options: dict) -> tuple[int, int]:
    """(points to win, most points of a Schneider loser).  Mariage: 66 to win and the loser
    is Schneider below 33 (half of 66), our reading of the variant; otherwise 61 and
    ``schneider_at`` (30 or 29)."""
    if options["mariage"]:
        return (66, 32)
    return (61, int(options["schneider_at"]))


def game_strokes(p0: int, p1: int, won0: bool, won1: bool) -> tuple[int | None, str, int]:
    """Mariage: the winner of the game (0, 1 or None), its level and strokes, from the final
    card points (66 and more than the other wins; the loser is Schneider at 32 or fewer and
    Schwarz without a trick: the plain game's levels carried over, our reading)."""
    win, schneider = 66, 32
    winner = 0 if p0 >= win and p0 > p1 else 1 if p1 >= win and p1 > p0 else None
    if winner is None:
        return None, "tie", 0
    loser_points, loser_won = (p1, won1) if winner == 0 else (p0, won0)
    level = "schwarz" if not loser_won else "schneider" if loser_points <= schneider else "simple"
    return winner, level, STROKES[level]


def stroke_difference(p0: int, p1: int, won0: bool, won1: bool) -> int:
    """What the game scores side 0 minus side 1 in strokes (marriages and the Wäsche apart)."""
    winner, _, strokes = game_strokes(p0, p1, won0, won1)
    return 0 if winner is None else strokes if winner == 0 else -strokes


def strokes_outcome(final: Position, deal: DealFacts):
    """``mariage_score = strokes``: the game's strokes to its winner, plus the strokes of the
    marriages and the Wäsche to whoever made them.  The rank is seat 1's strokes minus seat
    2's, which both play for (the forced outcome is the best difference for the side to move)."""
    p, bonus = final.points, final.bonus
    winner, level, strokes = game_strokes(p[0], p[1], final.has_won(0), final.has_won(1))
    own = [bonus[0], bonus[1]]
    if winner is not None:
        own[winner] += strokes
    words = {"simple": "simple", "schneider": "Schneider", "schwarz": "Schwarz"}
    if winner is None:
        text = f"{p[0]}–{p[1]}: undecided, neither side won (66 needed)"
    else:
        text = (f"{SEAT_NAMES[winner].capitalize()} wins {words[level]} {p[winner]}–{p[1 - winner]} "
                f"({strokes} stroke{'s' if strokes > 1 else ''})")
    text += f"; with marriages and the Wäsche: {own[0]}–{own[1]} strokes"
    bonuses: dict[str, Any] = {"strokes": own, "marriages_and_wasche": [bonus[0], bonus[1]]}
    last = final.history[-3:]
    if len(last) == 3 and len({final.rules.side(r.winner) for r in last}) == 1:
        side = final.rules.side(last[0].winner)
        bonuses["grosse_wasche"] = {"seat": side + 1, "strokes": 9}
        text += f"; große Wäsche (the last three tricks) to seat {side + 1}: a Kopf, 9 strokes"
    return Outcome(None if winner is None else winner + 1, level, strokes, text,
                   rank=own[0] - own[1], bonuses=bonuses)


def outcome(final: Position, deal: DealFacts):
    if deal.options["mariage"] and deal.options["mariage_score"] == "strokes":
        return strokes_outcome(final, deal)
    p = final.points
    win, schneider = thresholds(deal.options)
    if deal.options["mariage"]:
        winner = 0 if p[0] >= win and p[0] > p[1] else 1 if p[1] >= win and p[1] > p[0] else None
    else:
        winner = 0 if p[0] >= win else 1 if p[1] >= win else None
    if winner is None:
        text = (f"60–60: undecided, {NEXT_GAME}" if p[0] == p[1] == 60 and not deal.options["mariage"]
                else f"{p[0]}–{p[1]}: undecided, neither side won ({win} needed)")
        return Outcome(None, "tie", 0, text, rank=3)
    loser = 1 - winner
    if tricks_of(final, loser) == 0:
        level = "schwarz"
    elif p[loser] <= schneider:
        level = "schneider"
    else:
        level = "simple"
    strokes = STROKES[level]
    words = {"simple": "simple", "schneider": "Schneider", "schwarz": "Schwarz"}[level]
    rank = {"schwarz": 6, "schneider": 5, "simple": 4}[level] if winner == 0 else \
        {"schwarz": 0, "schneider": 1, "simple": 2}[level]
    return Outcome(winner + 1, level, strokes,
                   f"{SEAT_NAMES[winner].capitalize()} wins {words} {p[winner]}–{p[loser]} "
                   f"({strokes} stroke{'s' if strokes > 1 else ''})", rank=rank)


def ladder(position: Position, deal: DealFacts):
    """Seat 1's side, best first: Schwarz, Schneider, simple, undecided, then the other side's
    simple, Schneider, Schwarz.  Points levels are thresholds on seat 1's final points
    (the total is fixed); Schwarz is a run of every remaining trick."""
    if deal.options["mariage"]:
        # with strokes the score objective plays for the stroke difference (final_payoff)
        return [] if deal.options["mariage_score"] == "strokes" else mariage_ladder(position)
    win, schneider = thresholds(deal.options)
    left = position.tricks_left()
    rest = sum(position.rules.values[c] for c in position.in_play())
    total = sum(position.points) + rest
    base = position.points
    rungs = []
    if not position.has_won(1) and base[0] + rest >= win:
        rungs.append(Rung(6, "schwarz", 0, Streak(0, left, needs=(base[0] + rest, base[0] + rest))))
    rungs.append(Rung(5, "schneider", 0, AtLeast(max(win, total - schneider))))
    rungs.append(Rung(4, "simple", 0, AtLeast(win)))
    rungs.append(Rung(3, "tie", None, AtLeast(total - win + 1)))
    rungs.append(Rung(2, "simple", 1, AtLeast(total - max(win, total - schneider) + 1)))
    if not position.has_won(0) and base[1] + rest >= win:
        rungs.append(Rung(1, "schneider", 1, Streak(1, left, negate=True, needs=(base[0], base[0]))))
    else:
        rungs.append(Rung(1, "schneider", 1, ALWAYS))
    rungs.append(Rung(0, "schwarz", 1, ALWAYS))
    return rungs


def mariage_ladder(position: Position):
    """The Mariage variant: marriages and the Wäsche make the total vary, but it is at least
    130 in a whole deal, and then "wins" is "ends ahead", Schneider is "the loser ends with at
    most 32" and Schwarz is "takes every trick" -- each one search.  An ending whose total can
    fall below 130 (cards out of play) has no ladder: its outcome is that of the best line for
    the difference of points."""
    rest = sum(position.rules.values[c] for c in position.in_play()) + position.rules.last_trick_bonus
    if sum(position.points) + rest < 130:
        return []
    win, schneider = thresholds({"mariage": True})
    left = position.tricks_left()
    rungs = []
    if not position.has_won(1):
        rungs.append(Rung(6, "schwarz", 0, Streak(0, left)))
    rungs.append(Rung(5, "schneider", 0, Own(1, schneider + 1, negate=True)))
    rungs.append(Rung(4, "simple", 0, Lead(1)))
    rungs.append(Rung(3, "tie", None, Lead(0)))
    rungs.append(Rung(2, "simple", 1, Own(0, schneider + 1)))
    if not position.has_won(0):
        rungs.append(Rung(1, "schneider", 1, Streak(1, left, negate=True)))
    else:
        rungs.append(Rung(1, "schneider", 1, ALWAYS))
    rungs.append(Rung(0, "schwarz", 1, ALWAYS))
    return rungs


VIEW = View(other_hands=False, face_down=False, stock=False,
            why="the lower card of each pile lies face down until the card on it is played and "
                "the trick is over; nobody, its owner included, has seen it (rules.md §2); only "
                "face-up cards can be played, so a failure to follow reveals nothing hidden")


# --- the deal file and the table --------------------------------------------------------------------

def card17_mode(options: dict) -> bool:
    return bool(options["mariage"]) or options["trump_mode"] == "card17"


def trump_of(deal: DealFacts) -> int | None:
    """card17: the suit of the 17th card dealt, forehand's first face-up card."""
    if card17_mode(deal.options) and deal.piles.get(1):
        return deal.piles[1][0].up.suit
    return None


def check(deal: DealFacts) -> tuple[str, str] | None:
    """The rules of the options and the trump that the generic reader does not know."""
    if deal.rules.get("mariage") and deal.rules.get("trump_mode") == "schellen":
        return ("rules.mariage", "the Mariage variant takes trump by the 17th card; "
                                 "it cannot be played with trump_mode = \"schellen\"")
    if deal.trump is not None and not card17_mode(deal.options) and deal.trump != DIAMONDS:
        return ("trump", "with trump_mode = \"schellen\" trump is always Schellen; "
                         "set trump_mode = \"card17\" to choose a suit")
    if card17_mode(deal.options) and deal.trump_suit is None:
        return ("trump", "card17 mode needs a trump: give `trump` or a first pile for seat 1")
    return None


def variations(deal: DealFacts) -> list:
    """`stich table`: the deal under each trump of the card17 mode, seat `leader` leading."""
    rules = dict(deal.rules)
    if not deal.options["mariage"]:
        rules["trump_mode"] = "card17"
    return [(suit, deal.leader, {"rules": rules}) for suit in SUITS]


GOALS = {"win": WIN, "schneider": SCHNEIDER, "schwarz": EVERY_TRICK}

GAME = Game(name="schafkopf2", title="Two-handed Wendish Schafkopf", default_notation=GERMAN,
            layout=LAYOUT, options=OPTIONS, build=build, outcome=outcome, ladder=ladder,
            search={"driver": "step", "first": "greedy"}, view=VIEW,
            trump_rule=OPTIONAL, trump_of=trump_of, check=check, goals=GOALS, variations=variations,
            no_trick_level=lambda options: True)      # Schwarz: the loser took no trick

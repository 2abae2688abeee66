"""Seeded random SMALL positions for every game and mode, written as TOML deal files.

``generate(mode, seed)`` returns the TOML text; ``generate_case(mode, seed)`` also returns
what the file is meant to say (``Case``), so a test can check that the deal reader read it
as written.  The same (mode, seed, size) always gives the same file.

The files vary what the format allows: French or German letters, suit symbols, upper or
lower case, ``T`` for the ten and ``D`` for the Daus, suit names in either language,
optional keys left out when their default applies, and a ``play`` list of random legal
cards (chosen with the reference's own rules), whose last trick may be unfinished.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from reference import (
    R6,
    R7,
    R8,
    R9,
    R10,
    SUITS,
    A,
    C,
    D,
    H,
    J,
    K,
    Q,
    S,
    legal_moves,
    make_rules,
    play,
    start_state,
)

from stich.model.cards import Card

# mode -> game, fixed settings and the size ranges: "small" for the brute-force cross-check,
# "large" for the slow cross-check and the property tests
MODES = {
    "scharwenzel-4": dict(game="scharwenzel", players=4,
                          small=dict(cards=(1, 3)), large=dict(cards=(3, 4))),
    "scharwenzel-4-ending": dict(game="scharwenzel", players=4,
                                 small=dict(cards=(4, 4)), large=dict(cards=(5, 5))),
    "scharwenzel-6": dict(game="scharwenzel", players=6,
                          small=dict(cards=(1, 3)), large=dict(cards=(3, 4))),
    "scharwenzel-8": dict(game="scharwenzel", players=8,
                          small=dict(cards=(1, 2)), large=dict(cards=(2, 3))),
    "schafkopf2-schellen": dict(game="schafkopf2", trump_mode="schellen",
                                small=dict(cards=(1, 6), piles=3), large=dict(cards=(6, 10), piles=6)),
    "schafkopf2-card17": dict(game="schafkopf2", trump_mode="card17",
                              small=dict(cards=(1, 6), piles=3), large=dict(cards=(6, 10), piles=6)),
    "elfern": dict(game="elfern", must_head=False,
                   small=dict(cards=(1, 3), stock=(0, 2, 4)), large=dict(cards=(3, 4), stock=(2, 4, 6))),
    "elfern-must_head": dict(game="elfern", must_head=True,
                             small=dict(cards=(1, 3), stock=(0, 2, 4)), large=dict(cards=(3, 4), stock=(2, 4, 6))),
}

PACK32 = [Card(s, r) for s in SUITS for r in (A, K, Q, J, R10, R9, R8, R7)]
PACK36 = PACK32 + [Card(s, R6) for s in SUITS]

# -- writing cards in every way the format allows ----------------------------------------------

SYMBOLS = {C: "♣", S: "♠", H: "♥", D: "♦"}
LETTERS = {"french": {C: "C", S: "S", H: "H", D: "D"}, "german": {C: "E", S: "G", H: "R", D: "S"}}
RANKS = {"french": {A: ["A"], K: ["K"], Q: ["Q"], J: ["J"], R10: ["10", "T"], R9: ["9"], R8: ["8"],
                    R7: ["7"], R6: ["6"]},
         "german": {A: ["A", "D"], K: ["K"], Q: ["O"], J: ["U"], R10: ["10"], R9: ["9"], R8: ["8"],
                    R7: ["7"], R6: ["6"]}}
SUIT_WORDS = {C: ["clubs", "eichel", "♣"], S: ["spades", "gruen", "grün", "♠"],
              H: ["hearts", "rot", "♥"], D: ["diamonds", "schellen", "♦"]}


def card_text(card: Card, notation: str, rng: random.Random) -> str:
    suit = SYMBOLS[card.suit] if rng.random() < 0.3 else LETTERS[notation][card.suit]
    rank = rng.choice(RANKS[notation][card.rank])
    text = suit + rank
    return text.lower() if rng.random() < 0.15 else text


def cards_text(cards, notation: str, rng: random.Random) -> str:
    return " ".join(card_text(c, notation, rng) for c in cards)


def q(text: str) -> str:
    return '"' + text + '"'


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return q(str(value))


# -- the case ----------------------------------------------------------------------------------

@dataclass
class Case:
    """A generated position and what its file says."""

    mode: str
    seed: int
    toml: str = ""
    game: str = ""
    players: int = 2
    leader: int = 1
    hands: dict = field(default_factory=dict)        # seat -> tuple of Card
    piles: dict = field(default_factory=dict)        # seat -> tuple of (up, down or None)
    stock: tuple = ()
    play: tuple = ()                                  # tuple of tricks
    taken: tuple = (0, 0)
    trump: int | None = None                          # the trump in force (None: Schellen mode)
    options: dict = field(default_factory=dict)       # the options in force that we vary


def generate(mode: str, seed: int, size: str = "small") -> str:
    return generate_case(mode, seed, size).toml


def generate_case(mode: str, seed: int, size: str = "small") -> Case:
    spec = MODES[mode]
    rng = random.Random(f"{mode}/{size}/{seed}")
    case = Case(mode, seed, game=spec["game"])
    sizes = spec[size]
    if case.game == "scharwenzel":
        lines = _scharwenzel(case, spec, sizes, rng)
    elif case.game == "schafkopf2":
        lines = _schafkopf2(case, spec, sizes, rng)
    else:
        lines = _elfern(case, spec, sizes, rng)
    case.toml = "\n".join(lines) + "\n"
    return case


def _sample(rng: random.Random, pack: list, count: int) -> list:
    """``count`` distinct cards; often from only two or three suits, so that following,
    trumping and beating come up more often in small positions."""
    if rng.random() < 0.4:
        suits = rng.sample(SUITS, rng.choice([2, 3]))
        pool = [c for c in pack if c.suit in suits]
        if len(pool) >= count:
            return rng.sample(pool, count)
    return rng.sample(pack, count)


def _random_play(case: Case, rng: random.Random) -> tuple:
    """A few random legal cards from the start, grouped in tricks (the last may be unfinished)."""
    rules = make_rules(case.game, case.players, case.trump, case.options)
    piles = {seat: list(ps) for seat, ps in case.piles.items()}
    state = start_state(case.players, case.leader, case.hands, piles, case.stock)
    total = sum(len(p) for seat in state.holdings for p in seat) + len(case.stock)
    if total == 0 or rng.random() < 0.4:
        return ()
    # mostly a few cards; now and then the whole deal (the position is over then)
    count = total if rng.random() < 0.03 else rng.randint(1, max(1, total - 1))
    tricks, current = [], []
    for _ in range(count):
        moves = legal_moves(rules, state)
        if not moves:
            break
        card = rng.choice(moves)
        state, _ = play(rules, state, card)
        current.append(card)
        if not state.trick:                      # the trick is complete
            tricks.append(tuple(current))
            current = []
    if current:
        tricks.append(tuple(current))
    return tuple(tricks)


def _header(case: Case, notation: str, default_notation: str, rng: random.Random) -> list:
    lines = [f"# random position: mode {case.mode}, seed {case.seed}", f"game = {q(case.game)}"]
    if notation != default_notation or rng.random() < 0.2:
        lines.append(f"cards = {q(notation)}")
    return lines


def _common(case: Case, lines: list, notation: str, rng: random.Random) -> None:
    if case.leader != 1 or rng.random() < 0.5:
        lines.append(f"leader = {case.leader}")
    if case.taken != (0, 0) or rng.random() < 0.1:
        lines.append(f"taken = [{case.taken[0]}, {case.taken[1]}]")
    if case.play:
        lines.append("play = [" + ", ".join(q(cards_text(t, notation, rng)) for t in case.play) + "]")


def _pile_lines(case: Case, lines: list, notation: str, rng: random.Random, players: int = 2) -> None:
    """The deal file's [piles] table: UP/DOWN, or a lone UP whose face-down card is gone."""
    lines += ["", "[piles]"]
    for seat in range(1, players + 1):
        text = " ".join(card_text(up, notation, rng) if down is None
                        else card_text(up, notation, rng) + "/" + card_text(down, notation, rng)
                        for up, down in case.piles[seat])
        lines.append(f"{seat} = {q(text)}")


def _split(rng: random.Random, room: int) -> tuple:
    if room <= 0 or rng.random() < 0.3:
        return (0, 0)
    total = rng.randint(0, room)
    a = rng.randint(0, total)
    return (a, total - a)


def _rules_table(lines: list, rules: list) -> None:
    if rules:
        lines += ["", "[rules]"] + [f"{name} = {toml_value(value)}" for name, value in rules]


def _scharwenzel(case: Case, spec: dict, sizes: dict, rng: random.Random) -> list:
    n = spec["players"]
    case.players = n
    pack = PACK36 if n == 6 else PACK32
    whole = len(pack) // n                                  # 8, 6 or 4 cards a hand
    size = rng.randint(*sizes["cards"])
    cards = _sample(rng, pack, size * n)
    case.hands = {seat: tuple(cards[(seat - 1) * size: seat * size]) for seat in range(1, n + 1)}
    case.trump = rng.choice(SUITS)
    plain_order = rng.choice(["AKQ10", "A10KQ"])
    must_trump = rng.random() < 0.5
    case.options = {"plain_order": plain_order, "must_trump": must_trump}
    case.leader = rng.randint(1, n)
    case.taken = _split(rng, whole - size)
    case.play = _random_play(case, rng)

    notation = "german" if rng.random() < 0.2 else "french"
    lines = _header(case, notation, "french", rng)
    if rng.random() < 0.7:
        lines.append(f"players = {n}")
    lines.append(f"trump = {q(rng.choice(SUIT_WORDS[case.trump]))}")
    _common(case, lines, notation, rng)
    lines += ["", "[hands]"]
    for seat in range(1, n + 1):
        lines.append(f"{seat} = {q(cards_text(case.hands[seat], notation, rng))}")
    rules = []
    if plain_order != "AKQ10" or rng.random() < 0.5:
        rules.append(("plain_order", plain_order))
    if must_trump or rng.random() < 0.5:
        rules.append(("must_trump", must_trump))
    rng.shuffle(rules)
    _rules_table(lines, rules)
    return lines


def _schafkopf2(case: Case, spec: dict, sizes: dict, rng: random.Random) -> list:
    mode = spec["trump_mode"]
    case.players = 2
    size = rng.randint(*sizes["cards"])                 # cards per seat, face up and face down
    max_piles = sizes["piles"]
    while (size + 1) // 2 > max_piles:
        size -= 1
    cards = _sample(rng, PACK32, 2 * size)
    for seat in (1, 2):
        mine = cards[(seat - 1) * size: seat * size]
        case.piles[seat] = _piles_of(rng, mine, max_piles)
    trump_key = None
    if mode == "card17":
        if rng.random() < 0.5:
            case.trump = rng.choice(SUITS)
            trump_key = rng.choice(SUIT_WORDS[case.trump])
        else:
            case.trump = case.piles[1][0][0].suit       # the 17th card: seat 1's first face-up card
    else:
        case.trump = None
        if rng.random() < 0.15:
            trump_key = rng.choice(SUIT_WORDS[D])
    must_beat = rng.random() < 0.5
    case.options = {"trump_mode": mode, "must_beat": must_beat}
    case.leader = rng.randint(1, 2)
    points = sum({A: 11, R10: 10, K: 4, Q: 3, J: 2}.get(c.rank, 0) for c in cards)
    case.taken = _split(rng, 120 - points)
    case.play = _random_play(case, rng)

    notation = "french" if rng.random() < 0.2 else "german"
    lines = _header(case, notation, "german", rng)
    if trump_key is not None:
        lines.append(f"trump = {q(trump_key)}")
    _common(case, lines, notation, rng)
    _pile_lines(case, lines, notation, rng)
    rules = []
    if mode != "schellen" or rng.random() < 0.5:
        rules.append(("trump_mode", mode))
    if must_beat or rng.random() < 0.5:
        rules.append(("must_beat", must_beat))
    if rng.random() < 0.2:
        rules.append(("schneider_at", rng.choice([29, 30])))
    rng.shuffle(rules)
    _rules_table(lines, rules)
    return lines


def _elfern(case: Case, spec: dict, sizes: dict, rng: random.Random) -> list:
    case.players = 2
    size = rng.randint(*sizes["cards"])
    stock = rng.choice(sizes["stock"])
    cards = _sample(rng, PACK32, 2 * size + stock)
    case.hands = {1: tuple(cards[:size]), 2: tuple(cards[size: 2 * size])}
    case.stock = tuple(cards[2 * size:])
    must_head = spec["must_head"]
    case.options = {"must_head": must_head}
    case.leader = rng.randint(1, 2)
    honours = sum(1 for c in cards if c.rank in (A, K, Q, J, R10))
    case.taken = _split(rng, 20 - honours)
    case.play = _random_play(case, rng)

    notation = "german" if rng.random() < 0.2 else "french"
    lines = _header(case, notation, "french", rng)
    if case.stock or rng.random() < 0.2:
        lines.append(f"stock = {q(cards_text(case.stock, notation, rng))}")
    _common(case, lines, notation, rng)
    lines += ["", "[hands]"]
    for seat in (1, 2):
        lines.append(f"{seat} = {q(cards_text(case.hands[seat], notation, rng))}")
    rules = []
    if must_head or rng.random() < 0.5:
        rules.append(("must_head", must_head))
    if rng.random() < 0.3:
        rules.append(("scoring", rng.choice(["lines", "graded"])))
    rng.shuffle(rules)
    _rules_table(lines, rules)
    return lines


# -- games from rule files (solver/games/rules/*.toml, or a rule file's path) -------------------------

RULE_MODES = {
    "officers_skat": dict(game="officers_skat", players=2, layout="piles", trump=True,
                          options={"tie_60": ["defender_wins", "draw"], "schwarz": ["no_trick", "no_points"]},
                          small=dict(cards=(1, 6), piles=3), large=dict(cards=(6, 10), piles=6)),
    "einwerfen": dict(game="einwerfen", players=4, layout="hands", trump=True,
                      options={"ten_rank": ["low", "high"]},
                      small=dict(cards=(1, 3)), large=dict(cards=(3, 4))),
    "bohemian_schneider": dict(game="bohemian_schneider", players=2, layout="stock", trump=False,
                               options={"schneider_at": [16, 17], "beat": ["higher", "next_higher"]},
                               small=dict(cards=(1, 3), stock=(0, 2, 4)),
                               large=dict(cards=(3, 4), stock=(2, 4, 6))),
}


def _piles_of(rng: random.Random, mine: list, max_piles: int) -> tuple:
    """``mine`` laid out in piles: a face-up card on a face-down one, or a lone face-up card."""
    size = len(mine)
    count = rng.randint((size + 1) // 2, min(max_piles, size))   # piles
    downs = set(rng.sample(range(count), size - count))          # piles with a face-down card
    piles, k = [], 0
    for i in range(count):
        if i in downs:
            piles.append((mine[k], mine[k + 1]))
            k += 2
        else:
            piles.append((mine[k], None))
            k += 1
    return tuple(piles)


def generate_rule_case(mode: str, seed: int, size: str = "small", spec: dict | None = None) -> Case:
    """A random small position of a rule-file game (``spec``: a mode of ``RULE_MODES`` or one
    given by the test, e.g. a toy game's rule file path as ``game``)."""
    spec = spec or RULE_MODES[mode]
    rng = random.Random(f"{mode}/{size}/{seed}")
    case = Case(mode, seed, game=spec["game"])
    n = case.players = spec["players"]
    sizes = spec[size]
    case.options = {name: rng.choice(values) for name, values in spec["options"].items()}
    case.trump = rng.choice(SUITS) if spec["trump"] else spec.get("fixed_trump")
    rules = make_rules(case.game, n, case.trump, case.options)
    pack = sorted(rules.pack)
    per_seat = rng.randint(*sizes["cards"])
    if spec["layout"] == "piles":
        while (per_seat + 1) // 2 > sizes["piles"]:
            per_seat -= 1
    stock = rng.choice(sizes.get("stock", (0,))) if spec["layout"] == "stock" else 0
    cards = _sample(rng, pack, per_seat * n + stock)
    seats = {seat: list(cards[(seat - 1) * per_seat: seat * per_seat]) for seat in range(1, n + 1)}
    if spec["layout"] == "piles":
        case.piles = {seat: _piles_of(rng, mine, sizes["piles"]) for seat, mine in seats.items()}
    else:
        case.hands = {seat: tuple(mine) for seat, mine in seats.items()}
    case.stock = tuple(cards[per_seat * n:])
    case.leader = rng.randint(1, n)
    whole = sum(rules.trick_points([c]) for c in pack) if rules.per_trick == 0 else len(pack) // n
    used = sum(rules.value(c) for c in cards) if rules.per_trick == 0 else per_seat
    case.taken = _split(rng, whole - used)
    case.play = _random_play(case, rng)

    notation = "german" if rng.random() < 0.5 else "french"
    lines = [f"# random position: mode {mode}, seed {seed}", f"game = {q(case.game)}",
             f"cards = {q(notation)}"]
    if case.trump is not None:
        lines.append(f"trump = {q(rng.choice(SUIT_WORDS[case.trump]))}")
    if case.stock or (spec["layout"] == "stock" and rng.random() < 0.3):
        lines.append(f"stock = {q(cards_text(case.stock, notation, rng))}")
    _common(case, lines, notation, rng)
    if spec["layout"] == "piles":
        _pile_lines(case, lines, notation, rng, n)
    else:
        lines += ["", "[hands]"]
        for seat in range(1, n + 1):
            lines.append(f"{seat} = {q(cards_text(case.hands[seat], notation, rng))}")
    _rules_table(lines, sorted(case.options.items()))
    case.toml = "\n".join(lines) + "\n"
    return case


if __name__ == "__main__":                          # print a few files to look at
    import sys
    mode = sys.argv[1] if len(sys.argv) > 1 else "scharwenzel-4"
    for seed in range(int(sys.argv[2]) if len(sys.argv) > 2 else 3):
        print(generate(mode, seed))


# -- the Mariage variant ------------------------------------------------------------------------

GERMAN_SUIT_WORDS = {C: "eichel", S: "gruen", H: "rot", D: "schellen"}
MARIAGE_VALUES = {A: 11, R10: 10, K: 4, Q: 3, J: 2}


def mariage_case(seed: int, scoring: str, size: str = "small") -> Case:
    """A small Mariage ending (whole deal 130 card points: ``taken`` holds the rest), often
    with one or two intact marriages face up for one seat, sometimes a broken one (King and
    Ober on different seats or one face down), `taken` zero for a side (no trick won yet),
    `won_trick` or `announced` given, and a few random legal cards already played, random
    announcements among them.  Four or five tricks from the start bring the Wäsche in."""
    rng = random.Random(f"mariage-{scoring}/{size}/{seed}")
    case = Case(f"mariage-{scoring}", seed, game="schafkopf2")
    cards_each = rng.randint(2, 4) if size == "small" else rng.randint(4, 6)
    hands: dict = {1: [], 2: []}
    two = rng.random() < 0.2                             # two marriages open for one seat
    if two:
        cards_each = max(cards_each, 4)
        hands[rng.choice((1, 2))] += [Card(H, K), Card(H, Q), Card(D, K), Card(D, Q)]
    for suit in (H, D) if not two else ():
        roll = rng.random()
        if roll < 0.6:                                   # an intact marriage for one seat
            hands[rng.choice((1, 2))] += [Card(suit, K), Card(suit, Q)]
        elif roll < 0.75:                                # a broken one
            hands[1].append(Card(suit, K))
            hands[2].append(Card(suit, Q))
    if rng.random() < 0.25:                              # King and Wenzel Ober: no marriage
        suit = rng.choice((C, S))
        hands[rng.choice((1, 2))][:0] = [Card(suit, K), Card(suit, Q)]
    for seat in (1, 2):
        hands[seat] = hands[seat][:cards_each]
    used = set(hands[1] + hands[2])
    rest = [c for c in PACK32 if c not in used]
    rng.shuffle(rest)
    for seat in (1, 2):
        while len(hands[seat]) < cards_each:
            hands[seat].append(rest.pop())
    for seat in (1, 2):
        mine = list(hands[seat])
        if rng.random() < 0.3 and not two:
            rng.shuffle(mine)
        piles_n = rng.randint(max(1, (cards_each + 1) // 2), cards_each)
        if two and len(mine) >= 4 and mine[0].rank == K:
            piles_n = max(piles_n, 4)                  # all four face up
        ups, downs = mine[:piles_n], mine[piles_n:]
        piles = [[u, None] for u in ups]
        for i, d in zip(rng.sample(range(piles_n), len(downs)), downs):
            piles[i][1] = d
        case.piles[seat] = tuple((u, d) for u, d in piles)
    named = rng.random() < 0.6
    case.trump = rng.choice(SUITS) if named else case.piles[1][0][0].suit
    case.leader = rng.randint(1, 2)
    in_play = sum(MARIAGE_VALUES.get(c.rank, 0) for c in hands[1] + hands[2])
    room = 130 - 10 - in_play
    a = 0 if rng.random() < 0.3 else rng.randint(0, room)
    if rng.random() < 0.5:
        case.taken = (a, room - a)
    else:
        case.taken = (room - a, a)
    won = None
    if rng.random() < 0.25:
        won = (case.taken[0] > 0 or rng.random() < 0.5, case.taken[1] > 0 or rng.random() < 0.5)
    announced = [s for s in (H, D) if rng.random() < 0.12]
    case.options = {"mariage": True, "mariage_score": scoring}
    must_beat = rng.random() < 0.5 if rng.random() < 0.2 else None
    if must_beat is not None:
        case.options["must_beat"] = must_beat
    notation = "german" if rng.random() < 0.8 else "french"
    shows = _mariage_play(case, won, announced, rng)

    lines = _header(case, notation, "german", rng)
    if named:
        lines.append(f"trump = {q(rng.choice(SUIT_WORDS[case.trump]))}")
    lines.append(f"leader = {case.leader}")
    lines.append(f"taken = [{case.taken[0]}, {case.taken[1]}]")
    if won is not None:
        lines.append(f"won_trick = [{toml_value(won[0])}, {toml_value(won[1])}]")
    if announced:
        lines.append("announced = [" + ", ".join(q(LETTERS[notation][s]) for s in announced) + "]")
    if case.play:
        texts = []
        for t, trick in enumerate(case.play):
            words = []
            for k, card in enumerate(trick):
                if (t, k) in shows:
                    words.append(f"(marriage {LETTERS[notation][shows[t, k]]})")
                words.append(card_text(card, notation, rng))
            texts.append(" ".join(words))
        lines.append("play = [" + ", ".join(q(t) for t in texts) + "]")
    _pile_lines(case, lines, notation, rng)
    rules = [("mariage", True)]
    if scoring != "points" or rng.random() < 0.5:
        rules.append(("mariage_score", scoring))
    if must_beat is not None:
        rules.append(("must_beat", must_beat))
    _rules_table(lines, rules)
    case.toml = "\n".join(lines) + "\n"
    return case


def _mariage_play(case: Case, won, announced, rng: random.Random) -> dict:
    """Random legal cards from the start (the reference's own rules), announcing now and
    then; returns {(trick, card): suit} of the announcements."""
    from reference import Mariage, MState, schafkopf2_rules
    rules = schafkopf2_rules("card17", case.trump, bool(case.options.get("must_beat", False)))
    game = Mariage(rules, case.trump, case.options["mariage_score"])
    piles = {seat: list(ps) for seat, ps in case.piles.items()}
    state = start_state(2, case.leader, None, piles)
    total = sum(len(p) for seat in state.holdings for p in seat)
    won = won if won is not None else (case.taken[0] > 0, case.taken[1] > 0)
    m = MState(state, case.taken, (0, 0), won, frozenset(announced), (), total // 2)
    if rng.random() < 0.5:
        return {}
    count = rng.randint(1, max(1, total - 1))
    tricks, current, shows = [], [], {}
    for _ in range(count):
        moves = game.moves(m)
        suit, card = rng.choice(moves)
        if suit is not None:
            shows[len(tricks), len(current)] = suit
        m = game.play(m, (suit, card))
        current.append(card)
        if not m.cards.trick:
            tricks.append(tuple(current))
            current = []
    if current:
        tricks.append(tuple(current))
    case.play = tuple(tricks)
    return shows

"""Rules found from exact play (``stich tactic TACTIC --learn``): when is following a piece of
advice right?

The data: every exact decision on the optimal lines of the learning deals where the advice
applied, with the features the mover sees there (``tactics.features``).  Following it is
*right* there when a uniformly chosen advised card gives away no more (its regret, in the
game's unit, against the best card under perfect play) than a uniformly chosen card of the
rule's fallback (``tactics.learned.fallback``: at a lead another card nothing in sight can
beat, else any other card); each decision is weighted by how much the choice matters (the difference of the two
regrets), so that a tree spends its splits on costly mistakes.  A scikit-learn decision tree
of depth 1, 2 and 3 is fitted; each distinct tree becomes a rule (``tactics.learned``): follow
the advice where the tree says right, else play the fallback.  The rules are then played by
the policy study on held-out deals, never used to learn them (``summary.learned_rows``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from stich.deals.deal import loads
from stich.model.cards import parse_card
from stich.tactics.features import BUILTIN, SHOWS
from stich.tactics.learned import fallback
from stich.tactics.view import player_view

from .records import DealRecord, Decision
from .stats import Comparison, Estimate, holm, mean_over_deals
from .summary import Records, decision_score, paired_row, per_deal, seat_costs
from .tables import Estimand

DEPTHS = (1, 2, 3)
OTHERWISE = "lead a card nothing in sight can beat (any other card if none; when following, another card)"
MIN_LEAF = 5                  # decisions a leaf holds at least (and a twentieth of the data)

ACTIONS = {"schafkopf2.bare_ten.lead_at_once": "lead the bare ten",
           "schafkopf2.bare_ten.lead_when_it_wins": "lead the bare ten",
           "schafkopf2.bare_ten.asap": "bring the bare ten home",
           "schafkopf2.pull_trumps.any": "lead a trump",
           "schafkopf2.pull_trumps.any_known": "lead a trump",
           "schafkopf2.pull_trumps.highest": "lead your highest trump",
           "schafkopf2.pull_trumps.highest_known": "lead your highest trump",
           "schafkopf2.pull_trumps.master": "lead your master trump"}

SHOWN = {"holds the Ace": ("the opponent shows the suit's Ace", "the opponent does not show the suit's Ace"),
         "void with a trump": ("the opponent shows no card of the suit but a trump",
                               "the opponent does not show a void with a trump"),
         "can beat it": ("the opponent may beat it otherwise", "the opponent may not beat it otherwise"),
         "must follow under": ("the opponent must follow under it", "the opponent need not follow under it"),
         "nothing seen": ("the opponent shows neither the suit nor a trump",
                          "the opponent shows the suit or a trump"),
         "mixed": ("the advised cards meet different answers", "the advised cards meet the same answer")}
NUMBERS = {"trick": ("it is trick {x} or earlier", "it is after trick {x}"),
           "stock_left": ("the stock has at most {x} cards", "the stock has more than {x} cards"),
           "trumps": ("you show at most {x} trumps", "you show more than {x} trumps"),
           "suit_seen": ("you have seen at most {x} cards of its suit", "you have seen more than {x} cards of its suit"),
           "points_on_table": ("at most {x} points lie on the table", "more than {x} points lie on the table"),
           "trumps_seen": ("you have seen at most {x} trumps", "you have seen more than {x} trumps"),
           "trumps_unseen": ("at most {x} trumps are still unseen", "more than {x} trumps are still unseen"),
           "seat": ("you sit in seat {x} or lower", "you sit in a seat above {x}")}
assert set(SHOWN) == set(SHOWS) | {"mixed"}


@dataclass(frozen=True)
class Example:
    """One decision of the learning data."""

    deal: str
    features: dict
    right: bool                   # following the advice gives away no more than another card
    weight: float                 # |advised regret - other cards' regret|, in the game's unit


def fallback_cards(text: str, record: DealRecord, d: Decision) -> list[int]:
    """The indices (into ``d.cards``) of the rule's fallback at a decision, from the mover's
    view there (``tactics.learned.fallback``)."""
    deal = loads(text, "learn")
    view = player_view(deal.after([parse_card(c, deal.notation) for c in record.line[:d.ply]]))
    by_text = {c.text(deal.notation): c for c in view.legal}
    advised = [by_text[d.cards[i]] for i in d.advice[next(iter(d.advice))]] if len(d.advice) == 1 else None
    if advised is None:
        raise ValueError("learning reads decisions of one tactic")
    return [d.cards.index(c.text(deal.notation)) for c in fallback(view, advised)]


def examples(records: Records, name: str, fallback_of: Callable = fallback_cards) -> list[Example]:
    """The decisions where the advice applied (exact, and with another card to play)."""
    out = []
    for deal_id, text, record in records:
        for d in record.decisions:
            advised = d.advice.get(name)
            if not d.exact or not advised or len(advised) == len(d.cards):
                continue
            score = decision_score(deal_id, d, name)
            rest = fallback_of(text, record, d)
            other = sum(max(d.totals) - d.totals[i] for i in rest) / len(rest)
            out.append(Example(deal_id, d.features_for(name), score.advised_regret <= other,
                               abs(score.advised_regret - other)))
    return out


@dataclass
class Columns:
    """The features as numbers for the tree: a number feature as itself (None as -1), a word
    feature as one 0/1 column per word."""

    names: list[tuple[str, object]] = field(default_factory=list)   # (feature, None | word)

    @staticmethod
    def of(data: list[Example], features: list[str]) -> Columns:
        columns = Columns()
        for name in features:
            values = {e.features.get(name) for e in data}
            if len(values) < 2:
                continue
            if all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values):
                columns.names.append((name, None))
            else:
                columns.names += [(name, v) for v in sorted(values, key=str) if v is not None]
        return columns

    def row(self, features: dict) -> list[float]:
        out = []
        for name, word in self.names:
            have = features.get(name)
            if word is None:
                out.append(-1.0 if have is None else float(have))
            else:
                out.append(1.0 if have == word else 0.0)
        return out


@dataclass(frozen=True)
class Rule:
    """A learned rule: follow the advice where one of ``paths`` holds (see tactics.learned)."""

    name: str
    base: str
    depth: int
    paths: tuple                  # ((feature, op, value), ...) per path
    sentence: str
    decisions: int                # learning data
    deals: int

    def as_json(self) -> dict:
        return {"name": self.name, "rule": self.sentence, "depth": self.depth,
                "conditions": [[list(t) for t in path] for path in self.paths],
                "learned_on": {"decisions": self.decisions, "deals": self.deals}}


def learn(records: Records, base: str, seed: int, fallback_of: Callable = fallback_cards) -> list[Rule]:
    """The distinct rules of trees of depth 1, 2 and 3 (sklearn imported here only)."""
    from sklearn.tree import DecisionTreeClassifier
    data = examples([(i, t, r) for i, t, r in records if r.exact], base, fallback_of)
    if len({e.right for e in data}) < 2:
        return [_rule(base, 1, ((),) if data and data[0].right else (), data)] if data else []
    columns = Columns.of(data, list(BUILTIN))
    x = [columns.row(e.features) for e in data]
    y = [int(e.right) for e in data]
    w = [e.weight + 1e-6 for e in data]
    rules, seen = [], set()
    for depth in DEPTHS:
        tree = DecisionTreeClassifier(max_depth=depth, min_samples_leaf=max(MIN_LEAF, len(data) // 20),
                                      random_state=seed % 2**32)
        tree.fit(x, y, sample_weight=w)
        paths = tuple(sorted(_paths(tree.tree_, columns)))
        if paths not in seen:
            seen.add(paths)
            rules.append(_rule(base, depth, paths, data))
    return rules


def _rule(base: str, depth: int, paths: tuple, data: list[Example]) -> Rule:
    short = base.split(".", 1)[-1]
    return Rule(f"learned.{short}.depth{depth}", base, depth, paths, sentence(base, paths),
                len(data), len({e.deal for e in data}))


def _paths(tree, columns: Columns, node: int = 0, path: tuple = ()) -> list[tuple]:
    """The paths (tests from the root) to the leaves where following is right; a split whose
    every leaf says the same is no condition, so it is left out."""
    verdict = _uniform(tree, node)
    if verdict is not None:
        return [path] if verdict else []
    left, right = tree.children_left[node], tree.children_right[node]
    name, word = columns.names[tree.feature[node]]
    threshold = float(tree.threshold[node])
    if word is None:
        low, high = (name, "<=", math.floor(threshold)), (name, ">", math.floor(threshold))
    else:
        low, high = (name, "!=", word), (name, "==", word)
    return _paths(tree, columns, left, path + (low,)) + _paths(tree, columns, right, path + (high,))


def _uniform(tree, node: int) -> bool | None:
    """True / False when every leaf under ``node`` says right / wrong, else None."""
    left, right = tree.children_left[node], tree.children_right[node]
    if left == right:
        counts = tree.value[node][0]
        return bool(counts[1] > counts[0])
    a, b = _uniform(tree, left), _uniform(tree, right)
    return a if a is not None and a == b else None


# --- the rule in a player's words ---------------------------------------------------------------------

def phrase(test: tuple) -> str:
    name, op, value = test
    if name == "opponent_shows" and value in SHOWN:
        return SHOWN[value][0 if op == "==" else 1]
    if op in ("<=", ">") and name in NUMBERS:
        return NUMBERS[name][0 if op == "<=" else 1].format(x=value)
    words = {"==": "is", "!=": "is not", "<=": "is at most", ">": "is more than"}[op]
    return f"{name.replace('_', ' ')} {words} {value}"


def sentence(base: str, paths: tuple) -> str:
    """'lead the bare ten when the opponent must follow under it; otherwise play another card'."""
    action = ACTIONS.get(base, f"follow {base}")
    if paths == ((),):
        return f"always {action} (the old advice)"
    if not paths:
        return f"never {action}: {OTHERWISE}"
    when = "; or when ".join(" and ".join(phrase(t) for t in path) for path in paths)
    return f"{action} when {when}; otherwise {OTHERWISE}"


def tactic_file_text(rules: list[Rule], game: str | None, base_file: str | None) -> str:
    """The rules as a tactic file (``--tactic-file``) that reruns them."""
    lines = ['"""Rules learned by stich tactic --learn: follow the advice where the condition holds,',
             'otherwise play another card (stich.tactics.learned)."""', "",
             "from stich.tactics.learned import learned_tactic", "", "TACTICS = {"]
    for rule in rules:
        paths = [[list(t) for t in path] for path in rule.paths]
        lines.append(f"    {rule.name!r}: learned_tactic({rule.name!r}, {rule.base!r}, {paths!r},")
        lines.append(f"                                  {rule.sentence!r}, {game!r}, {base_file!r}),")
    lines.append("}")
    if base_file is not None:                # the old advice itself, for the held-out study
        lines += ["", "from stich.tactics.loader import load_file  # noqa: E402", "",
                  f"TACTICS.update(load_file({base_file!r}).tactics)"]
    return "\n".join(lines) + "\n"


# --- the rules on held-out deals ------------------------------------------------------------------------

HELD_OUT_ESTIMAND = Estimand.HELD_OUT


@dataclass
class LearnedRule:
    """A rule's held-out cost beside the old advice's and a random card's (at the old advice's
    moments), on the same deals and seats, and the paired difference rule - old advice."""

    rule: Rule
    policy: Estimate
    baseline: Estimate
    random: Estimate
    vs_baseline: Comparison
    held_out: dict                # how the held-out deals were dealt
    p_holm: float | None = None
    estimand: Estimand = HELD_OUT_ESTIMAND

    def as_json(self) -> dict:
        return {**self.rule.as_json(), "estimand": str(self.estimand), "held_out": self.held_out,
                "policy": self.policy.as_json(), "baseline": self.baseline.as_json(),
                "random": self.random.as_json(),
                "vs_baseline": {**self.vs_baseline.as_json(), "p_holm": self.p_holm}}


def held_out_rows(records: Records, rules: list[Rule], seed: int, held_out: dict) -> list[LearnedRule]:
    """Each rule against its old advice on the held-out records (Holm over the rules)."""
    mine = [(i, t, r) for i, t, r in records if r.exact]
    rows = []
    for rule in rules:
        pair = paired_row(mine, rule.name, rule.base, f"{seed}:held-out")
        random = seat_costs(mine, rule.base, "random")
        ours = seat_costs(mine, rule.name)
        per = [(key[0], random[key]) for key in ours if key in random]
        rnd = per_deal(per, lambda x: x[1], lambda x: x[0])
        rows.append(LearnedRule(rule, pair.cost_a, pair.cost_b,
                                mean_over_deals(list(rnd.values()), f"{seed}:held-out:random"),
                                pair.difference, held_out))
    family = [row for row in rows if row.policy.deals]
    for row, p in zip(family, holm([row.vs_baseline.p for row in family])):
        row.p_holm = p
    return rows

"""The report of ``stich tactic``: a sentence per tactic a card player reads first, then the
tables (at most 120 columns), the breakdowns, and the forest plot of the study.

Every figure names its estimand: the headline is the whole deal played by the advice (each
deal once), the one-off tables are either each deal's first decision or every decision with
the deals weighted equally.
"""

from __future__ import annotations

import math
import textwrap

from tabulate import tabulate

from stich.games.base import LEVEL_WORDS
from stich.report.common import parts_texts, share_text
from stich.study.stats import Estimate, p_text
from stich.study.tables import Estimand, PolicyTable, StudySummary, TacticSummary, Test

UNIT_WORDS = {"tricks": "tricks", "points": "card points", "honours": "honours"}
WIDTH = 120
CONDITIONAL_LINES = 6            # per tactic in the text report (all of them in --json)
TABLE_CHANGES = 1                # changes of outcome per tactic in the outcome table (all in the sentence)


def _nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _x(x, digits: int = 2) -> str:
    """``x`` to ``digits`` places; a value that would round to zero but is not zero gets up to
    two places more ("-0.04", not "-0.0": which side of 0 an interval's end lies on matters)."""
    if _nan(x):
        return "–"
    for more in (0, 1, 2):
        text = f"{x:.{digits + more}f}"
        if float(text) != 0:
            return text
    return f"{0:.{digits}f}"             # nearer 0 than that: no sign to show


def _est(part: Estimate | Test | None) -> Estimate | None:
    """The estimate of a figure (a test's is its difference), None where there is none."""
    if part is None:
        return None
    est = part.estimate if isinstance(part, Test) else part
    return None if _nan(est.mean) else est


def _ci(part: Estimate | Test | None, digits: int = 2) -> str:
    """'4.90 [3.50, 6.60]': a mean and its 95% interval."""
    est = _est(part)
    if est is None:
        return "–"
    if _nan(est.low):
        return _x(est.mean, digits)
    return f"{_x(est.mean, digits)} [{_x(est.low, digits)}, {_x(est.high, digits)}]"


def _digits(unit: str | None) -> int:
    """Decimals for a cost: card points run to 120, tricks and honours to 20."""
    return 1 if unit == "points" else 2


def _pct(part: Estimate | None) -> str:
    """'15% [0, 38]': a share and its 95% interval, in percent."""
    est = _est(part)
    if est is None:
        return "–"
    if _nan(est.low):
        return share_text(est.mean)
    return f"{share_text(est.mean)} [{100 * est.low:.0f}, {100 * est.high:.0f}]"


def _short(name: str, game_prefix: str | None) -> str:
    """A tactic's name in a table: without its game (said in the title), ``dd.`` for the
    double-dummy readings."""
    name = name.replace("double_dummy.", "dd.").replace("learned.", "", 1)
    if game_prefix:
        name = name.replace(f"{game_prefix}.", "")
    return name


def _game_prefix(summary: StudySummary) -> str | None:
    """The one game of the tactics (learned rules are named apart, ``learned.*``)."""
    games = {t.tactic.replace("double_dummy.", "").split(".")[0] for t in summary.tactics
             if not t.tactic.startswith("learned.")}
    return games.pop() if len(games) == 1 else None


# --- the answer: the player's question and one answer, first --------------------------------------

QUESTIONS = {
    "schafkopf2.bare_ten.lead_at_once": ("You hold a bare ten among your face-up cards and are to lead",
                                         "leading it at once"),
    "schafkopf2.bare_ten.lead_when_it_wins": ("You hold a bare ten and are to lead",
                                              "leading it only when no card in sight can beat it"),
    "schafkopf2.bare_ten.asap": ("You hold a bare ten", "bringing it home at the first chance"),
    "schafkopf2.bare_ten.first_winning_trick": ("You hold a bare ten and follow to a trick it wins",
                                                "playing it there"),
    "schafkopf2.pull_trumps.any": ("You are to lead with more trumps in sight than your opponent shows, and "
                                   "he may still hold one", "leading a trump"),
    "schafkopf2.pull_trumps.highest": ("You are to lead with more trumps in sight than your opponent shows, "
                                       "and he may still hold one", "leading your highest trump"),
    "schafkopf2.pull_trumps.master": ("You are to lead with more trumps in sight than your opponent shows, "
                                      "and your highest trump beats every trump he may hold",
                                      "leading that trump"),
}
SOUND_BEST, SOUND_COST = 0.5, 1.0
ONE = {"card points": "card point", "tricks": "trick", "honours": "honour"}    # "at most 1 ..."
SOUND_RULE = (f"sound: the advised card is the best card at least {SOUND_BEST:.0%} of the time at its first "
              f"decision, and a whole deal by it costs at most {SOUND_COST:g} {{unit}} against perfect play")


def question(row: TacticSummary) -> tuple[str, str]:
    """(the player's question, what following the advice is called) of a tactic."""
    if row.tactic in QUESTIONS:
        return QUESTIONS[row.tactic]
    return f"When the advice \"{row.summary.rstrip('.')}\" applies", "following it"


SOUND, UNSOUND, UNCLEAR = "sound", "unsound", "unclear"


def verdict(row: TacticSummary) -> str:
    """``SOUND_RULE`` judged on the 95% intervals, not on the point figures: sound when both
    intervals lie inside the rule (best-card share at least 50%, cost at most 1), unsound when
    either lies wholly outside it, else unclear (these deals cannot tell)."""
    best = _est(row.oneoff[0].best_by_points["advised"])
    cost = _est(row.policy.cost.get("uniform"))
    if best is None or cost is None:
        return UNCLEAR
    if (not _nan(best.high) and best.high < SOUND_BEST) or (not _nan(cost.low) and cost.low > SOUND_COST):
        return UNSOUND
    if not _nan(best.low) and not _nan(cost.high) and best.low >= SOUND_BEST and cost.high <= SOUND_COST:
        return SOUND
    return UNCLEAR


def verdict_words(row: TacticSummary, unit: str) -> str:
    """' By the rule "sound: ..." it is unsound.' (or: these deals cannot tell)."""
    rule = f"By the rule \"{SOUND_RULE.format(unit=ONE.get(unit, unit))}\""
    judged = verdict(row)
    if judged == UNCLEAR:
        cost = _est(row.policy.cost.get("uniform"))
        if cost is not None and _nan(cost.low) and cost.deals >= 2:
            why = (f"a whole deal cost {_x(cost.mean, _digits(row.unit))} on every one of them, which gives "
                   f"no interval for the deals not played")
        else:
            why = "an interval reaches both sides of the rule (or there are too few deals for one)"
        return f" {rule} these deals cannot tell whether it is sound: {why}."
    why = "both 95% intervals lie inside it" if judged == SOUND else "a 95% interval lies wholly outside it"
    return f" {rule} it is {judged}: {why}."


def answer(row: TacticSummary, player_game: dict | None = None) -> str:
    """The question and one answer, its population named: the whole-deal cost with its
    interval, how often the advised card is the best, a random card's cost, what the mover
    saw, the outcomes lost in the game's words, the verdict by ``SOUND_RULE``, and with
    ``player_game`` (the study's player's game) the same cost where a side cannot see."""
    d, policy = _digits(row.unit), row.policy
    unit = UNIT_WORDS.get(row.unit or "", row.unit or "")
    asked, doing = question(row)
    if not policy.deals:
        return f"{asked}? The advice never applied in these {row.deals} deals."
    cost, best = policy.cost["uniform"], row.oneoff[0].best_by_points["advised"]
    text = (f"{asked}: {doing} costs {_range(cost, d)} {unit} a deal against perfect play; the card it "
            f"advises is the best card {_share(best)} of the time; a random card costs "
            f"{_x(policy.cost['random'].mean, d)}.")
    text += _situations(row, d) + _levels(policy)
    text += verdict_words(row, unit)
    text += _player_game_words(row, player_game, d, unit)
    text += (f" [{policy.deals} deals of this study where it applied, {policy.runs} seats; the best-card "
             f"share at the first decision, {row.oneoff[0].deals} deals]")
    return text


def _player_game_words(row: TacticSummary, table: dict | None, d: int, unit: str) -> str:
    """' Where the other side plays by PIMC (it sees what a player sees), on 50 deals: following
    it costs 4.6 (3.0 to 6.7) card points a deal against the seat's own double-dummy play, a
    random card 8.6; advice − random -4.0 (-7.0 to -0.9).'  Empty without a player's game."""
    if table is None:
        return ""
    mine = next((r for r in table["tactics"] if r["tactic"] == row.tactic), None)
    if mine is None or not mine["deals"] or _nan(mine["uniform"]["mean"]):
        return ""
    where = ("Where the other side plays by PIMC (it sees what a player sees)" if table["opponent"] == "player"
             else "Against perfect play by the other side")
    own = "own play by PIMC" if table["mover"] == "player" else "own double-dummy play"
    cost, vs_random = _game_estimate(mine, "uniform"), _game_estimate(mine, "random_minus_advice", -1)
    return (f" {where}, on {mine['deals']} deals: following it costs {_range(cost, d, ' to ')} {unit} a deal "
            f"against the seat's {own}, a random card {_x(mine['random']['mean'], d)}; advice − random "
            f"{_range(vs_random, d, ' to ')}.")


def _game_estimate(row: dict, key: str, sign: int = 1) -> Estimate:
    """A figure of the player's game (``row[key]``: its JSON mean and interval, None for NaN)
    times ``sign``, the interval turned round with it."""
    est = row[key]
    mean, low, high = (math.nan if x is None else sign * x for x in (est["mean"], *est["interval"]))
    low, high = (high, low) if sign < 0 else (low, high)
    return Estimate(mean, low, high, row["deals"])


def _range(est: Estimate, digits: int, between: str = "–") -> str:
    """'4.6 (3.0–6.7)': ``_ci`` for a sentence; ``between`` " to " where an end may be negative
    (a dash would misread it)."""
    return _x(est.mean, digits) + ("" if _nan(est.low) else
                                   f" ({_x(est.low, digits)}{between}{_x(est.high, digits)})")


def _share(est: Estimate) -> str:
    return "–" if _nan(est.mean) else share_text(est.mean)


def _situations(row: TacticSummary, d: int) -> str:
    """' By what the mover saw at its first use: at a lead, the opponent must follow under it:
    1.1 (a random card 10.6; 23 deals); ...' (every run in one group)."""
    if not row.situations:
        return ""
    groups = sorted(row.situations, key=lambda g: g.cost.mean)
    parts = [f"{g.value}: {_x(g.cost.mean, d)} (a random card {_x(g.random.mean, d)}; "
             f"{g.deals} deal{'s' if g.deals != 1 else ''})" for g in groups]
    both = (" (a deal where two seats saw different things counts in both)"
            if sum(g.deals for g in groups) > row.policy.deals else "")
    return f" By what the mover saw at its first use{both}: " + "; ".join(parts) + "."


def level_words(level: str) -> str:
    """An outcome level in the game's words: "simple" is "the game", "schneider (2)" is
    "Schneider (2)" (the words after the level are kept)."""
    head, _, rest = level.partition(" ")
    return LEVEL_WORDS.get(head, head) + (f" {rest}" if rest else "")


def outcome_words(words: str) -> str:
    """An outcome from the mover's side (``Result.outcome``) as a player says it: "own simple"
    is "won", "own win (1)" "won (1)", "own win for the first" "won for the first", "other
    side's win for the first" "lost to a win for the first", "other side's schneider" "lost
    with Schneider", "tie" "the draw"."""
    for whose, verb in (("own ", "won"), ("other side's ", "lost")):
        if words.startswith(whose):
            level, score = _score_apart(words[len(whose):])
            if level in ("simple", "win"):
                said = verb
            elif level.startswith("win "):                  # "win for the first"
                said = f"won {level[4:]}" if verb == "won" else f"lost to a {level}"
            else:
                said = f"{verb} with {level_words(level)}"
            return f"{said} {score}" if score else said
    return level_words(words)


def _score_apart(level: str) -> tuple[str, str]:
    """ "win (1)" as ("win", "(1)"): only a trailing score in brackets is split off."""
    head, bracket, rest = level.rpartition(" (")
    if bracket and rest.endswith(")") and rest[:-1].isdigit():
        return head, f"({rest}"
    return level, ""


def change_words(change: str) -> str:
    """ "own simple → tie" as "won → the draw"."""
    return " → ".join(outcome_words(part) for part in change.split(" → "))


def _changes(changes: dict[str, float], before_share: str = " in ", shares: list[str] | None = None) -> str:
    texts = shares if shares is not None else [share_text(share) for share in changes.values()]
    return ", ".join(f"{change_words(change)}{before_share}{text}" for change, text in zip(changes, texts))


def _levels(policy: PolicyTable) -> str:
    """' Against perfect play the outcome is worse in 13% of the deals: won → lost in 10%, ...'."""
    worse, changes = policy.worse_outcome.get("uniform"), policy.worse_outcomes.get("uniform", {})
    if worse is None or _nan(worse.mean) or not changes:
        return ""
    total, parts = parts_texts(sum(changes.values()), list(changes.values()))    # the sum is worse.mean
    return f" Against perfect play the outcome is worse in {total} of the deals: {_changes(changes, shares=parts)}."


# --- a sentence per tactic -----------------------------------------------------------------------

def sentence(row: TacticSummary) -> str:
    """What following the advice costs, in one plain sentence."""
    d = _digits(row.unit)
    unit = UNIT_WORDS.get(row.unit or "", row.unit or "")
    policy = row.policy
    head = f"{row.tactic} — \"{row.summary.rstrip('.')}\""
    if not policy.deals or policy.vs_random is None:
        return f"{head}: never applied in these {row.deals} deals."
    cost, random_cost = policy.cost["uniform"], policy.cost["random"]
    diff = policy.vs_random
    so = _against_random(diff, d)
    text = (f"{head}: following it for a whole deal costs {_ci(cost, d)} {unit} against perfect play; "
            f"a random card at the same moments costs {_ci(random_cost, d)}, {so} "
            f"(advice − random {_ci(diff, d)}, p {_p_words(diff)}).")
    worse = policy.worse_outcome
    if worse.get("uniform") is not None and not _nan(worse["uniform"].mean):
        text += (f" The outcome is worse than perfect play's in {share_text(worse['uniform'].mean)} of deals "
                 f"(random card: {share_text(worse['random'].mean)}).")
    text += f" [{policy.deals} deals, {policy.runs} seats]"
    if row.same_as is not None:
        text += f" Same advice as {row.same_as} on every deal here."
    return text


def _against_random(diff: Test, d: int) -> str:
    """'so the advice costs 4.7 less' (than a random card), or why that cannot be said."""
    est, better = _est(diff), "less" if diff.mean < 0 else "more"
    unclear = "so the advice is not clearly cheaper or dearer than a random card"
    if est is not None and _nan(est.low):                 # no interval: one deal, or the same on each
        if est.deals < 2:
            return f"{unclear} ({_x(diff.mean, d)} on one deal)"
        if not diff.mean:
            return "so the advice costs the same as a random card on every deal"
        return (f"so the advice costs {_x(abs(diff.mean), d)} {better} on every one of its {est.deals} deals "
                f"(no interval: nothing to resample)")
    if est is None or est.low <= 0 <= est.high:
        return f"{unclear} ({_x(diff.mean, d)}; the interval includes 0)"
    return f"so the advice costs {_x(abs(diff.mean), d)} {better}"


def _p_words(test: Test) -> str:
    """'= 0.03 Holm' for a sentence."""
    words = _p(test)
    return (words if words.startswith(("<", "≤")) else f"= {words}") + (" Holm" if test.p_holm is not None else "")


def _p(test: Test | None) -> str:
    """The Holm-adjusted p-value (the raw one where no family was formed)."""
    return "–" if test is None else p_text(test.shown_p, test.comparison.p_at_floor)


# --- the tables ---------------------------------------------------------------------------------------

def headline_table(summary: StudySummary, prefix: str | None) -> str:
    d = _digits(summary.unit)
    rows = []
    for t in summary.tactics:
        p = t.policy
        if not p.deals:
            rows.append([_short(t.tactic, prefix), 0] + ["–"] * 5)
            continue
        cost = p.cost
        rows.append([_short(t.tactic, prefix), p.deals, _ci(cost["uniform"], d),
                     f"{_x(cost['best'].mean, d)}–{_x(cost['worst'].mean, d)}", _ci(cost["random"], d),
                     _ci(p.vs_random, d), _p(p.vs_random)])
    return tabulate(rows, headers=["tactic", "deals", "advice", "best–worst", "random card",
                                   "advice − random", "p Holm"], tablefmt="simple", disable_numparse=True)


PLAYERS = {("player", "perfect"): "the other side plays by PIMC, the advised seat perfectly where the advice is silent",
           ("perfect", "player"): "the advised seat plays by PIMC where the advice is silent, the other side perfectly",
           ("player", "player"): "both sides play by PIMC (the advised seat where the advice is silent)"}


def player_game_text(summary: StudySummary, prefix: str | None) -> str | None:
    """The player's game (``--opponent player``, ``--mover player``): what the advice costs where
    a side cannot see, beside a random card at the same moments, and the two compared deal by
    deal, signed as in the double-dummy table (advice − random: below 0 the advice is better)."""
    table = summary.player_game
    if table is None:
        return None
    d = _digits(summary.unit)
    unit = UNIT_WORDS.get(summary.unit or "", summary.unit or "the game's unit")
    rows = [[_short(row["tactic"], prefix), row["deals"], _ci(_game_estimate(row, "uniform"), d),
             _ci(_game_estimate(row, "random"), d), _ci(_game_estimate(row, "random_minus_advice", -1), d)]
            for row in table["tactics"]]
    head = _fill(f"In the player's game ({PLAYERS[(table['opponent'], table['mover'])]}; {table['layouts']} "
                 f"layouts per decision). Cost: {table['estimand']}; {unit}.")
    return head + "\n" + tabulate(rows, headers=["tactic", "deals", "advice", "random card", "advice − random"],
                                   tablefmt="simple", disable_numparse=True)


def outcome_table(summary: StudySummary, prefix: str | None) -> str | None:
    rows = []
    for t in summary.tactics:
        worse = t.policy.worse_outcome
        if not worse or not t.policy.deals:
            continue
        changes = t.policy.worse_outcomes.get("uniform", {})
        shown = dict(list(changes.items())[:TABLE_CHANGES])
        rows.append([_short(t.tactic, prefix), _pct(worse["uniform"]), _pct(worse["random"]),
                     (_changes(shown, " ") + (", …" if len(changes) > len(shown) else "")) or "–"])
    if not rows:
        return None
    return tabulate(rows, headers=["tactic", "worse outcome: advice", "random card",
                                   "most frequent change: perfect play → the advice"],
                    tablefmt="simple", disable_numparse=True)


def oneoff_tables(summary: StudySummary, prefix: str | None) -> list[tuple[str, str]]:
    """(heading, table) of the one-off decisions: optimal cards, by points where that differs
    from keeping the outcome (objective score), and regret."""
    d = _digits(summary.unit)
    keeps, points, costs = [], [], []
    for t in summary.tactics:
        for row in t.oneoff:
            if not row.decisions:
                continue
            name, est = _short(t.tactic, prefix), row.estimand.value.split()[0]
            k, b, r = row.keeps_outcome, row.best_by_points, row.regret
            keeps.append([name, est, row.decisions, row.deals, _pct(k["advised"]), _pct(k["random"]),
                          _pct(k["every_advised"]), _pct(k["random_subset"])])
            points.append([name, est, _pct(b["advised"]), _pct(b["random"])])
            costs.append([name, est, _ci(r["advised"], d), _ci(r["random"], d), _ci(row.vs_random, d),
                          _p(row.vs_random), _x(r["hindsight"].mean, d)])
    optimal = "keeps the outcome" if summary.objective == "score" else "is best by points"
    out = [(f"the chance that the card played {optimal}: a uniformly chosen advised card, a random legal card; "
            f"that all advised cards do, and all of a random subset of as many legal cards.",
            tabulate(keeps, headers=["tactic", "est.", "decisions", "deals", "advised", "random card",
                                     "all advised", "subset"], tablefmt="simple", disable_numparse=True))]
    if summary.objective == "score":
        out.append(("the chance that the card played is best by points (a card can keep the outcome "
                    "and still give points away).",
                    tabulate(points, headers=["tactic", "est.", "advised", "random card"], tablefmt="simple",
                             disable_numparse=True)))
    out.append(("regret in the game's unit (the best card's total minus the card's); hindsight: the best "
                "card the advice rules out, picked knowing every card (a column only, never tested).",
                tabulate(costs, headers=["tactic", "est.", "advised card", "random card", "advised − random",
                                         "p Holm", "hindsight"], tablefmt="simple", disable_numparse=True)))
    return out


def player_tables(summary: StudySummary, prefix: str | None) -> str | None:
    d = _digits(summary.unit)
    rows = []
    for t in summary.tactics:
        p = t.policy.player
        if p:
            rows.append([_short(t.tactic, prefix), "whole deal", _ci(p.advice, d), _ci(p.random, d),
                         _ci(p.vs_random, d), _p(p.vs_random)])
        for row in t.oneoff:
            if row.player:
                pv = row.player
                est = "first" if row.estimand is Estimand.FIRST else "every"
                rows.append([_short(t.tactic, prefix), est, _ci(pv.advice, d), _ci(pv.random, d),
                             _ci(pv.vs_random, d), _p(pv.vs_random)])
    if not rows:
        return None
    return tabulate(rows, headers=["tactic", "estimand", "advice", "random card", "advice − random", "p Holm"],
                    tablefmt="simple", disable_numparse=True)


def by_tables(summary: StudySummary, prefix: str | None) -> str | None:
    d = _digits(summary.unit)
    rows = []
    feature = None
    for t in summary.tactics:
        if t.by is None:
            continue
        feature, groups = t.by
        for group in groups:
            p, every = group.policy, group.oneoff[1]
            rows.append([_short(t.tactic, prefix), "–" if group.value is None else group.value,
                         p.deals, _ci(p.cost.get("uniform"), d), _ci(p.cost.get("random"), d),
                         every.decisions, _ci(every.regret["advised"], d),
                         _x(every.regret["random"].mean, d)])
    if feature is None:
        return None
    return (_fill(f"By {feature} (whole deal: {feature} at the seat's first use of the advice, cost of "
                  f"the advice and of a random card; one-off: "
                  f"{'the first decision (--first)' if summary.first_only else 'every decision'}, deals weighted equally, "
                  f"regret of the advised and of a random card):") + "\n"
            + tabulate(rows, headers=["tactic", feature, "deals", "deal: advice", "random", "dec.",
                                      "one-off: advised", "random"],
                       tablefmt="simple", disable_numparse=True))


def conditional_text(summary: StudySummary, prefix: str | None) -> str | None:
    d = _digits(summary.unit)
    lines = []
    for t in summary.tactics:
        found = t.conditional or []
        for c in found[:CONDITIONAL_LINES]:
            diff = c.advice_minus_random
            low, high = sorted((abs(diff.low), abs(diff.high)))
            lines.append(_fill(f"  {_short(t.tactic, prefix)}, when {c.feature} = {c.value}: "
                               f"{c.verdict} than a random card by {_x(abs(diff.mean), d)} "
                               f"({_x(low, d)} to {_x(high, d)}; {c.deals} deals, {c.decisions} decisions)"))
        if len(found) > CONDITIONAL_LINES:
            lines.append(f"  {_short(t.tactic, prefix)}: {len(found) - CONDITIONAL_LINES} more in --json")
    if not lines:
        return None
    return (_fill("When does the advice hold?  Situations where one decision by the advice beats a random "
                  "card, or loses to one (one feature's value; the interval over deals leaves out 0; "
                  "exploratory: many situations are looked at):") + "\n" + "\n".join(lines))


def paired_text(summary: StudySummary, prefix: str | None) -> str | None:
    """Each pair of tactics played on the same deals by the same seats (``--paired``)."""
    if not summary.paired:
        return None
    d = _digits(summary.unit)
    def name(tactic: str) -> str:
        return _short(tactic, prefix)
    rows = [[name(p.a), name(p.b), p.deals, f"{_x(p.cost_a.mean, d)}, {_x(p.cost_b.mean, d)}",
             _ci(p.difference.estimate, d), f"{p.difference.lower}/{p.difference.equal}/{p.difference.higher}",
             p_text(p.difference.p if p.p_holm is None else p.p_holm, p.difference.p_at_floor)]
            for p in summary.paired]
    return (_fill("Paired: every tactic played on the same deals by the same seats from the same start "
                  f"(estimand: {summary.paired[0].estimand}). a − b < 0: a costs less; deals a lower / equal / "
                  "higher; p from a sign-flip test over deals, Holm over the pairs; *.depthN: a learned rule; "
                  "each cost's interval and the seats are in --json).") + "\n"
            + tabulate(rows, headers=["a", "b", "deals", "cost a, b", "a − b", "</=/>", "p Holm"],
                       tablefmt="simple", disable_numparse=True))


def learned_text(summary: StudySummary) -> str | None:
    """The rules ``--learn`` found, each with its cost on held-out deals."""
    learned = summary.learned
    if learned is None:
        return None
    if not learned:
        return "Learned rules: none (the advice never applied with another card to play)."
    d = _digits(summary.unit)
    held, first = learned[0].held_out, learned[0].rule
    where = "".join(f" --where {w!r}" for w in held["where"])
    lines = [_fill(f"Learned rules (a decision tree of depth 1-3 over what the mover sees, fitted on "
                   f"{first.decisions} decisions of {first.deals} deals), each played on {held['deals']} "
                   f"held-out deals (stich deal --game {held['game']} --seed {held['seed']} -n "
                   f"{held['deals']}{where}), never used to learn it:")]
    for row in learned:
        lines.append(_fill(f"  {_short(row.rule.name, None)}: {row.rule.sentence}."))
    rows = [[_short(r.rule.name, None), r.policy.deals, _ci(r.policy, d), _ci(r.baseline, d),
             _x(r.random.mean, d), _ci(r.vs_baseline.estimate, d),
             p_text(r.vs_baseline.p if r.p_holm is None else r.p_holm, r.vs_baseline.p_at_floor)]
            for r in learned]
    lines.append(tabulate(rows, headers=["rule", "deals", "rule", "old advice", "random",
                                         "rule − old", "p Holm"], tablefmt="simple",
                          disable_numparse=True))
    lines.append(_fill(f"  (estimand: {learned[0].estimand}; the same deals and seats in every column; "
                       f"the random card's interval is in --json)"))
    return "\n".join(lines)


def different_deals(summary: StudySummary, prefix: str | None) -> str | None:
    """A warning where the tactics applied to different deals: each one's figures are on its
    own deals, and set side by side they would compare the deals as much as the advice."""
    applied = [t for t in summary.tactics if t.policy.deals]
    if len({t.policy.deal_ids for t in applied}) < 2:
        return None
    counts = ", ".join(f"{_short(t.tactic, prefix)} {t.policy.deals}" for t in applied)
    where = ("the paired table below plays them on the same deals by the same seats" if summary.paired
             else "--paired plays them on the same deals by the same seats")
    return (f"These tactics applied to different deals ({counts}): each one's figures are on its own deals, "
            f"so they do not compare the tactics; {where}.")


def _fill(text: str) -> str:
    return textwrap.fill(text, WIDTH, subsequent_indent="    " if text.startswith("  ") else "  ")


def tactic_report(summary: StudySummary, game: str | None = None) -> str:
    prefix = _game_prefix(summary)
    unit = UNIT_WORDS.get(summary.unit or "", summary.unit or "the game's unit")
    title = (f"{game or prefix or 'tactics'}: {summary.deals} deals, objective {summary.objective}, "
             f"costs in {unit}; [95% intervals] over deals (bootstrap; each on its own, not adjusted for the "
             f"many figures), p from a sign-flip test over deals (Holm over the tactics)")
    parts = [_fill(title), ""]
    parts.append("\n\n".join(_fill(answer(t, summary.player_game)) for t in summary.tactics))
    apart = different_deals(summary, prefix)
    parts += ([_fill(apart)] if apart else []) + [""]
    parts += [_fill(sentence(t)) for t in summary.tactics]
    parts += ["", _fill("Following the advice for a whole deal: the cost against perfect play (estimand: the "
                        "whole deal played by the advice, each deal once as the mean over the seats it "
                        "applied to). advice: a uniform pick among the advised cards; best–worst: always "
                        "the best or the worst of them; random card: a random legal card at the same "
                        "moments."),
              headline_table(summary, prefix)]
    outcome = outcome_table(summary, prefix)
    if outcome:
        parts += ["", "Outcomes (share of deals whose outcome is worse than perfect play's):", outcome]
    parts += ["", _fill("One decision at a time, on the optimal line (est.: first = each deal's first "
                        "decision where the advice applied; every = every such decision, the deals weighted "
                        "equally)." + (" With --first only each deal's first decision was recorded: the "
                                       "every rows are of those first decisions too." if summary.first_only
                                       else ""))]
    for heading, table in oneoff_tables(summary, prefix):
        parts += ["", _fill(heading[0].upper() + heading[1:]), table]
    player = player_tables(summary, prefix)
    if player:
        parts += ["", _fill("From the player's view (expected loss over the layouts the mover cannot tell "
                            "apart):"), player]
    for extra in (player_game_text(summary, prefix), paired_text(summary, prefix), learned_text(summary),
                  by_tables(summary, prefix), conditional_text(summary, prefix)):
        if extra:
            parts += ["", extra]
    left = _left_out(summary)
    if left:
        parts += ["", "NOT EXACT (a limit was hit; left out of every figure):", *left]
    return "\n".join(parts)


def _left_out(summary: StudySummary) -> list[str]:
    out = []
    for t in summary.tactics:
        n = t.not_exact
        if n.any():
            out.append(f"  {t.tactic}: {n.deals} deals, {n.decisions} decisions, {n.runs} runs")
    return out


# --- the forest plot -----------------------------------------------------------------------------------

def plot_marks(player: bool) -> list[tuple]:
    """(label, figure of a tactic, marker, colour, offset) of each kind of point: the
    double-dummy ones, and with ``player`` (``--view player``) the whole deal from the mover's
    chair."""
    marks = [("advice (whole deal)", lambda t: t.policy.cost["uniform"], "o", "tab:blue"),
             ("random card (whole deal)", lambda t: t.policy.cost["random"], "s", "tab:gray"),
             ("best other card, in hindsight (first decision)",
              lambda t: t.oneoff[0].regret["hindsight"], "^", "tab:orange")]
    if player:
        marks += [("advice, player's view (expected loss, whole deal)",
                   lambda t: t.policy.player and t.policy.player.advice, "D", "tab:green"),
                  ("random card, player's view", lambda t: t.policy.player and t.policy.player.random,
                   "v", "tab:olive")]
    step = 0.6 / max(1, len(marks) - 1)
    return [(*mark, -0.3 + step * k) for k, mark in enumerate(marks)]


PLOT_SUFFIXES = (".png", ".svg", ".pdf")      # the formats ``forest_plot`` writes, by the name's ending


def forest_plot(summary: StudySummary, path: str, game: str | None = None) -> None:
    """Per tactic: what following the advice for a whole deal costs, what a random card at the
    same moments costs, and the best card the advice rules out at its first decision (in
    hindsight), each with its 95% interval over deals, against a zero line."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = [t for t in summary.tactics if t.policy.deals]
    prefix = _game_prefix(summary)
    unit = UNIT_WORDS.get(summary.unit or "", summary.unit or "")
    player = any(t.policy.player is not None for t in rows)
    marks = plot_marks(player)
    legend = 0.1 + 0.2 * (3 if player else 1)            # inches below the axis for the legend
    height = 1.6 + legend + 0.16 * len(marks) * max(1, len(rows))
    fig, ax = plt.subplots(figsize=(9, height))
    for label, get, marker, colour, offset in marks:
        xs, lows, highs, ys = [], [], [], []
        for k, t in enumerate(rows):
            part = _est(get(t))
            if part is None:
                continue
            low, high = (part.mean, part.mean) if _nan(part.low) else (part.low, part.high)
            xs.append(part.mean)
            lows.append(part.mean - low)
            highs.append(high - part.mean)
            ys.append(len(rows) - 1 - k + offset)
        ax.errorbar(xs, ys, xerr=[lows, highs], fmt=marker, color=colour, label=label, capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_short(t.tactic, prefix) for t in reversed(rows)])
    against = "against perfect play" + (", or expected loss from the mover's chair" if player else "")
    ax.set_xlabel(f"cost in {unit} {against}\n(95% intervals over deals)")
    view = ", player's view" if player else ""
    ax.set_title(f"{game or prefix or 'tactics'}: {summary.deals} deals, objective {summary.objective}{view}")
    fig.legend(*ax.get_legend_handles_labels(), loc="lower center", ncol=2 if player else 3,
               fontsize="small", frameon=False)
    fig.tight_layout(rect=(0, legend / height, 1, 1))
    fig.savefig(path)
    plt.close(fig)

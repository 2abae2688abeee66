"""The reports of the player's view: ``stich suggest`` and ``stich replay --view player``."""

from __future__ import annotations

from collections.abc import Iterable

from tabulate import tabulate

from stich.report.common import UNIT_WORDS, level_text, mean_text, share_text
from stich.view.suggest import Judgement, Suggestion


def suggest_json(s: Suggestion) -> dict:
    """The JSON of a suggestion; without advice (every layout over the limit, or Ctrl-C
    before the first) it still says what is known: ``"exact": false`` and the counts."""
    a = s.advice
    obj = {
        "seat": s.info.seat, "objective": s.objective, "mode": s.mode, "seed": s.seed,
        "layouts": a.layouts if a else 0, "consistent_layouts": s.count, "hidden_cards": len(s.info.pool),
        "best": a.best if a else None, "runner_up": a.runner_up if a else None,
        "measure": a.measure if a else None, "margin": a.margin if a else None,
        "margin_interval": list(a.margin_interval) if a and a.margin_interval else None,
        "sure": a.sure(_unit(s)) if a else None, "total_margin": a.total_margin if a else None,
        "totals": a.totals if a else None, "p_best_by": a.p_best_by if a else None,
        "rungs": [{"rung": rung, "level": level, "words": level_text(level)} for rung, level in a.rungs] if a else [],
        "cards": [_card_json(a, v) for v in (a.cards if a else ())],
        "notes": _table_notes(a) if a else [],      # what the table leaves out or counts twice
        "seconds": round(s.seconds, 3),
    }
    if not s.exact:
        obj.update(exact=False, layouts_left_out=s.left_out)
    if s.stopped == "interrupt":
        obj.update(interrupted=True, layouts_unfinished=s.unfinished)
    return obj


NOT_NEEDED = "not needed to decide"


def _card_json(a, v) -> dict:
    """One card: its expected total, or null and why (``expected_total_note``)."""
    out = {"card": v.card, "expected_total": v.mean,
           "interval": list(v.interval) if v.interval else None, "p_best": v.p_best,
           "expected_rung": v.mean_rank, "levels": v.levels}
    if v.mean is None and a.totals == "deciding":
        out["expected_total_note"] = NOT_NEEDED
    return out


def suggest_report(s: Suggestion) -> str:
    a = s.advice
    solved = a.layouts if a else 0
    how = (f"all {solved} consistent layouts (exact)" if s.mode == "exact" and s.exact
           else f"{solved} of the {s.count:,} consistent layouts" if s.mode == "exact"
           else f"{solved} layouts drawn uniformly from {s.count:,} (seed {s.seed})")
    hidden = len(s.info.pool)
    if s.count == 1 and hidden:          # what the seat has seen places every hidden card
        first = (f"Seat {s.info.seat} to move; the {hidden} cards hidden from it can lie only one way "
                 f"(what it has seen places them): the double-dummy answer.")
    else:
        first = f"Seat {s.info.seat} to move; {hidden} cards hidden from it; {how}."
    lines = [first, ""]
    if a is not None:
        lines += [_card_table(s), *_table_notes(a), "", f"Play {a.best}: {a.sure(_unit(s))}."]
    else:
        lines.append("No advice: no layout was solved exactly.")
    lines.append(f"({s.seconds:.1f} s)")
    if s.left_out:
        lines += ["", f"NOT EXACT: {s.left_out} of {s.left_out + solved + s.unfinished} layouts hit the "
                      f"limit and are left out; the figures are over the other {solved} only."]
    if s.stopped == "interrupt":
        lines += ["", f"INTERRUPTED (Ctrl-C): {s.unfinished} layouts were not solved; the figures "
                      f"are over the {solved} finished only."]
    return "\n".join(lines)


def _card_table(s: Suggestion) -> str:
    a = s.advice
    unit = s.info.deal.rule_set.unit
    rows = []
    totals = _totals_shown(a)
    for v in a.cards:
        interval = "exact" if s.mode == "exact" and s.exact else (
            f"{v.interval[0]:.2f}–{v.interval[1]:.2f}" if v.interval else "-")
        levels = ", ".join(f"{level_text(name)} {share_text(share)}" for name, share in v.levels.items())  # best first
        shown = [mean_text(v.mean), interval] if v.mean is not None else ["not needed", ""]
        row = [v.card] + (shown if totals else []) + [share_text(v.p_best)]
        if a.measure == "rung":
            row.append(mean_text(v.mean_rank) if v.mean_rank is not None else "-")
        rows.append(row + [levels])
    best = "P(dd best)" if a.p_best_by == "total" else "P(best rung)"
    headers = ["card"] + ([f"expected {unit}", "95% interval"] if totals else []) + [best]
    if a.measure == "rung":
        headers.append("expected rung")
    align = ["left"] + (["right", "left"] if totals else []) + ["left"] + (["right"] if a.measure == "rung" else [])
    # the texts as written: tabulate would read "4.00" as a number and print "4"
    return tabulate(rows, headers=headers + ["outcome levels"], colalign=align + ["left"], disable_numparse=True)


def _totals_shown(a) -> bool:
    """Does the table have the expected totals' columns?  Not with --no-totals, nor where the
    rungs alone decided and no total was searched."""
    return a.totals != "none" and any(v.mean is not None for v in a.cards)


def _table_notes(a) -> list[str]:
    """What a table without every total means (one line each)."""
    notes = []
    if not a.exact and any(v.mean is not None and v.interval is None for v in a.cards):
        notes.append("(interval -: every layout drawn gave the card the same total, or only one was "
                     "drawn; the sample cannot bound the layouts not drawn)")
    if a.totals == "deciding" and _totals_shown(a):
        notes.append("(not needed: the card's expected rung places it without its total; "
                     "--all-totals shows it)")
    elif a.totals == "deciding":
        notes.append("(no expected totals: the expected rungs alone name the best card and the "
                     "runner-up; --all-totals adds them)")
    if a.p_best_by == "rung":
        notes.append("(P(best rung): share of layouts where the card forces the best rung of any card)")
    if sum(v.p_best for v in a.cards) > 1 + 1e-9:
        notes.append(f"({'P(best rung)' if a.p_best_by == 'rung' else 'P(dd best)'}: cards tied for the best "
                     f"on a layout each count it, so the column adds up to more than 100%)")
    if a.measure == "rung" and a.rungs:
        notes.append("(expected rung: the mean rung of the outcome's ladder, higher is better for the seat: "
                     + ", ".join(f"{rung} {level_text(level)}" for rung, level in a.rungs) + ")")
    return notes


def judgement_rows(replay_steps, judgements: Iterable[Judgement]) -> list[list]:
    """Double-dummy and player's-view judgements side by side, one row per card played."""
    rows = []
    for step, j in zip(replay_steps, judgements):
        lost = (["outcome"] if step.rank_cost > 0 else []) + ([f"cost {step.cost}"] if step.cost else [])
        dd = ", ".join(lost) or "ok"                   # as replay's cost and mistake columns
        if not j.judged:
            rows.append([step.trick, step.seat, j.card, dd, "not judged (every layout hit the limit)",
                         "", "", f"0 ({j.left_out} over the limit)"])
            continue
        unit = "rungs" if j.measure == "rung" else "in total"
        pv = "best guess" if j.loss <= 1e-9 else f"-{j.loss:.2f} {unit} (best {j.best})"
        behind = j.best_expected - j.expected
        if j.loss <= 1e-9 and j.best != j.card and behind > 1e-9:    # the same rung, fewer points
            pv = f"same rung, -{behind:.2f} in total (best {j.best})"
        p_best = share_text(j.p_best) + (" by rung" if j.p_best_by == "rung" else "")
        rows.append([step.trick, step.seat, j.card, dd, pv, f"{j.expected:.2f}", p_best,
                     f"{j.layouts}{' exact' if j.exact else ''}"
                     + (f" ({j.left_out} over the limit)" if j.left_out else "")])
    return rows


JUDGEMENT_HEADERS = ["trick", "seat", "card", "double-dummy", "player's view", "expected",
                     "P(dd best)", "layouts"]
JUDGEMENT_ALIGN = ["right", "right", "left", "left", "left", "right", "left", "right"]


def judgement_report(replay_steps, judgements: list[Judgement]) -> str:
    head = ("Player's view: each card judged from what its player could see then (expected "
            "total of its side over the layouts it could not tell apart).")
    text = head + "\n\n" + tabulate(judgement_rows(replay_steps, judgements), headers=JUDGEMENT_HEADERS,
                                     colalign=JUDGEMENT_ALIGN, disable_numparse=True)   # "30.00" stays
    if any(j.judged and j.p_best_by == "rung" for j in judgements):
        text += ("\n(P(dd best) \"by rung\": the share of layouts where the card forces the best rung "
                 "of any card, counted by the rung alone where the totals to order that rung were not "
                 "needed)")
    return text


def judgement_json(judgements: list[Judgement]) -> list[dict]:
    return [{"trick": j.trick, "seat": j.seat, "card": j.card, **({} if j.judged else {"judged": False}),
             "expected": j.expected if j.judged else None, "best": j.best or None,
             "best_expected": j.best_expected if j.judged else None,
             "loss": j.loss if j.judged else None, "p_best": j.p_best if j.judged else None,
             "p_best_by": j.p_best_by,
             "measure": j.measure, "layouts": j.layouts, "exact": j.exact,
             **({"layouts_left_out": j.left_out} if j.left_out else {})} for j in judgements]


def _unit(s: Suggestion) -> str:
    return UNIT_WORDS[s.info.deal.rule_set.unit]

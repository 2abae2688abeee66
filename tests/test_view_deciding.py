"""The player's view with only the deciding totals (``suggest``'s default, ``totals="deciding"``).

Each layout is first solved for every card's outcome rung; then only the cards that can be the
best card or the runner-up get their exact totals (``stich.view.decide``).  Every figure the
default prints must be the one every card's totals give (``totals="all"``): the best card,
the runner-up, the margins, every expected total it prints, P(dd best) where it is printed as
such; and a total it does not print must be one that cannot change the advice.
"""

from __future__ import annotations

import pytest
from randompositions import MODES, generate

from stich.deals.deal import loads
from stich.deals.dealing import random_deal
from stich.search.solve import new_engine, solve
from stich.view import information
from stich.view.decide import card_totals, deciding_cards, deciding_groups
from stich.view.suggest import aggregate, judge_play, score_layout, score_layouts_here, suggest


def positions():
    for mode in sorted(MODES):
        for seed in range(6):
            text = generate(mode, 7100 + seed, "large")
            if not loads(text, "<layout>").position().is_over():
                yield pytest.param(text, id=f"{mode}-{seed}")
    for game, seed in [("schafkopf2", 1), ("elfern", 3), ("officers_skat", 4), ("einwerfen", 5),
                       ("bohemian_schneider", 6)]:
        yield pytest.param(random_deal(game, seed).dump(), id=f"{game}-deal-{seed}")


@pytest.mark.parametrize("text", list(positions()))
def test_card_totals_are_the_full_solves(text):
    """The totals after each card, searched alone, are those of the full solve of the layout."""
    deal = loads(text, "<layout>")
    seat = deal.position().to_move + 1
    full = score_layout(text, seat, "score", 4)
    cards = tuple(r[0] for r in full)
    got = card_totals(text, seat, cards, 4, engine=new_engine(4))
    assert got == {r[0]: (r[1], r[2]) for r in full}
    some = cards[::2]
    assert card_totals(text, seat, some, 4, engine=new_engine(4)) == {c: got[c] for c in some}
    # each card's rung bounds its total where the ladder is of point thresholds
    if all(r[4] is not None for r in full):
        ranks = tuple(r[4] for r in full)
        assert card_totals(text, seat, cards, 4, engine=new_engine(4), ranks=ranks) == got


def test_deciding_groups():
    """A total decides only where it breaks a tie for the best card or the runner-up."""
    assert deciding_groups({"a": 5, "b": 5, "c": 4}) == [5]
    assert deciding_groups({"a": 5, "b": 5, "c": 4, "d": 4}) == [5]
    assert deciding_groups({"a": 5, "b": 4, "c": 4, "d": 3}) == [4]
    assert deciding_groups({"a": 5, "b": 4, "c": 3, "d": 3}) == []
    assert deciding_groups({"a": 5}) == []
    assert deciding_groups({"a": 2, "b": 2}) == [2]
    # with the best card's total asked for too
    assert deciding_groups({"a": 5, "b": 4, "c": 4}, best=True) == [5, 4]
    assert deciding_groups({"a": 5, "b": 4, "c": 3}, best=True) == [5]
    assert deciding_groups({"a": 5, "b": 5, "c": 4}, best=True) == [5]


SPOTS = [("scharwenzel", 11, 20), ("scharwenzel", 21, 8), ("schafkopf2", 12, 20), ("schafkopf2", 22, 6),
         ("elfern", 13, 26), ("elfern", 23, 12), ("officers_skat", 14, 20), ("einwerfen", 15, 16),
         ("bohemian_schneider", 16, 14)]


def info_at(game: str, seed: int, plies: int):
    deal = random_deal(game, seed)
    line = solve(deal).line
    here = deal.after(list(line[:plies]))
    return information(here, here.position().to_move + 1)


def printed(s):
    """Everything the advice prints, with P(dd best) only where it is printed as such, and the
    difference in totals to the runner-up only where it was searched."""
    a = s.advice
    cards = {v.card: (v.mean, v.interval, v.mean_rank, v.levels,
                      v.p_best if a.p_best_by == "total" else None) for v in a.cards}
    return (a.best, a.runner_up, a.margin, a.margin_interval, a.measure, a.tied,
            [v.card for v in a.cards if v.mean is not None]), cards


@pytest.mark.parametrize("objective", ["score", "total"])
@pytest.mark.parametrize("game,seed,plies", SPOTS)
def test_deciding_prints_what_every_total_gives(game, seed, plies, objective):
    info = info_at(game, seed, plies)
    every = suggest(info, samples=10, seed=3, objective=objective, jobs=1, tt_megabytes=8, totals="all")
    some = suggest(info, samples=10, seed=3, objective=objective, jobs=1, tt_megabytes=8)
    (head, cards), (head_all, cards_all) = printed(some), printed(every)
    assert head[:-1] == head_all[:-1]
    # the totals' difference breaks a tie in the expected rung: there it is always searched
    a = some.advice
    if a.total_margin is not None or a.margin == 0:
        assert (a.total_margin, a.total_interval) == (every.advice.total_margin, every.advice.total_interval)
    # the same order, but among cards of one expected rung whose totals are not all known,
    # which keep the listing's order
    assert [v.mean_rank for v in some.advice.cards] == [v.mean_rank for v in every.advice.cards]
    known = [v.card for v in some.advice.cards if v.mean is not None]
    assert known == [v.card for v in every.advice.cards if v.card in known]
    for card, (mean, interval, rank, levels, p_best) in cards.items():
        full = cards_all[card]
        assert (rank, levels) == full[2:4]
        if mean is not None:
            assert (mean, interval) == full[:2]
        if p_best is not None:
            assert p_best == full[4]
    left = [v for v in some.advice.cards if v.mean is None]
    if objective == "total":
        assert not left and some.advice.totals == "all"
    else:
        # a total left out belongs to a card below every card that could be best or runner-up
        # (the runner-up's rung: the top one when tied there, else the second), or to a card
        # alone on its expected rung, which the rung places whatever its total
        cut = every.advice.cards[1].mean_rank
        ranks = [v.mean_rank for v in every.advice.cards]
        assert all(v.mean_rank < cut or ranks.count(v.mean_rank) == 1 for v in left)
        assert some.advice.totals == ("deciding" if left else "all")


def test_the_deciding_totals_are_needed():
    """Leaving out any deciding card's total would leave the advice undecided: on a spot with
    a tie on the top expected rung, every card of that rung has its total."""
    info = info_at("schafkopf2", 22, 6)
    some = suggest(info, samples=10, seed=3, jobs=1, tt_megabytes=8)
    rows = [score_layout(info.fill(layout).dump(), info.seat, "score", 8, totals=False)
            for layout in __import__("stich.view", fromlist=["sample_layouts"]).sample_layouts(info, 10, 3)]
    need = deciding_cards(rows, "score")
    assert {v.card for v in some.advice.cards if v.mean is not None} == need
    assert some.advice.best in need and some.advice.runner_up in need


def test_judge_play_reads_exact_totals():
    """``replay --view player``: the played card's and the best card's expected totals are
    those every card's totals give."""
    deal = random_deal("schafkopf2", 31)
    line = solve(deal).line
    played = deal.after(list(line[:6]))
    some = judge_play(played, samples=6, seed=1, jobs=1, tt_megabytes=8)
    every = judge_play(played, samples=6, seed=1, jobs=1, tt_megabytes=8, totals="all")
    for a, b in zip(some, every):
        assert (a.card, a.expected, a.best, a.best_expected, a.loss, a.measure) == \
               (b.card, b.expected, b.best, b.best_expected, b.loss, b.measure)
        if a.p_best_by == "total":
            assert a.p_best == b.p_best


@pytest.mark.parametrize("game,seed,plies", SPOTS[:5])
def test_pimc_card_is_suggest_card(game, seed, plies):
    """PIMC's rows (rungs, then the deciding totals, on its own engine) choose the card that
    every card's totals choose."""
    from stich.view import sample_layouts
    from stich.view.suggest import layout_set
    info = info_at(game, seed, plies)
    texts = [info.fill(layout).dump() for layout in sample_layouts(info, 8, 5)]
    share = layout_set(info, "score")
    engine = new_engine(8)
    rows = score_layouts_here(texts, info.seat, "score", 8, share, engine)
    full = [score_layout(t, info.seat, "score", 8) for t in texts]
    assert aggregate(rows, False, "score").best == aggregate(full, False, "score").best
    assert aggregate(rows, False, "score").runner_up == aggregate(full, False, "score").runner_up


def test_report_marks_the_totals_not_needed():
    """Cards tied on the top expected rung get their totals and the others print "not
    needed"; where the rungs alone decide, the table has no totals' columns and says why."""
    from stich.report.suggest import NOT_NEEDED, suggest_json, suggest_report
    from stich.view import read_view
    info = read_view("examples/hidden/scharwenzel-hidden.toml", 3)
    s = suggest(info, samples=20, seed=0, jobs=1, tt_megabytes=8)
    assert s.advice.totals == "deciding"
    data = suggest_json(s)
    skipped = [c for c in data["cards"] if c["expected_total"] is None]
    assert skipped and all(c["expected_total_note"] == NOT_NEEDED for c in skipped)
    assert data["p_best_by"] == "rung"
    text = suggest_report(s)
    assert "not needed" in text and "P(best rung)" in text and "P(dd best)" not in text
    assert "expected tricks" in text and "no expected totals" not in text
    assert data["notes"] and all(note in text for note in data["notes"])    # the JSON's notes are the table's
    every = suggest_report(suggest(info, samples=20, seed=0, jobs=1, tt_megabytes=8, totals="all"))
    assert "not needed" not in every and "P(dd best)" in every

    alone = suggest(read_view("examples/scharwenzel-ending.toml", 3), samples=20, seed=0, jobs=1,
                    tt_megabytes=8)
    ranks = [v.mean_rank for v in alone.advice.cards]
    assert len(set(ranks[:2])) == 2 and ranks.count(ranks[1]) == 1    # the rungs decide alone
    assert alone.advice.totals == "deciding" and all(v.mean is None for v in alone.advice.cards)
    text = suggest_report(alone)
    assert "expected tricks" not in text and "no expected totals" in text
    assert all(c["expected_total_note"] == NOT_NEEDED for c in suggest_json(alone)["cards"])
    assert any("no expected totals" in note for note in suggest_json(alone)["notes"])


def test_ctrl_c_in_the_second_round_keeps_the_layouts_with_their_totals(monkeypatch):
    """Ctrl-C while the deciding totals are searched: the layouts whose totals were found are
    the figures; the others are unfinished (every card of this deal decides on every layout)."""
    import json

    from click.testing import CliRunner

    import stich.view.decide as decide
    import stich.view.suggest as module
    from stich.cli.main import main
    original, calls = module.card_totals, []
    monkeypatch.setattr(decide, "WARM_AFTER", 10**9)     # no totals guessed in the first round

    def totals(*args, **kwargs):
        calls.append(1)
        if len(calls) > 5:
            raise KeyboardInterrupt
        return original(*args, **kwargs)
    monkeypatch.setattr(module, "card_totals", totals)
    result = CliRunner().invoke(main, ["suggest", "examples/hidden/schafkopf2-hidden.toml", "--exact",
                                       "--jobs", "1", "--json"])
    assert result.exit_code == 130, result.output
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and data["exact"] is False
    assert data["layouts"] == 5 and data["layouts_unfinished"] == 19
    assert all(c["expected_total"] is not None for c in data["cards"])


def test_the_totals_a_worker_guesses_change_nothing(monkeypatch):
    """A worker that has seen a few layouts finds the totals of the cards it expects to decide
    at once (``expected_deciding``); guessed or not, with every card guessed or none, the
    advice is the same, and only the deciding cards' totals are shown."""
    import stich.view.decide as decide
    import stich.view.suggest as module
    info = info_at("scharwenzel", 11, 20)
    runs = []
    for after in (1, 10**9):
        monkeypatch.setattr(decide, "WARM_AFTER", after)
        decide._seen.share = None
        runs.append(suggest(info, samples=12, seed=4, jobs=1, tt_megabytes=8).advice)
    monkeypatch.setattr(module, "expected_deciding", lambda share, rows: tuple(r[0] for r in rows))
    runs.append(suggest(info, samples=12, seed=4, jobs=1, tt_megabytes=8).advice)
    assert runs[0] == runs[1] == runs[2]


def test_p_dd_best_is_exact_where_every_card_on_a_top_rung_has_its_total():
    """A card below a layout's top rung is not best there whatever its total: where every card
    on each layout's top rung has its total, P(dd best) is the one every total gives; where a
    card without its total shares a top rung, it is P(best rung)."""
    def row(card, total, rank):
        return (card, total, None if total is None else 10 - total, "level", rank, False)

    full = [[row("A", 5, 2), row("B", 6, 2), row("C", 9, 1)],
            [row("A", 7, 2), row("B", 3, 2), row("C", 8, 1)],
            [row("A", 4, 2), row("B", 4, 2), row("C", 1, 0)]]
    assert deciding_cards(full, "score") == {"A", "B"}
    some = [[r if r[0] != "C" else (r[0], None, None, *r[3:]) for r in rows] for rows in full]
    every, decided = aggregate(full, True, "score"), aggregate(some, True, "score")
    assert decided.totals == "deciding" and decided.p_best_by == "total"
    assert [(v.card, v.p_best) for v in decided.cards] == [(v.card, v.p_best) for v in every.cards]
    assert (decided.best, decided.runner_up, decided.total_margin) == (every.best, every.runner_up,
                                                                       every.total_margin)
    tie = [rows[:2] + [row("C", None, 2)] if i == 0 else rows for i, rows in enumerate(some)]
    assert aggregate(tie, True, "score").p_best_by == "rung"

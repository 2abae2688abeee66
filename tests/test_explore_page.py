"""The explorer's page in a real browser: keys, dialogs, the player's view kept blind, two
tabs, and how shares are rounded.  (The values against the commands are in
test_explore_browser.py; the screens and the table's geometry in test_explore_screens.py.)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time

from explore_browser import ROOT, SETTLE_MS, Page, Server
from test_explore_browser import EXAMPLES, browser, open_page  # noqa: F401 - fixtures

from stich import load
from stich.deals.dealfile_read import RULE_FILE_HINT
from stich.explore.position import position_deal, start_text
from stich.report.common import mean_text, share_text
from stich.view import information


def test_esc_closes_the_help_and_keys_do_not_act_behind_it(open_page):  # noqa: F811 - the fixture
    page, _ = open_page("schafkopf2-played.toml")
    page.settled()
    ply = page.ply()
    page.key("?")
    assert page.page.is_visible("#help")
    page.key("ArrowLeft")
    page.key("Home")
    time.sleep(0.3)
    assert page.ply() == ply                    # nothing moved behind the dialog
    page.key("Escape")
    assert not page.page.is_visible("#help")
    page.key("ArrowLeft")
    page.settled(ply - 1)


def test_after_a_click_on_the_view_button_the_arrow_undoes(open_page):  # noqa: F811 - the fixture
    page, _ = open_page("schafkopf2-played.toml")
    page.settled()
    ply = page.ply()
    page.key("Home")
    page.settled(0)
    page.key("End")
    page.settled(ply)
    page.page.click("input[name=view][value=player]")
    page.page.wait_for_selector("#view-cards tbody tr", timeout=120_000)
    page.settled(ply)
    page.key("ArrowLeft")
    page.settled(ply - 1)
    assert page.page.is_checked("input[name=view][value=player]")


def test_the_sampling_boxes_are_not_overwritten_while_a_job_runs(open_page):  # noqa: F811 - the fixture
    page, _ = open_page("elfern-deal.toml")
    page.settled(0)
    page.key("v")
    page.page.wait_for_selector("#view-status:has-text('layouts solved')", timeout=SETTLE_MS)
    page.page.fill("#samples", "37")
    page.page.fill("#seed", "5")
    time.sleep(1.0)                             # four polls of the job
    assert page.page.input_value("#samples") == "37"
    assert page.page.input_value("#seed") == "5"
    page.click("#view-cancel")
    page.page.wait_for_selector("#view-status:text-is('cancelled')")


def test_a_second_tabs_players_view_does_not_cancel_the_first(open_page):  # noqa: F811 - the fixture
    first, server = open_page("elfern-deal.toml")
    first.settled(0)
    first.key("v")
    first.page.wait_for_selector("#view-status:has-text('layouts solved')", timeout=SETTLE_MS)
    second = Page(first.page.context.new_page())
    second.page.goto(first.page.url.replace("objective=score", "objective=total"))
    second.page.wait_for_selector("#view-status:has-text('queued'), #view-status:has-text('layouts')",
                                  timeout=SETTLE_MS)
    time.sleep(1.5)
    assert "layouts solved" in first.text("#view-status")
    assert first.page.is_enabled("#view-cancel")
    for page in (first, second):
        page.click("#view-cancel")


def hidden_texts(deal, seat: int) -> set[str]:
    return {card.text(deal.notation) for card in information(deal, seat).pool}


def test_the_players_view_shows_no_hidden_card_and_copies_what_the_seat_sees(open_page, tmp_path):  # noqa: F811 - the fixture
    """No hidden card in the page's text or its copied file; the copy is a hidden-card deal
    file that ``stich suggest`` reads; the move list has no double-dummy marks; the visible
    cells are suggest's, rounded as suggest rounds them."""
    name = "schafkopf2-played.toml"
    page, _ = open_page(name)
    page.settled()
    page.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.key("Home")
    page.settled(0)
    for _ in range(3):
        page.key("ArrowRight")
    page.settled(3)
    page.key("v")
    page.page.wait_for_selector("#view-cards tbody tr", timeout=120_000)
    page.settled(3)
    deal = load(EXAMPLES / name)
    moves = page.page.eval_on_selector_all("#moves li[data-ply]:not([data-ply='0'])",
                                           "items => items.map(i => i.dataset.ply)")
    assert page.page.locator("#moves li[data-cost]").count() == 0 and moves
    page.click("#copy")
    copied = page.page.evaluate("navigator.clipboard.readText()")
    path = tmp_path / "seen.toml"
    path.write_text(copied)
    done = subprocess.run([sys.executable, "-m", "stich.cli.main", "suggest", str(path), "--jobs", "1",
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    expected = json.loads(done.stdout)
    start = start_text(deal)
    line = [m for m in page.page.eval_on_selector_all(
        "#moves li[data-ply]:not([data-ply='0'])", "items => items.map(i => i.dataset.move)")][:3]
    seen = position_deal(start, line)
    hidden = hidden_texts(seen, seen.position().to_move + 1)
    assert hidden and len(hidden) == expected["hidden_cards"]
    page_text = page.page.evaluate("() => document.body.innerText + ' ' + document.body.textContent")
    tokens = set(re.findall(r"[^\s\"\[\],=#()·:;]+", page_text))
    assert not tokens & hidden, [(t, page_text[max(page_text.find(t) - 80, 0):page_text.find(t) + 40]) for t in tokens & hidden][:3]
    without_pool = "\n".join(line for line in copied.splitlines() if not line.startswith("unknown"))
    assert not set(re.findall(r"[^\s\"\[\],=#]+", without_pool)) & hidden
    cells = page.page.eval_on_selector_all(
        "#view-cards tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))")
    assert [row[0] for row in cells] == [c["card"] for c in expected["cards"]]
    assert [row[1] for row in cells] == ["not needed" if c["expected_total"] is None
                                         else mean_text(c["expected_total"]) for c in expected["cards"]]
    assert [row[3] for row in cells] == [share_text(c["p_best"]) for c in expected["cards"]]
    words = {r["level"]: r["words"] for r in expected["rungs"]}
    assert [row[5] for row in cells] == [", ".join(f"{words.get(name, name)} {share_text(share)}" for name, share
                                                   in sorted(c["levels"].items(), key=lambda kv: -kv[1]))
                                         for c in expected["cards"]]
    legend = page.page.eval_on_selector_all("#view-cards th", "heads => heads[4].title")
    assert all(f"{r['rung']} {r['words']}" in legend for r in expected["rungs"])


def test_shares_and_means_read_as_stich_suggest_prints_them(open_page):  # noqa: F811 - the fixture
    """Halves round to even as Python's ``.0%`` does (82.5% is 82%, 83.5% is 84%), and only an
    exact 0 or 1 reads 0% or 100%; a mean keeps the decimals that tell it from a whole number."""
    page, _ = open_page("schafkopf2-ending.toml")
    page.settled()
    shares = ([k / 1000 for k in range(0, 1001)] + [0.825, 0.835, 0.125, 0.005, 0.015, 2 / 3, 1 / 3]
              + [k / 1225 for k in range(1226)] + [1 - 1e-5, 1e-5, 0.9995, 0.0005, 1.0000000000000102])
    shown = page.page.evaluate("shares => shares.map(percent)", shares)
    assert shown == [share_text(share) for share in shares]
    means = [k / 1225 * 4 for k in range(1226)] + [3.87, 5.99999, 4.0004, 1 / 3, 60.5, 2.005]
    shown = page.page.evaluate("means => means.map(meanText)", means)
    assert shown == [mean_text(mean) for mean in means]


def paths(page: Page) -> list[str]:
    return page.page.eval_on_selector_all("#moves li[data-path]", "items => items.map(i => i.dataset.path)")


def test_variations_are_kept_and_survive_back_forward_a_reload_and_another_server(open_page, tmp_path):  # noqa: F811
    """Another card at an earlier ply starts a variation beside the old line; a comment;
    Back and Forward move through positions; the tree comes back after a reload and from a
    server started on another port; promote and delete; the copied file keeps the tree in
    comment lines that stich replay skips."""
    name = "scharwenzel-played.toml"
    page, server = open_page(name)
    page.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.settled()
    old = page.page.eval_on_selector_all("#moves li[data-ply][data-move]", "items => items.map(i => i.dataset.move)")
    page.click('#moves li[data-ply="4"]')
    page.settled(4)
    other = next(c for c in page.page.eval_on_selector_all(".table .card.legal", "cs => cs.map(c => c.dataset.card)")
                 if c != old[4])
    page.click(f'.table .card.legal[data-card="{other}"]')
    page.settled(5)
    old_path, new_path = ",".join(old), ",".join(old[:4] + [other])
    assert old_path in paths(page) and new_path in paths(page)
    assert page.page.locator("#moves li[data-ply]").count() == 6          # start and the new line's 5
    page.page.fill("#comment", "a try")
    assert "a try" in page.text("#moves")
    page.page.go_back()
    page.settled(4)
    page.page.go_forward()
    page.settled(5)
    page.page.reload()
    page.settled(5)
    assert old_path in paths(page) and new_path in paths(page) and "a try" in page.text("#moves")
    fragment = page.page.url.split("#", 1)[1]
    again = Server(EXAMPLES / name)
    try:
        assert again.url != server.url
        moved = Page(page.page.context.new_page())
        moved.page.goto(f"{again.url}#{fragment}")
        moved.settled(5)
        assert paths(moved) == paths(page) and "a try" in moved.text("#moves")
        moved.page.close()
    finally:
        assert again.stop() == 130
    page.click("#copy")
    copied = page.page.evaluate("navigator.clipboard.readText()")
    assert f"# line 1: {' '.join(old)}" in copied and f"# line 2: {' '.join(old[:4] + [other])}" in copied
    assert "a try" in copied
    path = tmp_path / "tree.toml"
    path.write_text(copied)
    done = subprocess.run([sys.executable, "-m", "stich.cli.main", "replay", str(path), "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [s["card"] for s in json.loads(done.stdout)["steps"]] == old[:4] + [other]
    old_fifth = ",".join(old[:5])
    assert paths(page).index(old_fifth) < paths(page).index(new_path)
    page.click("#promote")                     # the new line becomes the main one
    assert paths(page).index(new_path) < paths(page).index(old_fifth)
    page.click(f'#moves li[data-path="{old_fifth}"]')
    page.settled(5)
    page.click("#delete")
    page.settled(4)
    assert not any(p.startswith(",".join(old[:5])) for p in paths(page))
    assert new_path in paths(page)


def test_the_evaluation_over_the_play_is_stich_replays(open_page):  # noqa: F811
    """The graph's point after each card is the double-dummy totals stich replay gives
    before the next card; its red points are replay's mistakes; a click goes there; the
    column says the same; the player's view hides it."""
    name = "scharwenzel-played.toml"
    page, _ = open_page(name)
    page.settled()
    steps = json.loads(subprocess.run(
        [sys.executable, "-m", "stich.cli.main", "replay", str(EXAMPLES / name), "--json"], cwd=ROOT,
        capture_output=True, text=True, timeout=300, check=True).stdout)["steps"]
    page.move_list_filled(len(steps))
    points = {int(p["ply"]): p for p in page.page.eval_on_selector_all(
        "#eval-graph circle", "cs => cs.map(c => ({ply: c.dataset.ply, totals: c.dataset.totals, "
                              "mistake: c.classList.contains('mistake')}))")}
    assert set(range(len(steps))) <= set(points)
    for k, step in enumerate(steps):
        assert points[k]["totals"] == f"{step['before'][0]}–{step['before'][1]}", k
        if k + 1 in points:
            assert points[k + 1]["mistake"] == step["mistake"], k
    assert any(step["mistake"] for step in steps) or not any(p["mistake"] for p in points.values())
    last = steps[-1]["after"]                      # and a point after the last card played
    assert points[len(steps)]["totals"] == f"{last[0]}–{last[1]}"
    rows = page.page.eval_on_selector_all("#eval-table tbody tr", "rs => rs.map(r => r.cells[2].textContent)")
    assert rows[:len(steps)] == [f"{s['before'][0]}–{s['before'][1]}" for s in steps]
    page.page.click('#eval-graph circle[data-ply="3"]')
    page.settled(3)
    page.key("v")
    page.settled(3)
    assert page.page.is_hidden("#eval-panel")


def test_any_deal_from_the_page_and_links_that_last(open_page, tmp_path):  # noqa: F811
    """Paste a deal file (a bad one gets stich solve's one line), deal at random as stich deal
    with --where, the whole-deal table as stich table prints it, a Share link that a server
    started with --open on another file and port opens at the same position."""
    from test_explore_browser import check_values, deal_after, file_moves

    page, server = open_page("scharwenzel-ending.toml")
    page.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.settled()
    page.page.click("#deal-details summary")
    card17 = EXAMPLES / "schafkopf2-card17.toml"
    page.page.fill("#paste", card17.read_text())
    page.click("#paste-open")
    line = file_moves(card17)
    page.settled(len(line))
    check_values(page, deal_after(card17, line), None)
    page.click("#whole-table")
    page.page.wait_for_selector("#table-text:not([hidden])", timeout=120_000)
    printed = subprocess.run([sys.executable, "-m", "stich.cli.main", "table", str(card17)], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
    assert page.page.text_content("#table-text").strip() == printed.stdout.strip()
    page.page.fill("#paste", card17.read_text().replace("schafkopf2", "schafkopf3"))
    page.click("#paste-open")
    page.page.wait_for_selector("#error:not([hidden])")
    bad = tmp_path / "bad.toml"
    bad.write_text(card17.read_text().replace("schafkopf2", "schafkopf3"))
    solved = subprocess.run([sys.executable, "-m", "stich.cli.main", "solve", str(bad)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert solved.returncode == 2
    # the command's line, naming the pasted deal, and no rule-file paths (a page cannot name one)
    assert page.text("#error") == (solved.stderr.strip().replace("stich: ", "", 1).replace(str(bad), "the pasted deal")
                                   .replace(RULE_FILE_HINT, ""))
    where = "seat 1 holds at least 4 trumps"
    page.page.select_option("#random-game", "scharwenzel")
    page.page.select_option("#random-players", "6")
    page.page.fill("#random-seed", "3")
    page.page.fill("#random-where", where)
    page.click("#random-deal")
    page.settled(0)
    page.page.wait_for_function("() => document.getElementById('table').dataset.players === '6'")
    dealt = json.loads(subprocess.run(
        [sys.executable, "-m", "stich.cli.main", "deal", "--game", "scharwenzel", "--seed", "3", "--players", "6",
         "--where", where, "--json"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=True).stdout)
    page.click("#copy")
    assert page.page.evaluate("navigator.clipboard.readText()") == load_text(dealt[0]["deal"])
    page.page.click(".table .card.legal >> nth=0")
    page.settled(1)
    page.click("#share")
    link = page.page.evaluate("navigator.clipboard.readText()")
    assert link == page.page.url and "#start=" in link
    other = Server(EXAMPLES / "elfern-deal.toml", "--open", link)
    try:
        assert other.url.split("#")[0] != server.url and other.url.endswith(link.split("#", 1)[1])
        moved = Page(page.page.context.new_page())
        moved.page.goto(other.url)
        moved.settled(1)
        assert moved.page.eval_on_selector("#table", "t => t.dataset.players") == "6"
        assert paths(moved) == paths(page)
        moved.page.close()
    finally:
        assert other.stop() == 130


def load_text(text: str) -> str:
    from stich import loads
    return loads(text).dump()


def colour_under(row: dict, best: dict, objective: str) -> list[str]:
    """The colour of a card as the legend says: under score, not optimal loses the outcome;
    under total, an outcome other than the best card's; else a loss of the total."""
    if objective == "score":
        lost = not row["optimal"]
    else:
        lost = (row["outcome"] or {}).get("level") != (best["outcome"] or {}).get("level") or \
            (row["outcome"] or {}).get("winner") != (best["outcome"] or {}).get("winner")
    return ["outcome-losing" if lost else "losing" if row["loss"] else "optimal"]


def test_whole_deals_of_4_6_and_8_hands_show_stich_analyze_under_both_objectives(open_page):  # noqa: F811
    """The visible value and the colour of every legal card, and the totals line, against
    ``stich analyze --json`` for whole deals of 4 (32 cards), 6 and 8 hands, score and total."""
    from test_explore_browser import shown_value, stich

    from stich.report.common import totals_text

    for name in ("scharwenzel-deal.toml", "scharwenzel-6.toml", "scharwenzel-8.toml"):
        page, _ = open_page(name)
        page.settled(0)
        deal = load(EXAMPLES / name)
        assert not deal.play and len({len(h) for h in deal.hands.values()}) == 1    # a whole deal
        assert name != "scharwenzel-deal.toml" or sum(len(h) for h in deal.hands.values()) == 32
        for objective in ("score", "total"):
            if objective == "total":
                page.key("o")
                page.settled(0)
                assert "objective=total" in page.page.url
            expected = stich("analyze", "--objective", objective, deal=deal)["seats"][0]
            assert page.text("#dd-totals") == totals_text(deal, tuple(expected["totals"]))
            best = expected["moves"][0]
            rows = {card: row for row in expected["moves"] for card in row["cards"]}
            shown = page.legal_cards()
            assert set(shown) == set(rows)
            for card, row in rows.items():
                assert shown[card]["value"] == shown_value(row, deal), (name, objective, card)
                assert shown[card]["colour"] == colour_under(row, best, objective), (name, objective, card)
        page.page.close()


def test_training_hides_the_values_until_a_card_is_picked_then_shows_its_cost(open_page):  # noqa: F811
    """Training: no value, colour or total before the pick; after it, the card's cost as
    stich replay counts it, and the points each side gave away so far."""
    from test_explore_browser import deal_after, file_moves

    name = "scharwenzel-played.toml"
    path = EXAMPLES / name
    page, _ = open_page(name)
    page.settled()
    line = file_moves(path)
    page.click('#moves li[data-ply="4"]')
    page.settled(4)
    page.page.check("#training-on")
    assert "training=1" in page.page.url
    shown = page.legal_cards()
    assert shown and all(v["value"] == "?" and v["colour"] == [] for v in shown.values())
    assert not any(ch.isdigit() for ch in page.text("#dd-totals"))
    assert page.page.locator("#moves li[data-ply][data-cost]").count() <= 4
    card = list(shown)[-1]
    page.click(f'.table .card.legal[data-card="{card}"]')
    page.settled(5)
    page.page.wait_for_function("() => document.getElementById('training-score').dataset.missing === '0'",
                                timeout=120_000)
    steps = json.loads(subprocess.run(
        [sys.executable, "-m", "stich.cli.main", "replay", "-", "--json"], cwd=ROOT, capture_output=True,
        text=True, timeout=300, check=True, input=deal_after(path, line[:4] + [card]).dump()).stdout)["steps"]
    cost = steps[-1]["cost"]
    assert (f"cost {cost}" if cost else "no cost") in page.text("#training-last")
    deal = load(path)
    given = [0, 0]
    for step in steps:
        given[deal.rule_set.side(step["seat"] - 1)] += step["cost"]
    assert page.page.eval_on_selector("#training-score", "s => s.dataset.given") == f"{given[0]},{given[1]}"

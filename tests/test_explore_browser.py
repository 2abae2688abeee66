"""stich explore in a real browser (Chromium from the system, driven by Playwright).

For a Scharwenzel, a Schafkopf2 Mariage deal (a marriage announced with a lead), an Elfern
and a rule-file deal (Officers' Skat) the test clicks through five cards, and at every
position checks each value on the page against ``stich analyze --json`` of that position,
run as a command on the deal file the test builds itself.  Then: undo and redo, the start
and the end, a reload from the address, no position searched twice, the move list against
``stich replay --json``, the player's view against ``stich suggest --json`` (and the cards it
hides), and the copied position solved by ``stich solve``.  Then a whole deal's player's view
with its progress, cancelled; last, a malformed request and a foreign page's request.  Set STICH_EXPLORE_SCREENSHOTS=DIR to save each game's page there
(the pictures in docs/).
"""

from __future__ import annotations

import http.server
import json
import os
import re
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from explore_browser import ROOT, SETTLE_MS, Page, Server, launch, skip_or_fail

from stich import load, loads
from stich.deals.deal import Deal
from stich.model.cards import SUIT_LETTERS, parse_card
from stich.model.rules import side_label
from stich.report.common import totals_text

EXAMPLES = ROOT / "examples"
MOVE = re.compile(r"^\((\S+) (\S+)\) (\S+)$")


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("Playwright for Python is not installed: pip install -e \".[test]\"")
    with sync_playwright() as playwright:
        browser = launch(playwright)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    """A fresh browser context with the clipboard allowed; the servers started are stopped
    with Ctrl-C afterwards and must exit 130."""
    context = browser.new_context(viewport={"width": 1360, "height": 1000})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    servers = []

    def open_(name: str, *options: str) -> tuple[Page, Server]:
        server = Server(EXAMPLES / name, *options)
        servers.append(server)
        page = context.new_page()
        page.goto(server.url)
        return Page(page), server
    yield open_
    context.close()
    for server in servers:
        assert server.stop() == 130


def stich(*args: str, deal: Deal) -> dict:
    """A stich command with --json on the deal's file (standard input)."""
    done = subprocess.run([sys.executable, "-m", "stich.cli.main", *args, "-", "--json"], cwd=ROOT,
                          input=deal.dump(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def deal_after(path: Path, moves: list[str]) -> Deal:
    """The file's deal with ``moves`` as its play, built here from the moves' text."""
    deal = load(path)
    n, letters = deal.players, {v: k for k, v in SUIT_LETTERS[deal.notation].items()}
    cards, shows = [], []
    for k, move in enumerate(moves):
        shown = MOVE.match(move)
        if shown:
            shows.append((k // n, k % n, letters[shown.group(2)]))
            move = shown.group(3)
        cards.append(parse_card(move, deal.notation))
    tricks = tuple(tuple(cards[i:i + n]) for i in range(0, len(cards), n))
    return deal.with_play(tricks, tuple(shows))


def file_moves(path: Path) -> list[str]:
    """The file's play as moves, announcements written as the file writes them."""
    deal = load(path)
    letter, word = SUIT_LETTERS[deal.notation], deal.rule_set.pair_word
    shows = {(t, k): suit for t, k, suit in deal.shows}
    return [(f"({word} {letter[shows[t, k]]}) " if (t, k) in shows else "") + card.text(deal.notation)
            for t, trick in enumerate(deal.play) for k, card in enumerate(trick)]


def shown_value(row: dict, deal: Deal) -> str:
    """A card's value as the page writes it: totals, loss, outcome (as stich analyze's table,
    a level no side wins in a player's words)."""
    from stich.report.common import level_text
    text = f"{row['totals'][0]}–{row['totals'][1]}" + (f" −{row['loss']}" if row["loss"] else "")
    outcome = row["outcome"]
    if outcome:
        level, winner = outcome["level"], outcome["winner"]
        text += " " + (f"{side_label(deal.rule_set, winner - 1)}: {level}" if winner else level_text(level))
    return text


def colour(row: dict) -> list[str]:
    """Score objective: not optimal loses the outcome; optimal with a loss gives away points."""
    return ["outcome-losing" if not row["optimal"] else "losing" if row["loss"] else "optimal"]


def check_values(page: Page, deal: Deal, announce: str | None) -> tuple[dict, dict]:
    """Every value on the page equals ``stich analyze --json`` of the position; what the
    page shows and what the command printed."""
    expected = stich("analyze", deal=deal)["seats"][0]
    assert page.text("#dd-totals") == totals_text(deal, tuple(expected["totals"]))
    assert page.text("#dd-outcome") == " ".join(expected["outcome"]["text"].split())
    rows = {card: row for row in expected["moves"] if row.get("announce") == announce
            for card in row["cards"]}
    shown = page.legal_cards()
    assert set(shown) == set(rows)
    for card, row in rows.items():
        assert shown[card]["value"] == shown_value(row, deal), card
        assert shown[card]["colour"] == colour(row), card
    return shown, expected


def pick(shown: dict, step: int) -> str:
    """Vary the cards: a losing card when there is one on odd steps, else the last one."""
    losing = [c for c, v in shown.items() if v["colour"] != ["optimal"]]
    return losing[0] if losing and step % 2 else list(shown)[-1]


def announcement(page: Page) -> str | None:
    """The announcement the page plays with a lead now ("R"), if any."""
    if not page.page.is_visible("#announce-choice"):
        return None
    checked = page.page.eval_on_selector("#announce-choice input:checked", "i => i.value")
    return checked.split()[-1].rstrip(")") if checked else None


GAMES = [("scharwenzel-ending.toml", None), ("schafkopf2-mariage.toml", 6),
         ("elfern-played.toml", None), ("officers_skat-played.toml", None)]


@pytest.mark.parametrize("name,from_ply", GAMES, ids=[g[0].split("-")[0] for g in GAMES])
def test_click_through_a_deal(open_page, name, from_ply):
    path = EXAMPLES / name
    page, server = open_page(name)
    line = file_moves(path)
    page.settled(len(line))
    if from_ply is not None:                   # Mariage: where seat 1 may announce
        page.click(f'#moves li[data-ply="{from_ply}"]')
        line = line[:from_ply]
        page.settled(from_ply)
    values = {}
    for step in range(5):
        announce = announcement(page)
        shown, expected = check_values(page, deal_after(path, line), announce)
        values[len(line)] = shown
        if step == 0:
            page.key("b")                      # auto-play the best card
            card = expected["moves"][0]["cards"][0]
        else:
            card = pick(shown, step)
            page.click(f'.table .card.legal[data-card="{card}"]')
        line = line + [f"(marriage {announce}) {card}" if announce else card]
        page.settled(len(line))
    if from_ply is not None:
        assert any(m.startswith("(marriage R)") for m in line[from_ply:])
        assert "(marriage R)" in page.text("#announced")
    final = deal_after(path, line)
    check_undo_redo_reload(page, server, path, line, values)
    check_move_list(page, final)
    screenshot(page, name)
    check_players_view(page, final)
    check_copy(page, final)


def check_undo_redo_reload(page: Page, server: Server, path: Path, line: list[str], values: dict):
    """Back and forth shows the same values; no position is searched twice in a session."""
    end = len(line)
    page.move_list_filled(end)                 # every position of the line is solved
    solves = json.load(urllib.request.urlopen(server.url + "api/session", timeout=30))["solves"]
    page.key("ArrowLeft")
    page.settled(end - 1)
    page.click("#undo")
    page.settled(end - 2)
    assert page.legal_cards() == values[end - 2]
    page.key("ArrowRight")
    page.settled(end - 1)
    page.click("#redo")
    page.settled(end)
    page.key("Home")
    page.settled(0)
    page.key("End")
    page.settled(end)
    players = load(path).players
    back = end - 1 - (end - 1) % players
    page.key("PageUp")                         # to the start of the trick (or the one before)
    page.settled(back)
    page.key("PageDown")
    page.settled(min(back + players, end))
    page.key("End")
    page.settled(end)
    address = page.page.url
    page.page.reload()
    page.settled(end)
    assert page.page.url == address
    assert page.legal_cards() == check_values(page, deal_after(path, line), announcement(page))[0]
    assert json.load(urllib.request.urlopen(server.url + "api/session", timeout=30))["solves"] == solves


def check_move_list(page: Page, deal: Deal):
    """Each played card's cost and mistake mark are what ``stich replay`` says.  The marks
    arrive one by one as the line is solved, and no move shifts when they do (a click
    meant for one move would take another): with every mark blanked, as before its
    analysis came, or as wide as a cost of three digits, every move is where it is with the
    marks."""
    steps = stich("replay", deal=deal)["steps"]
    page.move_list_filled(len(steps))
    assert page.move_costs() == {k + 1: (step["cost"], step["mistake"]) for k, step in enumerate(steps)}
    marked = page.move_boxes()
    marks = page.page.eval_on_selector_all("#moves li .cost", """
        marks => marks.map(m => { const text = m.textContent; m.textContent = ""; return text; })""")
    blank = page.move_boxes()
    page.page.eval_on_selector_all("#moves li .cost", "marks => marks.forEach(m => { m.textContent = '−888'; })")
    widest = page.move_boxes()                # a cost of three digits fits the mark's place too
    page.page.eval_on_selector_all("#moves li .cost", """
        (marks, texts) => marks.forEach((m, i) => { m.textContent = texts[i]; })""", marks)
    assert any(marks) and blank == marked, "the moves shift as their marks arrive"
    assert widest == marked, "a cost of three digits shifts the moves after it"


def check_players_view(page: Page, deal: Deal):
    """The player's view of the seat to move is ``stich suggest --json``; the cards it hides
    are the ones suggest says are hidden from the seat."""
    ply = page.ply()
    page.key("v")
    page.page.wait_for_selector("#view-cards tbody tr", timeout=120_000)
    page.settled(ply)
    expected = stich("suggest", "--jobs", "1", deal=deal)
    rows = page.view_rows()
    assert [r["card"] for r in rows] == [c["card"] for c in expected["cards"]]
    assert [r["expected"] for r in rows] == [c["expected_total"] for c in expected["cards"]]
    assert [r["p_best"] for r in rows] == [c["p_best"] for c in expected["cards"]]
    assert [r["card"] for r in rows if r["best"]] == [expected["best"]]
    assert page.hidden_cards() == expected["hidden_cards"]
    assert f"{expected['consistent_layouts']:,} consistent layouts" in page.text("#view-what")
    assert page.text("#view-advice") == f"Play {expected['best']}: {expected['sure']}."
    assert page.text("#view-notes") == " ".join(" ".join(expected["notes"]).split())   # the report's notes
    # the totals' columns are shown where some card has a total
    shown = page.page.eval_on_selector("#view-cards th:nth-child(2)", "th => getComputedStyle(th).display")
    assert (shown != "none") == any(c["expected_total"] is not None for c in expected["cards"])
    page.key("v")
    page.settled(ply)
    assert page.hidden_cards() == 0


def check_copy(page: Page, deal: Deal):
    """The copied position is the deal file of the position, and stich solve reads it."""
    page.click("#copy")
    copied = page.page.evaluate("navigator.clipboard.readText()")
    position, _, variations = copied.partition("\n# stich explore: the variations")
    assert position.rstrip("\n") + "\n" == deal.dump()
    assert not variations or all(line.startswith("#") for line in variations.splitlines()[1:])
    solved = stich("solve", deal=loads(copied))
    assert page.text("#dd-totals") == totals_text(deal, tuple(solved["totals"]))


def screenshot(page: Page, name: str):
    folder = os.environ.get("STICH_EXPLORE_SCREENSHOTS")
    if folder:
        game = name.split("-")[0]
        page.page.locator("body").screenshot(path=str(Path(folder) / f"explore-{game}-line.png"))


def test_a_long_players_view_shows_progress_and_can_be_cancelled(open_page):
    """A whole Elfern deal: about a second a layout.  Esc stops it after the first."""
    page, server = open_page("elfern-deal.toml")
    page.settled(0)
    page.key("v")
    page.page.wait_for_selector("#view-status:has-text('of 100 layouts solved')", timeout=SETTLE_MS)
    page.page.wait_for_function("() => document.getElementById('view-progress').value >= 1",
                                timeout=SETTLE_MS)
    assert page.page.eval_on_selector("body", "b => b.dataset.busy") == "yes"
    page.key("Escape")
    page.page.wait_for_selector("#view-status:text-is('cancelled')")
    assert page.page.eval_on_selector("body", "b => b.dataset.busy") == "no"
    assert not page.page.is_enabled("#view-cancel") and page.view_rows() == []


# --- bad requests -----------------------------------------------------------------------------------

def test_a_malformed_request_is_shown_and_the_server_goes_on(open_page):
    page, server = open_page("schafkopf2-mariage.toml")
    page.settled()
    status = page.page.evaluate("""async () => {
        const r = await fetch('/api/position', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                body: '{"start": 12'});
        return [r.status, (await r.json()).error]; }""")
    assert status == [400, "the request is not JSON"]
    good = page.page.url
    bad = re.sub(r"line=[^&]*", "line=GK,G7", good).replace("ply=10", "ply=2")
    page.page.goto(bad)
    page.page.reload()
    page.page.wait_for_selector("#error:not([hidden])")
    assert page.text("#error") == ("moves: play: trick 1, card 2 (G7 by seat 2): G7 is face down "
                                   "under another card of seat 2")
    page.page.goto(good)
    page.page.reload()
    page.settled(10)
    assert page.page.is_hidden("#error")
    assert page.legal_cards()                  # values again: the server kept serving
    page.key("Home")                           # another first card, then the file's play again
    page.settled(0)
    page.click('.table .card.legal[data-card="EO"]')
    page.settled(1)
    assert page.page.locator("#moves li[data-ply]").count() == 2
    page.key("f")
    page.settled(10)
    assert page.page.locator("#moves li[data-ply]").count() == 11


def test_best_card_held_down_plays_only_legal_cards(open_page):
    """The best-card key pressed faster than the page answers (a key held down): each card is
    chosen for the position shown and played there, or the press does nothing; the line the
    page ends on is legal, and stich replay reads it."""
    page, server = open_page("schafkopf2-deal.toml")
    page.settled()
    for _ in range(8):
        page.page.keyboard.press("b")
        page.page.wait_for_timeout(30)
    page.page.wait_for_timeout(300)
    page.settled()
    assert page.page.is_hidden("#error"), page.text("#error")
    played = page.page.locator("#moves li[data-ply]").count() - 1
    assert 1 <= played <= 8
    moves = [page.page.eval_on_selector(f'#moves li[data-ply="{k}"]', "li => li.dataset.move")
             for k in range(1, played + 1)]
    deal = deal_after(EXAMPLES / "schafkopf2-deal.toml", moves)
    assert len(stich("replay", deal=deal)["steps"]) == played


def test_a_pasted_link_that_cannot_be_read_changes_nothing(open_page):
    """A broken link pasted into "Another deal": one plain line, the address and the deal shown
    stay as they were; an empty box says it is empty."""
    page, server = open_page("elfern-deal.toml")
    page.settled()
    address, title = page.page.url, page.text("#title")
    page.click("#deal-details summary")
    page.page.fill("#paste", server.url + "#start=!!!notbase64")
    page.page.click("#paste-open")
    page.page.wait_for_selector("#error:not([hidden])")
    assert page.text("#error").startswith("the link: ") and "atob" not in page.text("#error")
    assert page.page.url == address and page.text("#title") == title
    page.page.fill("#paste", "   ")
    page.page.click("#paste-open")
    assert page.text("#error").startswith("the box is empty")


class AttackPage(http.server.BaseHTTPRequestHandler):
    """A page of another site that posts to the explorer (a cross-site request)."""

    target = ""

    def do_GET(self):
        script = (f"fetch('{self.target}api/analysis', {{method: 'POST', mode: 'no-cors', "
                  f"headers: {{'Content-Type': 'text/plain'}}, body: '{{}}'}})")
        body = f"<!doctype html><title>other site</title><script>{script}</script>".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_foreign_origin_is_refused(open_page):
    page, server = open_page("scharwenzel-ending.toml")
    page.settled()
    AttackPage.target = server.url
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), AttackPage)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        with page.page.expect_response(lambda r: "/api/analysis" in r.url) as answer:
            page.page.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        assert answer.value.status == 403      # (its JSON error is opaque to that page)
    finally:
        other.shutdown()
    about = json.load(urllib.request.urlopen(server.url + "api/session", timeout=30))
    assert about["solves"] == 1                # only the page's own position

"""The explorer's table on every screen, in a real browser: no sideways scroll from a phone
to a desktop, each seat's cards inside its own area, the trick's cards in front of their
players (for 2, 4, 6 and 8 seats, and with the table turned), the last trick, who played
each card, the dark theme, and the suit signs and colours.  Set STICH_EXPLORE_SCREENSHOTS=DIR
to save each game's page at desktop and phone width there (the pictures in docs/).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from explore_browser import ROOT, Page, Server
from test_explore_browser import EXAMPLES, browser  # noqa: F401 - the fixture

WIDTHS = (360, 390, 1360)
GAMES = ["scharwenzel-played.toml", "scharwenzel-6.toml", "scharwenzel-8.toml", "schafkopf2-mariage.toml",
         "elfern-played.toml", "officers_skat-played.toml"]


@pytest.fixture
def served():
    """Servers of example files (stopped with Ctrl-C afterwards)."""
    servers = []

    def open_(name: str) -> Server:
        server = Server(EXAMPLES / name)
        servers.append(server)
        return server
    yield open_
    for server in servers:
        assert server.stop() == 130


def open_at(browser, url: str, width: int, scheme: str = "light") -> Page:  # noqa: F811
    page = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme).new_page()
    page.goto(url)
    shown = Page(page)
    shown.settled()
    return shown


BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    width: window.innerWidth, scroll: document.documentElement.scrollWidth,
    table: box(document.getElementById('table')),
    seats: [...document.querySelectorAll('.table .seat')].map(s => ({
      seat: Number(s.dataset.seat), box: box(s), cards: [...s.querySelectorAll('.card')].map(box)})),
    played: [...document.querySelectorAll('.centre .played')].map(p => ({
      seat: Number(p.dataset.seat), box: box(p.querySelector('.card'))})),
    centre: box(document.querySelector('.centre')),
  };
}"""


def inside(inner, outer, slack: float = 1.0) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def overlap(a, b) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def centre_of(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def check_geometry(page: Page, where: str) -> dict:
    """No sideways scroll; each seat's cards inside its area, inside the table, no two seats
    overlapping; each trick card nearer in direction to its own seat than to any other."""
    g = page.page.evaluate(BOXES)
    assert g["scroll"] <= g["width"], f"{where}: scrolls sideways ({g['scroll']} > {g['width']})"
    for seat in g["seats"]:
        assert seat["cards"], f"{where}: seat {seat['seat']} shows no card"
        for card in seat["cards"]:
            assert inside(card, seat["box"]), f"{where}: a card of seat {seat['seat']} lies outside its area"
        assert inside(seat["box"], g["table"]), f"{where}: seat {seat['seat']} is outside the table"
    for a in g["seats"]:
        for b in g["seats"]:
            assert a is b or not overlap(a["box"], b["box"]), f"{where}: seats {a['seat']} and {b['seat']} overlap"
    middle = centre_of(g["centre"])

    def direction(box) -> float:
        x, y = centre_of(box)
        return math.atan2(y - middle[1], x - middle[0])

    for card in g["played"]:
        angle = direction(card["box"])
        gap = {s["seat"]: abs(math.remainder(direction(s["box"]) - angle, 2 * math.pi)) for s in g["seats"]}
        assert min(gap, key=gap.get) == card["seat"], f"{where}: seat {card['seat']}'s trick card faces another seat"
    return g


def bottom_seat(g: dict) -> int:
    """The seat straight below the trick (the one the table is turned to)."""
    middle = centre_of(g["centre"])

    def off(seat) -> float:
        x, y = centre_of(seat["box"])
        return abs(math.remainder(math.atan2(y - middle[1], x - middle[0]) - math.pi / 2, 2 * math.pi))
    return min(g["seats"], key=off)["seat"]


@pytest.mark.parametrize("name", GAMES, ids=[g.split(".")[0] for g in GAMES])
def test_every_width_no_sideways_scroll_and_each_seat_in_its_area(browser, served, name):  # noqa: F811
    server = served(name)
    for width in WIDTHS:
        page = open_at(browser, server.url, width)
        check_geometry(page, f"{name} at {width} px")
        screenshot(page, name, width)
        page.page.context.close()


def test_the_trick_lies_in_front_of_its_players_with_8_and_6_seats_and_the_table_turned(browser, served):  # noqa: F811
    for name, cards in (("scharwenzel-8.toml", 7), ("scharwenzel-6.toml", 5)):
        server = served(name)
        for width in (390, 1360):
            page = open_at(browser, server.url, width)
            for k in range(cards):
                page.page.click(".table .card.legal >> nth=0")
                page.settled(k + 1)
            g = check_geometry(page, f"{name} at {width} px")
            assert sorted(c["seat"] for c in g["played"]) == list(range(1, cards + 1))
            assert bottom_seat(g) == 1
            page.key("t")                      # seat 2 to the bottom
            g = check_geometry(page, f"{name} at {width} px, turned")
            assert bottom_seat(g) == 2
            assert "bottom=2" in page.page.url
            page.page.reload()
            page.settled(cards)
            g = check_geometry(page, f"{name} at {width} px, turned, reloaded")
            assert bottom_seat(g) == 2
            page.page.context.close()


def test_the_last_trick_and_who_played_each_card(browser, served):  # noqa: F811
    name = "scharwenzel-played.toml"
    server = served(name)
    page = open_at(browser, server.url, 1360)
    steps = json.loads(subprocess.run(
        [sys.executable, "-m", "stich.cli.main", "replay", str(EXAMPLES / name), "--json"], cwd=ROOT,
        capture_output=True, text=True, timeout=300, check=True).stdout)["steps"]
    shown = page.page.eval_on_selector_all("#moves li[data-move]", "items => items.map(i => [i.dataset.move, i.querySelector('.by').textContent])")
    assert shown == [[s["card"], str(s["seat"])] for s in steps]
    # a trick in progress (one card): on request, the last trick instead, faded
    assert page.page.eval_on_selector_all(".centre .played", "p => p.length") == 1
    assert not page.page.is_visible(".centre.last")
    page.key("l")
    last = page.page.eval_on_selector_all(".centre.last .played .card", "cs => cs.map(c => c.dataset.card)")
    assert last == [s["card"] for s in steps if s["trick"] == 3]
    page.key("l")
    assert page.page.eval_on_selector_all(".centre .played", "p => p.length") == 1
    page.key("ArrowLeft")                       # a trick just taken stays in sight, faded
    page.settled(len(steps) - 1)
    assert page.page.eval_on_selector_all(".centre.last .played .card", "cs => cs.map(c => c.dataset.card)") == last
    assert "won it" in page.text(".centre .trick-note")
    page.page.context.close()


def colour_of(page: Page, card: str) -> str:
    return page.page.eval_on_selector(f'.table .card[data-card="{card}"]', "c => getComputedStyle(c).color")


def test_dark_theme_suit_signs_and_colours(browser, served):  # noqa: F811
    server = served("scharwenzel-ending.toml")
    light = open_at(browser, server.url, 1360)
    dark = open_at(browser, server.url, 1360, "dark")
    lightness = "() => getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number)"
    assert sum(light.page.evaluate(lightness)) > 600
    assert sum(dark.page.evaluate(lightness)) < 200
    dark.page.context.close()
    faces = light.page.eval_on_selector_all(".table .card[data-card]", "cs => cs.map(c => c.dataset.card)")
    by_suit = {suit: next(c for c in faces if c.startswith(suit)) for suit in "♣♠♥♦" if any(c.startswith(suit) for c in faces)}
    assert len(by_suit) >= 3
    two = {suit: colour_of(light, card) for suit, card in by_suit.items()}
    green = "rgb(46, 125, 50)"
    assert green not in two.values()            # two colours: ♠ and ♣ black, ♥ and ♦ red
    blacks, reds = {two[s] for s in "♣♠" if s in two}, {two[s] for s in "♥♦" if s in two}
    assert len(blacks) == 1 and len(reds) == 1 and blacks != reds
    light.page.select_option("#colours", "4")
    four = {suit: colour_of(light, card) for suit, card in by_suit.items()}
    assert len(set(four.values())) == len(four) and "colours=4" in light.page.url
    light.page.context.close()
    german = served("schafkopf2-played.toml")
    page = open_at(browser, german.url, 390)
    icons = page.page.eval_on_selector_all(".table .card[data-card] .face",
                                           "fs => fs.map(f => [f.parentElement.dataset.card, !!f.querySelector('svg.suit-icon'), f.textContent])")
    assert icons and all(svg and text == card[1:] for card, svg, text in icons)
    assert len({colour_of(page, card) for card, _, _ in icons}) == 4          # German: four colours
    page.page.select_option("#suits", "letters")
    letters = page.page.eval_on_selector_all(".table .card[data-card] .face",
                                             "fs => fs.map(f => [f.parentElement.dataset.card, f.textContent, !!f.querySelector('svg')])")
    assert letters and all(text == card and not svg for card, text, svg in letters)
    page.page.context.close()


def screenshot(page: Page, name: str, width: int) -> None:
    folder = os.environ.get("STICH_EXPLORE_SCREENSHOTS")
    if folder and width in (390, 1360):
        page.move_list_filled(page.ply())          # the evaluation over the play drawn
        game = name.split(".")[0].replace("-played", "").replace("-mariage", "")
        suffix = "-phone" if width == 390 else ""
        page.page.screenshot(path=str(Path(folder) / f"explore-{game}{suffix}.png"), full_page=True)

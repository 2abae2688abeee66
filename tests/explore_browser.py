"""The harness of the browser tests: the system's Chromium driven by Playwright, a real
``stich explore`` server, and the page read back as a user sees it.

Chromium comes from the system's package manager (Playwright's own download is neither
needed nor used).  Where it is missing the browser tests skip with one line saying how to
install it; ``STICH_REQUIRE_BROWSER=1`` (set by ``.ci/run``) turns that skip into a failure,
so CI cannot pass without really running them.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ("Chromium not found: install it with `apt-get install chromium` (Debian/Ubuntu) or "
           "set STICH_CHROMIUM to its path")
# headless, and nothing that reaches out: a closed network refuses those connections
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SETTLE_MS = 60_000


def chromium_path() -> str | None:
    named = os.environ.get("STICH_CHROMIUM")
    if named:
        return named if Path(named).is_file() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def skip_or_fail(reason: str) -> None:
    """Skip, unless the run requires the browser tests (CI): then fail with the reason."""
    if os.environ.get("STICH_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (STICH_REQUIRE_BROWSER=1 requires the browser tests)", pytrace=False)
    pytest.skip(reason)


def launch(playwright):
    """The system's Chromium, or a skip (a failure under STICH_REQUIRE_BROWSER=1)."""
    path = chromium_path()
    if path is None:
        skip_or_fail(INSTALL)
    return playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)


class Server:
    """``stich explore FILE --no-browser`` in a process of its own, as a user starts it."""

    def __init__(self, path: Path, *options: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "stich.cli.main", "explore", str(path.relative_to(ROOT)), "--no-browser",
             *options],
            cwd=ROOT, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        if "http://127.0.0.1:" not in line:
            self.process.kill()
            raise AssertionError(f"stich explore did not start: {line}{self.process.stderr.read()}")
        self.url = line.split()[2]

    def stop(self) -> int:
        """Ctrl-C, as the user stops it; the exit status."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=20)
        finally:
            if self.process.poll() is None:
                self.process.kill()


class Page:
    """The explorer's page as a user sees it: what it shows, and the clicks and keys."""

    def __init__(self, page):
        self.page = page

    def settled(self, ply: int | None = None) -> None:
        """Wait until the page shows ``ply`` (default: whatever it shows) with its values."""
        where = "" if ply is None else f'[data-ply="{ply}"]'
        self.page.wait_for_selector(f'body{where}[data-busy="no"]', state="attached", timeout=SETTLE_MS)

    def ply(self) -> int:
        return int(self.page.eval_on_selector("body", "b => b.dataset.ply"))

    def text(self, selector: str) -> str:
        return " ".join(self.page.inner_text(selector).split())

    def legal_cards(self) -> dict[str, dict]:
        """Each legal card's shown value, colour and the value the page keeps for it."""
        return {card["card"]: card for card in self.page.eval_on_selector_all(".table .card.legal", """
            cards => cards.map(c => ({card: c.dataset.card,
                value: c.querySelector('.value').innerText.split(/\\s+/).join(' ').trim(),
                colour: ['optimal', 'losing', 'outcome-losing'].filter(k => c.classList.contains(k)),
                expected: c.dataset.expected ?? null}))""")}

    def move_costs(self) -> dict[int, tuple[int, bool]]:
        """The move list: what each played card cost and whether it is marked a mistake, by
        the ply after it."""
        return {int(item["ply"]): (int(item["cost"]), item["mistake"] == "yes")
                for item in self.page.eval_on_selector_all("#moves li[data-ply][data-cost]", """
                    items => items.map(i => ({ply: i.dataset.ply, cost: i.dataset.cost,
                                              mistake: i.dataset.mistake}))""")}

    def move_boxes(self) -> dict[int, tuple[float, float, float, float]]:
        """Where each move of the line is on the page (x, y, width, height), by its ply."""
        return {int(box["ply"]): (box["x"], box["y"], box["w"], box["h"])
                for box in self.page.eval_on_selector_all("#moves li[data-ply]", """
                    items => items.map(i => { const r = i.getBoundingClientRect();
                        return {ply: i.dataset.ply, x: r.x, y: r.y, w: r.width, h: r.height}; })""")}

    def move_list_filled(self, moves: int) -> None:
        """Wait until the move list shows the cost of ``moves`` cards (solved one by one)."""
        # a function, not an expression: the page's Content-Security-Policy forbids eval
        self.page.wait_for_function("n => document.querySelectorAll('#moves li[data-ply][data-cost]').length >= n",
                                    arg=moves, timeout=SETTLE_MS)

    def hidden_cards(self) -> int:
        return self.page.locator(".table .card.back").count()

    def view_rows(self) -> list[dict]:
        return self.page.eval_on_selector_all("#view-cards tbody tr", """
            rows => rows.map(r => ({card: r.dataset.card,
                                    expected: r.dataset.expected === "null" ? null : Number(r.dataset.expected),
                                    p_best: Number(r.dataset.pBest), best: r.classList.contains('best')}))""")

    def key(self, key: str) -> None:
        self.page.keyboard.press(key)

    def click(self, selector: str) -> None:
        self.page.click(selector)

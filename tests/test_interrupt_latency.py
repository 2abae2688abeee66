"""Ctrl-C reaches a search inside the core within a fraction of a second.

A search runs in C without the GIL, where Python's own SIGINT handler cannot act until it
returns; the core counts SIGINT itself and every search in every thread stops at its next
check (``core/limits.pxi``), raising ``SearchInterrupted``: a KeyboardInterrupt with the
bounds proven so far.  The long searches here could not finish in minutes (no
transposition table), so only the interrupt can end them.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from stich.core._search import Engine, SearchInterrupted, interrupt_handled, simulate_interrupt
from stich.deals.dealing import random_deal
from stich.search.session import Session

ROOT = Path(__file__).resolve().parent.parent
STOP_WITHIN = 2.0           # seconds from the signal to the answer, on a busy machine

CHILD = textwrap.dedent("""
    import time
    from stich.core._search import Engine
    from stich.deals.dealing import random_deal
    from stich.search.session import Session
    deal = random_deal("schafkopf2", 2, players=2)
    engine = Engine(1)
    session = Session(deal, deal.position(), engine)
    engine.switches(tt=False)           # minutes of search: only Ctrl-C ends it
    print("searching", flush=True)
    try:
        session.value()
        print("finished", flush=True)
    except KeyboardInterrupt as stop:
        print("interrupted", type(stop).__name__, getattr(stop, "lo", None),
              getattr(stop, "hi", None), *engine.value_range, flush=True)
""")


def _long_session(seed: int = 2) -> tuple[Engine, Session]:
    deal = random_deal("schafkopf2", seed, players=2)
    engine = Engine(1)
    session = Session(deal, deal.position(), engine)
    engine.switches(tt=False)
    return engine, session


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or sys.platform == "win32", reason="POSIX signals")
def test_sigint_stops_a_search_in_the_core_at_once():
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout.readline().strip() == "searching"
        time.sleep(0.3)                         # well inside the search
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        answer: list[str] = []
        reader = threading.Thread(target=lambda: answer.append(proc.stdout.readline()), daemon=True)
        reader.start()
        reader.join(STOP_WITHIN)
        waited = time.monotonic() - sent
        assert answer, f"the search went on for {waited:.1f} s after Ctrl-C"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    words = answer[0].split()
    assert words[:2] == ["interrupted", "SearchInterrupted"], answer[0]
    lo, hi, low, high = map(int, words[2:])
    assert low <= lo <= hi <= high


def test_an_interrupt_stops_the_searches_of_every_thread_with_proven_bounds():
    results: list = [None, None]

    def search(k: int, engine: Engine, session: Session) -> None:
        try:
            results[k] = session.value()
        except BaseException as stop:           # handed to the test's thread
            results[k] = stop

    threads = []
    for k in range(2):
        engine, session = _long_session(2 + k)
        threads.append(threading.Thread(target=search, args=(k, engine, session), daemon=True))
    try:
        for thread in threads:
            thread.start()
        time.sleep(0.3)
        simulate_interrupt()
        for thread in threads:
            thread.join(STOP_WITHIN)
        assert not any(thread.is_alive() for thread in threads), "a search went on after Ctrl-C"
    finally:
        interrupt_handled()
    for stop in results:
        assert isinstance(stop, SearchInterrupted) and isinstance(stop, KeyboardInterrupt)
        assert stop.lo <= stop.hi


def test_the_bounds_an_interrupt_reports_are_proven_and_searches_run_again_after_it():
    deal = random_deal("elfern", 7, players=2)
    exact = Session(deal, deal.position(), Engine(16)).value()
    engine = Engine(1)
    session = Session(deal, deal.position(), engine)
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(_value_or_stop(session)), daemon=True)
    try:
        worker.start()
        time.sleep(0.05)
        simulate_interrupt()
        worker.join(STOP_WITHIN + 10)
    finally:
        interrupt_handled()
    assert outcome
    stop = outcome[0]
    if isinstance(stop, SearchInterrupted):
        assert stop.lo <= exact <= stop.hi
    else:
        assert stop == exact                    # finished before the interrupt
    assert session.value() == exact             # the engine searches again once it is handled


def _value_or_stop(session: Session):
    try:
        return session.value()
    except SearchInterrupted as stop:
        return stop

"""Benchmarks of the solver on fixed, seeded deal sets (run: ``pytest benchmarks/``).

Every deal is measured once, from a cleared engine (``stich.run.bench``), with its own clock; a
pytest-benchmark entry is one whole set, and its ``extra_info`` holds the per-deal statistics.
At the end of the run ``pytest_terminal_summary`` prints one table of medians, p90s and nodes
per set and measure, and the side-by-side comparison with DDS (bridge's double-dummy solver,
through endplay) on the same four-hand Scharwenzel deals mapped to bridge (``stich.games.scharwenzel_dds``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE.parent, HERE):          # the repository (solver) and this folder (benchdata)
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from benchdata import DDS_SET, RECORDS, SETS, VERSION_ROWS, WARMUP_SEED, Record  # noqa: E402

from stich.search.solve import new_engine  # noqa: E402


class _Once:
    """Stands in for pytest-benchmark's fixture when the plugin is missing or disabled
    (``-p no:benchmark``): the set is run once and only our summary is printed."""

    def __init__(self):
        self.extra_info: dict = {}
        self.group = None

    def pedantic(self, target, args=(), kwargs=None, rounds=1, iterations=1, **_):
        return target(*args, **(kwargs or {}))


@pytest.fixture
def bench(request):
    """pytest-benchmark's ``benchmark`` fixture, or a plain stand-in without the plugin."""
    if request.config.pluginmanager.hasplugin("benchmark"):
        return request.getfixturevalue("benchmark")
    return _Once()


@pytest.fixture
def record():
    """``record(name, measure)`` -> a Record kept for the summary at the end of the run."""
    def make(name: str, measure: str) -> Record:
        rec = Record(name, measure)
        RECORDS[(name, measure)] = rec
        return rec
    return make


@pytest.fixture(scope="session")
def engine():
    """One engine for the session, warmed up (its table's memory touched) on an unmeasured
    deal; ``stich.run.bench`` clears it before every measured deal."""
    from stich.deals.dealing import random_deal
    from stich.run.bench import measure_solve

    e = new_engine()
    measure_solve(random_deal("scharwenzel", WARMUP_SEED), e)
    return e


def _fmt_ms(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def _gap(measured_ms: float, target_ms: float | None) -> str:
    """The target and how far the measured median is from it (``met`` when within)."""
    if target_ms is None:
        return ""
    return f"{target_ms} (met)" if measured_ms <= target_ms else f"{target_ms} ({measured_ms / target_ms:.2f}x)"


def _versions_summary(tr) -> None:
    """test_versions.py: the previous code and this code, row by row."""
    from tabulate import tabulate

    rows = []
    for row, r in VERSION_ROWS.items():
        old, new = r["old"], r["new"]
        rows.append([row, r["deals"], r["clock"], _fmt_ms(old["median_ms"]), _fmt_ms(new["median_ms"]),
                     f"{old['median_ms'] / new['median_ms']:.2f}x", f"{old['ns_per_node']:.0f}",
                     f"{new['ns_per_node']:.0f}", f"{old['median_nodes']:,.0f}",
                     f"{new['median_nodes']:,.0f}", f"{r['load']:.1f}", _gap(new["median_ms"], r.get("target_ms"))])
    tr.write_sep("=", "previous code -> this code, alternating process by process (test_versions.py)")
    tr.write_line(tabulate(rows, headers=["row", "deals", "clock", "old median ms", "new median ms",
                                          "speed-up", "old ns/node", "new ns/node", "old median nodes",
                                          "new median nodes", "load", "target ms (gap)"],
                           colalign=("left",) + ("right",) * 11, disable_numparse=True))
    tr.write_line("Per deal the median over the rounds, then the median over the deals; cpu: CPU "
                  "seconds of the process, wall: wall seconds (two threads); ns/node: total time / "
                  "total nodes; load: the load average at the end of the row.")


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if VERSION_ROWS:
        _versions_summary(terminalreporter)
    if not RECORDS:
        return
    from tabulate import tabulate

    tr = terminalreporter
    order = {name: k for k, name in enumerate(SETS)}
    measures = {"value": 0, "value (vs DDS)": 1, "solve": 2, "solve(deal)": 3, "cards (vs DDS)": 4,
                "card search (vs DDS)": 5, "table": 6, "growth value": 7, "growth solve": 8}
    ours = sorted((r for r in RECORDS.values() if not r.measure.startswith("dds") and r.seconds),
                  key=lambda r: (measures.get(r.measure, 9), order.get(r.name, 99), r.measure))
    if ours:
        rows = []
        for r in ours:
            s = r.stats()
            rows.append([r.name, r.measure, s["deals"], _fmt_ms(s["median_ms"]), _fmt_ms(s["p90_ms"]),
                         _fmt_ms(s["max_ms"]), f"{s['median_nodes']:,.0f}", f"{s['p90_nodes']:,}",
                         f"{s['total_nodes']:,}", f"{s['total_s']:.2f}"])
        tr.write_sep("=", "stich: per deal, one deal at a time from a cleared engine")
        tr.write_line(tabulate(rows, headers=["set", "measure", "deals", "median ms", "p90 ms",
                                              "max ms", "median nodes", "p90 nodes", "total nodes",
                                              "total s"],
                               colalign=("left", "left") + ("right",) * 8, disable_numparse=True))
        tr.write_line("value: Session set-up + Engine.value (set-up included); solve: stich.solve "
                      "(objective score: value, every card, outcome, line); cards: stich.solve "
                      "with objective total (what DDS computes with solutions=3, plus a line, each "
                      "card's outcome level and the referee's check); card search: the value and "
                      "every card's totals alone (stich.run.bench.measure_cards); "
                      "(vs DDS): timed alternately with DDS, deal by deal; table: "
                      "stich.analysis.table.dd_table (4 trumps x 4 leaders = 16 solves).")
    dds = [r for r in RECORDS.values() if r.measure.startswith("dds") and r.seconds]
    if dds:
        rows = []
        for r in dds:
            what = r.measure.split(" ", 1)[1]          # "value", "cards" or "card search"
            mine = RECORDS.get((r.name, f"{what} (vs DDS)"))
            s = r.stats()
            row = [what, s["deals"], _fmt_ms(s["median_ms"]), _fmt_ms(s["p90_ms"]), f"{s['total_s']:.3f}",
                   f"{s['median_nodes']:,.0f}"]
            if mine and mine.seconds:
                m = mine.stats()
                row += [_fmt_ms(m["median_ms"]), _fmt_ms(m["p90_ms"]), f"{m['total_s']:.3f}",
                        f"{m['median_nodes']:,.0f}", f"{m['median_ms'] / s['median_ms']:.1f}x",
                        f"{m['total_s'] / s['total_s']:.1f}x"]
            else:
                row += ["-"] * 6
            row.append(f"{r.agree[0]}/{r.agree[1]}" if r.agree else "-")
            rows.append(row)
        tr.write_sep("=", f"stich vs DDS on the same {DDS_SET.name} deals mapped to bridge")
        tr.write_line(tabulate(rows, headers=["", "deals", "DDS median ms", "DDS p90 ms", "DDS total s",
                                              "DDS med nodes", "stich median ms", "stich p90 ms",
                                              "stich total s", "stich med nodes", "ratio median",
                                              "ratio total", "values agree"],
                               colalign=("left",) + ("right",) * 12, disable_numparse=True))
        tr.write_line("DDS: endplay.dds.solve_board, one call per deal (value: solutions=1; cards and "
                      "card search: solutions=3); ratio = stich time / DDS time.  Node counts are each solver's "
                      "own and not comparable one to one.")
        for r in dds:
            for line in r.mismatches:
                tr.write_line(f"MISMATCH ({r.measure}): {line}", red=True)

"""The report of ``stich bench``: nodes, time and nodes per second per deal set."""

from __future__ import annotations

from typing import Any

from tabulate import tabulate

from stich.run.bench import SWITCHES


def _ns(value) -> str:
    return "-" if value is None else f"{value:.1f}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def bench_report(data: dict[str, Any]) -> str:
    """The readable table of ``stich bench``."""
    rows = []
    for s in data["sets"]:
        rows.append([s["name"], s["deals"], f"{s['nodes']:,}", f"{s['seconds']:.3f}",
                     f"{s['nodes_per_second']:,}" if s["nodes_per_second"] else "-",
                     _ns(s.get("ns_per_node")), _ms(s["median_ms"]), _ms(s["p90_ms"])])
    t = data["total"]
    rows.append(["total", t["deals"], f"{t['nodes']:,}", f"{t['seconds']:.3f}",
                 f"{t['nodes_per_second']:,}" if t["nodes_per_second"] else "-",
                 _ns(t.get("ns_per_node")), _ms(t["median_ms"]), ""])
    table = tabulate(rows, headers=["set", "deals", "nodes", "seconds", "nodes/s", "ns/node",
                                    "median ms", "p90 ms"], colalign=("left",) + ("right",) * 7,
                     disable_numparse=True)
    what = ("solve (value, every card, outcome, line), objective " + data["objective"]
            if data["mode"] == "solve" else "value only (total objective)")
    if data.get("threads", 1) > 1:
        what += f", {data['threads']} threads"
    off = [name for name, on in data["switches"].items() if not on and name in SWITCHES]
    off_text = f"techniques off: {', '.join(off) if off else 'none'}"    # of --off (not experiments)
    build = f"; core {data['core_build']}" if "core_build" in data else ""
    if data.get("core_plain_because"):
        build += f" ({data['core_plain_because']})"
    lines = [f"stich bench: {what}; table {data['tt_megabytes']} MB; {off_text}{build}", "", table, "",
             f"Note: {data['note']}."]
    if data.get("interrupted"):
        lines += ["", "INTERRUPTED (Ctrl-C): only the deals counted above were measured."]
    return "\n".join(lines)

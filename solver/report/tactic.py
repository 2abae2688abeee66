"""The report of ``stich tactic``: the study's tables, text histograms and plots."""

from __future__ import annotations

import math

from tabulate import tabulate

from solver.study.tactic import regret_lists


def _fmt(x, digits: int = 2) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _ci(part: dict, digits: int = 2) -> str:
    low, high = part["interval"]
    return f"{_fmt(part['mean'], digits)} [{_fmt(low, digits)}, {_fmt(high, digits)}]"


def _pct(part: dict) -> str:
    if not part["n"]:
        return "–"
    low, high = part["interval"]
    return f"{100 * part['share']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def tactic_report(summary: dict) -> str:
    rows, detail, outcome = [], [], []
    for t in summary["tactics"]:
        vs = t["vs_opposite"]
        rows.append([t["tactic"], t["decisions"], f"{t['deals_applied']}/{t['deals']}",
                     _pct(t["advice"]["optimal"]), _ci(t["advice"]["regret"]),
                     _ci(t["opposite"]["regret"]), _ci(vs),
                     f"{vs['lower']}/{vs['equal']}/{vs['higher']}",
                     f"{vs.get('p_holm', vs['p_sign']):.3g}"])
        detail.append([t["tactic"], _fmt(t["advice"]["best_case_regret"]),
                       _pct(t["random"]["optimal"]), _ci(t["random"]["regret"]),
                       _pct(t["opposite"]["optimal"]), _ci(t["vs_random"]), t["all_advised"],
                       t["deals_never"]])
        if "level_lost" in t["advice"]:
            outcome.append([t["tactic"]] + [f"{100 * t[p][k]:.1f}%" if t[p].get(k) == t[p].get(k) else "–"
                                            for p in ("advice", "random", "opposite")
                                            for k in ("level_lost", "win_lost")])
    units = sorted({t["unit"] for t in summary["tactics"] if t["unit"]})
    unit = " or ".join(units) or "the game's unit"
    parts = [f"{summary['deals']} deals, objective {summary['objective']}, regret in {unit} "
             f"(95% intervals: Wilson for shares, seeded bootstrap for means)", "",
             tabulate(rows, headers=["tactic", "decisions", "deals applied", "advice optimal",
                                     "advice regret", "opposite regret", "advice − opposite",
                                     "better/equal/worse", "p (Holm)"], tablefmt="simple"),
             "",
             tabulate(detail, headers=["tactic", "best-case regret", "random optimal", "random regret",
                                       "opposite optimal", "advice − random", "all cards advised",
                                       "deals never"], tablefmt="simple")]
    left_out = [f"{t['tactic']}: {t['not_exact']['decisions']} decisions and {t['not_exact']['deals']} "
                f"deals hit the limit and are left out of these figures"
                for t in summary["tactics"] if "not_exact" in t]
    if left_out:
        parts += ["", "NOT EXACT (a limit was hit):", *left_out]
    view = [t for t in summary["tactics"] if t.get("player", {}).get("decisions")]
    if view:
        parts += ["", "Player's view (expected over the hidden layouts the mover cannot tell apart; "
                      "bias = double-dummy − player's view, bootstrap 95% over deals):",
                  tabulate([[t["tactic"], t["player"]["decisions"], f"{t['player']['layouts']:.1f}",
                             _pct(t["advice"]["optimal"]), _pct(t["player"]["optimal"]),
                             _ci(t["player"]["bias_optimal"], 3),
                             _ci(t["advice"]["regret"]), _ci(t["player"]["regret"]),
                             _ci(t["player"]["bias_regret"])] for t in view],
                           headers=["tactic", "decisions", "layouts", "dd optimal", "pv optimal",
                                    "bias: optimal", "dd regret", "pv regret", "bias: regret"],
                           tablefmt="simple")]
    if outcome:
        parts += ["", "Outcome changes (share of decisions, mean over the cards followed):",
                  tabulate(outcome, headers=["tactic", "advice: level lost", "advice: win lost",
                                             "random: level lost", "random: win lost",
                                             "opposite: level lost", "opposite: win lost"],
                           tablefmt="simple")]
    return "\n".join(parts)


def text_histograms(records, tactics, summary: dict) -> str:
    """Regret distributions as text, for when matplotlib is not installed."""
    lines = []
    for tactic, row in zip(tactics, summary["tactics"]):
        unit = row["unit"]
        lists = regret_lists(records, tactic)
        values = [v for vs in lists.values() for v in vs]
        if not values:
            continue
        top = max(values)
        edges = sorted({0.0, *[top * k / 8 for k in range(1, 9)]}) if top > 0 else [0.0]
        lines.append(f"{tactic.name}: regret ({unit}) of the advice / random card / opposite advice")
        for k, edge in enumerate(edges):
            low = edges[k - 1] if k else None
            label = "0" if low is None else f"({low:.1f}, {edge:.1f}]"
            counts = []
            for part in ("advice", "random", "opposite"):
                vs = lists[part]
                c = sum(1 for v in vs if (v == 0 if low is None else low < v <= edge))
                counts.append(f"{part[:3]} {'#' * round(30 * c / len(vs)) if vs else '':<30}")
            lines.append(f"  {label:>14} " + " ".join(counts))
    return "\n".join(lines)


def plot(records, tactics, summary: dict, path: str) -> bool:
    """Regret distributions and share-optimal intervals; False if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = summary["tactics"]
    viewed = any(row.get("player", {}).get("decisions") for row in rows)
    fig, axes = plt.subplots(len(rows), 3 if viewed else 2, figsize=(16 if viewed else 11, 2.4 * len(rows) + 0.6),
                             squeeze=False)
    colours = {"advice": "tab:blue", "random": "tab:grey", "opposite": "tab:orange"}
    for k, (tactic, row) in enumerate(zip(tactics, rows)):
        lists = regret_lists(records, tactic)
        left, right = axes[k][:2]
        top = max([max(v) for v in lists.values() if v] + [1])
        bins = [x - 0.5 for x in range(0, int(math.ceil(top)) + 2)] if top <= 40 else 30
        for part, values in lists.items():
            if values:
                left.hist(values, bins=bins, histtype="step", density=True, label=part,
                          color=colours[part], linewidth=1.5)
        left.set_title(f"{tactic.name} ({row['decisions']} decisions)", fontsize=9)
        left.set_xlabel(f"regret ({row['unit']})", fontsize=8)
        left.tick_params(labelsize=7)
        if k == 0:
            left.legend(fontsize=7)
        for y, part in enumerate(("advice", "random", "opposite")):
            share = row[part]["optimal"]
            if share["n"]:
                low, high = share["interval"]
                right.errorbar([share["share"]], [y], xerr=[[share["share"] - low], [high - share["share"]]],
                               fmt="o", color=colours[part], capsize=3)
        right.set_yticks([0, 1, 2], ["advice", "random", "opposite"], fontsize=7)
        right.set_xlim(0, 1)
        right.set_xlabel("share optimal, Wilson 95%", fontsize=8)
        right.tick_params(labelsize=7)
        if viewed:
            _plot_bias(axes[k][2], row)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None} if path.endswith(".png") else {"Date": None})
    plt.close(fig)
    return True


def _plot_bias(axis, row: dict) -> None:
    """The regret of the advice double-dummy, from the player's view, and their difference
    (the double-dummy bias), each with its bootstrap 95% interval; zero marked."""
    view = row.get("player", {})
    parts = [("double-dummy", row["advice"]["regret"], "tab:blue"),
             ("player's view", view.get("regret"), "tab:green"),
             ("bias (dd − pv)", view.get("bias_regret"), "tab:red")]
    for y, (label, part, colour) in enumerate(parts):
        if part and part.get("interval") and part.get("mean") is not None:
            low, high = part["interval"]
            axis.errorbar([part["mean"]], [y], xerr=[[part["mean"] - low], [high - part["mean"]]],
                          fmt="o", color=colour, capsize=3)
    axis.axvline(0, color="black", linewidth=0.6)
    axis.set_yticks(range(len(parts)), [p[0] for p in parts], fontsize=7)
    axis.set_ylim(-0.5, len(parts) - 0.5)
    axis.set_xlabel(f"mean regret of the advice ({row['unit']}), bootstrap 95%", fontsize=8)
    axis.set_title(f"player's view: {view.get('decisions', 0)} decisions, "
                   f"{view.get('layouts', 0):.1f} layouts each", fontsize=9)
    axis.tick_params(labelsize=7)

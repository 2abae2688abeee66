"""stich against DDS (bridge's double-dummy solver, via endplay) on the same deals.

The four-hand Scharwenzel set is mapped to bridge by ``stich.games.scharwenzel_dds``; DDS solves each deal
with one ``solve_board`` call: the value (solutions=1) and every card scored (solutions=3).
Ours are the value (``measure_value``), the whole ``stich.solve`` with every card
(``measure_solve``), and the searches alone of the value and every card's totals
(``measure_cards``: what the solve shares with DDS's every-card call, without its line, outcome
levels and checks).  Ours and DDS are timed deal by deal, alternately, so both see the same machine load.  DDS's
tricks for the side on lead must equal our totals, deal by deal and card by card.  endplay is
the optional extra ``bench`` (``pip install -e '.[bench]'``); without it these are skipped.
"""

from __future__ import annotations

import statistics
import time

import pytest
from benchdata import DDS_SET, WARMUP_SEED, finish

from stich.deals.dealing import random_deal
from stich.games.scharwenzel_dds import from_bridge_card, to_bridge, to_endplay, tricks_to_totals
from stich.run.bench import measure_cards, measure_solve, measure_value

SKIP = "endplay (DDS) is not installed: pip install -e '.[bench]' (or pip install endplay)"


@pytest.fixture(scope="module")
def mapped():
    """(seed, deal, bridge deal, endplay deal) for every deal of the set."""
    pytest.importorskip("endplay", reason=SKIP)
    out = []
    for seed, deal in zip(DDS_SET.seeds, DDS_SET.deals()):
        bridge = to_bridge(deal)
        out.append((seed, deal, bridge, to_endplay(bridge)))
    return out


def _dds(mode_name):
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    mode = getattr(SolveMode, mode_name)      # OptimalOne: solutions=1; Default: solutions=3
    warm = to_endplay(to_bridge(random_deal("scharwenzel", WARMUP_SEED)))
    solve_board(warm, mode)        # DDS allocates its memory on the first call
    return lambda deal: solve_board(deal, mode)


def _cards(solved, trump):
    return {from_bridge_card("SHDC"[int(card.suit)] + card.rank.abbr, trump): tricks
            for card, tricks in solved}


@pytest.mark.parametrize("what", ["value", "cards", "card search"])
def test_dds(bench, engine, record, mapped, what):
    """Per deal: ours, then DDS, each on its own clock; then every answer compared."""
    theirs_rec = record(DDS_SET.name, f"dds {what}")
    ours_rec = record(DDS_SET.name, f"{what} (vs DDS)")
    call = _dds("OptimalOne" if what == "value" else "Default")
    answers, trick_nodes = {}, []

    def go():
        for seed, deal, _, ep in mapped:
            if what == "value":
                mine = measure_value(deal, engine, seed)
            elif what == "cards":
                mine = measure_solve(deal, engine, seed, objective="total")
            else:
                mine = measure_cards(deal, engine, seed)
            ours_rec.seconds.append(mine.seconds)
            ours_rec.nodes.append(mine.nodes)
            trick_nodes.append(engine.trick_nodes)      # one thread: the engine's own count
            started = time.perf_counter()
            answer = call(ep)
            theirs_rec.seconds.append(time.perf_counter() - started)
            theirs_rec.nodes.append(answer._data.nodes)
            answers[seed] = (mine, list(answer))

    bench.group = "dds"
    bench.pedantic(go, rounds=1, iterations=1)
    good = 0
    for seed, deal, bridge, _ in mapped:
        mine, answer = answers[seed]
        where = f"seed {seed} ({bridge.pbn}, trump {bridge.trump}, leader {bridge.leader})"
        if what == "value":
            theirs = tricks_to_totals(bridge, answer[0][1])
            ours = (deal.taken[0] + mine.value, deal.taken[1] + bridge.tricks - mine.value)
            ok = theirs == ours
            if not ok:
                theirs_rec.mismatches.append(f"{where}: DDS {theirs}, stich {ours}")
        else:
            theirs = {card: tricks_to_totals(bridge, t) for card, t in _cards(answer, deal.trump).items()}
            ours = mine.result if what == "card search" else {m.card: m.totals for m in mine.result.moves}
            ok = theirs == ours and tricks_to_totals(bridge, max(t for _, t in answer)) == mine.totals
            if not ok:
                diff = {str(c): (theirs.get(c), ours.get(c)) for c in set(theirs) | set(ours)
                        if theirs.get(c) != ours.get(c)}
                theirs_rec.mismatches.append(f"{where}: per card (DDS, stich) {diff}")
        good += ok
    theirs_rec.agree = (good, len(mapped))
    finish(bench, theirs_rec)
    bench.extra_info.update({f"stich_{k}": (round(v, 4) if isinstance(v, float) else v)
                                 for k, v in ours_rec.stats().items()})
    # DDS's node count is of the nodes at a trick's start (its "trick nodes"); stich's are
    # every node.  Like for like: stich's nodes at a trick's start beside DDS's.
    bench.extra_info.update({"stich_trick_nodes": sum(trick_nodes),
                             "stich_trick_nodes_median": statistics.median(trick_nodes)})
    print(f"\n{what}: nodes at a trick's start, median (sum): stich {statistics.median(trick_nodes):,.0f} "
          f"({sum(trick_nodes):,}), DDS {statistics.median(theirs_rec.nodes):,.0f} ({sum(theirs_rec.nodes):,}); "
          f"stich's every node {statistics.median(ours_rec.nodes):,.0f} ({sum(ours_rec.nodes):,})")
    assert not theirs_rec.mismatches, "\n".join(theirs_rec.mismatches)

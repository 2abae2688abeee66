"""Instructions per node under callgrind: the measure that does not move with the load.

    python benchmarks/instructions.py [REPO]          # REPO: a checkout, default this one
    python benchmarks/instructions.py [REPO] --by-function
    python benchmarks/instructions.py [REPO] --solves

counts, under ``valgrind --tool=callgrind``, the instructions executed inside
``Engine.value`` for the point games' deals of ``stich bench --quick`` (Schafkopf2 both trump
modes and Elfern: 9 whole-deal values), and prints them with the nodes and the instructions
per node.  ``--by-function`` also says where they go: the compiler inlines the whole search
into one C function, so callgrind's own per-function table names only that; instead each line
of the generated C is charged to the core's function (``core/*.pxi``) whose source line Cython
marked above it (a build with ``-g`` is needed for the lines), so build REPO's core for it
first:

    CFLAGS="-g" python setup.py build_ext --inplace --force

(the same code as the install's, with line numbers).  Valgrind 3.19 does not decode AVX-512,
which setup.py leaves out on x86-64; for a checkout older than that, add -mno-avx512f.  The
counts are the same on every run of the same build.
``--solves`` counts the whole every-card solves of the DDS set (``benchmarks/test_dds.py``'s
100 four-hand Scharwenzel deals) instead, Python included, and says how much of that is the
core's: what a small deal's solve spends around the search.  ``--child`` and
``--solve-child`` are the processes valgrind runs.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SETS = ("schafkopf2-schellen", "schafkopf2-card17", "elfern")


def child(repo: str) -> None:
    from versions_worker import import_root  # REPO's stich, not the installed one
    sys.path.insert(0, import_root(repo))
    os.chdir(repo)
    try:
        from stich.run.bench import builtin_sets, measure_value
        from stich.search.solve import new_engine
    except ImportError:                                     # the layout before stich.run.bench
        from stich.bench import builtin_sets, measure_value
        from stich.solve import new_engine
    engine = new_engine(64)
    total = 0
    for deal_set in builtin_sets(quick=True):
        if deal_set.name in SETS:
            total += sum(measure_value(deal, engine, seed).nodes
                         for seed, deal in zip(deal_set.seeds, deal_set.deals()))
    print(f"nodes {total}")
    print(f"module {sys.modules['stich'].__file__}")


def solve_child(repo: str, count: int) -> None:
    """Whole every-card solves (``stich.solve``, the totals) of the first ``count`` deals of
    the DDS set, after one solve that warms everything up."""
    from versions_worker import import_root
    sys.path.insert(0, import_root(repo))
    os.chdir(repo)
    from benchdata import DDS_SET

    from stich.run.bench import measure_solve
    from stich.search.solve import new_engine
    engine = new_engine(64)
    deals = list(zip(DDS_SET.seeds, DDS_SET.deals()))
    measure_solve(deals[0][1], engine, deals[0][0], objective="total")
    solved = deals if count < 0 else deals[:count]
    nodes = sum(measure_solve(deal, engine, seed, objective="total").nodes for seed, deal in solved)
    print(f"nodes {nodes}")
    print(f"solves {len(solved)}")


def callgrind(tmp: str, child_args: list[str], options: tuple[str, ...] = ()) -> tuple[str, int]:
    """Run this script's ``child_args`` under callgrind (profile in ``tmp``): the child's output
    and the instructions collected.  Exits with valgrind's last lines if it failed."""
    out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                          *options, sys.executable, os.path.abspath(__file__), *child_args],
                         capture_output=True, text=True)
    collected = re.search(r"Collected : (\d+)", out.stderr)
    if not (collected and re.search(r"nodes (\d+)", out.stdout)):
        sys.exit(f"callgrind failed:\n{out.stderr[-2000:]}")
    return out.stdout, int(collected.group(1))


def solves(repo: str) -> None:
    """Instructions of the DDS set's every-card solves, Python included, split into the
    core's and the rest (the Python around it): the whole process, less the same process
    that solves only the warm-up deal."""
    runs = []
    for count in (0, -1):
        with tempfile.TemporaryDirectory() as tmp:
            stdout, collected = callgrind(tmp, ["--solve-child", repo, str(count)])
            annotated = subprocess.run(["callgrind_annotate", "--threshold=100", f"{tmp}/cg.out"],
                                       capture_output=True, text=True).stdout
            core = sum(int(m.group(1).replace(",", "")) for m in
                       re.finditer(r"^\s*([\d,]+) .*_search\.cpython", annotated, re.M))
            nodes = int(re.search(r"nodes (\d+)", stdout).group(1))
            solved = int(re.search(r"solves (\d+)", stdout).group(1))
            runs.append((collected, core, nodes, solved))
    (all0, core0, _, _), (all1, core1, nodes, count) = runs
    whole, core = all1 - all0, core1 - core0
    print(f"{repo}: {count} every-card solves (four-hand Scharwenzel), {nodes:,} nodes: "
          f"{whole / 1e6:.1f} M instructions, {core / 1e6:.1f} M in the core "
          f"({core / nodes:.0f} per node), {(whole - core) / 1e6:.1f} M around it "
          f"({(whole - core) / count / 1e3:.0f} k per solve)")


def per_node(repo: str, by_function: bool) -> None:
    """Instructions inside ``Engine.value`` for the quick bench's point-game deals, per node."""
    with tempfile.TemporaryDirectory() as tmp:
        stdout, collected = callgrind(tmp, ["--child", repo],
                                      ("--collect-atstart=no", "--toggle-collect=*_pw_*Engine_*value"))
        n = int(re.search(r"nodes (\d+)", stdout).group(1))
        module = re.search(r"module (.*)", stdout)
        print(f"{repo} ({module.group(1) if module else '?'}): {collected / 1e9:.3f} G instructions, "
              f"{n:,} nodes, {collected / n:.0f} instructions per node")
        if by_function:
            print_by_function(f"{tmp}/cg.out", repo, n, collected)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
        return
    if sys.argv[1:2] == ["--solve-child"]:
        solve_child(sys.argv[2], int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description="Instructions per node under callgrind.",
                                     epilog=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo", nargs="?", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="a checkout (default: this one)")
    parser.add_argument("--by-function", action="store_true", help="where the instructions go")
    parser.add_argument("--solves", action="store_true",
                        help="the DDS set's every-card solves, core and the Python around it")
    args = parser.parse_args()
    repo = os.path.abspath(args.repo)
    if args.solves:
        solves(repo)
    else:
        per_node(repo, args.by_function)


C_SOURCE = "solver/core/_search.c"


def print_by_function(profile: str, repo: str, nodes: int, collected: int, top: int = 30) -> None:
    """Instructions per node charged to each function of the core's source (``core/*.pxi``)."""
    annotated = subprocess.run(["callgrind_annotate", "--auto=no", "--context=0", "--show-percs=no",
                                "--threshold=100", profile, C_SOURCE],
                               capture_output=True, text=True, cwd=repo).stdout
    per_line = line_counts(annotated, collected)
    c_lines = Path(repo, C_SOURCE).read_text(encoding="utf-8").splitlines()
    owner = source_owners(c_lines, os.path.join(repo, "solver", "core"))
    charged: dict[str, int] = {}
    for line, count in per_line.items():
        name = owner[line - 1] if 0 < line <= len(owner) else "?"
        charged[name] = charged.get(name, 0) + count
    total = sum(charged.values())
    if not total:
        print(f"no line of {C_SOURCE} was counted: build the core with CFLAGS=\"-g\"")
        return
    print(f"\n{'instructions per node':>22}  share  function (core source)")
    for name, count in sorted(charged.items(), key=lambda kv: -kv[1])[:top]:
        print(f"{count / nodes:22.1f}  {100 * count / total:4.1f}%  {name}")
    print(f"{total / nodes:22.1f}  100%   (every line of {C_SOURCE})")


def line_counts(annotated: str, collected: int) -> dict[int, int]:
    """Instructions per line of the annotated C file (``callgrind_annotate --context=0``: each
    line counted comes between two ``-- line N --`` marks).  A call's line, which callgrind
    charges with the whole call (the Python entry into the search), is left out."""
    counts: dict[int, int] = {}
    text = annotated.split(f"-- User-annotated source: {C_SOURCE}", 1)[-1]
    line = None
    for row in text.splitlines():
        mark = re.match(r"-- line (\d+) -+", row)
        if mark:
            line = int(mark.group(1)) if line is None else None
            continue
        number = re.match(r"\s*([\d,]+)\s", row)
        if line is not None and number:
            counts[line] = counts.get(line, 0) + int(number.group(1).replace(",", ""))
            line += 1
    return {k: v for k, v in counts.items() if v < collected / 2}


def source_owners(c_lines: list[str], core: str) -> list[str]:
    """For each line of the generated C, the core function it was made from: Cython marks each
    statement's code with its source line (``/* "solver/core/search.pxi":123``); the verbatim C
    helpers before the first mark are named by their own definition (``st_popcount``)."""
    functions: dict[tuple[str, int], str] = {}
    for name in os.listdir(core):
        if name.endswith((".pxi", ".pyx")):
            current = "?"
            lines = Path(core, name).read_text(encoding="utf-8").splitlines()
            for number, text in enumerate(lines, 1):
                found = re.match(r"\s*(?:cdef|cpdef|def)\s+(?:inline\s+)?[\w*\s\[\]]*?\b(\w+)\s*\(", text)
                if found:
                    current = found.group(1)
                functions[(name, number)] = f"{current} ({name})"
    owners, current = [], "?"
    for text in c_lines:
        mark = re.match(r'\s*/\* "solver/core/([\w.]+)":(\d+)', text)
        helper = re.search(r"static inline [\w ]+?\b(st_\w+)\(", text)
        if mark:
            current = functions.get((mark.group(1), int(mark.group(2))), "?")
        elif helper and current.startswith(("?", "st_")):
            current = f"{helper.group(1)} (C helper)"
        owners.append(current)
    return owners


if __name__ == "__main__":
    main()

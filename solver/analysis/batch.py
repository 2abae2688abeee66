"""``stich batch``: many deals solved on all cores or a Dask cluster, one JSON line per deal,
resumable.

The deals come from deal files or ``--generate``; each is solved by a worker of the pool
(``stich.run.pool``) and written to the results file (``stich.run.results``) as soon as it is
solved, as the object the command chose to record (``stich solve --json``'s).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stich.deals.deal import Deal, DealError, load, loads
from stich.deals.dealing import MAX_DEALS, generate_deals, parse_label, stream_label
from stich.games import GAMES
from stich.run import RunError
from stich.run.pool import run_everywhere, worker_engine
from stich.run.results import BatchItem, Recovery, ResultsFile, error_record, record_of


class BatchError(RunError):
    """Bad input to a batch (exit 2): a bad --generate, unreadable deals, ids twice."""


MAX_GENERATE = MAX_DEALS      # deals per --generate: the batch holds every deal's text in memory
MAX_BATCH = 10 * MAX_DEALS    # generated deals in one batch, however many --generate


# --- the deals of a batch ---------------------------------------------------------------------------


def parse_generate(spec: str) -> tuple[str, int, int, int]:
    """``GAME:N[:SEED]`` -> (game, players, N, seed); GAME may be scharwenzel6/scharwenzel8."""
    parts = spec.split(":")
    if len(parts) not in (2, 3):
        raise BatchError(f"--generate {spec!r}: write GAME:N or GAME:N:SEED, e.g. scharwenzel:100:7")
    try:
        game, players = parse_label(parts[0])
    except ValueError as exc:
        raise BatchError(f"--generate {spec!r}: {exc}") from None
    try:
        count = int(parts[1])
        seed = int(parts[2]) if len(parts) == 3 else 0
    except ValueError:
        raise BatchError(f"--generate {spec!r}: N and SEED must be whole numbers") from None
    if count < 1:
        raise BatchError(f"--generate {spec!r}: N must be 1 or more")
    if count > MAX_GENERATE:
        raise BatchError(f"--generate {spec!r}: at most {MAX_GENERATE:,} deals per --generate "
                         f"(split a larger run into several seeds)")
    return game, players, count, seed


def _apply_rules(deal: Deal, overrides: dict[str, str]) -> Deal:   # generated deals (leader as dealt)
    """The --rule options this deal's game knows (others are for other games of the batch)."""
    names = {o.name for o in deal.game_spec.options}
    mine = {k: v for k, v in overrides.items() if k in names}
    return deal.with_rules(mine) if mine else deal


def check_rule_names(overrides: dict[str, str], games: Iterable[str]) -> None:
    games = sorted(set(games))
    for name in overrides:
        if not any(name in {o.name for o in GAMES[g].options} for g in games):
            known = {g: ", ".join(o.name for o in GAMES[g].options) for g in games}
            listing = "; ".join(f"{g}: {k}" for g, k in known.items())
            raise BatchError(f"--rule {name}: no game of this batch has that option ({listing})")


def generated_items(spec: str, overrides: dict[str, str] | None = None) -> list[BatchItem]:
    """The deals of ``--generate GAME:N[:SEED]``: those of ``stich deal --game GAME --seed
    SEED -n N`` (ids like scharwenzel-7-0001)."""
    game, players, count, seed = parse_generate(spec)
    items = []
    for dealt in generate_deals(game, seed, count, players=players):
        deal = _apply_rules(dealt.deal, overrides or {})
        items.append(BatchItem(dealt.id, deal.dump(), game, stream_label(game, players)))
    return items


def file_items(path: str | Path, overrides: dict[str, str] | None = None) -> list[BatchItem]:
    """The deals of a directory (every ``*.toml`` in it, sorted by name) or of one file; the
    id of a deal is its file name without ``.toml``.  A ``*.toml`` that is no regular file (a
    pipe, a device, a link leading nowhere or in a loop) is an item with the reader's error,
    never left out in silence."""
    path = Path(path)
    try:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".toml")
            if not files:
                raise BatchError(f"{path}: no .toml deal files in this directory")
        elif path.exists():
            files = [path]
        elif str(path) == "-":              # a batch is of files: it has no one deal to read
            raise BatchError("-: standard input is not read here; give deal files or folders")
        else:
            raise BatchError(f"{path}: no such file or directory")
    except OSError as exc:                  # a name too long, a folder we may not read
        raise BatchError(f"{path}: {exc.strerror or exc}") from None
    items = []
    for file in files:
        try:     # --rule is applied as the file is read, as in every other command
            deal = load(file, overrides or {}, other_games_rules=True)
        except DealError as exc:      # one bad file must not stop the batch; a bad --rule does
            if exc.key and exc.key.startswith("--rule "):
                raise BatchError(str(exc)) from None
            items.append(BatchItem(file.stem, "", "?", "?", str(file), error=str(exc)))
            continue
        items.append(BatchItem(file.stem, deal.dump(), deal.game, stream_label(deal.game, deal.players),
                               str(file)))
    return items


def collect_items(paths: Iterable[str], generate: Iterable[str],
                  overrides: dict[str, str] | None = None) -> list[BatchItem]:
    """Every deal of a batch, in order; ids must be unique."""
    overrides = overrides or {}
    paths, generate = list(paths), list(generate)
    specs = [parse_generate(g) for g in generate]
    if sum(count for _, _, count, _ in specs) > MAX_BATCH:
        raise BatchError(f"--generate: at most {MAX_BATCH:,} generated deals in one batch "
                         f"(split it into several batches)")
    games = [game for game, _, _, _ in specs]
    items: list[BatchItem] = []
    for path in paths:
        items += file_items(path, overrides)
    games += [item.game for item in items if item.error is None]
    if games:        # (no deal read: each file's own error is reported, as without --rule)
        check_rule_names(overrides, games)
    for spec in generate:
        items += generated_items(spec, overrides)
    seen: dict[str, BatchItem] = {}
    for item in items:
        if item.id in seen:
            where = [x.file or "--generate" for x in (seen[item.id], item)]
            raise BatchError(f"two deals have the id {item.id!r} ({where[0]} and {where[1]}); "
                             f"ids must be unique in a batch")
        seen[item.id] = item
    if not items:
        raise BatchError("no deals: give a directory of deal files or --generate GAME:N[:SEED]")
    return items


# --- the worker ---------------------------------------------------------------------------------

def solve_item(item_id: str, text: str, objective: str, with_moves: bool,
               tt_megabytes: int, limits, encode: Callable) -> tuple[str, dict]:
    """Solve one deal (its TOML) with this worker's engine: (id, ``encode(result)``, the
    object the command records).  ``limits`` apply to this deal; a deal stopped by Ctrl-C is
    not a result (it is solved again on resume), so the interrupt goes on up."""
    from stich.search.solve import solve
    deal = loads(text, item_id)
    result = solve(deal, objective=objective, engine=worker_engine(tt_megabytes),
                   with_moves=with_moves, limits=limits)
    if result.stopped == "interrupt":
        raise KeyboardInterrupt
    return item_id, encode(result)



# --- running ---------------------------------------------------------------------------------------

@dataclass
class BatchRun:
    """What a run did."""

    total: int
    resumed: int                       # deals already in the file
    solved: int = 0                    # deals solved by this run
    failed: list[tuple[str, str]] = field(default_factory=list)   # (id, message)
    invalid: list[tuple[str, str]] = field(default_factory=list)  # (id, message): unreadable files
    records: dict[str, dict] = field(default_factory=dict)          # every kept or new record
    recovery: Recovery | None = None
    seconds: float = 0.0


def run_batch(items: list[BatchItem], out: str | Path, *, encode: Callable, jobs: int | None = None,
              objective: str = "score", with_moves: bool = True, tt_megabytes: int = 64,
              dask_address: str | None = None, fsync: str = "second",
              progress: Callable[[int, int], None] | None = None,
              on_result: Callable[[dict], None] | None = None,
              on_error: Callable[[str, str], None] | None = None, limits=None) -> BatchRun:
    """Solve every deal of ``items`` not yet in ``out`` and append one line per deal, whose
    ``result`` is ``encode(result)`` (the command's JSON of a ``Result``; a module-level
    function, so that it reaches worker processes).

    ``limits`` (``stich.core.anytime.Limits``) apply to each deal: a deal that hits them gets a
    line with ``"exact": false``, the bounds proven and the limits.

    ``jobs``: worker processes (default ``os.cpu_count()``; 1 solves in this process);
    ``dask_address``: run on that Dask scheduler instead.  ``progress(done, total)`` after
    each deal (counting those already in the file), ``on_error(id, message)`` for a deal
    that failed (it gets an error line, and a rerun tries again)."""
    started = time.perf_counter()
    readable = [item for item in items if item.error is None]
    with ResultsFile(out, readable, objective, with_moves, fsync, limits) as results:
        run = BatchRun(len(items), len(results.recovery.kept), recovery=results.recovery)
        run.records.update(results.recovery.kept)
        for item in items:
            if item.error is not None:
                run.invalid.append((item.id, item.error))
                results.write(error_record(item, item.error))
                if on_error:
                    on_error(item.id, item.error)
        todo = [item for item in items if item.id not in run.records and item.error is None]
        done = run.resumed
        if progress:
            progress(done, run.total)
        by_id = {item.id: item for item in todo}
        for item_id, outcome in _solutions(todo, jobs, dask_address, objective, with_moves,
                                           tt_megabytes, limits, encode):
            if isinstance(outcome, BaseException):
                message = f"{type(outcome).__name__}: {outcome}"
                run.failed.append((item_id, message))
                results.write(error_record(by_id[item_id], message))
                if on_error:
                    on_error(item_id, message)
                continue
            record = record_of(by_id[item_id], objective, with_moves, outcome, limits)
            results.write(record)
            run.records[item_id] = record
            run.solved += 1
            done += 1
            if on_result:
                on_result(record)
            if progress:
                progress(done, run.total)
    run.seconds = time.perf_counter() - started
    return run


def _solutions(todo: list[BatchItem], jobs: int | None, dask_address: str | None, objective: str,
               with_moves: bool, tt_megabytes: int, limits, encode: Callable) -> Iterator[tuple[str, Any]]:
    """(id, ``encode(result)`` or the exception) for every deal, in the order they are solved."""
    calls = [(item.id, (item.id, item.text, objective, with_moves, tt_megabytes, limits, encode))
             for item in todo]
    for item_id, outcome in run_everywhere(solve_item, calls, jobs=jobs, dask_address=dask_address,
                                           tt_megabytes=tt_megabytes):
        yield outcome if not isinstance(outcome, BaseException) else (item_id, outcome)

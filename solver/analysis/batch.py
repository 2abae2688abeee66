"""Solving many deals: on all cores or a Dask cluster, one JSON line per deal, resumable.

The results file (JSON Lines) has one object per solved deal::

    {"id": "scharwenzel-7-0001", "file": "deals/scharwenzel-7-0001.toml" | null,
     "game": "scharwenzel", "label": "scharwenzel", "sha256": "<of the deal TOML>",
     "objective": "score", "with_moves": true, "deal": "<the deal TOML>",
     "result": {<solver.report.text.solve_json: totals, outcome, line, moves, ...>}}

``deal`` is the deal as solved (``Deal.dump()`` after any ``--rule``), ``sha256`` its hash.

Writing.  The parent process is the only writer.  Each line is written with ONE ``os.write``
of the whole line and its newline on a file opened with O_APPEND (no user-space buffer, so
nothing waits for a flush), as soon as its deal is solved.  A killed run (even SIGKILL)
therefore loses at most the deals in flight, and at worst leaves a torn last line.  fsync
policy (``fsync``): "second" (default) fsyncs at most once a second and at the end, "line"
after every line, "end" only at the end; fsync matters only for an OS crash or power loss
(a killed process never loses what it wrote), and what such a crash tears is caught below.

Resume.  On start the file is locked (flock; a second run on the same file is refused) and
read; a line is kept only if it is complete (ends with a newline), is a valid JSON object of
the form above, its id is in this batch, its sha256 is that of the deal as it is now, its
objective and with_moves are this run's, and its id has not been kept already.  If anything
is dropped (a torn last line, a stale or foreign line, a duplicate), the kept lines are
written to a temporary file which atomically replaces the results file (the dropped complete
lines are appended to ``OUT.dropped`` so nothing is lost by surprise).  Then only the deals
without a kept line are solved and appended.  Rerunning the same command after any kill
therefore ends with exactly one line per deal.

Workers.  ``solve_item`` runs in a worker: each worker process (each thread of a Dask worker)
keeps ONE engine (``solver.search.solve.new_engine``) and reuses it for every deal it solves.  Local
workers are started with "spawn", so they inherit neither the results file nor its lock.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import stat
import sys
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from tabulate import tabulate

from solver.deals.deal import Deal, DealError, load, loads
from solver.deals.dealing import generate_deals, parse_label, stream_label
from solver.games import GAMES

try:                                    # flock: Linux and macOS; elsewhere no lock is taken
    import fcntl
except ImportError:                     # pragma: no cover
    fcntl = None                        # type: ignore[assignment]

FSYNC_POLICIES = ("line", "second", "end")


class BatchError(ValueError):
    """Bad input to a batch (exit 2): a bad --generate, unreadable deals, a locked file ..."""


MAX_GENERATE = 100_000        # deals per --generate: the batch holds every deal's text in memory


class MissingDask(BatchError):
    """--dask without the dask extra installed."""


# --- the deals of a batch ---------------------------------------------------------------------------

@dataclass(frozen=True)
class BatchItem:
    """One deal of a batch: its id, the TOML that is solved, and its hash."""

    id: str
    text: str
    game: str
    label: str                   # game, or scharwenzel6 / scharwenzel8
    file: str | None = None
    error: str | None = None     # a deal file that could not be read: reported, never solved

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


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
    id of a deal is its file name without ``.toml``."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".toml" and p.is_file())
        if not files:
            raise BatchError(f"{path}: no .toml deal files in this directory")
    elif path.exists():
        files = [path]
    else:
        raise BatchError(f"{path}: no such file or directory")
    items = []
    for file in files:
        try:     # --rule is applied as the file is read, as in every other command
            deal = load(file, overrides or {}, other_games_rules=True)
        except DealError as exc:      # one bad file must not stop the batch
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
    games = [parse_generate(g)[0] for g in generate]
    items: list[BatchItem] = []
    for path in paths:
        items += file_items(path, overrides)
    games += [item.game for item in items if item.error is None]
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

_local = threading.local()


def worker_engine(tt_megabytes: int):
    """This worker's engine (one per process, or per thread of a threaded Dask worker)."""
    engine = getattr(_local, "engine", None)
    if engine is None or _local.tt_megabytes != tt_megabytes:
        from solver.search.solve import new_engine
        engine = new_engine(tt_megabytes)
        _local.engine, _local.tt_megabytes = engine, tt_megabytes
    return engine


def local_executor(workers: int, tt_megabytes: int) -> ProcessPoolExecutor:
    """Worker processes on this machine for batch, tactic and suggest: each keeps one engine
    and dies with its parent.  Started with "spawn", so they inherit none of the parent's
    descriptors: a results file and its lock stay the parent's alone."""
    return ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                               initargs=(tt_megabytes, os.getpid()),
                               mp_context=multiprocessing.get_context("spawn"))


def _init_worker(tt_megabytes: int, parent: int | None = None) -> None:
    die_with_parent(parent)
    worker_engine(tt_megabytes)


def die_with_parent(parent: int | None = None) -> None:
    """A worker must not outlive a killed batch (SIGKILL leaves no time to stop it): on Linux the
    kernel sends SIGKILL when the parent dies; a thread also watches the parent's pid (given by
    the parent: it may have died while this worker was still starting)."""
    parent = os.getppid() if parent is None else parent
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's to handle
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            PR_SET_PDEATHSIG = 1
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(0.5)
    if os.getppid() != parent:        # died before prctl took effect
        os._exit(1)
    threading.Thread(target=watch, name="stich-parent-watch", daemon=True).start()


def solve_item(item_id: str, text: str, objective: str, with_moves: bool,
               tt_megabytes: int, limits=None) -> tuple[str, dict]:
    """Solve one deal (its TOML) with this worker's engine: (id, solve_json of the result).
    ``limits`` apply to this deal; a deal stopped by Ctrl-C is not a result (it is solved
    again on resume), so the interrupt goes on up."""
    from solver.report.text import solve_json
    from solver.search.solve import solve
    deal = loads(text, item_id)
    result = solve(deal, objective=objective, engine=worker_engine(tt_megabytes),
                   with_moves=with_moves, limits=limits)
    if result.stopped == "interrupt":
        raise KeyboardInterrupt
    return item_id, solve_json(result)


def limits_json(limits) -> dict | None:
    """How a results line records the per-deal limits it was solved with (None: none)."""
    if limits is None or not limits.any:
        return None
    return {"nodes": limits.nodes, "seconds": limits.seconds}


# --- the results file -------------------------------------------------------------------------------

def record_of(item: BatchItem, objective: str, with_moves: bool, result: dict,
              limits=None) -> dict:
    """A results line; a partial result (``"exact": false``) records the limits it hit."""
    record = {"id": item.id, "file": item.file, "game": item.game, "label": item.label,
              "sha256": item.sha256, "objective": objective, "with_moves": with_moves,
              "deal": item.text, "result": result}
    if result.get("exact") is False:
        record["limits"] = limits_json(limits)
    return record


def encode(record: dict) -> bytes:
    return (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


@dataclass
class Recovery:
    """What was found in an existing results file."""

    kept: dict[str, dict] = field(default_factory=dict)
    torn: int = 0              # bytes of an unfinished last line
    invalid: int = 0           # complete lines that are not a valid record
    stale: int = 0             # valid records not of this batch (id, hash, objective, moves)
    duplicate: int = 0

    @property
    def dropped(self) -> int:
        return self.invalid + self.stale + self.duplicate + (1 if self.torn else 0)


def _valid(record: Any) -> bool:
    return (isinstance(record, dict) and isinstance(record.get("id"), str)
            and isinstance(record.get("sha256"), str) and isinstance(record.get("result"), dict)
            and (isinstance(record["result"].get("totals"), list)
                 or record["result"].get("exact") is False))


def is_partial(record: dict) -> bool:
    """A line whose deal hit its limit: it holds bounds, not the exact answer."""
    return record["result"].get("exact") is False


def scan(data: bytes, items: dict[str, BatchItem], objective: str, with_moves: bool,
         limits=None) -> tuple[Recovery, list[bytes], list[bytes]]:
    """Sort the lines of a results file into kept and dropped ones (see the module doc)."""
    recovery = Recovery()
    lines = data.split(b"\n")
    complete, tail = lines[:-1], lines[-1]       # tail: after the last newline (b"" if none torn)
    kept_lines, dropped_lines = [], []
    if tail:
        recovery.torn = len(tail)
    for raw in complete:
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            record = None
        if not _valid(record):
            recovery.invalid += 1
            dropped_lines.append(raw)
            continue
        item = items.get(record["id"])
        if (item is None or record["sha256"] != item.sha256 or record.get("objective") != objective
                or record.get("with_moves") != with_moves
                # a partial line is kept only for a run with the same limits (else solved again)
                or (is_partial(record) and record.get("limits") != limits_json(limits))):
            recovery.stale += 1
            dropped_lines.append(raw)
            continue
        if record["id"] in recovery.kept:
            recovery.duplicate += 1
            continue
        recovery.kept[record["id"]] = record
        kept_lines.append(raw)
    return recovery, kept_lines, dropped_lines


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent or ".", os.O_RDONLY)
    except OSError:                          # pragma: no cover - e.g. not allowed on some systems
        return
    try:
        os.fsync(fd)
    except OSError:                          # pragma: no cover
        pass
    finally:
        os.close(fd)


def _lock(fd: int, path: Path) -> None:
    if fcntl is None:                        # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise BatchError(f"{path}: another stich batch is writing this file") from None


def _write_all(fd: int, data: bytes) -> None:
    """One write(2) for a line; a short write (disk full, signal) is completed by more."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class ResultsFile:
    """The results file of a batch, opened for appending: recovered, locked, written line by line."""

    def __init__(self, path: str | Path, items: Iterable[BatchItem], objective: str,
                 with_moves: bool, fsync: str = "second", limits=None):
        if fsync not in FSYNC_POLICIES:
            raise ValueError(f"fsync must be one of {', '.join(FSYNC_POLICIES)}")
        self.path = Path(path)
        self.fsync_policy = fsync
        self.last_sync = time.monotonic()
        items = {item.id: item for item in items}
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise BatchError(f"{self.path}: cannot open: {exc.strerror}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):    # /dev/full, /dev/zero, a pipe: never ends
            os.close(fd)
            raise BatchError(f"{self.path}: not a regular file (the results file is read back to resume)")
        _lock(fd, self.path)
        try:
            data = self._read(fd)
            self.recovery, kept_lines, dropped_lines = scan(data, items, objective, with_moves, limits)
            if self.recovery.dropped:
                fd = self._rewrite(fd, kept_lines, dropped_lines, data)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    @staticmethod
    def _read(fd: int) -> bytes:
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)

    def _rewrite(self, fd: int, kept: list[bytes], dropped: list[bytes], data: bytes) -> int:
        """Keep only ``kept``: a torn tail alone is cut off in place; anything else is
        written to a temporary file that atomically replaces the results file."""
        if dropped:
            with open(self.path.with_name(self.path.name + ".dropped"), "ab") as spill:
                spill.write(b"".join(line + b"\n" for line in dropped))
        body = b"".join(line + b"\n" for line in kept)
        if not dropped and not self.recovery.duplicate and data.startswith(body) \
                and len(data) - len(body) == self.recovery.torn:
            os.ftruncate(fd, len(body))          # only a torn last line: cut it off
            os.fsync(fd)
            return fd
        tmp = self.path.with_name(self.path.name + f".tmp{os.getpid()}")
        new = os.open(tmp, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            _lock(new, tmp)
            _write_all(new, body)
            os.fsync(new)
            os.replace(tmp, self.path)
            _fsync_dir(self.path)
        except BaseException:
            os.close(new)
            raise
        os.close(fd)
        return new

    def write(self, record: dict) -> None:
        _write_all(self.fd, encode(record))
        if self.fsync_policy == "line":
            os.fsync(self.fd)
        elif self.fsync_policy == "second" and time.monotonic() - self.last_sync >= 1.0:
            os.fsync(self.fd)
            self.last_sync = time.monotonic()

    def close(self) -> None:
        if self.fd >= 0:
            try:
                os.fsync(self.fd)
            finally:
                os.close(self.fd)
                self.fd = -1

    def __enter__(self) -> "ResultsFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_results(path: str | Path) -> list[dict]:
    """Every complete, valid line of a results file (for reading results back)."""
    data = Path(path).read_bytes()
    records = []
    for raw in data.split(b"\n")[:-1]:
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if _valid(record):
            records.append(record)
    return records


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


def dask_executor(address: str):
    """(executor, client) of a Dask cluster; ``MissingDask`` if dask is not installed."""
    try:
        import distributed
    except ImportError:
        raise MissingDask("--dask needs Dask: pip install \"stich[dask]\" "
                          "(or pip install \"dask[distributed]\")") from None
    try:
        client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise BatchError(f"--dask {address}: cannot connect: {exc}") from None
    return client.get_executor(pure=False), client


def run_batch(items: list[BatchItem], out: str | Path, *, jobs: int | None = None,
              objective: str = "score", with_moves: bool = True, tt_megabytes: int = 64,
              dask_address: str | None = None, fsync: str = "second",
              progress: Callable[[int, int], None] | None = None,
              on_result: Callable[[dict], None] | None = None,
              on_error: Callable[[str, str], None] | None = None, limits=None) -> BatchRun:
    """Solve every deal of ``items`` not yet in ``out`` and append one line per deal.

    ``limits`` (``solver.core.anytime.Limits``) apply to each deal: a deal that hits them gets a
    line with ``"exact": false``, the bounds proven and the limits.

    ``jobs``: worker processes (default ``os.cpu_count()``; 1 solves in this process);
    ``dask_address``: run on that Dask scheduler instead.  ``progress(done, total)`` after
    each deal (counting those already in the file), ``on_error(id, message)`` for a deal
    that failed (it is not written, so a rerun tries again)."""
    started = time.perf_counter()
    jobs = jobs or os.cpu_count() or 1
    readable = [item for item in items if item.error is None]
    with ResultsFile(out, readable, objective, with_moves, fsync, limits) as results:
        run = BatchRun(len(items), len(results.recovery.kept), recovery=results.recovery)
        run.records.update(results.recovery.kept)
        for item in items:
            if item.error is not None:
                run.invalid.append((item.id, item.error))
                if on_error:
                    on_error(item.id, item.error)
        todo = [item for item in items if item.id not in run.records and item.error is None]
        done = run.resumed
        if progress:
            progress(done, run.total)
        by_id = {item.id: item for item in todo}
        for item_id, outcome in _solutions(todo, jobs, dask_address, objective, with_moves,
                                           tt_megabytes, limits):
            if isinstance(outcome, BaseException):
                message = f"{type(outcome).__name__}: {outcome}"
                run.failed.append((item_id, message))
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


def _solutions(todo: list[BatchItem], jobs: int, dask_address: str | None, objective: str,
               with_moves: bool, tt_megabytes: int, limits=None) -> Iterator[tuple[str, Any]]:
    """(id, solve_json or the exception) for every deal, in the order they are solved."""
    calls = [(item.id, (item.id, item.text, objective, with_moves, tt_megabytes, limits))
             for item in todo]
    for item_id, outcome in run_everywhere(solve_item, calls, jobs=jobs, dask_address=dask_address,
                                           tt_megabytes=tt_megabytes):
        yield outcome if not isinstance(outcome, BaseException) else (item_id, outcome)


def run_everywhere(work: Callable, calls: list[tuple[Any, tuple]], *, jobs: int,
                   dask_address: str | None, tt_megabytes: int) -> Iterator[tuple[Any, Any]]:
    """``work(*args)`` for every ``(key, args)`` of ``calls``: in this process (``jobs`` 1), on
    local workers (``local_executor``) or on a Dask cluster.  Yields ``(key, result)``, or
    ``(key, exception)`` for a call that raised (one bad item must not stop the rest), in the
    order they finish.  Batch, tactic and suggest all run their work through here."""
    if not calls:
        return
    if dask_address is None and jobs == 1:
        for key, args in calls:
            try:
                yield key, work(*args)
            except Exception as exc:  # noqa: BLE001
                yield key, exc
        return
    client = None
    if dask_address is not None:
        executor, client = dask_executor(dask_address)
    else:
        executor = local_executor(min(jobs, len(calls)), tt_megabytes)
    try:
        futures = {executor.submit(work, *args): key for key, args in calls}
        for future in as_completed(futures):
            try:
                yield futures[future], future.result()
            except Exception as exc:  # noqa: BLE001
                yield futures[future], exc
    finally:
        if client is not None:              # Dask: closing the client cancels what is left
            client.close()
        else:
            executor.shutdown(wait=True, cancel_futures=True)


# --- the summary -----------------------------------------------------------------------------------

def _winner_text(label: str, winner: int | None) -> str:
    if winner is None:
        return "nobody"
    game, players = parse_label(label)
    seats = [s for s in range(1, players + 1) if (s - 1) % 2 == winner - 1]
    return ("seat " if len(seats) == 1 else "seats ") + "+".join(map(str, seats))


def summary(records: Iterable[dict]) -> str:
    """Tables of a batch's results: per game, the outcomes and the distribution of totals.
    Partial lines (a deal that hit its limit) are counted apart, never in the tables."""
    by_label: dict[str, list[dict]] = defaultdict(list)
    partial = 0
    for record in records:
        if is_partial(record):
            partial += 1
            continue
        by_label[record.get("label") or record.get("game", "?")].append(record)
    note = (f"{partial} deal{'s' if partial != 1 else ''} hit the limit: partial lines "
            f'("exact": false, with bounds), left out of these tables') if partial else ""
    if not by_label:
        return note or "no results"
    overview, outcomes, totals = [], [], []
    for label in sorted(by_label):
        group = by_label[label]
        n = len(group)
        first = [r["result"]["totals"][0] for r in group]
        second = [r["result"]["totals"][1] for r in group]
        unit = group[0]["result"].get("unit", "")
        wins = Counter(r["result"]["outcome"].get("winner") for r in group)
        overview.append([label, n, unit, f"{sum(first) / n:.2f} – {sum(second) / n:.2f}",
                         f"{100 * wins[1] / n:.1f}%", f"{100 * wins[2] / n:.1f}%",
                         f"{100 * wins[None] / n:.1f}%",
                         f"{sum(r['result'].get('seconds', 0) for r in group) / n:.3f}"])
        levels: dict[tuple, list[int]] = defaultdict(list)
        for r in group:
            outcome = r["result"]["outcome"]
            levels[(outcome.get("winner") or 0, outcome.get("level", "?"))].append(outcome.get("score", 0))
        for (winner, level), scores in sorted(levels.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            outcomes.append([label, _winner_text(label, winner or None), level, len(scores),
                             f"{100 * len(scores) / n:.1f}%", f"{sum(scores) / len(scores):.2f}"])
        values = Counter(first)
        if len(values) <= 21:
            buckets = sorted(values.items())
            rows = [(f"{v}", c) for v, c in buckets]
        else:
            binned = Counter(min(v // 10, 11) for v in first)
            rows = [(f"{10 * b}–{10 * b + 9}" if b < 11 else "110+", c) for b, c in sorted(binned.items())]
        for text, count in rows:
            totals.append([label, text, count, f"{100 * count / n:.1f}%", "#" * round(40 * count / n)])
    parts = [tabulate(overview, headers=["game", "deals", "unit", "mean totals (side 1 – side 2)",
                                         "side 1 wins", "side 2 wins", "neither", "mean s"],
                      tablefmt="simple"),
             "",
             tabulate(outcomes, headers=["game", "winner", "outcome", "deals", "share", "mean score"],
                      tablefmt="simple"),
             "",
             tabulate(totals, headers=["game", "total of side 1", "deals", "share", "histogram"],
                      tablefmt="simple")]
    if note:
        parts += ["", note]
    return "\n".join(parts)

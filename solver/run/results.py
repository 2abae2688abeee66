"""The results file of a run: one JSON line per deal, written as it is solved, resumable.

The results file (JSON Lines) has one object per solved deal::

    {"id": "scharwenzel-7-0001", "file": "deals/scharwenzel-7-0001.toml" | null,
     "game": "scharwenzel", "label": "scharwenzel", "sha256": "<of the deal TOML>",
     "objective": "score", "with_moves": true, "deal": "<the deal TOML>",
     "result": {<stich.report.solve.solve_json: totals, outcome, line, moves, ...>}}

``deal`` is the deal as solved (``Deal.dump()`` after any ``--rule``), ``sha256`` its hash.
A deal that was not solved (a deal file that cannot be read, a solve that failed) gets an
error line instead, so that the file says what happened to every deal::

    {"id": "bad", "file": "deals/bad.toml", "game": null, "label": null, "error": "<the message>"}

A rerun drops the error lines (without spilling them to ``OUT.dropped``: they are not
results) and tries those deals again; one that fails again gets a new error line.


Writing.  The parent process is the only writer.  Each line is written with ONE ``os.write``
of the whole line and its newline on a file opened with O_APPEND (no user-space buffer, so
nothing waits for a flush), as soon as its deal is solved.  A killed run (even SIGKILL)
therefore loses at most the deals in flight, and at worst leaves a torn last line.  fsync
policy (``fsync``): "second" (default) fsyncs at most once a second and at the end, "line"
after every line, "end" only at the end; fsync matters only for an OS crash or power loss
(a killed process never loses what it wrote), and what such a crash tears is caught below.

Resume.  On start the file is locked (flock; a second run on the same file is refused) and
read.  A file with text in it but no line stich wrote (no result or error line, not even a
torn first one: a deal file or random bytes given as the output by mistake) is refused, and
left as it is.  Otherwise a line is kept only if it is complete (ends with a newline), is a
valid JSON object of the form above, its id is in this batch, its sha256 is that of the deal as it is now, its
objective and with_moves are this run's, and its id has not been kept already.  If anything
is dropped (a torn last line, a stale or foreign line, a duplicate), the kept lines are
written to a temporary file which atomically replaces the results file (the dropped complete
lines are appended to ``OUT.dropped`` so nothing is lost by surprise).  A study (``stich
tactic``) keeps the lines of its own deals beyond this run in place instead: a report of its
first 100 deals must not move a study of 400 aside.  Then only the deals
without a kept line are solved and appended.  Rerunning the same command after any kill
therefore ends with exactly one line per deal.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import RunError

try:                                    # flock: Linux and macOS; elsewhere no lock is taken
    import fcntl
except ImportError:                     # pragma: no cover
    fcntl = None                        # type: ignore[assignment]

FSYNC_POLICIES = ("line", "second", "end")


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


def limits_json(limits) -> dict | None:
    """How a results line records the per-deal limits it was solved with (None: none)."""
    if limits is None or not limits.any:
        return None
    return {"nodes": limits.nodes, "seconds": limits.seconds}


def record_of(item: BatchItem, objective: str, with_moves: bool, result: dict,
              limits=None) -> dict:
    """A results line; a partial result (``"exact": false``) records the limits it hit."""
    record = {"id": item.id, "file": item.file, "game": item.game, "label": item.label,
              "sha256": item.sha256, "objective": objective, "with_moves": with_moves,
              "deal": item.text, "result": result}
    if result.get("exact") is False:
        record["limits"] = limits_json(limits)
    return record


def error_record(item: BatchItem, message: str) -> dict:
    """The line of a deal that was not solved, and why."""
    known = item.error is None
    return {"id": item.id, "file": item.file, "game": item.game if known else None,
            "label": item.label if known else None, "error": message}


def is_error(record: Any) -> bool:
    return isinstance(record, dict) and isinstance(record.get("error"), str) and "result" not in record


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
    errors: int = 0            # error lines of the last run: dropped, their deals tried again
    others: int = 0            # with keep_others: lines of deals outside this run, left in place

    @property
    def dropped(self) -> int:
        """Lines dropped that held results (or garbage); error lines are not counted."""
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
         limits=None, keep_others: Callable[[dict], bool] | None = None
         ) -> tuple[Recovery, list[bytes], list[bytes]]:
    """Sort the lines of a results file into kept and dropped ones (see the module doc).
    ``keep_others(record)``: a valid line of a deal not in this run that it accepts stays in
    the file (not in ``kept``): a study of fewer deals must not move a longer study's lines
    aside (its deals are checked by hash when a run includes them)."""
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
        if is_error(record):
            recovery.errors += 1
            continue
        if not _valid(record):
            recovery.invalid += 1
            dropped_lines.append(raw)
            continue
        item = items.get(record["id"])
        this_run = record.get("objective") == objective and record.get("with_moves") == with_moves
        if item is None and this_run and keep_others is not None and keep_others(record):
            recovery.others += 1
            kept_lines.append(raw)
            continue
        if (item is None or record["sha256"] != item.sha256 or not this_run
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


def looks_like_results(data: bytes, recovery: Recovery) -> bool:
    """Empty, or at least one line written by stich: a result (of any deal or settings), an
    error line, or a torn first line.  Anything else (a deal file, random bytes given as
    ``--out`` by mistake) is refused rather than moved aside to ``OUT.dropped``."""
    if not data.strip():
        return True
    if recovery.kept or recovery.stale or recovery.duplicate or recovery.errors or recovery.others:
        return True
    return recovery.invalid == 0 and data.startswith(b'{"id":')     # only a torn first line


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
        raise RunError(f"{path}: another stich batch is writing this file") from None


def _write_all(fd: int, data: bytes) -> None:
    """One write(2) for a line; a short write (disk full, signal) is completed by more."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


class ResultsFile:
    """The results file of a batch, opened for appending: recovered, locked, written line by line."""

    def __init__(self, path: str | Path, items: Iterable[BatchItem], objective: str,
                 with_moves: bool, fsync: str = "second", limits=None,
                 keep_others: Callable[[dict], bool] | None = None):
        if fsync not in FSYNC_POLICIES:
            raise ValueError(f"fsync must be one of {', '.join(FSYNC_POLICIES)}")
        self.path = Path(path)
        self.fsync_policy = fsync
        self.last_sync = time.monotonic()
        by_id = {item.id: item for item in items}
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RunError(f"{self.path}: cannot open: {exc.strerror}") from None
        except ValueError:                  # a NUL byte in the name
            raise RunError(f"{self.path!r}: cannot open: the name holds a NUL byte") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):    # /dev/full, /dev/zero, a pipe: never ends
            os.close(fd)
            raise RunError(f"{self.path}: not a regular file (the results file is read back to resume)")
        _lock(fd, self.path)
        try:
            data = self._read(fd)
            self.recovery, kept_lines, dropped_lines = scan(data, by_id, objective, with_moves, limits,
                                                                 keep_others)
            if not looks_like_results(data, self.recovery):
                raise RunError(f"{self.path}: not a stich results file (no line of it is a deal's "
                               f"result); give a new file name, or remove this file")
            if self.recovery.dropped or self.recovery.errors:
                fd = self._rewrite(fd, kept_lines, dropped_lines, data)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    @staticmethod
    def _read(fd: int) -> bytes:
        os.lseek(fd, 0, os.SEEK_SET)
        chunks: list[bytes] = []
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
        if not dropped and not self.recovery.duplicate and not self.recovery.errors \
                and data.startswith(body) and len(data) - len(body) == self.recovery.torn:
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
        """Append one line (a result, or ``error_record``'s) in one write."""
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

    def __enter__(self) -> ResultsFile:
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

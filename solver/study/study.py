"""Running a tactics study over many deals: on all cores or a Dask cluster, resumable.

Each deal is studied in a worker (``walk.walk_deal``, then with ``--view player`` the player's
view of its choices, ``judge.Judge``) and written to the results file as soon as it is done;
a rerun resumes where a kill left off.  A deal's record depends only on the deal and the
study's settings (its hash covers both), never on the worker or the order.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from stich.core.anytime import Limits
from stich.deals.deal import loads
from stich.run.pool import run_everywhere, worker_engine
from stich.run.results import BatchItem, ResultsFile, limits_json
from stich.tactics import Tactic, TacticError, get
from stich.tactics.loader import file_digest, load_file

from .judge import Judge
from .records import DealRecord
from .walk import WalkSettings, walk_deal

STUDY_VERSION = 3                 # 3: a second-side seat counts rungs from its worst (0), not negated


@dataclass(frozen=True)
class StudySettings:
    """What decides a deal's record besides the deal itself (part of its hash)."""

    tactics: tuple[str, ...]
    objective: str = "score"
    first: bool = False
    tactic_file: str | None = None
    tt_megabytes: int = 64
    limits: Limits | None = None        # for each deal's line, each decision and each run
    view: str = "double-dummy"          # or "player": each choice also from the mover's view
    samples: int = 20                   # layouts per decision of the player's view
    seed: int = 0                       # the policies' picks and the player's view's sampling
    opponent: str = "perfect"           # "player": the other side plays by PIMC (study.pimc)
    mover: str = "perfect"              # "player": the mover too, where the advice is silent
    pimc_samples: int = 20              # layouts per PIMC decision
    paired: bool = False                # every tactic played by every seat any of them advised

    def fingerprint(self) -> str:
        digest = file_digest(self.tactic_file) if self.tactic_file else ""
        key = [STUDY_VERSION, list(self.tactics), self.objective, self.first, digest, self.seed]
        if self.limits is not None and self.limits.any:
            key.append([self.limits.nodes, self.limits.seconds])
        if self.view == "player":
            key += ["player", self.samples]
        if "player" in (self.opponent, self.mover):
            key += ["pimc", self.opponent, self.mover, self.pimc_samples]
        if self.paired:
            key.append("paired")
        return json.dumps(key)

    @property
    def walk(self) -> WalkSettings:
        return WalkSettings(self.objective, self.first, self.seed, self.limits, opponent=self.opponent,
                            mover=self.mover, pimc_samples=self.pimc_samples,
                            tt_megabytes=self.tt_megabytes, paired=self.paired)


@dataclass(frozen=True)
class StudyItem(BatchItem):
    """A deal of a study; its hash covers the study settings too, so a results file of another
    study (other tactics, --first, tactic file, seed) is not resumed from."""

    settings_key: str = ""

    @property
    def sha256(self) -> str:
        return study_hash(self.text, self.settings_key)


def study_hash(text: str, settings_key: str) -> str:
    """The hash of a deal of a study: its text and the study's settings."""
    return hashlib.sha256((text + "\0" + settings_key).encode("utf-8")).hexdigest()


def of_this_study(settings_key: str) -> Callable[[dict], bool]:
    """Is a results line (of a deal outside this run) one of this study, settings and all?
    Its deal and hash say so, as they do for the deals of the run."""
    def same(line: dict) -> bool:
        deal = line.get("deal")
        return isinstance(deal, str) and study_hash(deal, settings_key) == line["sha256"]
    return same


def resolve(names: tuple[str, ...], tactic_file: str | None) -> tuple[list[Tactic], dict[str, Callable]]:
    """The tactics by name, and the features of the tactic file (if any)."""
    loaded = load_file(tactic_file) if tactic_file else None
    tactics = [get(name, loaded.tactics if loaded else None) for name in names]
    return tactics, (loaded.features if loaded else {})


def study_item(item_id: str, text: str, settings: StudySettings) -> tuple[str, dict]:
    """One deal in a worker, with the worker's engine: (id, the record as JSON)."""
    deal = loads(text, item_id)
    tactics, features = resolve(settings.tactics, settings.tactic_file)
    record = walk_deal(deal, tactics, settings.walk, worker_engine(settings.tt_megabytes), features)
    if settings.view == "player" and record.exact:
        Judge(deal, settings.objective, settings.samples, settings.seed, settings.tt_megabytes).record(record)
    return item_id, record.as_json()


# --- many deals ----------------------------------------------------------------------------------

@dataclass
class StudyRun:
    items: list[StudyItem]
    records: dict[str, dict] = field(default_factory=dict)     # id -> results line, kept or new
    resumed: int = 0
    solved: int = 0
    used: int = 0                                             # deals the report covers (a prefix)
    failed: list[tuple[str, str]] = field(default_factory=list)
    stopped_early: bool = False
    recovery: Any = None

    def used_lines(self) -> list[dict]:
        return [self.records[item.id] for item in self.items[:self.used] if item.id in self.records]


def records_of(lines: list[dict]) -> list[tuple[str, str, DealRecord]]:
    """(deal id, deal text, record) of results lines, in their order."""
    return [(line["id"], line["deal"], DealRecord.from_json(line["result"])) for line in lines]


def line_of(item: StudyItem, settings: StudySettings, result: dict) -> dict:
    """The results file's line of a deal."""
    line = {"id": item.id, "file": item.file, "game": item.game, "label": item.label,
            "sha256": item.sha256, "objective": settings.objective, "with_moves": True,
            "tactics": list(settings.tactics), "first": settings.first, "deal": item.text,
            "result": result}
    if result.get("exact") is False:
        line["limits"] = limits_json(settings.limits)
    return line


class _NoFile:
    """Stands in for the results file when no --out is given."""

    class recovery:                       # noqa: N801 - mimics ResultsFile.recovery
        kept: dict = {}
        dropped = 0

    def write(self, record: dict) -> None:
        pass

    def close(self) -> None:
        pass


def run_study(items: list[StudyItem], settings: StudySettings, *, out: str | None = None,
              jobs: int | None = None, dask_address: str | None = None,
              stop: Callable[[list[dict]], bool] | None = None, check_every: int = 50,
              progress: Callable[[int, int], None] | None = None,
              on_error: Callable[[str, str], None] | None = None) -> StudyRun:
    """Study every deal (those already in ``out`` are resumed).  ``stop(lines)`` is asked on
    each prefix of ``check_every`` deals, in order; the first prefix it accepts ends the study
    (so the report does not depend on the number of jobs or on resuming)."""
    resolve(settings.tactics, settings.tactic_file)         # bad names fail here, before work
    results = (ResultsFile(out, items, settings.objective, True, limits=settings.limits,
                           keep_others=of_this_study(settings.fingerprint())) if out else _NoFile())
    run = StudyRun(items)
    try:
        run.records.update(results.recovery.kept)
        run.resumed = len(run.records)
        run.recovery = getattr(results, "recovery", None)
        _study_in_chunks(run, results, settings, jobs, dask_address, stop, check_every, progress, on_error)
    finally:
        results.close()
    return run


def _study_in_chunks(run: StudyRun, results, settings: StudySettings, jobs: int | None, dask_address,
                     stop, check_every: int, progress, on_error) -> None:
    items = run.items
    by_id = {item.id: item for item in items}
    checkpoints = list(range(check_every, len(items), check_every)) + [len(items)] if stop else [len(items)]
    done, start = run.resumed, 0
    if progress:                    # the bar shows from the start, not after the first deal
        progress(min(done, checkpoints[0]), checkpoints[0] if stop else len(items))
    for end in checkpoints:
        chunk = [item for item in items[start:end] if item.id not in run.records]
        for item_id, outcome in _results(chunk, settings, jobs, dask_address):
            if isinstance(outcome, BaseException):
                if isinstance(outcome, TacticError):
                    raise outcome
                run.failed.append((item_id, f"{type(outcome).__name__}: {outcome}"))
                if on_error:
                    on_error(item_id, run.failed[-1][1])
                continue
            line = line_of(by_id[item_id], settings, outcome)
            results.write(line)
            run.records[item_id] = line
            run.solved += 1
            done += 1
            if progress:
                progress(min(done, end), end if stop else len(items))
        run.used, start = end, end
        if stop and end < len(items) and stop(run.used_lines()):
            run.stopped_early = True
            return


def _results(todo: list[StudyItem], settings: StudySettings, jobs: int | None,
             dask_address: str | None) -> Iterator[tuple[str, Any]]:
    """(id, record or the exception) for every deal, in the order they are studied."""
    calls = [(item.id, (item.id, item.text, settings)) for item in todo]
    for item_id, outcome in run_everywhere(study_item, calls, jobs=jobs, dask_address=dask_address,
                                           tt_megabytes=settings.tt_megabytes):
        yield outcome if not isinstance(outcome, BaseException) else (item_id, outcome)


# --- the deals of a study ----------------------------------------------------------------------------

def generated_study_items(game: str, seed: int, count: int, settings: StudySettings, *,
                          players: int | None = None, accept=None,
                          rules: dict[str, str] | None = None) -> list[StudyItem]:
    """Deals 1..count of ``stich deal --game GAME --seed SEED`` (with its ``--where``)."""
    from stich.deals.dealing import generate_deals, stream_label
    key = settings.fingerprint()
    items = []
    for dealt in generate_deals(game, seed, count, players=players, accept=accept, rules=rules):
        items.append(StudyItem(dealt.id, dealt.deal.dump(), game,
                               stream_label(game, players or dealt.deal.players), settings_key=key))
    return items


def study_items_of(items: list[BatchItem], settings: StudySettings) -> list[StudyItem]:
    """Deal files (``batch.collect_items``) as the deals of a study."""
    key = settings.fingerprint()
    return [StudyItem(i.id, i.text, i.game, i.label, i.file, settings_key=key) for i in items]

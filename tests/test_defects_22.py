"""The defects of issue 22 (the third fuzz pass): each test failed before its fix.

Bad input exits 2 with one line naming the file, the key and the problem; every count is
capped; a tactic's own exceptions are its file's fault, a real Ctrl-C keeps what is finished.
Reading ``/dev/zero`` through every path that takes a file is ``test_user_files.py``.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest
from clirun import one_line_error, read_terminal_to_end, read_terminal_until, run, start, start_on_a_terminal

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
ENDING = EXAMPLES / "elfern-ending.toml"
HIDDEN = EXAMPLES / "hidden" / "schafkopf2-hidden.toml"




def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# --- 1, 2: limits that are not numbers, or too large for the core ---------------------------------

@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "1e400"])
@pytest.mark.parametrize("command", ["solve", "analyze", "batch", "tactic"])
def test_time_limit_inf_or_nan_is_bad_input(tmp_path, command, value):
    args = {"solve": [ENDING], "analyze": [ENDING], "batch": [ENDING, "--out", tmp_path / "r.jsonl"],
            "tactic": ["elfern.take_honour", "--from", ENDING]}[command]
    one_line_error(run(command, *args, "--time-limit", value), "--time-limit")


def test_a_huge_node_limit_is_bad_input_not_an_overflow(tmp_path):
    huge = "99999999999999999999999"
    one_line_error(run("solve", ENDING, "--node-limit", huge), "--node-limit")
    one_line_error(run("batch", ENDING, "--out", tmp_path / "r.jsonl", "--node-limit", huge), "--node-limit")


def test_the_largest_node_limit_allowed_reaches_the_core():
    from stich import load, solve
    from stich.core.anytime import MAX_NODES, Limits
    result = solve(load(ENDING), limits=Limits(nodes=MAX_NODES))
    assert result.exact
    with pytest.raises(ValueError):
        Limits(nodes=MAX_NODES + 1)


# --- 4: every rule-file value checked for type and range -------------------------------------------

BAD_RULE_VALUES = [
    ("[outcome]\nlevels = -1\n", "outcome.levels"),
    ("[outcome]\nlevels = [\"x\"]\n", "outcome.levels[1]"),
    ("[outcome]\nwin = 99999999999999999999\n", "outcome.win"),
    ("[outcome]\nscore = 99999999999999999999\n", "outcome.score"),
    ("[outcome]\nlevels = [{ name = \"m\", winner_at_least = -5 }]\n", "outcome.levels[1].winner_at_least"),
    ("[play]\nlast_trick = -1\n", "play.last_trick"),
    ("[values]\nA = 1000000\n", "values.A"),
    ("players = 100\n", "players"),
    ("players = []\n", "players"),
    ("[options.x]\ndefault = \"a\"\nchoices = 5\n", "options.x.choices"),
    ("[options.x]\ndefault = \"a\"\nchoices = [[\"a\"]]\n", "options.x.choices"),
    ("[view]\nstock = \"yes\"\n", "view.stock"),
    ("[view]\nwhy = 5\n", "view.why"),
    ("sources = \"one\"\n", "sources"),
]


@pytest.mark.parametrize("text,key", BAD_RULE_VALUES, ids=[k for _, k in BAD_RULE_VALUES])
def test_every_rule_file_value_is_checked(tmp_path, text, key):
    head = 'extends = "einwerfen"\nname = "toy22"\n'
    if text.startswith(("players", "sources")):
        head, text = head + text, ""
    path = write(tmp_path, "toy.toml", head + text)
    one_line_error(run("rules", path), "toy.toml", key)


# --- 5: names too long for the file system ------------------------------------------------------------

LONG = "a" * 300


def test_a_300_character_game_name_is_bad_input(tmp_path):
    one_line_error(run("rules", LONG), "unknown game")
    one_line_error(run("deal", "--game", LONG), "--game")
    deal = write(tmp_path, "long.toml", f'game = "{LONG}"\n[hands]\n1 = "♣A"\n')
    one_line_error(run("solve", deal), "long.toml", "game")
    rule = write(tmp_path, "ext.toml", f'extends = "{LONG}.toml"\nname = "x"\n')
    one_line_error(run("rules", rule), "ext.toml", "extends")


# --- 6: tactic --from with a bad deal file ---------------------------------------------------------

def test_tactic_from_a_directory_names_the_bad_file_and_its_problem(tmp_path):
    write(tmp_path, "bad.toml", 'game = "elfern"\nstock = "♣7"\n[hands]\n1 = "♣A"\n2 = "♣K"\n')
    solved = one_line_error(run("solve", tmp_path / "bad.toml"), "bad.toml", "stock")
    for jobs in ("1", "2"):
        line = one_line_error(run("tactic", "elfern.take_honour", "--from", tmp_path, "--jobs", jobs))
        assert solved.split("stich: ", 1)[1] in line, (solved, line)


# --- 7, 8: counts are capped ---------------------------------------------------------------------------

def test_deal_count_is_capped_like_batch_generate():
    one_line_error(run("deal", "--game", "elfern", "-n", "100001", "--json"), "-n")
    one_line_error(run("deal", "--game", "elfern", "-n", "99999999999999999999", "--json"), "-n")


def test_tactic_deals_is_capped_and_a_tactic_of_another_game_is_refused():
    one_line_error(run("tactic", "elfern.take_honour", "--game", "elfern", "--deals", "100001"), "--deals")
    one_line_error(run("tactic", "schafkopf2.bare_ten.asap", "--game", "scharwenzel", "--deals", "1"),
                   "schafkopf2.bare_ten.asap", "another game")
    one_line_error(run("tactic", "schafkopf2.bare_ten.asap", "--from", ENDING),
                   "schafkopf2.bare_ten.asap", "elfern")


# --- 9: a tactic that raises KeyboardInterrupt (or SystemExit) ------------------------------------------

RAISING = '''
from stich.tactics import tactic

@tactic("stops")
def stops(view):
    """Raise {what}."""
    raise {what}
'''


@pytest.mark.parametrize("what", ["KeyboardInterrupt", "SystemExit(3)"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tactic_raising_keyboard_interrupt_is_the_files_fault(tmp_path, what, jobs):
    path = write(tmp_path, "t.py", RAISING.format(what=what))
    result = run("tactic", "stops", "--tactic-file", path, "--from", ENDING, "--jobs", jobs)
    one_line_error(result, "t.py", "stops", what.split("(")[0])


def test_a_predicate_or_tactic_file_raising_keyboard_interrupt_when_loaded(tmp_path):
    path = write(tmp_path, "p.py", "raise KeyboardInterrupt\n")
    one_line_error(run("deal", "--game", "elfern", "--predicate", path), "p.py", "KeyboardInterrupt")
    one_line_error(run("tactic", "x", "--tactic-file", path, "--from", ENDING), "p.py", "KeyboardInterrupt")
    accept = write(tmp_path, "a.py", "def accept(deal):\n    raise KeyboardInterrupt\n")
    one_line_error(run("deal", "--game", "elfern", "--predicate", accept), "a.py", "KeyboardInterrupt")


SLOW = '''
import time
from stich.tactics import tactic

@tactic("slow")
def slow(view):
    """Sleep at each decision: time to press Ctrl-C."""
    time.sleep(0.2)
    return None
'''


def test_a_real_ctrl_c_in_a_tactic_study_still_exits_130(tmp_path):
    path = write(tmp_path, "slow.py", SLOW)
    proc = start("tactic", "slow", "--tactic-file", path, "--game", "scharwenzel", "--deals", 50,
                 "--jobs", 1, "--out", tmp_path / "r.jsonl")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (tmp_path / "r.jsonl").exists():
        time.sleep(0.1)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


SLEEPY = '''
import time
from stich.tactics import tactic

@tactic("sleepy")
def sleepy(view):
    """Think for a long time at every decision: a deal of minutes, like Elfern's from the
    player's view."""
    time.sleep(30)
    return None
'''


def test_ctrl_c_does_not_wait_for_the_deals_the_workers_are_on(tmp_path):
    """Found running the README's studies: Ctrl-C waited for the running deals to finish (minutes
    each), because the pool was shut down with wait=True.  The workers are stopped instead; what
    finished is kept either way."""
    path = write(tmp_path, "sleepy.py", SLEEPY)
    proc, terminal = start_on_a_terminal("tactic", "sleepy", "--tactic-file", path, "--game", "scharwenzel",
                                         "--deals", 4, "--jobs", 2, "--out", tmp_path / "r.jsonl",
                                         stdout=subprocess.DEVNULL)
    read_terminal_until(terminal, "tactic:")    # its progress bar: it has started, however busy the machine
    time.sleep(2)                               # and its workers with it, inside a decision
    pressed = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    err = read_terminal_to_end(terminal)
    assert proc.returncode == 130, err
    assert time.monotonic() - pressed < 15, "Ctrl-C waited for the running deals"
    assert "Traceback" not in err


# --- 10, 13: suggest always answers what it knows ------------------------------------------------------

def test_suggest_json_prints_json_when_every_layout_hits_the_limit():
    result = run("suggest", HIDDEN, "--json", "--exact", "--jobs", "1", "--node-limit", "1")
    assert result.exit_code == 5, result.output
    data = json.loads(result.stdout)
    assert data["exact"] is False and data["best"] is None and data["cards"] == []
    assert data["layouts"] == 0 and data["layouts_left_out"] == 24


def _interrupt_after(monkeypatch, finished: int) -> None:
    import stich.view.suggest as module
    original = getattr(module.score_layout, "__wrapped__", module.score_layout)
    calls = []

    def score(*args, **kwargs):
        calls.append(1)
        if len(calls) > finished:
            raise KeyboardInterrupt
        return original(*args, **kwargs)
    score.__wrapped__ = original
    monkeypatch.setattr(module, "score_layout", score)


def test_ctrl_c_in_suggest_prints_the_layouts_finished(monkeypatch):
    _interrupt_after(monkeypatch, 8)
    result = run("suggest", HIDDEN, "--exact", "--jobs", "1")
    assert result.exit_code == 130, result.output
    assert "8 of the 24" in result.stdout and "INTERRUPTED" in result.stdout
    _interrupt_after(monkeypatch, 8)
    data = json.loads(run("suggest", HIDDEN, "--exact", "--jobs", "1", "--json").stdout)
    assert data["exact"] is False and data["interrupted"] is True
    assert data["layouts"] == 8 and data["layouts_unfinished"] == 16


# --- 11: rule-file messages name the file and the key ----------------------------------------------------

def test_a_missing_extends_target_names_the_file_and_key(tmp_path):
    path = write(tmp_path, "ext.toml", 'extends = "nothere.toml"\nname = "x"\n')
    line = one_line_error(run("rules", path), "ext.toml: extends", "nothere.toml")
    assert line.count(str(tmp_path)) <= 2


def test_rule_file_paths_are_shown_as_typed(tmp_path, monkeypatch):
    write(tmp_path, "ext.toml", 'extends = "nothere.toml"\nname = "x"\n')
    write(tmp_path, "bad.toml", 'name = "BAD"\nsources = ["x"]\n')
    monkeypatch.chdir(tmp_path)
    line = one_line_error(run("rules", "ext.toml"), "ext.toml: extends")
    assert str(tmp_path) not in line, line
    line = one_line_error(run("rules", "bad.toml"), "bad.toml: name")
    assert str(tmp_path) not in line, line


def test_deep_nesting_in_a_rule_file_names_the_file(tmp_path):
    path = write(tmp_path, "deep.toml", 'name = "x"\nsources = ["a"]\nvalues = ' + "[" * 5000 + "]" * 5000 + "\n")
    one_line_error(run("rules", path), "deep.toml", "nested")


def test_a_deal_whose_game_is_a_bad_rule_file_names_the_deal_file(tmp_path):
    deal = write(tmp_path, "gnull.toml", 'game = "/dev/null"\n[hands]\n1 = "♣A"\n')
    one_line_error(run("solve", deal), "gnull.toml: game", "/dev/null")


# --- 12: --where errors are one line off a terminal --------------------------------------------------

def test_where_errors_are_one_line():
    line = one_line_error(run("deal", "--game", "elfern", "--where", "seat 1 holds ("), "--where", "'('")
    assert "^" not in line


# --- 14: smaller points -------------------------------------------------------------------------------

def test_help_lists_every_exit_status():
    text = " ".join(run("--help").output.split())
    for status in ("0 ", "1 ", "2 ", "3 ", "4 ", "5 ", "130 ", "141 "):
        assert status in text, (status, text)


def test_table_json_names_trumps_as_the_report_does():
    data = json.loads(run("table", EXAMPLES / "schafkopf2-card17.toml", "--json").stdout)
    assert {cell["trump"] for cell in data["cells"]} == {"eichel", "gruen", "rot", "schellen"}
    data = json.loads(run("table", EXAMPLES / "scharwenzel-ending.toml", "--json").stdout)
    assert {cell["trump"] for cell in data["cells"]} == {"clubs", "spades", "hearts", "diamonds"}


def test_bench_off_names_the_enhanced_transposition_cutoffs():
    from stich.run.bench import SWITCHES, parse_off
    assert "etc" not in SWITCHES and "etc" not in run("bench", "--help").output.split()
    assert parse_off("cutoffs") == {"etc": False}         # the core's name for it
    one_line_error(run("bench", "--off", "etc"), "--off", "cutoffs")


def test_a_bad_file_in_a_batch_gets_an_error_line(tmp_path):
    folder = tmp_path / "deals"
    folder.mkdir()
    write(folder, "a.toml", ENDING.read_text(encoding="utf-8"))
    write(folder, "b.toml", 'game = "elfern"\nzzz = 1\n')
    out = tmp_path / "r.jsonl"
    for _ in range(2):                          # and a rerun neither repeats nor drops it
        result = run("batch", folder, "--out", out, "--jobs", "1", "--quiet")
        assert result.exit_code == 2, result.output
        lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert sorted(line["id"] for line in lines) == ["a", "b"]
        error = next(line for line in lines if line["id"] == "b")
        assert "zzz" in error["error"] and "result" not in error
        assert "dropped" not in result.stderr
    assert not (tmp_path / "r.jsonl.dropped").exists()


def test_hidden_cites_the_docs_path():
    text = (ROOT / "solver" / "view" / "hidden.py").read_text(encoding="utf-8")
    assert "shared/deal-format.md" not in text and "docs/deal-format.md" in text
    assert (ROOT / "docs" / "deal-format.md").is_file()


# --- found by the new fuzzing (each failed before its fix) ------------------------------------------------

def test_a_hidden_file_with_a_bad_game_names_the_game(tmp_path):
    path = write(tmp_path, "h.toml", HIDDEN.read_text(encoding="utf-8").replace('game = "schafkopf2"',
                                                                                 'game = "nogame"'))
    line = one_line_error(run("suggest", path), "h.toml: game", "nogame")
    assert "hidden cards" not in line


def test_a_rule_file_key_with_a_line_break_is_one_line(tmp_path):
    path = write(tmp_path, "r.toml", 'extends = "einwerfen"\nname = "toy"\n"\\u001e" = 0\n')
    one_line_error(run("rules", path), "r.toml", "unknown key", "\\x1e")


def test_a_nul_byte_in_a_file_name_is_bad_input(tmp_path):
    one_line_error(run("rules", "/\x00"), "NUL")
    one_line_error(run("batch", ENDING, "--out", "r\x00"), "NUL")


@pytest.mark.parametrize("body", ["return (1 / 0 for _ in [0])", "raise Boom()", "return [Weird()]"])
def test_a_tactic_raising_anything_is_the_files_fault(tmp_path, body):
    text = ("from stich.tactics import tactic\n\nclass Boom(BaseException):\n    pass\n\n"
            "class Weird:\n    def __repr__(self):\n        raise ValueError\n\n"
            f"@tactic('t')\ndef t(view):\n    {body}\n")
    path = write(tmp_path, "t.py", text)
    one_line_error(run("tactic", "t", "--tactic-file", path, "--from", ENDING, "--jobs", "1"), "t.py", "tactic t")


def test_suggest_exact_refuses_more_layouts_than_it_can_solve():
    one_line_error(run("suggest", EXAMPLES / "hidden" / "elfern-hidden.toml", "--exact"), "--exact", "too many")


def test_ctrl_c_in_bench_prints_the_deals_measured(monkeypatch):
    import stich.run.bench as bench
    original, calls = bench.measure_value, []

    def measure(*args, **kwargs):
        calls.append(1)
        if len(calls) > 3:                      # the warm-up and two deals, then Ctrl-C
            raise KeyboardInterrupt
        return original(*args, **kwargs)
    monkeypatch.setattr(bench, "measure_value", measure)
    result = run("bench", "--quick", "--mode", "value", "--json")
    assert result.exit_code == 130 and "interrupted" in result.stderr
    data = json.loads(result.stdout)
    assert data["interrupted"] is True and data["total"]["deals"] == 2


def test_a_batch_generates_at_most_a_million_deals(tmp_path):
    many = [arg for seed in range(11) for arg in ("--generate", f"elfern:100000:{seed}")]
    one_line_error(run("batch", *many, "--out", tmp_path / "r.jsonl"), "--generate", "1,000,000")


@pytest.mark.parametrize("game,changes,key", [
    ("officers_skat", [("players = 2", "players = 4")], "layout"),           # 64 pile cards, 32 in the pack
    ("bohemian_schneider", [("players = 2", "players = 6"), ("hand = 6", "hand = 5")], "layout.hand"),
])                                                                      # a stock of 2 for 6 players
def test_a_layout_that_does_not_fit_the_pack_is_refused(tmp_path, game, changes, key):
    from stich.games.rulefile import RULES_DIR
    text = (RULES_DIR / f"{game}.toml").read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path = write(tmp_path, "r.toml", text.replace(f'name = "{game}"', 'name = "toy"'))
    one_line_error(run("rules", path), "r.toml", key)
    one_line_error(run("deal", "--game", path), "r.toml", key)

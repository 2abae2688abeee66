"""stich explore's server without a browser: its API answers what the commands print, each
position is searched once per session, bad requests get a JSON error and the server goes on,
only its own Host and Origin pass, a bad file fails before the server starts, and Ctrl-C
stops it.  (The page itself is driven in a real browser in test_explore_browser.py.)
"""

from __future__ import annotations

import json
import multiprocessing
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette", reason="stich explore needs its extra: pip install \".[explore]\"")
pytest.importorskip("uvicorn", reason="stich explore needs its extra: pip install \".[explore]\"")

import contextlib

from starlette.testclient import TestClient  # noqa: E402

from stich import load, loads  # noqa: E402
from stich.cli.main import main  # noqa: E402
from stich.deals.dealfile_read import RULE_FILE_HINT
from stich.explore.app import create_app  # noqa: E402
from stich.explore.pool import WorkerPool  # noqa: E402
from stich.explore.position import file_line, position_deal, start_text  # noqa: E402
from stich.explore.session import ExploreSession, Options  # noqa: E402
from stich.model.cards import format_cards  # noqa: E402
from stich.run import pool as pool_module  # noqa: E402
from stich.view import information  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
HOST = "testserver"


def cli_json(*args: str, input: str | None = None) -> dict:
    """What a command prints with --json (run in this process)."""
    result = CliRunner().invoke(main, [*args, "--json"], input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def served():
    """A client for the explorer of a deal file; the session is closed afterwards."""
    opened = []

    def open_(name: str, **options) -> tuple[TestClient, ExploreSession]:
        session = ExploreSession(load(EXAMPLES / name), Options(**options))
        client = TestClient(create_app(session, {HOST}), base_url=f"http://{HOST}")
        client.__enter__()
        opened.append(client)
        return client, session
    yield open_
    for client in opened:
        client.__exit__(None, None, None)


def wait_for_job(client: TestClient, job: dict, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while job["state"] in ("queued", "running"):
        assert time.monotonic() < deadline, f"the view job did not finish: {job}"
        time.sleep(0.05)
        job = client.get(f"/api/view/{job['job']}").json()
    return job


# --- positions -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["schafkopf2-mariage.toml", "scharwenzel-played.toml",
                                  "elfern-played.toml", "officers_skat-played.toml",
                                  "bohemian_schneider-played.toml", "einwerfen-played.toml"])
def test_the_file_line_from_the_start_is_the_file(name):
    """The page keeps the deal before its play and the play as moves; together they must be
    the file again, announcements included."""
    deal = load(EXAMPLES / name)
    assert position_deal(start_text(deal), file_line(deal)) == deal


def test_the_mariage_line_shows_the_announcement_as_a_move():
    deal = load(EXAMPLES / "schafkopf2-mariage.toml")
    assert "(marriage R) RA" in file_line(deal)


def test_position_lists_the_referees_legal_cards_and_the_file_reads_back(served):
    client, session = served("schafkopf2-mariage.toml")
    moves = session.line[:6]                  # after three tricks: seat 1 leads, may announce
    answer = client.post("/api/position", json={"start": session.start, "moves": moves}).json()
    deal = position_deal(session.start, moves)
    position = deal.position()
    assert answer["legal"] == [c.text("german") for c in position.legal_moves()]
    assert answer["announce"] == [{"text": "(marriage R)", "suit": "R"}]
    assert answer["to_move"] == 1 and not answer["over"]
    assert loads(answer["file"]) == deal
    assert answer["points"] == position.points


def test_the_players_view_hides_what_the_seat_cannot_see(served):
    """Schafkopf2: every face-down card, the seat's own too; face-up cards stay."""
    client, session = served("schafkopf2-ending.toml")
    answer = client.post("/api/position", json={"start": session.start, "moves": session.line,
                                                "view": True}).json()
    downs = [p["down"] for s in answer["seats"] for p in s["piles"] if p and p["down"]]
    ups = [p["up"] for s in answer["seats"] for p in s["piles"] if p]
    assert downs and all(d == {"hidden": True} for d in downs)
    assert all("text" in u for u in ups)
    assert answer["view"]["hidden_cards"] == len(downs)


@pytest.mark.parametrize("name", ["schafkopf2-ending.toml", "scharwenzel-played.toml", "elfern-played.toml"])
def test_the_players_view_file_is_what_the_seat_sees_and_suggest_reads_it(served, tmp_path, name):
    """The deal file of the player's view names no hidden card, and ``stich suggest`` reads
    it to the same consistent layouts as the page's view."""
    client, session = served(name)
    moves = session.line[:4]
    answer = client.post("/api/position", json={"start": session.start, "moves": moves,
                                                "view": True}).json()
    text = answer["file"]
    deal = position_deal(session.start, moves)
    seat = deal.position().to_move
    hidden = information(deal, seat + 1).pool
    assert hidden
    seen = text.replace(f'unknown = "{format_cards(hidden, deal.notation)}"', "")
    assert "unknown = " not in seen                    # the one line that lists the pool
    tokens = set(re.findall(r'[^\s"\[\],=#]+', seen))
    assert not tokens & {card.text(deal.notation) for card in hidden}
    path = tmp_path / "view.toml"
    path.write_text(text)
    suggested = cli_json("suggest", str(path), "--jobs", "1")
    assert suggested["hidden_cards"] == answer["view"]["hidden_cards"]
    assert f"{suggested['consistent_layouts']:,}" == answer["view"]["consistent_layouts_text"]


def test_a_second_players_view_does_not_cancel_the_first(served):
    """Two tabs: each page cancels its own job when it moves on, not the other tab's."""
    client, session = served("elfern-deal.toml")
    first = client.post("/api/view", json={"start": session.start, "moves": [], "objective": "score",
                                           "samples": 3}).json()
    second = client.post("/api/view", json={"start": session.start, "moves": [], "objective": "total",
                                            "samples": 2}).json()
    assert first["job"] != second["job"]
    time.sleep(0.2)
    assert client.get(f"/api/view/{first['job']}").json()["state"] in ("queued", "running", "done")
    for job in (first, second):
        client.post(f"/api/view/{job['job']}/cancel")


# --- answers as the commands print them -----------------------------------------------------------

@pytest.mark.parametrize("name,objective", [("schafkopf2-mariage.toml", "score"),
                                            ("scharwenzel-played.toml", "total"),
                                            ("elfern-played.toml", "score"),
                                            ("officers_skat-played.toml", "score")])
def test_analysis_is_what_stich_analyze_prints(served, name, objective):
    client, session = served(name)
    answer = client.post("/api/analysis", json={"start": session.start, "moves": session.line,
                                                "objective": objective}).json()
    assert answer == cli_json("analyze", str(EXAMPLES / name), "--objective", objective)


def test_each_position_is_searched_once_per_session(served):
    """Concurrent and repeated requests for one position share one search."""
    client, session = served("scharwenzel-played.toml")
    request = {"start": session.start, "moves": session.line[:8], "objective": "score"}
    answers = []

    def ask():
        answers.append(client.post("/api/analysis", json=request).json())
    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    again = client.post("/api/analysis", json=request).json()
    assert len(answers) == 4 and all(a == again for a in answers)
    assert session.solves == 1
    client.post("/api/analysis", json={**request, "objective": "total"})
    assert session.solves == 2                # another objective is another search
    assert client.get("/api/session").json()["solves"] == 2


def test_the_newest_analysis_request_is_searched_first_and_close_cancels_the_rest():
    """The page asks for the position shown last; positions clicked past can wait."""
    pool = WorkerPool(1, "test-explore", lifo=True)
    started, gate, order = threading.Event(), threading.Event(), []
    busy = pool.submit(lambda: (started.set(), gate.wait(10)))
    started.wait(10)
    queued = [pool.submit(order.append, k) for k in range(3)]
    gate.set()
    assert [f.result(timeout=10) for f in queued] == [None] * 3 and busy.result(timeout=10)
    assert order == [2, 1, 0]
    started.clear(), gate.clear()
    pool.submit(lambda: (started.set(), gate.wait(10)))
    started.wait(10)
    waiting = pool.submit(order.append, 3)
    pool.close()
    gate.set()
    assert waiting.cancelled() and order == [2, 1, 0]
    with pytest.raises(RuntimeError):
        pool.submit(order.append, 4)


def test_join_waits_for_the_running_call_after_close():
    pool = WorkerPool(1, "test-explore-join")
    started, gate = threading.Event(), threading.Event()
    running = pool.submit(lambda: (started.set(), gate.wait(10)))
    started.wait(10)
    pool.close()
    assert not pool.join(0.2)                 # the call still runs: join gives up after its time
    threading.Timer(0.3, gate.set).start()
    assert pool.join(10) and running.result(timeout=1)


def test_close_returns_once_the_players_view_has_let_its_worker_processes_go(monkeypatch):
    """Ctrl-C with a player's view on two worker processes: the job's thread stops the pool and
    frees its semaphores before ``close`` returns.  A thread still doing that as the process
    exits is frozen halfway, and the resource tracker prints a "leaked semaphore" warning.
    Here the job's thread takes half a second to stop its pool, so ``close`` must wait for it."""
    real_stop = pool_module.stop_at_once

    def slow_stop(executor) -> None:
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.5)
        real_stop(executor)
    monkeypatch.setattr(pool_module, "stop_at_once", slow_stop)
    before = set(threading.enumerate())
    session = ExploreSession(load(EXAMPLES / "elfern-deal.toml"), Options(jobs=2))
    view_threads = [t for t in set(threading.enumerate()) - before if t.name.startswith("stich-explore-view")]
    job = session.start_view(session.start, [], "score", samples=500)
    deadline = time.monotonic() + 60
    while not (job.state == "running" and multiprocessing.active_children()):
        assert time.monotonic() < deadline and job.state in ("queued", "running"), job.as_json()
        time.sleep(0.05)
    time.sleep(0.5)                           # the workers are solving layouts
    started = time.monotonic()
    session.close()
    assert time.monotonic() - started < 5
    assert len(view_threads) == 1 and not view_threads[0].is_alive()
    assert job.state == "cancelled" and not multiprocessing.active_children()


def test_the_players_view_is_what_stich_suggest_prints(served, tmp_path):
    client, session = served("schafkopf2-ending.toml")
    job = client.post("/api/view", json={"start": session.start, "moves": session.line,
                                         "objective": "score"}).json()
    job = wait_for_job(client, job)
    assert job["state"] == "done" and job["done"] == job["total"] == 24
    expected = cli_json("suggest", str(EXAMPLES / "schafkopf2-ending.toml"), "--jobs", "1")
    got = dict(job["result"])
    assert got.pop("seconds") >= 0 and expected.pop("seconds") >= 0
    assert got == expected
    assert job["consistent_layouts_text"] == f"{expected['consistent_layouts']:,}"


def test_sampling_options_reach_suggest(served):
    client, session = served("scharwenzel-played.toml")
    job = client.post("/api/view", json={"start": session.start, "moves": session.line,
                                         "objective": "total", "samples": 7, "seed": 3}).json()
    result = wait_for_job(client, job)["result"]
    expected = cli_json("suggest", str(EXAMPLES / "scharwenzel-played.toml"), "--samples", "7",
                        "--seed", "3", "--objective", "total", "--jobs", "1")
    assert result["layouts"] == 7 and result["seed"] == 3
    assert result["cards"] == expected["cards"] and result["best"] == expected["best"]


def test_a_long_players_view_can_be_cancelled(served):
    """A whole Elfern deal takes many seconds per hundred layouts: cancel it after one, and
    the next job still runs."""
    client, session = served("elfern-deal.toml")
    job = client.post("/api/view", json={"start": session.start, "moves": [], "objective": "score",
                                         "samples": 1000}).json()
    deadline = time.monotonic() + 60
    while job["done"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)
        job = client.get(f"/api/view/{job['job']}").json()
    assert job["total"] == 1000
    cancelled = client.post(f"/api/view/{job['job']}/cancel").json()
    assert cancelled["state"] == "cancelled"
    small = client.post("/api/view", json={"start": session.start, "moves": session.line,
                                           "objective": "score", "samples": 2}).json()
    assert wait_for_job(client, small)["state"] == "done"
    final = client.get(f"/api/view/{job['job']}").json()
    assert final["state"] == "cancelled" and final["done"] < 1000 and final["result"] is None


# --- bad requests -----------------------------------------------------------------------------------

BAD = [
    (b"{not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (json.dumps({"start": "game = 1", "moves": []}).encode(), "game"),
    (json.dumps({"moves": "GK"}).encode(), "start"),
]


@pytest.mark.parametrize("body,words", BAD)
def test_a_malformed_request_gets_a_json_error_and_the_server_goes_on(served, body, words):
    client, session = served("schafkopf2-mariage.toml")
    response = client.post("/api/position", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    assert words in response.json()["error"]
    good = client.post("/api/position", json={"start": session.start, "moves": []})
    assert good.status_code == 200


def test_an_illegal_move_gets_the_deal_readers_message(served):
    client, session = served("schafkopf2-mariage.toml")
    response = client.post("/api/analysis", json={"start": session.start, "moves": ["GK", "G7"],
                                                  "objective": "score"})
    assert response.status_code == 400
    assert response.json()["error"] == ("moves: play: trick 1, card 2 (G7 by seat 2): G7 is face "
                                        "down under another card of seat 2")


@pytest.mark.parametrize("request_", [
    {"moves": ["GK G10"]}, {"moves": [1]}, {"moves": ["GK"] * 401}, {"objective": "best"},
    {"samples": 0}, {"samples": 5, "exact": True}, {"seed": "x"}, {"start": ["a", "list"]},
    {"start": (EXAMPLES / "schafkopf2-played.toml").read_text(encoding="utf-8")}])
def test_bad_fields_are_named(served, request_):
    client, session = served("schafkopf2-mariage.toml")
    body = {"start": session.start, "moves": [], "objective": "score", **request_}
    response = client.post("/api/view", json=body)
    assert response.status_code == 400
    assert next(iter(request_)) in response.json()["error"]


def test_unknown_paths_and_jobs_are_json_404s(served):
    client, _ = served("schafkopf2-mariage.toml")
    assert client.get("/api/view/12345").status_code == 404
    missing = client.get("/nothing/here")
    assert missing.status_code == 404 and "error" in missing.json()


def test_the_deal_over_is_a_clear_error_not_a_search(served):
    client, session = served("elfern-ending.toml")
    deal = load(EXAMPLES / "elfern-ending.toml")
    from stich.search.solve import solve
    line = [str(card) for card in solve(deal).line]
    answer = client.post("/api/position", json={"start": session.start, "moves": line}).json()
    assert answer["over"] and answer["final"]["text"] and answer["legal"] == []
    refused = client.post("/api/analysis", json={"start": session.start, "moves": line, "objective": "score"})
    assert refused.status_code == 400 and "over" in refused.json()["error"]
    assert session.solves == 0


# --- only this page ---------------------------------------------------------------------------------

def test_a_foreign_origin_is_refused(served):
    client, _ = served("schafkopf2-mariage.toml")
    refused = client.get("/api/session", headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403 and "Origin" in refused.json()["error"]
    assert client.get("/api/session", headers={"Origin": f"http://{HOST}"}).status_code == 200
    assert client.get("/api/session").status_code == 200          # no Origin: a plain GET


def test_a_foreign_host_is_refused(served):
    """DNS rebinding: a page of evil.example resolved to 127.0.0.1 still names its own host."""
    client, _ = served("schafkopf2-mariage.toml")
    refused = client.get("/", headers={"Host": "evil.example:8000"})
    assert refused.status_code == 403 and "Host" in refused.json()["error"]


def test_the_page_and_its_files_are_served_with_a_strict_policy(served):
    client, _ = served("schafkopf2-mariage.toml")
    page = client.get("/")
    assert page.status_code == 200 and "explore.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    names = sorted(p.name for p in (ROOT / "solver" / "explore" / "static").iterdir() if p.suffix in (".js", ".css"))
    assert "explore.js" in names and "explore.css" in names
    for name in names:
        assert client.get(f"/static/{name}").status_code == 200
    svg = "http://www.w3.org/2000/svg"       # the SVG namespace: a name, never fetched
    for text in (page.text, *(client.get(f"/static/{name}").text for name in names)):
        assert "://" not in text.replace(svg, ""), "nothing from the network: every address is this server's"


# --- the command ------------------------------------------------------------------------------------

def test_a_bad_file_fails_before_the_server_starts(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "elfern"\n[hands]\n1 = "XX"\n', encoding="utf-8")
    for args in ([str(bad)], [str(tmp_path / "missing.toml")],
                 [str(EXAMPLES / "elfern-deal.toml"), "--rule", "no_such=1"]):
        done = subprocess.run([sys.executable, "-m", "stich.cli.main", "explore", *args, "--no-browser"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("stich: ")
        assert "http://" not in done.stderr


def test_a_port_in_use_is_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "stich.cli.main", "explore",
                               str(EXAMPLES / "elfern-ending.toml"), "--port", str(port), "--no-browser"],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"--port: cannot listen on 127.0.0.1:{port}" in done.stderr


def start_server(name: str) -> tuple[subprocess.Popen, str]:
    """``stich explore`` as the user starts it (no browser); the page's address."""
    process = subprocess.Popen([sys.executable, "-m", "stich.cli.main", "explore", str(EXAMPLES / name),
                                "--no-browser"], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    if "http://127.0.0.1:" not in line:
        process.kill()                         # no server left behind by a failing test
        raise AssertionError(f"stich explore did not start on 127.0.0.1: {line}")
    return process, line.split()[2]


def outward_address() -> str:
    """This machine's address on its network (no packet is sent), else skip."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
        except OSError:
            pytest.skip("no network interface besides loopback")
        return probe.getsockname()[0]


def test_it_listens_on_127_0_0_1_only_and_ctrl_c_stops_it_cleanly():
    """Even with a whole-deal player's view running: Ctrl-C ends it at once, one line, 130."""
    process, url = start_server("elfern-deal.toml")
    try:
        about = json.load(urllib.request.urlopen(url + "api/session", timeout=30))
        body = json.dumps({"start": about["start"], "moves": [], "objective": "score",
                           "samples": 500}).encode()
        request = urllib.request.Request(url + "api/view", body, {"Content-Type": "application/json"})
        job = json.load(urllib.request.urlopen(request, timeout=30))
        assert job["state"] in ("queued", "running")
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with pytest.raises(OSError):          # not reachable on the machine's own address
            socket.create_connection((outward_address(), port), timeout=2).close()
        time.sleep(1)                          # the search is running now
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=20)
        stopped = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
    rest = process.stderr.read()
    assert process.returncode == 130, rest
    assert rest == "stich: explore stopped (Ctrl-C)\n"
    assert stopped < 10
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url, timeout=5)


# --- what a request or a link may make the server do -------------------------------------------------

def start_server_with(*args: str) -> tuple[subprocess.Popen, str]:
    """``stich explore ARGS --no-browser``; the page's address."""
    process = subprocess.Popen([sys.executable, "-m", "stich.cli.main", "explore", *args, "--no-browser"],
                               cwd=ROOT, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    if "http://127.0.0.1:" not in line:
        process.kill()
        raise AssertionError(f"stich explore did not start on 127.0.0.1: {line}")
    return process, line.split()[2]


def test_a_body_over_the_limit_is_refused_before_it_is_read():
    """A Content-Length of 400 MB with one byte sent: the answer (413) comes at once, without
    the server waiting for, or holding, the rest."""
    process, url = start_server_with(str(EXAMPLES / "elfern-ending.toml"))
    try:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
            conn.sendall(f"POST /api/position HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         f"Content-Type: application/json\r\nContent-Length: 400000000\r\n\r\n{{".encode())
            answer = conn.recv(4096).decode("latin-1")
        assert answer.startswith("HTTP/1.1 413"), answer
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def test_a_body_without_its_length_is_read_only_up_to_the_limit(served):
    client, _ = served("elfern-ending.toml")
    sent = []

    def chunks():
        for _ in range(64):                      # 1 MB in 16 KB chunks, no Content-Length
            sent.append(1)
            yield b" " * 16384
    answer = client.post("/api/position", content=chunks(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413 and "larger than" in answer.json()["error"]


def test_two_origin_or_host_headers_are_refused(served):
    client, _ = served("elfern-ending.toml")
    both = client.get("/api/session", headers=[("Origin", "http://evil.example"), ("Origin", f"http://{HOST}")])
    assert both.status_code == 403 and "more than one Origin" in both.json()["error"]
    hosts = client.get("/api/session", headers=[("Host", "evil.example"), ("Host", HOST)])
    assert hosts.status_code == 403


@pytest.mark.parametrize("game", ["/etc/passwd", "/no/such/file.toml", "../../etc/hostname",
                                  str(ROOT / "solver" / "games" / "rules" / "einwerfen.toml")])
def test_a_link_may_name_no_file_as_its_game(served, game):
    """Whether the file exists or not, the answer is the same line: nothing of it is opened."""
    client, session = served("elfern-ending.toml")
    start = session.start.replace('game = "elfern"', f"game = {json.dumps(game)}")
    answer = client.post("/api/position", json={"start": start, "moves": []})
    assert answer.status_code == 400
    message = answer.json()["error"]
    assert "is not one of the games this server was started with" in message, message
    assert "root" not in message and "no rule file" not in message


def user_rule_file(folder: Path) -> Path:
    """A rule file of the user's own (a built-in one under another name), and a deal of it."""
    rules = (ROOT / "solver" / "games" / "rules" / "officers_skat.toml").read_text(encoding="utf-8")
    path = folder / "my_skat.toml"
    path.write_text(rules.replace('name = "officers_skat"', 'name = "my_skat"'), encoding="utf-8")
    assert 'name = "my_skat"' in path.read_text(encoding="utf-8")
    deal = (EXAMPLES / "officers_skat-deal.toml").read_text(encoding="utf-8")
    deal_path = folder / "deal.toml"
    deal_path.write_text(deal.replace('game = "officers_skat"', f'game = "{path}"'), encoding="utf-8")
    return deal_path


def test_a_user_rule_file_goes_into_the_page_by_its_file_name_only(tmp_path):
    deal_path = user_rule_file(tmp_path)
    session = ExploreSession(load(deal_path), Options())
    try:
        client = TestClient(create_app(session, {HOST}), base_url=f"http://{HOST}")
        assert str(tmp_path) not in session.start and 'game = "my_skat.toml"' in session.start
        shown = client.post("/api/position", json={"start": session.start, "moves": []})
        assert shown.status_code == 200, shown.text
        assert str(tmp_path) not in json.dumps(shown.json())
        copied = tmp_path / "copied.toml"                  # the copy works beside the rule file
        copied.write_text(shown.json()["file"], encoding="utf-8")
        assert load(copied).game == "my_skat"
    finally:
        session.close()


def test_a_link_may_start_only_so_many_samples(served):
    client, session = served("elfern-deal.toml")
    asked = client.post("/api/view", json={"start": session.start, "moves": [], "objective": "score",
                                           "samples": 100_000})
    assert asked.status_code == 400 and "--samples" in asked.json()["error"]
    exact = client.post("/api/view", json={"start": session.start, "moves": [], "objective": "score",
                                           "exact": True})
    assert exact.status_code == 400 and "layouts are more than" in exact.json()["error"]


def test_ctrl_c_with_a_request_in_flight_is_one_line_and_quick():
    """A search answering a request and a player's view on two worker processes are running:
    Ctrl-C stops the server at once, with its one line (no uvicorn ERROR, no traceback)."""
    process, url = start_server_with(str(EXAMPLES / "elfern-deal.toml"), "--jobs", "2")
    try:
        about = json.load(urllib.request.urlopen(url + "api/session", timeout=30))
        view = json.dumps({"start": about["start"], "moves": [], "objective": "score",
                           "samples": 500}).encode()
        job = json.load(urllib.request.urlopen(
            urllib.request.Request(url + "api/view", view, {"Content-Type": "application/json"}), timeout=30))
        assert job["state"] in ("queued", "running")
        analysis = json.dumps({"start": about["start"], "moves": [], "objective": "score"}).encode()
        in_flight = threading.Thread(target=lambda: _ignore_errors(lambda: urllib.request.urlopen(
            urllib.request.Request(url + "api/analysis", analysis, {"Content-Type": "application/json"}),
            timeout=60)), daemon=True)
        in_flight.start()
        for _ in range(100):                              # the view's workers are at work
            if json.load(urllib.request.urlopen(f"{url}api/view/{job['job']}", timeout=30))["state"] == "running":
                break
            time.sleep(0.1)
        time.sleep(1)
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        stopped = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
    rest = process.stderr.read()
    assert process.returncode == 130 and rest == "stich: explore stopped (Ctrl-C)\n", rest
    assert stopped < 5, stopped


def _ignore_errors(call) -> None:
    with contextlib.suppress(OSError):
        call()


# --- any deal from the page -------------------------------------------------------------------------

def test_a_pasted_deal_opens_and_a_bad_one_gets_the_solvers_one_line_error(served, tmp_path):
    client, _ = served("scharwenzel-ending.toml")
    text = (EXAMPLES / "schafkopf2-played.toml").read_text()
    answer = client.post("/api/deal/paste", json={"text": text}).json()
    deal = load(EXAMPLES / "schafkopf2-played.toml")
    assert answer["start"] == start_text(deal) and answer["line"] == file_line(deal)
    moved = client.post("/api/position", json={"start": answer["start"], "moves": answer["line"]}).json()
    assert moved["file"] == deal.dump()
    bad = text.replace('game = "schafkopf2"', 'game = "schafkopf3"')
    path = tmp_path / "bad.toml"
    path.write_text(bad)
    solved = CliRunner().invoke(main, ["solve", str(path)])
    assert solved.exit_code == 2
    refused = client.post("/api/deal/paste", json={"text": bad})
    assert refused.status_code == 400
    error = refused.json()["error"]
    # the command's line without the rule-file paths a page cannot name
    assert "\n" not in error and error.split(": ", 1)[1] in (solved.stderr.replace(str(path), "the pasted deal")
                                                            .replace(RULE_FILE_HINT, ""))


def test_a_pasted_deal_may_name_no_file_as_its_game(served):
    """As for a link: a pasted deal names a game the server knows, never a path it would open."""
    client, _ = served("scharwenzel-ending.toml")
    text = (EXAMPLES / "schafkopf2-played.toml").read_text().replace('game = "schafkopf2"', 'game = "/etc/passwd"')
    refused = client.post("/api/deal/paste", json={"text": text})
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert "is not one of the games this server was started with" in error and "root" not in error


def test_a_random_deal_is_stich_deals_with_its_constraints(served):
    client, _ = served("scharwenzel-ending.toml")
    where = ["seat 1 holds at least 4 trumps"]
    answer = client.post("/api/deal/random", json={"game": "scharwenzel", "seed": 3, "players": 6,
                                                   "where": where}).json()
    printed = cli_json("deal", "--game", "scharwenzel", "--seed", "3", "--players", "6", "--where", where[0])
    assert answer["start"] == start_text(loads(printed[0]["deal"]))
    bad = client.post("/api/deal/random", json={"game": "scharwenzel", "where": ["seat 9 holds a pony"]})
    assert bad.status_code == 400 and bad.json()["error"].startswith("--where: ")
    # a count that is a float, a seed too large for a deal's name: refused, not a 500
    for wrong, word in (({"players": 6.0}, "players"), ({"players": True}, "players"),
                        ({"seed": 10**400}, "seed")):
        bad = client.post("/api/deal/random", json={"game": "scharwenzel", "seed": 1, **wrong})
        assert bad.status_code == 400 and bad.json()["error"].startswith(word), bad.text


def test_the_whole_deal_table_is_stich_tables(served):
    client, session = served("schafkopf2-card17.toml")
    answer = client.post("/api/deal/table", json={"start": session.start}).json()
    assert answer["table"] == cli_json("table", str(EXAMPLES / "schafkopf2-card17.toml"))
    again = client.post("/api/deal/table", json={"start": session.start}).json()
    assert again == answer


def test_a_ctrl_c_lost_before_the_server_started_stops_it():
    """A press swallowed while uvicorn loaded (before its own handler was in place) must not
    leave the explorer serving for ever: it stops at its first tick and reports the press."""
    from stich.explore.server import serve
    from stich.files.interrupt import SwallowedInterrupt, watching
    from tests.test_interrupt_lost import press_ctrl_c_in_a_finaliser

    session = ExploreSession(load(EXAMPLES / "elfern-deal.toml"), Options(jobs=1))
    # without the fix the server would run on: a second, real press stops it after 20 s
    second_press = threading.Timer(20, signal.raise_signal, (signal.SIGINT,))
    stopped_by = None
    try:
        with watching():
            press_ctrl_c_in_a_finaliser()
            second_press.start()
            serve(session, port=0, open_browser=False, announce=lambda url: None)
    except SwallowedInterrupt:
        stopped_by = "the lost press"
    except KeyboardInterrupt:
        stopped_by = "the second press"
    finally:
        second_press.cancel()
    assert stopped_by == "the lost press"

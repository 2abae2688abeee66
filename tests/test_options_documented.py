"""A new option of a Python game is written down by hand in two places no code reads (docs
"Add a rule option"): the option table of docs/how-to/rule-options.md and the brute force of
``tests/reference.py``.
These tests fail until both are done, so that neither is forgotten."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from clirun import run

from stich.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PYTHON_GAMES = [g for g in GAMES.values() if g.rule_file is None]
OPTIONS = [(g.name, o) for g in PYTHON_GAMES for o in g.options]

# options the brute force need not know, and why: they act before the play or after it
OUTSIDE_THE_PLAY = {
    "first_leader": "who leads: the reference reads the deal's leader, already resolved",
    "schneider_at": "an outcome level: the totals the reference checks do not change",
}


def test_there_are_python_games_with_options():
    assert len(PYTHON_GAMES) == 3 and len(OPTIONS) >= 10


@pytest.mark.parametrize("game,option", OPTIONS, ids=[f"{g}.{o.name}" for g, o in OPTIONS])
def test_the_docs_table_has_a_row_for_every_option(game, option):
    text = (ROOT / "docs" / "how-to" / "rule-options.md").read_text(encoding="utf-8")
    default = str(option.default).lower() if isinstance(option.default, bool) else option.default
    row = re.search(rf"^\| {game} \| `{option.name}` \| `{re.escape(str(default))}`", text, re.M)
    assert row, f"docs/how-to/rule-options.md: no row '| {game} | `{option.name}` | `{default}`, ...' (default first)"


@pytest.mark.parametrize("game,option", OPTIONS, ids=[f"{g}.{o.name}" for g, o in OPTIONS])
def test_the_reference_reads_every_option_that_changes_the_play(game, option):
    text = (ROOT / "tests" / "reference.py").read_text(encoding="utf-8")
    assert option.name in OUTSIDE_THE_PLAY or re.search(rf"\b{option.name}\b", text), \
        f"tests/reference.py never reads {option.name}: write its effect there (or say why not)"


def test_the_docs_are_the_projects_own_and_cited():
    for name in ("deal-format.md", "rules.md"):
        assert (ROOT / "docs" / name).is_file()
    for path in (ROOT / "README.md", ROOT / "solver" / "deals" / "deal.py"):
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text and "docs/" in text, path
    assert "docs/rules.md" in run("rules").output
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"docs/deal-format.md", "docs/rules.md"' in pyproject
    assert "docs/*.md" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")


def test_rules_doc_has_every_section_stich_rules_cites():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for spec in GAMES.values():
        if spec.rule_file is not None:
            # a rule file cites its own sources: each option's [short names] are among them
            for option in spec.options:
                cited = re.findall(r"\[[\w-]+\]", option.source)
                assert cited, option.source
                assert all(any(s.startswith(c) for s in spec.sources) for c in cited), option.source
            continue
        for option in spec.options:
            section = option.source.split("§")[1].split()[0]
            assert f"## {section}." in text, option.source
            assert f"`{option.name}`" in text

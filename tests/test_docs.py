"""The documentation: the site builds offline in strict mode, the command reference and the API
come from the code, the README is a short front door with a glossary, and no product document
speaks of the project's history (that is CHANGELOG.md's).

The commands and Python shown on the pages run in tests/test_readme.py."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
PRODUCT_PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
HISTORY = re.compile(r"issue [0-9]+|(first|second|third|fourth|fifth) round", re.I)
GLOSSARY_TERMS = ["double dummy", "rung", "P(dd best)", "Bock", "tout", "for the first", "matadors",
                  "forehand", "honours", "non-counter", "Schneider", "Schwarz", "Ständer",
                  "player's view", "layout", "estimand", "key move", "regret", "hindsight",
                  "random card", "card points", "strokes", "vs best", "optimal"]
SET_UP = ['pip install . && stich solve examples/scharwenzel-deal.toml',
          'pip install -e ".[test]" && pytest']


def section(text: str, title: str) -> str:
    """The text of the `## title` section, up to the next `## ` heading."""
    part = text.split(f"\n## {title}\n", 1)
    return part[1].split("\n## ", 1)[0] if len(part) == 2 else ""


def nav_pages() -> list[str]:
    """Every page the nav of mkdocs.yml names (the yaml read without MkDocs' own tags)."""
    return re.findall(r":\s*([\w/.-]+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)


# --- the README ------------------------------------------------------------------------------

def test_the_readme_is_a_short_front_door():
    assert len(README.splitlines()) <= 250
    blocks = re.findall(r"```sh\n([^`]*)```", README)
    for command in SET_UP:
        assert any(block.strip() == command for block in blocks), command


def test_the_readme_glossary_defines_every_word_a_report_prints():
    glossary = section(README, "Glossary")
    defined = {term.lower() for term in re.findall(r"\*\*([^*]+)\*\*", glossary)}
    missing = [term for term in GLOSSARY_TERMS if term.lower() not in defined]
    assert glossary and not missing, f"the README's glossary does not define {missing}"


def test_the_readme_shows_no_exit_status_table_before_anything_ran():
    assert "| status |" not in README and "Exit status" not in README.split("## Three questions")[0]


def test_the_readme_links_are_there():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_the_readme_games_name_their_notation_letters():
    games = section(README, "The games")
    for letters in ("Eichel", "Grün", "Rot", "Schellen", "Ober", "Unter", "♣", "♦"):
        assert letters in games, letters


# --- what the product documents say -----------------------------------------------------------

@pytest.mark.parametrize("page", PRODUCT_PAGES, ids=[str(p.relative_to(ROOT)) for p in PRODUCT_PAGES])
def test_no_product_document_speaks_of_the_projects_history(page):
    hits = [m.group(0) for m in HISTORY.finditer(page.read_text(encoding="utf-8"))]
    assert not hits, f"{page.relative_to(ROOT)}: {hits} (history goes to CHANGELOG.md)"


CODE_AND_DATA = [p for folder in ("solver", "cli", "tests", "benchmarks", "examples", "tools")
                 for p in sorted((ROOT / folder).rglob("*"))
                 if p.is_file() and p.suffix in {".py", ".pyx", ".pxi", ".json", ".toml", ".md", ".js",
                                                 ".html", ".css"}]


def test_no_source_test_or_example_names_an_issue():
    """Tests, code and the regression inputs say what they check, not which issue asked."""
    hits = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in CODE_AND_DATA
            for m in re.finditer(r"issue [0-9]+", p.read_text(encoding="utf-8", errors="replace"), re.I)]
    assert not hits, hits[:10]


def test_the_history_check_finds_history():
    # built from parts, so that this file itself names no issue and no round
    assert HISTORY.search("as " + "Issue " + "7 states") and HISTORY.search("the " + "Third" + " round")
    assert not HISTORY.search("a round of drinks; the first trick")


def test_the_changelog_and_the_license_are_at_the_top():
    assert "## 20" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License") and "Copyright (c) 2026 the stich developers" in license_text
    assert 'license = { text = "MIT" }' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page():
    named = nav_pages()
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")}
    assert not [n for n in named if n not in pages], "a nav entry names no page"
    assert not sorted(pages - set(named)), "a page is not in the nav"


# --- the site ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `mkdocs build --strict` makes it (skipped without the docs extra)."""
    for module in ("mkdocs", "material", "mkdocs_click", "mkdocstrings"):
        pytest.importorskip(module, reason='the docs extra: pip install -e ".[docs]"')
    where = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(where)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={"NO_MKDOCS_2_WARNING": "1", **__import__("os").environ})
    assert done.returncode == 0, done.stderr[-3000:]
    return where


def page_text(site: Path, page: str) -> str:
    text = (site / page / "index.html").read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


def test_the_site_builds_offline_in_strict_mode(site):
    assert (site / "index.html").is_file()
    for page in nav_pages():
        built = page[:-3].removesuffix("index").rstrip("/")
        assert (site / built / "index.html" if built else site / "index.html").is_file(), page
    theme = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^\s+font: false", theme, re.M), "Google fonts would be fetched"
    assert "fonts.googleapis" not in (site / "index.html").read_text(encoding="utf-8")


def test_the_command_reference_is_generated_from_the_click_definitions(site):
    from stich.cli.main import main
    text = page_text(site, "reference/commands")
    letters = re.sub(r"\W+", "", text)
    for name, command in main.commands.items():
        first = re.sub(r"\W+", "", command.help.strip().split("\n\n")[0])     # its first paragraph
        assert f"stich {name}" in text and first in letters, name
    source = (DOCS / "reference" / "commands.md").read_text(encoding="utf-8")
    assert "::: mkdocs-click" in source and ":module: stich.cli.main" in source


def test_the_api_reference_is_generated_from_the_docstrings(site):
    import stich
    text = page_text(site, "reference/api")
    for obj in (stich.solve, stich.load, stich.loads, stich.Deal, stich.Result):
        first = re.sub(r"\W+", "", obj.__doc__.strip().split("\n\n")[0])      # its first paragraph
        assert first in re.sub(r"\W+", "", text), obj.__name__


def test_the_glossary_page_is_the_readmes(site):
    text = page_text(site, "glossary")
    assert "P(dd best)" in text and "Ständer" in text and "--8<--" not in text

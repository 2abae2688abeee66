"""MkDocs hook: pages that other work adds later get their nav entry only once they exist.

A nav entry for a missing page fails `mkdocs build --strict`, and a page outside the nav is
easily missed; so an optional page is listed here and put into its section when its file is
there."""

from __future__ import annotations

from pathlib import Path

OPTIONAL = {"The studies": [("Player questions", "studies/player-questions.md")]}


def on_config(config):
    docs = Path(config["docs_dir"])
    for section in config["nav"] or []:
        for title, pages in section.items() if isinstance(section, dict) else []:
            for name, path in OPTIONAL.get(title, []):
                if (docs / path).is_file() and {name: path} not in pages:
                    pages.append({name: path})
    return config

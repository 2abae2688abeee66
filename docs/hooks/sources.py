"""MkDocs hook: the API reference reads the package's sources as the folder build/sources/stich
(tools/source_tree.py), since griffe cannot follow the editable install's import hook to the
folders solver/ and cli/.  mkdocs.yml's mkdocstrings ``paths`` names that folder."""

from __future__ import annotations

import importlib.util
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent.parent


def on_startup(command, dirty):
    """Before any plugin reads its configuration: mkdocstrings takes its ``paths`` as they are
    when it starts, so a folder made later (in ``on_config``) is missed on the first build."""
    spec = importlib.util.spec_from_file_location("source_tree", TOP / "tools" / "source_tree.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.make(TOP / "build" / "sources")

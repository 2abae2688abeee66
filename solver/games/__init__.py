"""The games stich knows, by the name used in deal files."""

import contextlib
import os

from . import elfern, schafkopf2, scharwenzel
from .base import Game, Option, OptionError, View
from .rulefile import RuleFileError, builtin_rule_files, find_game, register

GAMES = {game.name: game for game in (scharwenzel.GAME, schafkopf2.GAME, elfern.GAME)}
RULES_FILES_ENV = "STICH_RULES_FILES"      # rule files given with --rules-file (for worker processes)

for _path in builtin_rule_files():          # the games written as rule files
    register(GAMES, _path)
for _file in filter(None, os.environ.get(RULES_FILES_ENV, "").split(os.pathsep)):
    with contextlib.suppress(RuleFileError):    # the parent process has reported it already
        register(GAMES, _file)

__all__ = ["GAMES", "RULES_FILES_ENV", "Game", "Option", "OptionError", "RuleFileError", "View", "find_game",
           "register"]

"""The games stich knows, by the name used in deal files."""

from . import elfern, schafkopf2, scharwenzel
from .base import FREE, FollowRule, Game, Option, OptionError, RuleSet, View

GAMES = {game.name: game for game in (scharwenzel.GAME, schafkopf2.GAME, elfern.GAME)}

__all__ = ["GAMES", "FREE", "FollowRule", "Game", "Option", "OptionError", "RuleSet", "View"]

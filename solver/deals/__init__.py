"""Deals: the deal file format, random dealing and the --where language that filters deals."""

"""Presentation: every text report, JSON object and plot stich prints."""

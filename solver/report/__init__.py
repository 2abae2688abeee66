"""Presentation: every text report, JSON object and plot stich prints, one module per command.

Everything here is presentation; it computes nothing the solver has not already decided.
"""

"""A Ctrl-C lost on its way still stops the command with exit 130.

Python swallows an exception raised in a finaliser (it prints "Exception ignored"), and code may
catch a KeyboardInterrupt and go on; a command would then run on and exit 0 as if nobody had
pressed the key.  ``watching()`` remembers the press and raises as its block ends, and Python's
"Exception ignored" traceback for the lost press is not printed."""

from __future__ import annotations

import contextlib
import gc
import importlib
import signal
import sys

import pytest

from stich.files.interrupt import SwallowedInterrupt, watching
from tests.clirun import ROOT
from tests.clirun import run as cli_run


def press_ctrl_c_in_a_finaliser() -> None:
    """A real SIGINT delivered while a generator is closed by the garbage collector."""
    def loop():
        try:
            yield 1
        finally:
            signal.raise_signal(signal.SIGINT)
    generator = loop()
    next(generator)
    del generator
    gc.collect()


def test_a_ctrl_c_swallowed_in_a_finaliser_is_raised_as_the_block_ends_without_a_traceback(monkeypatch):
    printed = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: printed.append(unraisable.exc_type))
    reached_the_end = False
    with pytest.raises(SwallowedInterrupt), watching():
        press_ctrl_c_in_a_finaliser()
        reached_the_end = True
    assert reached_the_end, "the interrupt was not swallowed, so this test tests nothing"
    assert printed == []
    assert sys.unraisablehook.__name__ == "<lambda>"     # outside the block, the hook is back


def test_other_exceptions_a_finaliser_swallows_are_still_printed(monkeypatch):
    printed = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: printed.append(unraisable.exc_type))

    class Broken:
        def __del__(self):
            raise ValueError("broken finaliser")

    with pytest.raises(SwallowedInterrupt), watching():
        press_ctrl_c_in_a_finaliser()
        Broken()
        gc.collect()
    assert printed == [ValueError]


def test_a_block_without_a_press_ends_quietly():
    with watching():
        try:
            raise KeyboardInterrupt          # a user's file's own, caught by its caller
        except KeyboardInterrupt:
            pass


def test_a_press_in_an_earlier_block_does_not_carry_over(monkeypatch):
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: None)
    with pytest.raises(SwallowedInterrupt), watching():
        press_ctrl_c_in_a_finaliser()
    with watching():
        pass


def swallowing(real):
    """``real`` after a real Ctrl-C that is caught and dropped, as a finaliser would."""
    def swallow_then_run(*args, **kwargs):
        with contextlib.suppress(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        return real(*args, **kwargs)
    return swallow_then_run


@pytest.mark.parametrize("command,target,args", [
    ("solve", "stich.cli.solve.solve_deal", ["examples/elfern-ending.toml"]),
    ("table", "stich.cli.table.dd_table", ["examples/scharwenzel-deal.toml"]),
    ("deal", "stich.cli.deal.generate_deals", ["--game", "elfern", "--count", "2"]),
])
def test_a_command_whose_ctrl_c_was_lost_exits_130(monkeypatch, command, target, args):
    module_name, name = target.rsplit(".", 1)
    module = importlib.import_module(module_name)
    monkeypatch.setattr(module, name, swallowing(getattr(module, name)))
    result = cli_run(command, *[str(ROOT / a) if a.startswith("examples/") else a for a in args])
    assert result.exit_code == 130, (result.exit_code, result.output)
    assert "may be incomplete" in result.stderr and "Traceback" not in result.output
    assert result.stdout.strip(), "the command ran to its end after the lost Ctrl-C"

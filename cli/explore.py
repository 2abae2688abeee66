"""stich explore FILE: a local web page to play through a deal with every card's value."""

from __future__ import annotations

import click

from .common import InputError, deal_argument, objective_option, read_deal, rule_option, tt_option

EXIT_INTERRUPTED = 130


@click.command("explore")
@deal_argument
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port on 127.0.0.1 (0: any free port).")
@click.option("--no-browser", is_flag=True, help="Do not open the page; only print its address.")
@click.option("--samples", type=click.IntRange(1, 100_000), default=None,
              help="The player's view: draw this many hidden layouts (as stich suggest; "
                   "default: every layout when there are at most 200, else 100).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The player's view: the seed of the sampling.")
@click.option("--jobs", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="The player's view: worker processes for the layouts (1: a thread of the server).")
@rule_option
@objective_option
@tt_option
def explore_command(deal_file: str, port: int, no_browser: bool, samples: int | None, seed: int,
                    jobs: int, rules: tuple[str, ...], objective: str, tt_mb: int) -> None:
    """Play through FILE in a web page, with every legal card's value shown.

    Serves a page on 127.0.0.1 only and opens it in your browser.  Click a card to play
    it; each legal card shows its final totals and its loss against the best card (as
    stich analyze), coloured optimal, losing or losing the outcome.  Undo, redo, go to
    any ply, step through the file's play, play the best card; switch to the player's
    view of the seat to move (as stich suggest, with progress and cancel).  The address
    holds the deal and the play so far; a button copies the position as a deal file.
    Press ? on the page for the keys.  Ctrl-C stops the server.

    \b
    Examples:
      stich explore examples/schafkopf2-mariage.toml
      stich explore examples/elfern-ending.toml --rule must_head=true --port 8765 --no-browser
    """
    deal = read_deal(deal_file, rules)      # a bad file: one line, exit 2, no server
    try:
        from stich.explore.server import ListenError, serve
        from stich.explore.session import ExploreSession, Options
    except ModuleNotFoundError as exc:
        missing = (exc.name or "starlette").split(".")[0]
        raise InputError(f"explore needs {missing}, which is not installed: pip install \".[explore]\" "
                         f"in stich's checkout (the explore extra)") from None
    session = ExploreSession(deal, Options(objective, samples, seed, tt_mb, jobs),
                             "standard input" if deal_file == "-" else deal_file)
    try:
        serve(session, port, not no_browser,
              lambda url: click.echo(f"stich explore: {url} (Ctrl-C stops it)", err=True))
    except ListenError as exc:
        raise InputError(f"--port: {exc}") from None
    except KeyboardInterrupt:
        click.echo("stich: explore stopped (Ctrl-C)", err=True)
        raise SystemExit(EXIT_INTERRUPTED) from None

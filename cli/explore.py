"""stich explore FILE: a local web page to play through a deal with every card's value."""

from __future__ import annotations

import click

from .common import SEED, InputError, deal_argument, objective_option, read_deal, rule_option, tt_option

EXIT_INTERRUPTED = 130


@click.command("explore")
@deal_argument
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="The port on 127.0.0.1 (0: any free port).")
@click.option("--no-browser", is_flag=True, help="Do not open the page; only print its address.")
@click.option("--samples", type=click.IntRange(1, 100_000), default=None,
              help="The player's view: draw this many hidden layouts (as stich suggest; "
                   "default: every layout when there are at most 200, else 100).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="The player's view: the seed of the sampling.")
@click.option("--jobs", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="The player's view: worker processes for the layouts (1: a thread of the server).")
@click.option("--open", "link", default=None, metavar="LINK",
              help="Open the position of LINK (a page's Share link, from any stich explore): "
                   "its deal, line, variations and options travel in its #fragment.")
@rule_option
@objective_option
@tt_option
def explore_command(deal_file: str, port: int, no_browser: bool, samples: int | None, seed: int,
                    jobs: int, link: str | None, rules: tuple[str, ...], objective: str, tt_mb: int) -> None:
    """Play through FILE in a web page, with every legal card's value shown.

    Serves a page on 127.0.0.1 only and opens it in your browser.  Click a card to play
    it; each legal card shows its final totals and its loss against the best card (as
    stich analyze), coloured optimal, losing or losing the outcome.  Undo, redo, go to
    any ply, step through the file's play, play the best card; switch to the player's
    view of the seat to move (as stich suggest, with progress and cancel).  Another card
    at an earlier ply starts a variation; a graph shows the totals over the play; a
    training mode hides the values until a card is picked.  Paste a deal file or deal one
    at random on the page.  The address holds the deal, the variations and the options:
    any stich explore opens it (--open LINK); a button copies the position as a deal file.
    Press ? on the page for the keys.  Ctrl-C stops the server.

    \b
    Examples:
      stich explore examples/schafkopf2-mariage.toml
      stich explore examples/elfern-ending.toml --rule must_head=true --port 8765 --no-browser
      stich explore examples/scharwenzel-deal.toml --open "http://127.0.0.1:8765/#start=..."
    """
    fragment = link_fragment(link)
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
        serve(session, port, not no_browser and not fragment, announcer(fragment, not no_browser))
    except ListenError as exc:
        raise InputError(f"--port: {exc}") from None
    except KeyboardInterrupt:
        click.echo("stich: explore stopped (Ctrl-C)", err=True)
        raise SystemExit(EXIT_INTERRUPTED) from None


def link_fragment(link: str | None) -> str:
    """The ``#start=...`` part of a page's link (what the page reads), or "" without one."""
    if link is None:
        return ""
    _, hash_, fragment = link.partition("#")
    if not hash_ or not fragment.startswith("start=") or len(fragment) > 1_000_000:
        raise InputError(f"--open: {link[:60]!r} is not a link of stich explore (it has no #start=...)")
    return "#" + fragment


def announcer(fragment: str, open_browser: bool):
    """Print the page's address (with the link's position) and open it in the browser."""
    def announce(url: str) -> None:
        click.echo(f"stich explore: {url}{fragment} (Ctrl-C stops it)", err=True)
        if fragment and open_browser:
            import threading
            import webbrowser
            threading.Thread(target=webbrowser.open, args=(url + fragment,), daemon=True).start()
    return announce

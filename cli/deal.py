"""stich deal: random whole deals as deal files, seeded, reproducible, optionally constrained."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from stich.deals.constraints import ConstraintError, all_of, load_predicate, parse_constraint
from stich.deals.deal import DealError
from stich.deals.dealing import DEFAULT_MAX_TRIES, MAX_DEALS, MAX_TRIES, NoDealFound, generate_deals
from stich.games import GAMES, Game, OptionError, RuleFileError, find_game
from stich.model.cards import NOTATIONS, CardError, parse_suit

from .common import EXIT_INPUT, EXIT_INTERRUPTED, SEED, emit_json, fail, parse_rule_overrides, rule_option
from .progress import progress_bar

DEAL_HELP = """Deal random whole deals of a game, as deal files.

Deal K of seed S is the K-th candidate the constraints accept; candidate J is
random_deal(GAME, sha256("stich-deal:S:J")[:8]) (solver/deals/dealing.py), so the same
arguments give the same files byte for byte, and the first deals of -n 100 are those of
-n 10.  Without --out the deals are printed, each after a line "# === ID ===".

\b
Constraints (--where; words are case-insensitive; cards as in deal files):
  CONSTRAINT := CLAUSE | not C | C and C | C or C | ( C )
  CLAUSE     := SUBJECT holds|has OBJECT
  SUBJECT    := seat N | seats N+M[+...] (pooled) | some seat | every seat
              | no seat | stock (Elfern);  Schafkopf2: add "up" or "down"
                for one layer of the piles (seat 1 up holds EO)
  OBJECT     := CARD [CARD...]          every one of them
              | any of CARD... | none of CARD... | no CARD...
              | a bare RANK|CARD [in SUIT]   alone in its effective suit
              | the top N trumps          (seats 1+3 hold the top 3 trumps)
              | a|an|no KIND | COUNT KIND
  COUNT      := N | exactly N | at least N | at most N | more than N
              | fewer than N | between N and M
  KIND       := cards | trumps | SUIT | RANKs (aces, tens, jacks, obers ...)
              | honours (Elfern) | points (card points) | matadors

\b
Meaning: a seat holds its hand as dealt (Elfern: 6 cards, not the stock;
Schafkopf2: all 16 pile cards, face-up and face-down).  SUIT (clubs spades
hearts diamonds, eichel gruen rot schellen, ♣♠♥♦) is the EFFECTIVE suit:
every trump belongs to the trump suit, so with hearts trump in Scharwenzel
"hearts" are the trumps, and "no hearts" means void (cannot follow hearts).
trumps: the deal's trump suit (Elfern has none).  matadors: trumps held in
unbroken order from the top.  "a bare ten": a ten that is the holder's only
card of its effective suit.  honours: Elfern's A K Q J 10.  points: the
game's card values (Schafkopf2 A11 10 K4 O3 U2; not in Scharwenzel).

\b
--predicate FILE.py defines accept(deal) -> bool; deal is a stich.deals.deal.Deal:
deal.hands {seat: (Card,...)}, deal.piles {seat: (Pile(up, down),...)},
deal.stock (top first), deal.trump_suit, deal.rule_set.effective_suit[card],
.is_trump(card), .power[card], .trumps (high to low), .values[card];
stich.deals.dealing.holding(deal, seat) gives every card a seat holds.

\b
Examples:
  stich deal --game scharwenzel --seed 7 -n 10 --out deals/
  stich deal --game scharwenzel --trump clubs --where "seats 1+3 hold the top 3 trumps"
  stich deal --game scharwenzel --where "seat 1 holds a bare ten" --where "seat 2 holds at least 4 trumps"
  stich deal --game elfern --where "seat 1 holds at most 2 honours" --json
  stich deal --game schafkopf2 --where "seat 1 up holds EO or seat 1 up holds GO"
"""


def _game_name(ctx, param, value: str) -> str:
    """A game's name, or a rule file's path (its game is registered)."""
    try:
        spec = find_game(GAMES, value)
    except RuleFileError as exc:
        raise click.BadParameter(str(exc)) from None
    if spec is None:
        raise click.BadParameter(f"{value!r:.60} is not a game ({', '.join(GAMES)}) or a rule file")
    return spec.name


@click.command("deal", help=DEAL_HELP)
@click.option("--game", required=True, callback=_game_name, metavar="GAME|FILE",
              help=f"The game to deal: {', '.join(GAMES)}, or a rule file (FILE.toml).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the stream of deals: the same arguments always give the same files.")
@click.option("-n", "--count", type=click.IntRange(1, MAX_DEALS), default=1, show_default=True,
              help=f"How many deals (at most {MAX_DEALS:,}, as batch --generate).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write each deal to DIR/ID.toml (ID like scharwenzel-7-0001) instead of "
                   "printing it.")
@click.option("--players", type=int, default=None,
              help="Scharwenzel: 4 (default), 6 or 8 players.")
@click.option("--trump", default=None, metavar="SUIT",
              help="Fix the trump suit (Scharwenzel; Schafkopf2 in card17 mode).  Scharwenzel "
                   "deals pick one at random without it.")
@click.option("--cards", "notation", type=click.Choice(NOTATIONS), default=None,
              help="Card letters of the files (default: the game's; also how --where reads cards).")
@rule_option
@click.option("--where", "wheres", multiple=True, metavar="CONSTRAINT",
              help="Keep only deals meeting CONSTRAINT (repeatable: all must hold); "
                   "the language is below.")
@click.option("--predicate", "predicate_file", type=str, default=None, metavar="FILE.py",
              help="Keep only deals for which FILE.py's accept(deal) returns true.")
@click.option("--max-tries", type=click.IntRange(1, MAX_TRIES), default=DEFAULT_MAX_TRIES, show_default=True,
              help="Give up (exit 2) after this many refused candidates in a row.")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON list of {id, seed, candidate, deal_seed, file, deal} objects.")
def deal_command(game: str, seed: int, count: int, out_dir: str | None, players: int | None,
                 trump: str | None, notation: str | None, rules: tuple[str, ...],
                 wheres: tuple[str, ...], predicate_file: str | None, max_tries: int,
                 as_json: bool) -> None:
    spec = GAMES[game.lower()]
    players = _players(spec, players)
    accept = _accept(spec.name, players, notation, wheres, predicate_file)
    stream = generate_deals(spec.name, seed, count, players=players, trump=_trump(spec, trump),
                            rules=parse_rule_overrides(rules), notation=notation, accept=accept,
                            max_tries=max_tries)
    records: list[dict] = []
    try:
        _deal_out(stream, seed, count, Path(out_dir) if out_dir is not None else None, as_json, records)
    except OptionError as exc:
        fail(f"--rule: {exc}")
    except (DealError, ConstraintError) as exc:
        fail(str(exc))
    except NoDealFound as exc:
        given = "/".join(name for name, used in (("--where", wheres), ("--predicate", predicate_file)) if used)
        fail(f"{given or '--where'}: {exc}")
    except OSError as exc:
        where = f"--out {out_dir}" if out_dir is not None else "standard output"
        fail(f"{where}: {exc.strerror or exc}")
    except KeyboardInterrupt:
        if as_json:
            emit_json(records)
        where = f" in {out_dir}" if out_dir is not None else ""
        fail(f"interrupted (Ctrl-C); the {len(records)} deal(s) finished are kept{where}", EXIT_INTERRUPTED)
    if as_json:
        emit_json(records)


def _players(spec: Game, players: int | None) -> int:
    if players is not None and players not in spec.seat_counts:
        fail(f"--players: {spec.name} is played by {', '.join(map(str, spec.seat_counts))}, not {str(players)[:20]}")
    return players or spec.default_players


def _trump(spec: Game, trump: str | None) -> int | None:
    if trump is None:
        return None
    if not spec.has_trumps:
        fail(f"--trump: {spec.title} has no trumps")
    try:
        return parse_suit(trump)
    except CardError as exc:
        fail(f"--trump: {exc}")


def _accept(game: str, players: int, notation: str | None, wheres: tuple[str, ...],
            predicate_file: str | None):
    """One predicate for every --where and the --predicate file."""
    predicates = []
    for text in wheres:
        try:
            predicates.append(parse_constraint(text, game, players, notation))
        except ConstraintError as exc:
            _where_error(text, exc)
    if predicate_file is not None:
        try:
            predicates.append(load_predicate(predicate_file))
        except ConstraintError as exc:
            fail(f"--predicate {exc}")
    return all_of(predicates)


def _where_error(text: str, exc: ConstraintError) -> None:
    """One line naming the bad part and where it starts; on a terminal the constraint with
    the bad part underlined follows it."""
    shown = repr(text) if len(text) <= 80 else repr(text[:77] + "...")
    at = f" (at character {exc.start + 1}: {text[exc.start:exc.end]!r:.40})" if exc.text else ""
    if on_terminal() and len(text) <= 200 and text.isprintable() and exc.text:
        click.echo(f"stich: --where {shown}: {exc}\n{exc.pointer()}", err=True)
        sys.exit(EXIT_INPUT)
    fail(f"--where {shown}: {exc}{at}")


def on_terminal() -> bool:
    return sys.stderr.isatty()


def _deal_out(stream, seed: int, count: int, out: Path | None, as_json: bool, records: list) -> None:
    """Write (or print) each deal as it is dealt; ``records`` holds what is finished."""
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    with progress_bar("dealing", quiet=count < 50, unit="deals") as bar:
        for dealt in stream:
            text = dealt.deal.dump()
            record = {"id": dealt.id, "seed": seed, "candidate": dealt.candidate,
                      "deal_seed": dealt.deal_seed, "file": None, "deal": text}
            if out is not None:
                path = out / f"{dealt.id}.toml"
                partial = path.with_name(path.name + ".part")    # Ctrl-C never leaves half a file
                partial.write_bytes(text.encode("utf-8"))
                partial.replace(path)
                record["file"] = str(path)
                if not as_json:
                    click.echo(str(path))
            elif not as_json:
                if records:
                    click.echo("")
                click.echo(f"# === {dealt.id} (seed {seed}, candidate {dealt.candidate}) ===")
                click.echo(text, nl=False)
            records.append(record)
            bar(len(records), count)

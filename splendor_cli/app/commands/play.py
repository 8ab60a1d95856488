"""Playing: `play` (a turn in the move notation) and its shortcuts `take`, `reserve`, `buy`,
`replenish`; `bot` (the bot seats' turns) and `hint` (a bot's suggestion, not played).

In a sealed game each step is decided on what the seat to move may know and signed by the local
key (the sealed protocol's part: sealing/command_line.py).
"""

from __future__ import annotations

import sys

from ...errors import IllegalMoveError, InvalidMoveError, SplendorError, UsageError, excerpt, safe
from ..output import json_text, out
from ..params import AS, GAME, JSON, MOVE, NOTIFY, Param, command
from ..services.gamefile import append, gate, load, views, writing

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from typing import Any

    from ...store import Loaded


_BOTS = Param("bots", "--bots", kind="flag", help="Then let the bot seats play, up to the next person.")
WHY = Param(
    "why",
    "--why",
    kind="flag",
    help="Also the bot's best moves (--top), each with its estimate of the mover's chance of winning and a reason.",
)
TOP = Param("top", "--top", kind="int", low=1, high=20, metavar="N", help="How many moves --why lists (default 3).")
FOR = Param(
    "for_",
    "--for",
    help="Play this player's turn for them on purpose (hot-seat, a turn relayed): recorded as played by you.",
)


@command("play", MOVE, GAME, AS, FOR, JSON, _BOTS, NOTIFY)
def play(
    *,
    move: list[str],
    game: str | None = None,
    as_: str | None = None,
    for_: str | None = None,
    json: bool = False,
    bots: bool = False,
    notify: bool = False,
) -> None:
    """Play a turn written in the move notation (see `splendor moves`) and append it to the file.

    In a Duel, play one step or several separated by ';': each is judged after the ones before it.

    If one is refused, none is written.

    Examples:

    splendor play take white blue green

    splendor play "buy 1-30 pay red gold"

    splendor play reserve deck 3 return black

    splendor play buy 2-14 noble N04

    splendor play "privilege c3; take b2 c2 d2"   (Duel)

    splendor play "buy 1-07 as red; royal R2"   (Duel)

    splendor play --bots take red green blue   (then the bots answer)

    splendor play --notify take red green blue   (then mail or post to the player to move)

    splendor play --for ann take red green blue   (ann's turn, played for her: the log says by whom)

    Who you are: your key (a sealed game), the player whose e-mail in the header is your git
    e-mail, $SPLENDOR_PLAYER; else --as (a hot-seat game). When that is known, --as someone else
    is refused, as is someone else's turn: say --for NAME to play NAME's turn on purpose.
    """
    from ...bots import seat_spec

    text = " ".join(move)
    door = gate()
    with writing(game) as loaded:
        variant = loaded.game.variant
        parsed = variant.parse_moves(text)
        if not parsed:
            raise InvalidMoveError(f"empty move {text!r}: no step to play (see `splendor moves`)")
        after = loaded
        secret = None
        by = ""
        from ..services.table_part import part

        table = part(loaded.game)
        seated = table.seat_to_play(loaded, as_, for_)  # a sealed game: the local key's seat, its shares owed
        if seated is None:
            as_, by = _seat(loaded, as_, for_)
        else:
            after, as_, secret = seated
        now = after.game.table
        if as_ is None and not now.finished and seat_spec(now.player.name):
            raise IllegalMoveError(
                f"it is {now.player.name}'s turn, a bot's: `splendor bot` plays it (or add --bots to your move)",
                rule="turn",
            )
        mover = as_ or (now.player.name if len(parsed) > 1 else None)
        for one in parsed:  # several steps: each judged after the ones before it, all one player's
            try:
                if secret is not None and as_ is not None:
                    after = table.before_step(after, as_, secret, one)
                event = after.game.decide(one, player=mover, by=by)  # judged once, here
                after = door.stage(after, event, secret=secret, decided=True)
            except SplendorError as exc:
                if len(parsed) > 1:  # say which of the steps was refused
                    exc.args = (f"{variant.format_move(one)!r}: {exc}",)
                raise
        if secret is not None and as_ is not None:
            after = table.settle(after, as_, secret)  # the shares owed after it, the keys at the end
        if bots:
            after = _bot_turns(after)
        after = _written(loaded, after)
    _report(loaded, after, json)
    if notify:
        from ..services.notices import notify_after

        for line in notify_after(after):
            sys.stderr.write(f"splendor: {safe(line)}\n")


def _written(loaded: Loaded, staged: Loaded) -> Loaded:
    """The events staged on `loaded` written through the gate, which computes a bot seat's move
    again (a file of format 3 on, bots/check.py): a person's move for a bot seat that is not its
    bot's is refused before anything is written.

    Raises:
        IllegalMoveError: rule `bot`, naming the bot's move (a move refused, not a damaged file).
    """
    from ...errors import CorruptLogError

    try:
        return append(loaded, staged=staged)
    except CorruptLogError as exc:
        if exc.seq <= loaded.game.seq:
            raise
        raise IllegalMoveError(str(exc), rule="bot") from None


def _seat(loaded: Loaded, as_: str | None, for_: str | None) -> tuple[str | None, str]:
    """In an open game, the seat whose turn a `play` plays, and who played it for them ("" when
    they did): `--for NAME` (played by whoever is at the keyboard, when known), else the person
    at the keyboard (players.at_keyboard), else None (nobody known: the player to move).

    Who is at the keyboard is known when the header's e-mails name the user's git e-mail, or
    $SPLENDOR_PLAYER names a player (players.known_player): then `--as` naming anyone else is
    refused, not taken as who you are (it is no way round the check of turns): `--for` plays
    another player's turn on purpose, recorded. Where nothing is known, `--as` says who you are.

    Raises:
        UsageError: --for names nobody who plays.
        IllegalMoveError: the person at the keyboard is known, and `--as` names someone else, or
            another player is to move (rule `turn`): naming both, and how to play for them on
            purpose.
    """
    from ...bots import seat_spec
    from ..services.players import at_keyboard, known_player

    if as_ and as_ not in loaded.record.header.players:
        return as_, ""  # nobody who plays: `decide` says so
    known, said = known_player(loaded)
    if known is not None and as_ and as_ != known:
        import os

        claim = "$SPLENDOR_PLAYER" if os.environ.get("SPLENDOR_PLAYER") == as_ else "--as"
        raise IllegalMoveError(
            f"you are {known} (says {said}), not {as_}: {claim} does not make you another player; to play"
            f" {as_}'s turn for them on purpose, say --for {as_} (it is recorded as played by {known})",
            rule="turn",
        )
    me, how = (known, said) if known is not None else at_keyboard(loaded, as_)
    now = loaded.game.table
    if for_:
        if seat_spec(for_):
            raise IllegalMoveError(f"{for_} is a bot seat: its bot plays its turns (`splendor bot`)", rule="turn")
        players = loaded.record.header.players
        if for_ not in players:
            raise UsageError(f"--for {excerpt(for_)}: no such player (players: {', '.join(players)})")
        return for_, (me if me and me != for_ else "")
    if me is None or now.finished or now.player.name == me:
        return me, ""
    mover = now.player.name
    if seat_spec(mover):
        raise IllegalMoveError(f"it is {mover}'s turn, a bot's, not {me}'s (you): `splendor bot` plays it", rule="turn")
    raise IllegalMoveError(
        f"it is {mover}'s turn, not {me}'s (you, says {how}): to play it for {mover} on purpose, say"
        f" --for {mover} (it is recorded as played by {me})",
        rule="turn",
    )


def _shortcut(action: str, words: list[str], **options: Any) -> None:
    """`play` with the action word said: every option of `play` (`--bots`, `--notify` too)."""
    play(move=[action, *words], **options)


@command(
    "take",
    Param("colours", kind="words", help="The colours, e.g. white blue green, or red red; in a Duel, cells: b2 c3 d4."),
    GAME,
    AS,
    FOR,
    JSON,
    _BOTS,
    NOTIFY,
)
def take(
    *,
    colours: list[str],
    game: str | None = None,
    as_: str | None = None,
    for_: str | None = None,
    json: bool = False,
    bots: bool = False,
    notify: bool = False,
) -> None:
    """Take 3 gems of different colours, or 2 of one colour (add 'return ...' past 10 tokens).

    In a Duel: take 1 to 3 tokens in a line of the board, named by their cells.

    Examples:

    splendor take white blue green

    splendor take b2 c3 d4   (Duel)
    """
    _shortcut("take", colours, game=game, as_=as_, for_=for_, json=json, bots=bots, notify=notify)


@command(
    "reserve",
    Param(
        "card",
        kind="words",
        help="A face-up card id (2-14), or 'deck N' for a blind reserve; in a Duel, then the gold's cell.",
    ),
    GAME,
    AS,
    FOR,
    JSON,
    _BOTS,
    NOTIFY,
)
def reserve(
    *,
    card: list[str],
    game: str | None = None,
    as_: str | None = None,
    for_: str | None = None,
    json: bool = False,
    bots: bool = False,
    notify: bool = False,
) -> None:
    """Reserve a face-up card or the top card of a deck, and take a gold if there is one.

    In a Duel, the gold is taken from the board: name its cell (unless only one gold is there).

    Examples:

    splendor reserve 2-14

    splendor reserve deck 3 return white

    splendor reserve 2-05 a1   (Duel)
    """
    _shortcut("reserve", card, game=game, as_=as_, for_=for_, json=json, bots=bots, notify=notify)


@command(
    "buy",
    Param("card", kind="words", help="A card id, face up or reserved; optionally 'pay ...'; in a Duel, 'as COLOUR'."),
    GAME,
    AS,
    FOR,
    JSON,
    _BOTS,
    NOTIFY,
)
def buy(
    *,
    card: list[str],
    game: str | None = None,
    as_: str | None = None,
    for_: str | None = None,
    json: bool = False,
    bots: bool = False,
    notify: bool = False,
) -> None:
    """Buy a face-up or reserved card (default payment: coloured tokens before gold).

    In a Duel, a card with a wild bonus says the colour it joins.

    Examples:

    splendor buy 2-14

    splendor buy 1-30 pay red gold

    splendor buy 1-27 as red   (Duel)
    """
    _shortcut("buy", card, game=game, as_=as_, for_=for_, json=json, bots=bots, notify=notify)


@command("replenish", GAME, AS, FOR, JSON, _BOTS, NOTIFY)
def replenish(
    *,
    game: str | None = None,
    as_: str | None = None,
    for_: str | None = None,
    json: bool = False,
    bots: bool = False,
    notify: bool = False,
) -> None:
    """Duel: replenish the board from the bag (your opponent takes a privilege).

    Example:

    splendor replenish -g games/duel.toml
    """
    _shortcut("replenish", [], game=game, as_=as_, for_=for_, json=json, bots=bots, notify=notify)


@command("bot", GAME, JSON, WHY, TOP)
def bot(*, game: str | None = None, json: bool = False, why: bool = False, top: int = 3) -> None:
    """Let the bot seats play: every turn (Duel: step) of a seat named bot:SPEC, up to the next person.

    Seat bots with `splendor new --players alice,bot:mcts,bot:greedy`.

    Bots: random, greedy, mcts (300 playouts a move), expert (the strongest: 400 iterations a move,
    800 at two players of base Splendor);
    mcts:N and expert:N for N playouts or iterations, mcts:Ns and expert:Ns for N seconds a move.

    Each bot draws from a source seeded by the game and the move number: the same file always gets the same moves.

    --why says, under each move, the bot's best moves there and why (as `hint --why`).

    Example:

    splendor bot -g games/friday.toml

    splendor bot --why
    """

    reasons: list[tuple[Loaded, str, Any, Any]] = []
    with writing(game) as loaded:
        after = _bot_turns(loaded, (reasons, top) if why else None)
        if after is not loaded:
            after = append(loaded, staged=after)
    if after is loaded and not json:
        now = loaded.game
        out(now.variant.whose_turn(now.state) + ("" if now.table.finished else ": not a bot seat, nothing to play"))
        return
    _report(loaded, after, json, reasons)


def _bot_turns(loaded: Loaded, why: tuple[list[Any], int] | None = None) -> Loaded:
    """`loaded` with every consecutive move of a bot seat staged, until a person is to move or the
    game ends. Each bot draws from a source seeded by the game and the event before its move, so
    the same file always gets the same moves. `why`: a list to which each move's table, seat,
    move and best options are added (`--why`), and how many options."""
    from ...bots import seat_spec

    door, after = gate(), loaded
    while not after.game.table.finished and (spec := seat_spec(after.game.table.player.name)):
        move = _suggest(after, spec)
        if why is not None:
            why[0].append((after, spec, move, _options(after, spec, move, why[1])))
        after = door.stage(after, after.game.decide(move), decided=True)
    return after


def _suggest(loaded: Loaded, spec: str) -> Any:
    """The move the bot of `spec` makes for the player to move. What it leaves to chance (a Duel's
    replenish) is drawn again by the log when the move is played."""
    from ...bots.check import seat_move
    from ..services.table_part import part

    game = loaded.game
    # the bot sees what the seat to move sees, no more (a sealed game's cards their key opens)
    state = part(game).view(game, game.state.player.name)
    # the file alone seeds it: every reader computes it again (the gate, as it writes it)
    return seat_move(game.variant, spec, state, loaded.record.header.game, game.seq)


@command(
    "hint",
    GAME,
    Param(
        "bot",
        "--bot",
        help="The bot asked: random, greedy, mcts, expert (the default), or with a budget: expert:N, expert:Ns.",
    ),
    JSON,
    WHY,
    TOP,
)
def hint(*, game: str | None = None, bot: str = "expert", json: bool = False, why: bool = False, top: int = 3) -> None:
    """Suggest a move to the player to move (what a bot would play), without playing it, and the
    command that plays it.

    --why lists the bot's best moves, its own first, each with the mover's chance of winning after
    it (expert: as its search estimates it; the other bots: as the model reads the position right
    after the move) and one reason: points, a noble, a card it denies an opponent, a card it makes
    affordable.

    Example:

    splendor hint -g games/friday.toml --bot greedy

    splendor hint --why   (expert's best three moves, and why)
    """
    from ...bots import parse_spec, seat_spec

    parse_spec(bot)
    from ..services.players import check_my_turn

    loaded = load(game)
    variant, state = loaded.game.variant, loaded.game.table
    if state.finished:
        raise IllegalMoveError("the game is over: no move to suggest", rule="game-over")
    check_my_turn(loaded, None, "hint")  # your key, your git e-mail: a hint is for the player to move
    move = _suggest(loaded, bot)
    text = variant.format_move(move)
    options = _options(loaded, bot, move, top) if why else ()
    mover = state.player.name
    if json:
        shown: dict[str, Any] = {"player": mover, "bot": bot, **variant.move_json(loaded.game.state, move)}
        if why:
            from ...bots.why import options_json

            shown["why"] = options_json(variant, loaded.game.state, options)
        out(json_text(shown))
        return
    where = f" -g {_quoted(game)}" if game else ""
    if seat_spec(mover):
        command = f"splendor bot{where}"  # a bot seat's turn: its bot plays it
    else:
        bots = " --bots" if any(seat_spec(p) for p in loaded.record.header.players) else ""
        command = f'splendor play{where}{bots} "{text}"'
    lines = [f"{mover}: {text}   (suggested by {bot}; play it with: {command})"]
    if why:
        lines += _why_lines(loaded, bot, mover, options)
    out("\n".join(lines))


def _quoted(path: str) -> str:
    """A game path as a shell reads it back (quoted only when it must be), made safe to print."""
    import shlex

    return safe(shlex.quote(path))


def _options(loaded: Loaded, spec: str, played: Any, top: int) -> Any:
    """The best `top` moves of the bot of `spec` for the player to move, `played` (its move) first
    (bots/why.py): seen as the seat sees the table, drawn from the source its move is drawn from."""
    from ...bots.check import seat_random
    from ...bots.why import best_moves
    from ..services.table_part import part

    game = loaded.game
    state = part(game).view(game, game.state.player.name)
    source = seat_random(loaded.record.header.game, game.seq)
    return best_moves(game.variant, spec, state, source, played, top=top)


def _why_lines(loaded: Loaded, spec: str, mover: str, options: Any) -> list[str]:
    """`--why` for a person: a heading, then one line a move: the chance, the move, the reason."""
    from ...bots import parse_spec

    variant = loaded.game.variant
    how = "as its search estimates it" if parse_spec(spec)[0] == "expert" else "as the position after it looks"
    lines = [f"{spec}'s best moves for {mover}, with {mover}'s chance of winning after each ({how}):"]
    texts = [variant.format_move(o.move) for o in options]
    width = max(len(t) for t in texts)
    for option, text in zip(options, texts):
        lines.append(f"  {round(100 * option.chance):>3}%  {text:<{width}}  {option.reason}")
    return lines


def _report(loaded: Loaded, after: Loaded, json: bool, why: list[Any] | None = None) -> None:
    """What `play` and `bot` print: the events added (JSON: the last one too), then whose turn:
    when a bot seat is to move, how its turn is played. `why` (`bot --why`): under each bot move,
    its best options."""
    from ...bots import seat_spec
    from ...events import actor
    from ...projection.log import event_notation

    views(after)  # bots ask for these next: answer them from the cache
    added = after.record.events[loaded.game.seq :]
    variant, now = after.game.variant, after.game.state
    explained = {before.game.seq + 1: (before, spec, options) for before, spec, _, options in why or ()}
    if json:
        from ...events.codec import event_to_dict

        last = added[-1] if added else None
        shown = {
            "seq": after.game.seq,
            "notation": event_notation(variant, last) if last else None,
            "event": event_to_dict(last) if last else None,
            "events": [event_to_dict(e) for e in added],
            "to_move": None if now.finished else now.player.name,
            "finished": now.finished,
            "winners": list(now.winners()),
            **variant.status(now),
        }
        if why is not None:
            from ...bots.why import options_json

            shown["why"] = [
                {"seq": seq, "player": before.game.table.player.name, "bot": spec}
                | {"moves": options_json(variant, before.game.state, options)}
                for seq, (before, spec, options) in explained.items()
            ]
        out(json_text(shown))
        return
    lines = []
    for e in added:
        lines.append(f"#{e.seq} {actor(e) or 'deal'}: {event_notation(variant, e)}")
        if e.seq in explained:
            before, spec, options = explained[e.seq]
            lines += ["  " + line for line in _why_lines(before, spec, before.game.table.player.name, options)]
    turn = variant.whose_turn(now)
    if not now.finished and seat_spec(after.game.table.player.name):
        turn += ": `splendor bot` plays its turn (or add --bots to your move)"
    lines.append(turn)
    out("\n".join(lines))

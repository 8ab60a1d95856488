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

    Who you are: --as, $SPLENDOR_PLAYER, your key (a sealed game), or the player whose e-mail in the
    header is your git e-mail. Someone else's turn is refused, unless you say --for NAME.
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
                f"it is {now.player.name}'s turn, a bot's: `splendor bot` plays it (or say --as {now.player.name})",
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

    Raises:
        UsageError: --for names nobody who plays.
        IllegalMoveError: the person at the keyboard is known, and another player is to move
            (rule `turn`): naming both, and how to play for them on purpose.
    """
    from ...bots import seat_spec
    from ..services.players import at_keyboard

    if as_ and as_ not in loaded.record.header.players:
        return as_, ""  # nobody who plays: `decide` says so
    me, how = at_keyboard(loaded, as_)
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
        f" --for {mover} (it is recorded as played by {me}); if you are {mover}, say --as {mover}",
        rule="turn",
    )


def _shortcut(action: str, words: list[str], game: str | None, as_: str | None, for_: str | None, json: bool) -> None:
    play(move=[action, *words], game=game, as_=as_, for_=for_, json=json)


@command(
    "take",
    Param("colours", kind="words", help="The colours, e.g. white blue green, or red red; in a Duel, cells: b2 c3 d4."),
    GAME,
    AS,
    FOR,
    JSON,
)
def take(
    *, colours: list[str], game: str | None = None, as_: str | None = None, for_: str | None = None, json: bool = False
) -> None:
    """Take 3 gems of different colours, or 2 of one colour (add 'return ...' past 10 tokens).

    In a Duel: take 1 to 3 tokens in a line of the board, named by their cells.

    Examples:

    splendor take white blue green

    splendor take b2 c3 d4   (Duel)
    """
    _shortcut("take", colours, game, as_, for_, json)


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
)
def reserve(
    *, card: list[str], game: str | None = None, as_: str | None = None, for_: str | None = None, json: bool = False
) -> None:
    """Reserve a face-up card or the top card of a deck, and take a gold if there is one.

    In a Duel, the gold is taken from the board: name its cell (unless only one gold is there).

    Examples:

    splendor reserve 2-14

    splendor reserve deck 3 return white

    splendor reserve 2-05 a1   (Duel)
    """
    _shortcut("reserve", card, game, as_, for_, json)


@command(
    "buy",
    Param("card", kind="words", help="A card id, face up or reserved; optionally 'pay ...'; in a Duel, 'as COLOUR'."),
    GAME,
    AS,
    FOR,
    JSON,
)
def buy(
    *, card: list[str], game: str | None = None, as_: str | None = None, for_: str | None = None, json: bool = False
) -> None:
    """Buy a face-up or reserved card (default payment: coloured tokens before gold).

    In a Duel, a card with a wild bonus says the colour it joins.

    Examples:

    splendor buy 2-14

    splendor buy 1-30 pay red gold

    splendor buy 1-27 as red   (Duel)
    """
    _shortcut("buy", card, game, as_, for_, json)


@command("replenish", GAME, AS, FOR, JSON)
def replenish(*, game: str | None = None, as_: str | None = None, for_: str | None = None, json: bool = False) -> None:
    """Duel: replenish the board from the bag (your opponent takes a privilege).

    Example:

    splendor replenish -g games/duel.toml
    """
    _shortcut("replenish", [], game, as_, for_, json)


@command("bot", GAME, JSON)
def bot(*, game: str | None = None, json: bool = False) -> None:
    """Let the bot seats play: every turn (Duel: step) of a seat named bot:SPEC, up to the next person.

    Seat bots with `splendor new --players alice,bot:mcts,bot:greedy`.

    Bots: random, greedy, mcts (300 playouts a move), expert (the strongest: 400 iterations a move);
    mcts:N and expert:N for N playouts or iterations, mcts:Ns and expert:Ns for N seconds a move.

    Each bot draws from a source seeded by the game and the move number: the same file always gets the same moves.

    Example:

    splendor bot -g games/friday.toml
    """

    with writing(game) as loaded:
        after = _bot_turns(loaded)
        if after is not loaded:
            after = append(loaded, staged=after)
    if after is loaded and not json:
        now = loaded.game
        out(now.variant.whose_turn(now.state) + ("" if now.table.finished else ": not a bot seat, nothing to play"))
        return
    _report(loaded, after, json)


def _bot_turns(loaded: Loaded) -> Loaded:
    """`loaded` with every consecutive move of a bot seat staged, until a person is to move or the
    game ends. Each bot draws from a source seeded by the game and the event before its move, so
    the same file always gets the same moves."""
    from ...bots import seat_spec

    door, after = gate(), loaded
    while not after.game.table.finished and (spec := seat_spec(after.game.table.player.name)):
        after = door.stage(after, after.game.decide(_suggest(after, spec)), decided=True)
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
)
def hint(*, game: str | None = None, bot: str = "expert", json: bool = False) -> None:
    """Suggest a move to the player to move (what a bot would play), without playing it.

    Example:

    splendor hint -g games/friday.toml --bot greedy
    """
    from ...bots import parse_spec

    parse_spec(bot)
    from ..services.players import check_my_turn

    loaded = load(game)
    variant, state = loaded.game.variant, loaded.game.table
    if state.finished:
        raise IllegalMoveError("the game is over: no move to suggest", rule="game-over")
    check_my_turn(loaded, None, "hint")  # your key, your git e-mail: a hint is for the player to move
    move = _suggest(loaded, bot)
    text = variant.format_move(move)
    if json:
        out(json_text({"player": state.player.name, "bot": bot, **variant.move_json(loaded.game.state, move)}))
    else:
        out(f'{state.player.name}: {text}   (suggested by {bot}; play it with: splendor play "{text}")')


def _report(loaded: Loaded, after: Loaded, json: bool) -> None:
    """What `play` and `bot` print: the events added (JSON: the last one too), then whose turn."""
    from ...events import actor
    from ...projection.log import event_notation

    views(after)  # bots ask for these next: answer them from the cache
    added = after.record.events[loaded.game.seq :]
    variant, now = after.game.variant, after.game.state
    if json:
        from ...events.codec import event_to_dict

        last = added[-1] if added else None
        out(
            json_text(
                {
                    "seq": after.game.seq,
                    "notation": event_notation(variant, last) if last else None,
                    "event": event_to_dict(last) if last else None,
                    "events": [event_to_dict(e) for e in added],
                    "to_move": None if now.finished else now.player.name,
                    "finished": now.finished,
                    "winners": list(now.winners()),
                    **variant.status(now),
                }
            )
        )
        return
    lines = [f"#{e.seq} {actor(e) or 'deal'}: {event_notation(variant, e)}" for e in added]
    lines.append(variant.whose_turn(now))
    out("\n".join(lines))

"""Going back: `undo` (an undo event appended: turns taken back, never erased), `resolve` (one
side of a forked game kept) and `forget` (what this user saw of a game, forgotten).
"""

from __future__ import annotations

import os

from ...errors import UsageError
from ..output import out
from ..params import GAME, JSON, Param, command
from ..services.gamefile import append, game_path, gate, locks, views, writing
from ..services.table_part import go_on_from

TYPE_CHECKING = False  # not `typing.TYPE_CHECKING`: importing typing costs more than the fast path
if TYPE_CHECKING:
    from ...forks import Fork
    from ...sharing.gitsync import Repo
    from ...store import Loaded


@command(
    "undo",
    GAME,
    Param("to", "--to", kind="int", low=1, metavar="SEQ", help="Go back to just after event SEQ."),
    Param(
        "turn",
        "--turn",
        kind="flag",
        help="Duel: take back the whole turn (the steps of the turn under way, or the last turn).",
    ),
    Param(
        "as_",
        "--as",
        envvar="SPLENDOR_PLAYER",
        metavar="NAME",
        help="Who asks for the undo ($SPLENDOR_PLAYER); default: your git e-mail in the header,"
        " else the player whose turn is taken back.",
    ),
    Param("force", "--force", kind="flag", help="An agreed rewind over other players' turns (recorded in the event)."),
    Param(
        "agree",
        "--agree",
        kind="flag",
        help="A sealed game: agree to another player's rewind to --to SEQ that takes back turns of yours.",
    ),
    JSON,
)
def undo(
    *,
    game: str | None = None,
    to: int | None = None,
    turn: bool = False,
    as_: str | None = None,
    force: bool = False,
    agree: bool = False,
    json: bool = False,
) -> None:
    """Take back the last turn (in a Duel, the last step) or every turn after event SEQ, by appending an undo event.

    The event records who asks: --as (or $SPLENDOR_PLAYER), else the player whose git e-mail
    (git config user.email) the header maps, else the player whose turns are taken back.

    A player may take back their own turns, and the bots' answers that followed them
    (a plain undo after `play --bots` takes back both).

    Taking back another player's turn needs --force, whoever asks: an agreed rewind, recorded in the event.

    Examples:

    splendor undo

    splendor undo --to 12

    splendor undo --turn

    splendor undo --to 12 --force --as bob

    In a sealed game, a rewind over other players' turns needs each one's consent first:

    splendor undo --to 12 --agree   (by each of them; then sync or mail it)
    """

    if turn and to is not None:
        raise UsageError("--turn and --to exclude each other")
    if agree and (to is None or force or turn):
        raise UsageError("--agree goes with --to SEQ alone: the rewind you agree to")
    with writing(game) as loaded:
        if turn:
            to = loaded.game.turn_start()
        from ..services.table_part import part

        as_ = part(loaded.game).asker(loaded, as_, agree)  # a sealed game's: the seat of the key that signs
        if agree:
            from ...sealing.events import RewindAgreed

            assert as_ is not None and to is not None
            agreed = RewindAgreed(player=as_, to=to)
            after = append(loaded, agreed)
            out(f"#{after.game.seq} {as_} agrees to a rewind to just after #{to}: whoever asks runs `undo --force`")
            return
        asker = as_ or _mapped_player(loaded)
        event = loaded.game.decide_undo(to=to, by=asker, forced=force)
        after = append(loaded, event)
    state_text, _ = views(after)
    if json:
        out(state_text)
    else:
        now = after.game
        out(f"#{now.seq} undo: back to just after #{event.to}; {now.variant.whose_turn(now.state)}")


def _mapped_player(loaded: Loaded) -> str:
    """The player whose e-mail in the header is the user's git e-mail; "" when none is."""
    from ..services.players import who_am_i

    header = loaded.record.header
    return who_am_i(header.players, header.emails, None, os.path.dirname(os.path.abspath(loaded.path))) or ""


@command(
    "resolve",
    Param("keep", "--keep", metavar="REF", help="The side to keep: its digest, its player, or ours/theirs."),
    GAME,
)
def resolve(*, keep: str, game: str | None = None) -> None:
    """Settle a forked game (two turns after one event, left by a merge): keep one side.

    Name the side by the digest the conflict shows for its first event (the same in every
    clone, whether git merged or rebased), by the player who made it, or as git's ours/theirs.

    Examples:

    splendor resolve --keep 17a3f0

    splendor resolve -g games/friday.toml --keep bob
    """
    from ... import store
    from ...forks import split_fork
    from ...sharing import gitmerge

    path = game_path(game)
    with store.locked(path, locks()):
        try:
            data = store.read_bytes(path)
        except OSError as exc:
            raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
        side, kept = gitmerge.resolve(data, keep)
        fork = split_fork(data)
        if fork is not None:
            _refuse_what_the_audit_refuses(path, data, fork, side)
        loaded = gate().replace(path, kept, read=data, agreed=True)  # an agreed choice between two branches
    go_on_from(loaded)
    lines = []
    if fork is not None:  # what the protocol loses with the other side
        from ..services.table_part import part

        lines = part(loaded.game).dropped_lines(fork, "theirs" if side == "ours" else "ours")
    if loaded.game.states:
        now = loaded.game.table
        where = "finished" if now.finished else now.player.name + " to move"
    else:
        where = loaded.game.protocol.stage() or "the deal under way"
    out(
        "\n".join(
            [
                f"kept {side} ({loaded.record.head[:6]}): {path} is a valid game again ({loaded.game.seq} events,"
                f" {where}); now `splendor sync` (or `git add {path}` and commit)",
                *lines,
            ]
        )
    )


def _refuse_what_the_audit_refuses(path: str, data: bytes, fork: Fork, side: str) -> None:
    """During a merge (the fork git's merge left), refuse to keep `side` when the audit
    (`verify --git`) would refuse the merge that keeps it, naming the side it would take: the
    same rules (sharing/sync.py `keep_refusals`), so that a settled fork is always pushed.

    Raises:
        IllegalMoveError: the audit would refuse it; the file is left as it is.
    """
    from ...errors import IllegalMoveError, safe
    from ...sharing import gitsync
    from ...sharing.sync import keep_refusals

    try:
        repo = gitsync.locate(path)
    except UsageError:
        return  # no repository: nothing to audit
    refusals = keep_refusals(repo, repo.rel, data)
    if refusals is None:
        refusals = _sealed_refusals(repo, data)
    if refusals is None or refusals[side] is None:
        return
    other = "theirs" if side == "ours" else "ours"
    if refusals[other] is None:
        advice = f"keep the other side: `splendor resolve --keep {fork.label(other)}`, then `splendor sync`"
    else:
        advice = "the audit refuses the other side too: ask the players whose moves they are to settle it"
    raise IllegalMoveError(
        safe(
            f"{path}: keeping {fork.label(side)} ({side}) makes a merge the audit refuses"
            f" ({refusals[side]}): {advice}; the file is unchanged"
        )
    )


def _sealed_refusals(repo: Repo, data: bytes) -> dict[str, str | None] | None:
    """For the forked sealed game `data` of the merge under way, why the audit would refuse the
    merge that keeps each side ("ours", "theirs"; None: it would take it): it leaves out a branch
    that is not all one player's, or whose player is not this user's key (only they may withdraw
    it, by the signed consent that sync writes for them, sharing/withdrawals.py). None when no
    merge is under way or the game is not sealed."""
    from ...forks import SIDES
    from ...sealing.command_line import local_key
    from ...sharing import gitmerge, gitsync
    from ...sharing.withdrawals import withdrawals

    if gitsync.under_way(repo) != "merge":
        return None
    parents = [got for rev in ("HEAD", "MERGE_HEAD") if (got := gitsync.committed(repo, rev, rel=repo.rel))]
    secret = local_key(required=False)
    signing = None if secret is None else secret.public.signing
    refusals: dict[str, str | None] = {}
    sealed = False
    for side in SIDES:
        refusals[side] = None
        for left in withdrawals(parents, gitmerge.resolve(data, side)[1]):
            sealed = True
            seat = next((name for name, key in left.sealing.keys.items() if key.signing == signing), None)
            if left.fault is not None:
                refusals[side] = f"it leaves out {left.listed}: {left.fault}"
            elif seat != left.player:
                mine = f"your key plays {seat}" if seat else "your key plays no seat of it"
                refusals[side] = (
                    f"it leaves out {left.listed}, which only {left.player} may withdraw in a {left.kind} game ({mine})"
                )
    return refusals if sealed else None


@command("forget", GAME)
def forget(*, game: str | None = None) -> None:
    """Forget what you saw of a game, so that its next copy is taken as it is.

    splendor refuses a copy of a game whose earlier events are not those you saw (an earlier
    turn rewritten). When all the players agree to such a copy, forget the old one first.

    Example:

    splendor forget -g games/friday.toml
    """
    loaded = gate().forget(game_path(game))
    go_on_from(loaded)
    out(f"forgot what you saw of game {loaded.record.header.game}; {loaded.path} is what you know of it now")

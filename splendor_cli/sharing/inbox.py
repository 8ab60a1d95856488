"""Taking mail in, as a service of the sharing floor: the move blocks and whole game files of one
mail, a Maildir or an mbox, applied to the game files they are for (`take_in`, `apply_mail`),
every event through the user's gate; `splendor apply` and `splendor watch` only say what it said.

What it needs of the user's machine (their gate, their sealed games' part, git commits, the mails
read before, where to say things) comes in as `Desk`, as sync's does as `sync.Local`: this module
reads no environment and prints nothing itself.

For each game it knows (the game files under a folder, by the id in their header, and one more
file) it applies every new block in order of seq, once (a block applied already is a no-op); a
mail that carries a whole game file (the first mail of a game) creates `<folder>/<id>.toml` after
replaying it. Every block is tried on its own, and is dealt with (applied, applied already, or
refused for good: damaged, illegal, stale, or written into the file as a fork) or waits: for the
turns before it, for a game not here yet (at most `MAX_WAITING_GAMES` games a mail), or, when its
game could not be opened or forked meanwhile, for the next run. A mail is remembered as read once
every block of it was dealt with; until then, the blocks dealt with are remembered (a fork is
never written twice) and the mail is read again (one that waits only for games not here, only
once one of them is here). Failures are raised at the end, the first one, after every game was
done, so that the exit code says it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import GameFileError, SplendorError, StaleBlockError, UsageError, excerpt
from .applying import Applied, apply_blocks, forked_file
from .intake import Mail, Tally, Whole, count, take_game, take_mail
from .mail_desk import Desk, MailForked, Memo, ReadBefore, write_fork

if TYPE_CHECKING:
    from .mailbox import RawMessage

__all__ = [
    "Applied",
    "Desk",
    "MailForked",
    "ReadBefore",
    "apply_blocks",
    "apply_mail",
    "forked_file",
    "take_in",
    "write_fork",
]

MAX_WAITING_GAMES = 8
"""The most games not here that the blocks of one mail wait for; its blocks for more games are
dropped, and one line says so (a mail of blocks for thousands of unknown games is one line)."""
_MAX_SAID = 20
"""The most games not here named, a line each, in one run; one more line counts the rest."""


def apply_mail(desk: Desk, path: str, data: bytes) -> None:
    """The blocks of one mail onto one game file, all or none (what `apply MAIL` always did); a
    race of protocol steps against a move settles by its rule (`mail_desk.write_fork`)."""
    from .mail import find_blocks

    notes: list[str] = []
    with desk.gate.writing(path, behind_ok=True) as loaded:  # a copy behind what you saw: apply brings it up to date
        blocks = find_blocks(data, loaded.game.variant, notes)
        desk.note(*notes)
        try:
            outcome = apply_blocks(loaded.record, loaded.game, blocks)
        except StaleBlockError as exc:
            settled = None if exc.missing else write_fork(desk, loaded, blocks)
            if settled is None:
                raise
            said, changed, loaded = [settled.message], settled.loaded is not loaded, settled.loaded
        else:
            said, changed = outcome.message.splitlines(), bool(outcome.events)
            if changed:
                loaded = desk.add(loaded, outcome.events)
    desk.say(*said)
    if changed:
        desk.changed(loaded)


def peek_id(path: str) -> str:
    """The game id a file's header gives, read from its first lines ("" when none is seen)."""
    from .. import store

    try:
        head = store.read_bytes(path, 8192, head=True)
    except (OSError, GameFileError):
        return ""
    return id_in(head)


def id_in(data: bytes) -> str:
    """The game id in the header of a game file's bytes ("" when none is seen)."""
    import re

    found = re.search(rb'(?m)^game = "([^"\\\n]{1,100})"', data[:8192].split(b"\n[[events]]", 1)[0])
    return found.group(1).decode("utf-8", "replace") if found else ""


def same_game(path: str, games: Sequence[str]) -> None:
    """-g names a game file: the mail must be for its game (a mail of another game is refused,
    rather than taken in elsewhere beside the file named)."""
    mine = peek_id(path)
    others = [gid for gid in dict.fromkeys(games) if gid]
    if mine and others and mine not in others:
        raise UsageError(
            f"the mail is for game {excerpt(others[0])}, but {path} is game {excerpt(mine)}:"
            " give that game's file with -g, or leave -g out to take the mail in under --dir"
        )


_MAX_GAMES = 10_000
"""The most game files looked at under --dir."""


def known_games(folder: str | None, game: str | None) -> tuple[dict[str, str], list[str]]:
    """The game files under `folder` (none: not looked at) and `game`, by the id in their header;
    notes on doubles."""
    known: dict[str, str] = {}
    notes: list[str] = []
    paths: list[str] = []
    if game is not None:
        paths.append(game)
    for root, dirs, files in os.walk(folder, followlinks=False) if folder is not None else ():
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        paths += [os.path.join(root, name) for name in sorted(files) if name.endswith(".toml")]
        if len(paths) > _MAX_GAMES:
            notes.append(f"more than {_MAX_GAMES} files under {folder}: the rest not looked at")
            break
    for path in paths:
        found = peek_id(path)
        if not found:
            continue
        if found in known and os.path.realpath(known[found]) != os.path.realpath(path):
            notes.append(f"game {found} is in {known[found]} and in {path}: {known[found]} is used")
            continue
        known.setdefault(found, path)
    return known, notes


def take_in(
    desk: Desk,
    messages: Sequence[RawMessage],
    *,
    extra: str | None,
    new_path: str | None,
    folder: str,
    strict: bool,
) -> None:
    """Every block and whole game file of `messages`, game by game (see the module docstring).

    `extra` is a game file known besides those of `folder` (-g); `new_path` is where a game mailed
    whole is created (-g naming a missing file: then, for one mail, the games of `folder` are
    not looked at), else `folder/<id>.toml`.
    `strict` (one mail given): a block for a game not here is an error (exit 2), not a note, and
    nothing is remembered. A failure (a damaged block, a stale one, an illegal move) stops only
    its block; the first is raised at the end, after every game was done, so that the exit code
    says it.
    """
    known, notes = known_games(None if strict and new_path else folder, extra)
    desk.say(*(f"note: {note}" for note in notes))
    tally = Tally(desk.say)
    memory = desk.read_before if not strict else None
    now: list[Mail] = []
    later: list[Mail] = []  # mails that wait only for games not here: read once one of them is
    read = 0
    for message in messages:
        memo = Memo.of(memory.recall(message.data)) if memory is not None else None
        if memo is not None and memo.read:
            read += 1
            continue
        mail = Mail(message, before=memo, done=set(memo.done) if memo is not None else set())
        (later if memo is not None and not memo.again else now).append(mail)
    if read:
        desk.say(f"{count(read, 'message')} read before, not read again")
    for mail in now:
        take_mail(desk, mail, tally, strict=strict)
    here = {*known, *(gid for mail in now for gid in mail.wholes)}
    waiting = 0
    for mail in later:
        if mail.before is not None and not mail.before.games & here:
            waiting += 1
            continue
        take_mail(desk, mail, tally, strict=strict)
        now.append(mail)
    if waiting:
        desk.say(f"{count(waiting, 'message')} waiting for games not here, not read again (until one is here)")
    here |= {gid for mail in now for gid in mail.wholes}
    _hold(desk, now, here, tally)
    holding: dict[str, list[Mail]] = {}
    carried: dict[str, list[tuple[Mail, Whole]]] = {}
    for mail in now:
        for gid in mail.games():
            holding.setdefault(gid, []).append(mail)
        for gid, found in mail.wholes.items():
            carried.setdefault(gid, []).extend((mail, whole) for whole in found)
    said = 0
    for gid in sorted({*holding, *carried}):
        holders = holding.get(gid, [])
        path = known.get(gid)
        wholes = carried.get(gid, [])
        if path is None and not wholes:
            where = ", ".join(sorted({mail.message.label for mail in holders})[:3])
            if strict:
                tally.fail(where, UsageError(f"a move block for game {excerpt(gid)}, which is not in {folder}/ nor -g"))
                continue
            tally.skipped += 1
            for mail in holders:
                mail.waits.add(gid)
            said += 1
            if said <= _MAX_SAID:
                desk.say(f"skipped: {where}: a move block for game {gid}, which is not in {folder}/ (nor -g): it waits")
            continue
        if path is None:
            try:
                path = _create(desk, gid, wholes[0][1], folder=folder, path=new_path)
            except SplendorError as exc:  # the game stays not here: its blocks wait for it
                tally.fail(gid, exc)
                for mail, whole in wholes:
                    mail.done.add(whole.key)
                for mail in holders:
                    mail.waits.add(gid)
                continue
            new_path = None
            known[gid] = path
        try:
            take_game(desk, path, gid, holders, wholes, tally=tally)
        except SplendorError as exc:  # the game could not be opened: all of it waits for the next run
            tally.fail(gid, exc)
            for mail in holders:
                mail.again = True
    if said > _MAX_SAID:
        desk.say(f"skipped: move blocks for {said - _MAX_SAID} more games not here (they wait too)")
    if memory is not None:
        for mail in now:
            memory.keep(mail.message.data, mail.memo().text())
    desk.say(tally.summary(len(messages)))
    if tally.failures:
        first = tally.failures[0]
        if len(tally.failures) > 1:
            first.args = (f"{first} (and {len(tally.failures) - 1} more failures: see above)",)
        raise first


def _hold(desk: Desk, mails: Sequence[Mail], here: set[str], tally: Tally) -> None:
    """The blocks of each mail for games not `here` wait for at most `MAX_WAITING_GAMES` games
    (those it waited for before first, then in the order of the mail); the rest, and blocks for
    no possible game (a bad game id), are dropped, in one line a mail."""
    from ..events.codec import game_id_problem

    for mail in mails:
        kept = {gid for gid in mail.before.games if gid not in here} if mail.before is not None else set()
        dropped: list[str] = []
        for gid in mail.games():
            if gid in here or gid in kept:
                continue
            if len(kept) < MAX_WAITING_GAMES and not game_id_problem(gid):
                kept.add(gid)
            else:
                dropped.append(gid)
        if dropped:
            mail.drop(set(dropped))
            tally.skipped += len(dropped)
            desk.say(
                f"skipped: {mail.message.label}: move blocks for {len(dropped)} more games not here, dropped"
                f" (those of at most {MAX_WAITING_GAMES} games a mail wait)"
            )


_SAFE_ID = r"[A-Za-z0-9][A-Za-z0-9_.@+-]{0,99}"
"""A game id that may name a file anywhere (no `:` nor `#`), without `..`."""


def _create(desk: Desk, gid: str, whole: Whole, *, folder: str, path: str | None) -> str:
    """Create the game that a mail carried whole, at `path` when given, else `folder/<id>.toml`;
    the setup only (the rest is appended as turns, see `intake.take_game`)."""
    import re

    label, loaded = whole.label, whole.loaded
    if path is None:
        if not re.fullmatch(_SAFE_ID, gid) or ".." in gid:
            raise UsageError(f"{label}: the game id {excerpt(gid)} cannot name a file: create it yourself with -g FILE")
        path = os.path.join(folder, f"{gid}.toml")
        if os.path.lexists(path):
            raise UsageError(f"{path} exists and is not game {gid}: create it elsewhere with -g FILE")
    created = desk.gate.create(path, loaded.record.header, loaded.record.events[0])
    desk.say(f"created {path}: game {gid} ({', '.join(loaded.record.header.players)}), from {label}")
    if desk.commit is not None:
        desk.commit(created)
    return path

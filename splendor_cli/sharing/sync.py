"""`splendor sync` as a service of the sharing floor: commit my new turns, fetch, merge by events,
write my part of each sealed game, audit, push, and say what happened (`SyncResult`); the
command (app/commands/syncing.py) only prints it.

What sync needs of the user's machine (their cache of verified games and audit marks, their key,
their sealed game's part, the picture of a table) comes in as `Local`, a set of functions the
command line gives it: this module reads no environment and prints nothing. Git runs through
gitsync (and so `git.Git`).

Each game file is parsed and replayed once per sync (`Reads`): a file that still holds the same
bytes is not read again, one that grew (a merge that fast-forwarded, my part appended) is read
by its new events alone, and the audit before the push starts from the versions read here
(the commits before them too: `checker.folded`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

import attrs

from ..errors import ConflictError, ForkError, GameFileError, SplendorError, safe
from . import gitsync, rewritten
from .gitsync import Made, Repo, Upstream

if TYPE_CHECKING:
    from ..crypto.keys import SecretKey
    from ..events.codec import Record
    from ..forks import Fork
    from ..gate import Gate
    from ..store import Loaded
    from .versions import Trusted
    from .withdrawals import Withdrawal


class AuditMarks(Protocol):
    """Where the mark of each game file's last good audit is kept (the user's own cache)."""

    def get(self, path: str, up: Upstream) -> str | None: ...

    def put(self, path: str, up: Upstream, mark: str) -> None: ...


@attrs.frozen(kw_only=True)
class Local:
    """What sync asks of the user's machine (the command line gives each)."""

    gate: Gate
    """The user's gate (splendor_cli/gate/): every history fetched is audited by it before it is
    merged, every file sync writes is written through it, every copy it reads judged by it."""
    write_part: Callable[[Loaded, str | None], Loaded]
    """Write the local player's part of a sealed game; the game after it (`seal.write_part`)."""
    key: Callable[[], SecretKey | None]
    """The local player's key, if any (`sealed.local_key`)."""
    marks: AuditMarks
    picture: Callable[[Loaded], bytes] | None = None
    """The picture of a game's table (SVG); None: no pictures are kept."""


class AuditRefused(GameFileError):
    """The history of a game file breaks the audit (`verify --git`): nothing was pushed.
    `details` is the audit's report, for a person; `commit`, the first bad commit; `path`, the
    game file; `undone`, the merge commit of sync's own that it undid (see `exchange`), if any."""

    def __init__(
        self, message: str, *, details: str, commit: str | None = None, path: str = "", undone: str | None = None
    ) -> None:
        super().__init__(message)
        self.details = details
        self.commit = commit
        self.path = path
        self.undone = undone


@attrs.frozen(kw_only=True)
class GameSynced:
    """One game after the sync: as read last, who I am in it, how far I had seen it."""

    loaded: Loaded
    me: str | None
    seen: int
    """The last event I had seen before this sync (my committed turns not counted as news)."""
    shared: bool
    """Whether this sync committed turns of it (its next player may be notified)."""


@attrs.frozen(kw_only=True)
class SyncResult:
    """What a sync did: the commits it made, what the merges said, where it pushed, the pictures
    it drew, and each game as it is now."""

    made: tuple[Made, ...] = ()
    merged: tuple[str, ...] = ()
    """What the merge driver said, a line per game file merged (safe to print)."""
    upstream: Upstream | None = None
    offline: bool = False
    pushed: bool = False
    drawn: tuple[str, ...] = ()
    games: tuple[GameSynced, ...] = ()

    @property
    def remote(self) -> str | None:
        return f"{self.upstream.remote}/{self.upstream.branch}" if self.upstream else None


def sync(
    repo: Repo,
    games: Callable[[], list[str]],
    me: Callable[[Loaded, str], str | None],
    *,
    local: Local,
    offline: bool = False,
    file: str | None = None,
) -> SyncResult:
    """Sync the game files `games()` lists (asked again after each fetch: a game may arrive) in `repo`.

    `me(loaded, path)` says who the local player is in a game (None: a spectator); `file`, the
    game file given on the command line (in `repo`).

    Raises:
        ConflictError: a rebase (or the like) is under way, a merge stopped on conflicts, or the
            remote took none of the pushes.
        ForkError: a game forked (both sides played): `splendor resolve`, then sync again.
        AuditRefused: a history breaks the audit: nothing pushed; or the remote no longer holds
            the commit sync audited there last (`rewritten.vanished`): nothing merged.
        UsageError: git failed (the remote unreachable...).
    """
    from .. import store

    read = Reads(local.gate.trusted)
    if file:
        read.repos[file] = repo
    state = gitsync.under_way(repo)
    if state == "merge":
        settle_merge(repo, games(), local)
    elif state is not None:
        raise ConflictError(
            f"a {state} is under way in {repo.top} (not sync's: sync never rebases): finish it"
            f" (`git {state} --continue`, after `splendor resolve` for a forked game) or abort it"
            f" (`git {state} --abort`), then `splendor sync`"
        )
    made: list[Made] = []
    shared: set[str] = set()
    seen: dict[str, int] = {}
    mine: dict[str, str | None] = {}
    for path in games():
        if path == file and not os.path.lexists(path):
            continue  # `sync -g games/new.toml` before the game arrived: the fetch brings it
        with store.locked(path, local.gate.locks):
            before = read(path)  # a clone behind is no news: what you saw is checked later
            mine[before.record.header.game] = me(before, path)
            done = gitsync.commit_turns(read.repo(path), before)
        made += done
        if done:
            shared.add(before.record.header.game)
        seen[before.record.header.game] = before.game.seq - sum(m.last - m.first + 1 for m in done)

    def who(loaded: Loaded, path: str) -> str | None:  # games new here too (fetched, or made meanwhile)
        gid = loaded.record.header.game
        if gid not in mine:
            mine[gid] = me(loaded, path)
        return mine[gid]

    up = None if offline else gitsync.upstream(repo)
    merged: list[gitsync.Merged] = []
    drawn: list[str] = []
    if up is not None:
        pushed = exchange(repo, up, games, local, read, merged, drawn, who)
    else:
        pushed = False
        commit_sealed_parts(games(), who, local, read)  # offline: a sealed game's part, committed here
        if local.picture is not None:
            drawn += draw(repo, games(), local.picture, read)
    if file and not os.path.lexists(file):
        where = f"here nor in {up.remote}/{up.branch}" if up is not None else "here (and no remote to fetch it from)"
        raise GameFileError(f"{file}: no such game file, {where}" + (" (offline: nothing fetched)" if offline else ""))
    synced = []
    for path in games():
        after = read(path)
        gid = after.record.header.game
        synced.append(GameSynced(loaded=after, me=who(after, path), seen=seen.get(gid, 1), shared=gid in shared))
    return SyncResult(
        made=tuple(made),
        merged=tuple(safe(line) for m in merged for line in m.said),
        upstream=up,
        offline=offline,
        pushed=pushed,
        drawn=tuple(drawn),
        games=tuple(synced),
    )


# -- reading each file once ----------------------------------------------------------------------


class Reads:
    """The game files this sync read (or wrote), each as it was then: a file that still holds the
    same bytes is not parsed and replayed again (nothing but its bytes is read), one that grew is
    read by its new events alone, and the audit before the push starts from the versions known
    here (`audit.audit`'s `known`)."""

    def __init__(self, trusted: Trusted | None = None) -> None:
        self.trusted = trusted
        self.last: dict[str, Loaded] = {}
        self.known: dict[str, list[Loaded]] = {}
        self.repos: dict[str, Repo] = {}

    def repo(self, path: str) -> Repo:
        """`gitsync.locate(path)`, asked of git once per sync."""
        if path not in self.repos:
            self.repos[path] = gitsync.locate(path)
        return self.repos[path]

    def __call__(self, path: str) -> Loaded:
        """The game at `path`, as `store.read` reads it (with the verified prefix)."""
        from .. import store

        last = self.last.get(path)
        if last is not None:
            try:
                data = store.read_bytes(path)
            except (OSError, GameFileError):
                data = None
            if data == last.data:
                return last
            if data is not None and data.startswith(last.data):  # a fast-forward: the new events alone
                from .versions import extend_read

                try:
                    record, game = extend_read(last, data, self.trusted)
                except SplendorError:
                    pass  # store.read says why, naming the file
                else:
                    loaded = store.Loaded(path=path, data=data, record=record, game=game)
                    self.wrote(loaded)
                    return loaded
        loaded = store.read(path, self.trusted)
        self.wrote(loaded)
        return loaded

    def wrote(self, loaded: Loaded) -> None:
        """`loaded` is what the file at its path holds now."""
        self.last[loaded.path] = loaded
        self.known.setdefault(loaded.path, []).append(loaded)


def trusting(read: Sequence[Loaded], verified: Trusted | None = None) -> Callable[[Record], int]:
    """How many of a sealed game's first events this user verified: before (`verified`, the
    cache's), or in this process, reading the games `read` (each as `store.read` reads it);
    compared by the events' full digests, from the first on. 0 for an open game."""
    from ..sealing.events import SealedAsked

    def trusted(record: Record) -> int:
        most = verified(record) if verified is not None else 0
        if not most and (not record.events or not isinstance(record.events[0], SealedAsked)):
            return 0
        digests = record.digests
        for loaded in read:
            if loaded.record.header != record.header:
                continue
            count = 0
            for mine, theirs in zip(loaded.record.digests, digests):
                if mine != theirs:
                    break
                count += 1
            most = max(most, count)
        return most

    return trusted


# -- fetch, merge, push --------------------------------------------------------------------------


def exchange(
    repo: Repo,
    up: Upstream,
    games: Callable[[], list[str]],
    local: Local,
    read: Reads,
    merged: list[gitsync.Merged],
    drawn: list[str],
    who: Callable[[Loaded, str], str | None],
) -> bool:
    """Fetch, merge and push until the push is taken (or nothing is left to push); whether it pushed.
    After the fetch (and merge), the local player's part of each sealed game (`who` says who
    they are in a game) is written and committed: written before it, a part that others owe at
    the same time (joins, shares) would fork the game."""
    for attempt in range(gitsync.PUSH_TRIES):
        if attempt:  # another push went first, or was under way: leave it time to finish
            import random
            import time

            time.sleep(random.uniform(0.05, 0.2) * 2**attempt)
        if gitsync.fetch(repo, up):
            lost = rewritten.vanished(repo, up, present(games()), local.gate, read)
            if lost is not None:  # a force-push over what was audited: nothing merged, nothing remembered
                raise AuditRefused(lost.line(), details=lost.details(), path=lost.path)
            audit_fetched(repo, up, present(games()), local, read)  # nothing is merged that the audit refuses
            result = gitsync.merge(repo, up)
            merged.append(result)
            if result.conflict:
                _stopped(repo)
            rewritten.remember(repo, up, games(), local.gate, read, up.ref)  # its history passed the audit
        here = present(games())
        commit_sealed_parts(here, who, local, read)
        if local.picture is not None:
            drawn += draw(repo, here, local.picture, read)
        if gitsync.ahead(repo, up) == 0:
            return False
        try:
            audit([str(p) for p in here], up, local, read)
        except AuditRefused as exc:
            undone = gitsync.undo_own_merge(repo, exc.commit)
            if undone is None:
                raise
            raise AuditRefused(
                f"{exc}; sync undid its merge {undone[:8]} (made here, never pushed), which the audit refuses:"
                " your branch is back where it was before that merge; run `splendor sync` again (it stops at"
                " the fork, and `splendor resolve --keep` takes only the side the audit accepts)",
                details=exc.details,
                commit=exc.commit,
                path=exc.path,
                undone=undone,
            ) from None
        if gitsync.push(repo, up):
            rewritten.remember(repo, up, here, local.gate, read, "HEAD")  # audited before the push
            return True
    raise ConflictError(
        f"{up.remote} took none of {gitsync.PUSH_TRIES} pushes (others keep pushing first): run `splendor sync` again"
    )


def fork_refused(repo: Repo, rel: str, exc: ForkError) -> ForkError:
    """The error of a merge that stopped on the forked game file at `rel`: the fork described
    with the one `splendor resolve --keep` the audit accepts from this user when it refuses the
    other side (`keep_refusals`: never a fix that would be refused), then sync again."""
    from .. import store
    from ..forks import describe_fork, split_fork

    message = str(exc)
    try:
        data = store.read_bytes(repo.top / rel)
        fork = split_fork(data)
        refusals = keep_refusals(repo, rel, data) if fork is not None else None
    except (OSError, SplendorError):
        fork = refusals = None
    good = [side for side, fault in refusals.items() if fault is None] if refusals is not None else []
    if fork is not None and len(good) == 1:
        message = f"{rel}: {describe_fork(fork, only=good[0])}"
    return ForkError(f"{message}; then `splendor sync` again", seq=exc.seq)


def present(paths: list[str]) -> list[str]:
    """The game files of `paths` that exist (one named with -g may not have arrived yet)."""
    return [path for path in paths if os.path.lexists(path)]


def _stopped(repo: Repo) -> None:
    """A merge stopped on conflicts: a forked game says so (ForkError), else the paths in conflict."""
    from .. import store

    for rel in gitsync.unmerged(repo):
        try:
            store.read(repo.top / rel)
        except ForkError as exc:
            raise fork_refused(repo, rel, exc) from None
        except SplendorError:
            pass
    raise ConflictError(
        "the merge stopped on conflicts outside the game file"
        f" ({', '.join(gitsync.unmerged(repo)[:5])}): settle them (`git status`), then `splendor sync`"
    )


def commit_sealed_parts(paths: list[str], who: Callable[[Loaded, str], str | None], local: Local, read: Reads) -> None:
    """The local player's part of each sealed game (`Local.write_part`), committed."""
    from .. import store

    for path in paths:
        with store.locked(path, local.gate.locks):
            loaded = read(path)
            if not loaded.game.protocol.duties:
                continue
            local.gate.admit(loaded, behind_ok=True)  # judged, and what the audit before the push need not check again
            after = local.write_part(loaded, who(loaded, path))
            if after is not loaded:
                read.wrote(after)
                gitsync.commit_turns(read.repo(path), after)


def draw(repo: Repo, paths: list[str], picture: Callable[[Loaded], bytes], read: Reads) -> list[str]:
    """Write the picture of each game's table beside it (`friday.toml` -> `friday.svg`) and commit
    each that changed, on its own; the pictures it committed."""
    from .. import store
    from ..errors import UsageError

    done = []
    for path in paths:
        loaded = read(path)
        if not loaded.game.states:
            continue
        game = loaded.game
        svg = picture(loaded)
        target = os.path.splitext(path)[0] + ".svg"
        rel = gitsync.locate(target).rel
        if gitsync.committed(repo, rel=rel) == svg:
            continue
        if os.path.islink(target):
            raise UsageError(f"{target} is a symbolic link: the picture is not written through it")
        store.write_atomic(target, svg, exclusive=not os.path.lexists(target))
        gitsync.commit_file(repo, rel, svg, f"{game.variant.title}: the table after event #{game.seq} ({rel})")
        done.append(target)
    return done


def audit_fetched(repo: Repo, up: Upstream, paths: list[str], local: Local, read: Reads) -> None:
    """`verify --git` of the upstream's history of each game file of `paths` that it changed, and
    of each game file it adds beside them (or under games/), before it is merged: a fetched
    history that breaks the audit is never merged (a fast-forward with nothing to push included),
    nor is anything written.

    Raises:
        AuditRefused: naming the file and the first bad commit; nothing merged, nothing pushed.
    """
    from .mail import looks_like_game

    here = {os.path.realpath(path): path for path in paths}
    folders = sorted({os.path.dirname(gitsync.locate(path).rel) or "." for path in paths} | {"games"})
    for rel in gitsync.arriving(repo, up.ref, folders):  # a game new to this clone is audited too
        path = str(repo.top / rel)
        new = os.path.realpath(path) not in here and os.path.isdir(os.path.dirname(path))
        if new and looks_like_game(gitsync.committed(repo, up.ref, rel=rel) or b""):
            here[os.path.realpath(path)] = path
    for path in here.values():
        rel = gitsync.locate(path).rel
        theirs = gitsync.committed(repo, up.ref, rel=rel)
        if theirs is None or theirs == gitsync.committed(repo, "HEAD", rel=rel):
            continue  # the upstream has no new version of it
        audit_one(path, up, local, read, fetched=True)


def audit_one(path: str, up: Upstream, local: Local, read: Reads | None, *, fetched: bool = False) -> None:
    """`verify --git` of the game file at `path`: of HEAD's history (what a push would send), or
    (`fetched`) of the upstream's (what a merge would take in); from the file's mark on, which
    moves only after a good audit.

    Raises:
        AuditRefused: naming the file and the first bad commit.
    """
    from .git_audit import git_report_text

    known = read.known.get(path, []) if read is not None else []
    report = local.gate.audit(
        path,
        tip=up.ref if fetched else None,
        mark=local.marks.get(path, up),
        known=known,
        trusted=trusting(known, local.gate.trusted),
    )
    if not report["ok"]:
        where, left = (
            (f" of {up.remote}/{up.branch}", "nothing merged, nothing pushed") if fetched else ("", "nothing pushed")
        )
        raise AuditRefused(
            f"{path}: verify --git{where}: {safe(report['bad']['reason'])}: {left}",
            details=git_report_text(report),
            commit=report["bad"]["commit"],
            path=path,
        )
    if report["mark"] is not None:
        local.marks.put(path, up, report["mark"])


def audit(paths: list[str], up: Upstream, local: Local, read: Reads | None = None) -> None:
    """`verify --git` of each game file: a history that breaks the audit is not pushed.

    Only what is new is audited (`audit.audit`): the user's cache remembers (`Local.marks`), for
    each game file and upstream, the last commit whose history was audited and found good, and
    the walk starts after it; a history rewritten under it (the commit no longer an ancestor of
    HEAD) is audited whole. The mark moves only after a good audit. The cache is the user's own
    (each entry authenticated with their private key): whoever can write the repository cannot
    write it, and a commit's id fixes its whole history, so a good audit of it stays good. What
    the user verified before of a sealed game (its signatures and proofs) is not checked again.

    Raises:
        AuditRefused: a history breaks the audit (its report in `details`).
    """
    for path in paths:
        audit_one(path, up, local, read)


# -- a merge left under way ----------------------------------------------------------------------


def settle_merge(repo: Repo, paths: list[str], local: Local) -> None:
    """A merge sync (or git pull) left: finish it when the game files are settled; else say how.

    A sealed game's fork settled by leaving a branch out (`splendor resolve`) is concluded only
    when the branch is the local player's own (their key's seat made every event of it): the
    merge's message then holds their signed consent (`verify --git`). Leaving out another
    player's events is refused before anything is committed, saying which side to keep."""
    from .. import store

    consents: list[str] = []
    for path in paths:
        try:
            merged = store.read(path, local.gate.trusted)
        except ForkError as exc:
            raise fork_refused(repo, gitsync.locate(path).rel, exc) from None
        consents += withdrawn(repo, merged, local)
        if not merged.game.protocol.signed:  # a signed game's merge is judged by its players' consent
            refused(repo, merged, local.gate)
    gitsync.conclude_merge(repo, [gitsync.locate(path).rel for path in paths], consents)


def merge_refusal(repo: Repo, rel: str, merged: bytes, email: str | None = None) -> str | None:
    """Why the audit (`verify --git`) would refuse the merge under way of HEAD and MERGE_HEAD
    whose game file at `rel` is `merged`, committed by `email` (default: this clone's git
    author); None when it would take it, or when no merge of two versions of the file is under
    way. The same rules as the audit (`checker.Checker`: `rules`, and `withdrawals`' for a sealed
    game, which needs the consent of the merge's message: see `withdrawn`)."""
    from .checker import Checker
    from .history import Blob, Carrier, FileRepo, blob_oid, carried_by_others

    parents = []
    for rev, name in (("HEAD", "ours"), ("MERGE_HEAD", "theirs")):
        data = gitsync.committed(repo, rev, rel=rel)
        if data is not None:
            parents.append((name, Blob(oid=blob_oid(data, sha256=False), data=data)))
    if len(parents) < 2:
        return None
    new = Blob(oid=blob_oid(merged, sha256=False), data=merged)
    author = gitsync.author_email(repo) if email is None else email
    revs = {"ours": "HEAD", "theirs": "MERGE_HEAD"}

    def carried(name: str) -> list[Carrier]:
        where = FileRepo(root=repo.top, rel=rel, shallow=frozenset())
        others = [rev for side, rev in revs.items() if side != name]
        return carried_by_others(where, revs[name], others, rel, email=author, merged=merged)

    return Checker().check(new, [(name, blob) for name, blob in parents], author, merge=True, carried=carried)


def keep_refusals(repo: Repo, rel: str, data: bytes) -> dict[str, str | None] | None:
    """For the forked file `data` of the merge under way, why the audit would refuse the merge
    that keeps each side ("ours", "theirs"; None: it would take it); None when the file is not
    forked, no merge is under way, git has no author e-mail here, or the game is at a table of
    keys, sealed or signed (its players' signed consent: `withdrawn`)."""
    from ..forks import split_fork
    from ..sealing.events import TableAsked

    fork = split_fork(data)
    if fork is None or gitsync.under_way(repo) != "merge":
        return None
    if fork.record.events and isinstance(fork.record.events[0], TableAsked):
        return None
    email = gitsync.author_email(repo)
    if not email:
        return None  # git knows nobody here yet: who will commit the merge cannot be told
    return {side: merge_refusal(repo, rel, fork.prefix + fork.branch(side).data, email) for side in ("ours", "theirs")}


@attrs.frozen
class PutBack:
    """The forked file `put_fork_back` wrote, and its fork."""

    data: bytes
    fork: Fork

    def label(self, side: str) -> str:
        return self.fork.label(side)


def put_fork_back(repo: Repo, path: str, rel: str, gate: Gate) -> PutBack | None:
    """Write the forked file of the merge under way back at `path`: HEAD's and MERGE_HEAD's
    versions merged again from their base by the merge driver's rules (`gitmerge.merge`), for
    `splendor resolve`. None (nothing written) when that merge is no fork."""
    from .. import store
    from ..forks import split_fork
    from . import gitmerge

    ours, theirs = gitsync.committed(repo, "HEAD", rel=rel), gitsync.committed(repo, "MERGE_HEAD", rel=rel)
    if ours is None or theirs is None:
        return None
    again = gitmerge.merge(gitsync.merge_base_file(repo, rel) or b"", ours, theirs)
    fork = split_fork(again.data) if again.conflict else None
    if fork is None:
        return None
    return PutBack(data=again.data, fork=gate.write_fork(path, again.data, read=store.read_bytes(path)))


def refused(repo: Repo, merged: Loaded, gate: Gate) -> None:
    """Refuse to commit the settled merge `merged` (an open game) that the audit would refuse: the
    forked file is put back (merged again by the driver's rules from HEAD, MERGE_HEAD and their
    base) for `splendor resolve`, and the error names the side to keep.

    Raises:
        ConflictError: the audit would refuse the merge; nothing committed.
    """

    rel = gitsync.locate(merged.path).rel
    if not gitsync.author_email(repo):
        return  # git knows nobody here: its commit says so
    reason = merge_refusal(repo, rel, merged.data)
    if reason is None:
        return
    advice = "keep the other side with `splendor resolve --keep REF` (`splendor log` names both)"
    fork = put_fork_back(repo, merged.path, rel, gate)
    refusals = keep_refusals(repo, rel, fork.data) if fork is not None else None
    if fork is not None and refusals is not None:
        good = [side for side, fault in refusals.items() if fault is None]
        if good:
            advice = f"the fork is back: keep the side the audit takes, `splendor resolve --keep {fork.label(good[0])}`"
        else:
            advice = (
                "the fork is back, and the audit refuses either side from you: ask the players whose moves they are"
            )
    raise ConflictError(
        safe(
            f"{merged.path}: the merge leaves out what the audit refuses ({reason}): {advice};"
            " then `splendor sync`; nothing committed, nothing pushed"
        )
    )


def withdrawn(repo: Repo, merged: Loaded, local: Local) -> list[str]:
    """The lines of the merge's message that consent, signed by the local key, to what the merge
    leaves out of the sealed game `merged` (the merge's file, just read: none for an open game, or
    when it leaves out nothing). The parents' files are replayed trusting what this user verified
    before and what the read of `merged` verified.

    Raises:
        ConflictError: the merge leaves out events that are not all the local player's: nothing
            is committed, the fork is put back, and the message says which side to keep (exit 5,
            as for an open game's merge that the audit would refuse: `refused`).
    """
    from ..events import actor
    from ..events.codec import event_digest
    from .withdrawals import WITHDRAW, consent_line, withdrawals

    path = merged.path
    rel = gitsync.locate(path).rel
    parents = [data for rev in ("HEAD", "MERGE_HEAD") if (data := gitsync.committed(repo, rev, rel=rel)) is not None]
    found = withdrawals(parents, merged.data, trusting([merged], local.gate.trusted))
    if not found:
        return []
    secret = local.key()
    lines = []
    for left in found:
        seat = None if secret is None else _seat_in(left, secret)
        if left.fault is None and secret is not None and seat == left.player:
            lines.append(consent_line(left.player, secret.sign(WITHDRAW, left.statement)))
            continue
        first = left.events[0]
        owner = left.player or actor(first)
        whose = f"{owner}'s" if owner else "that"
        who = f"your key plays {seat}" if seat else "your key plays no seat of it"
        why = f"which only {owner} may withdraw" if left.fault is None else f"which no merge may ({left.fault})"
        back = put_fork_back(repo, path, rel, local.gate) is not None
        how = "the fork is back: " if back else f"`git checkout -m -- {rel}`, then "
        raise ConflictError(
            safe(
                f"{path}: this merge leaves out {left.listed}, {why} in a {left.kind} game ({who}):"
                f" keep {whose} side ({how}`splendor resolve --keep {event_digest(first)[:6]}`)"
                " and `splendor sync` again; nothing committed, nothing pushed"
            )
        )
    return lines


def _seat_in(left: Withdrawal, secret: SecretKey) -> str | None:
    """The seat `secret` joined in the sealed table of the branch left out (whose player signed its events)."""
    signing = secret.public.signing
    return next((name for name, key in left.sealing.keys.items() if key.signing == signing), None)


def mark_slot(path: str, up: Upstream) -> bytes:
    """What names a game file's audit mark in a cache: its real path (its repository's, and its
    place in it) and the upstream that sync pushes to."""
    return b"audit\0" + os.fsencode(os.path.realpath(path)) + f"\0{up.remote}/{up.branch}".encode()

"""A remote whose history was rewritten under what `sync` audited there (a force-push over a pushed
turn): `vanished` says what the remote lost of a game since the commit sync audited there last
(the commits, the events), for sync to refuse before it merges anything; `remember` has the gate
remember the remote's commit once its history passed the audit (the gate's `remotes`).

A bare remote takes a force-push, and the history it then holds may read and audit well: a turn
that was pushed, replaced by another event at its seq, is gone without a trace in the new
history. What a clone remembers is the trace: the commit it audited last on that remote, which
the remote's branch must still hold at the next fetch. Everything from git is hostile: ids are
checked before they reach git, and what a commit says is made safe before it is printed.

Nothing here prints.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import attrs

from ..errors import SplendorError, safe
from . import gitsync
from .gitsync import Repo, Upstream

if TYPE_CHECKING:
    from ..gate import Gate
    from ..store import Loaded

MOST = 5
"""The most vanished commits named (the rest counted)."""


@attrs.frozen
class Vanished:
    """What the remote `remote` lost of the game file at `path` since `commit`, which sync audited
    there last: the commits that changed the file (`commits`: id, author, e-mail, subject; the
    newest MOST), and the events of the file at `commit` that the remote's file lacks (`events`,
    in words: "#13 bob's turn"; "" when none, or when this clone lacks `commit`)."""

    path: str
    remote: str
    commit: str
    commits: tuple[tuple[str, str, str, str], ...]
    events: str

    def line(self) -> str:
        """The refusal in one line (safe to print)."""
        gone = f"the events {self.events}" if self.events else "what it held"
        named = ", ".join(c[0][:8] for c in self.commits) or self.commit[:8]
        return safe(
            f"{self.path}: {self.remote} no longer holds commit {self.commit[:8]}, which sync audited there last:"
            f" its history was rewritten (a force-push), and {gone} vanished with it (commits {named});"
            " nothing merged, nothing remembered; ask the players: to restore it, push the lost commits back"
            f" (`git push --force-with-lease {self.remote.replace('/', ' HEAD:', 1)}` from a clone that holds"
            f" them); if all of them agree to the new history, `splendor forget -g {self.path}`, then"
            " `splendor sync`"
        )

    def details(self) -> str:
        """What vanished, a line each (safe to print): the commits, then the events."""
        lines = [f"{self.path}: commits gone from {self.remote}:"]
        lines += [f"  {c[0][:12]} {c[1]} <{c[2]}>: {c[3][:80]}" for c in self.commits]
        if not self.commits:
            lines.append(f"  {self.commit[:12]} (and what led to it)")
        if self.events:
            lines.append(f"  events gone: {self.events}")
        return "\n".join(safe(line) for line in lines)


def key(repo: Repo, up: Upstream) -> str:
    """What names the remote of `up` in the gate's `remotes`: its address and branch."""
    from ..gate.remotes import remote_key

    return remote_key(gitsync.remote_address(repo, up.remote), up.branch)


def vanished(
    repo: Repo, up: Upstream, paths: Sequence[str], gate: Gate, read: Callable[[str], Loaded]
) -> Vanished | None:
    """The first game file of `paths` (each read by `read`) of which the upstream, just fetched, no
    longer holds the commit that sync audited there last (`Gate.remember_remote`); None when it
    holds each (or none was remembered)."""
    slot = key(repo, up)
    for path in paths:
        try:
            game = read(path).record.header.game
        except SplendorError:
            continue  # a file that does not read says so elsewhere
        commit = gate.remotes.commit(game, slot)
        if commit is None or gitsync.holds(repo, up.ref, commit):
            continue
        rel = gitsync.locate(path).rel
        commits = tuple(gitsync.commits_only_in(repo, commit, up.ref, rel, MOST))
        return Vanished(
            path=path,
            remote=f"{up.remote}/{up.branch}",
            commit=commit,
            commits=commits,
            events=_events_gone(repo, commit, up.ref, rel),
        )
    return None


def _events_gone(repo: Repo, commit: str, rev: str, rel: str) -> str:
    """The events of the file at `rel` in `commit` that the file in `rev` lacks, in words ("" when
    none, or when either file does not read)."""
    from ..forks import decode
    from ..records import parse_text
    from ..variants import find_variant
    from .audit_rules import events_listed

    was, now = gitsync.committed(repo, commit, rel=rel), gitsync.committed(repo, rev, rel=rel)
    if was is None:
        return ""
    try:
        before = parse_text(decode(was))
        after = parse_text(decode(now)).digests if now is not None else []
        stepwise = find_variant(before.header.variant).stepwise
    except SplendorError:
        return ""
    common = 0
    for mine, theirs in zip(before.digests, after):
        if mine != theirs:
            break
        common += 1
    return events_listed(before.events[common:], stepwise, most=MOST)


def remember(
    repo: Repo, up: Upstream, paths: Sequence[str], gate: Gate, read: Callable[[str], Loaded], rev: str
) -> None:
    """Have the gate remember `rev`'s commit as the last one audited on the upstream for each game
    of `paths` that it holds (its history passed the audit: the caller's word)."""
    commit = gitsync.commit_of(repo, rev)
    if commit is None:
        return
    slot = key(repo, up)
    for path in paths:
        if not os.path.lexists(path):
            continue
        try:
            game = read(path).record.header.game
        except SplendorError:
            continue
        if gitsync.has_file(repo, commit, gitsync.locate(path).rel):
            gate.remember_remote(game, slot, commit)


def gone_from_history(path: str, gate: Gate) -> dict[str, object] | None:
    """What HEAD's history of the game file at `path` lost of what this user saw (`verify --git`):
    an event they saw (the gate's memory) that is not HEAD's file's event of that seq, or the
    commit sync audited last on the upstream (the gate's `remotes`) that neither HEAD's history
    nor the upstream's holds. `{"seq", "commit", "reason"}` (the reason safe to print); None when
    nothing vanished (or nothing was remembered)."""
    from ..events.codec import Record
    from ..forks import decode
    from ..records import parse_text

    repo = gitsync.locate(path)
    data = gitsync.committed(repo, "HEAD", rel=repo.rel)
    if data is None:
        return None
    try:
        record: Record = parse_text(decode(data))
    except SplendorError:
        return None  # the audit says what is wrong with it
    game = record.header.game
    remembered = None
    try:
        up = gitsync.upstream(repo)
    except SplendorError:
        up = None
    if up is not None:
        remembered = gate.remotes.commit(game, key(repo, up))
    seen = gate.seen.digests(game)
    common = gate.seen.common(record)
    if common < min(len(seen), len(record.events)):
        seq = common + 1
        what = _event_at(repo, remembered, repo.rel, seq)
        return {
            "seq": seq,
            "commit": remembered,
            "reason": safe(
                f"event #{seq}{f' ({what})' if what else ''} that you saw is not this history's event #{seq}:"
                " a force-push or a rebase rewrote it (if all the players agree to this history,"
                f" `splendor forget -g {path}` accepts it)"
            ),
        }
    if remembered is None or up is None or gitsync.holds(repo, "HEAD", remembered):
        return None
    if gitsync.holds(repo, up.ref, remembered):
        return None  # not pulled yet
    return {
        "seq": None,
        "commit": remembered,
        "reason": safe(
            f"commit {remembered[:12]}, which sync audited last on {up.remote}/{up.branch}, is in neither this"
            " history nor the remote's: a force-push or a rebase rewrote it"
            f" (if all the players agree to this history, `splendor forget -g {path}` accepts it)"
        ),
    }


def _event_at(repo: Repo, commit: str | None, rel: str, seq: int) -> str:
    """Event `seq` of the file at `rel` in `commit`, in words ("" when there is none to tell)."""
    from ..forks import decode
    from ..records import parse_text
    from ..variants import find_variant
    from .audit_rules import events_listed

    data = gitsync.committed(repo, commit, rel=rel) if commit is not None else None
    if data is None:
        return ""
    try:
        record = parse_text(decode(data))
        stepwise = find_variant(record.header.variant).stepwise
    except SplendorError:
        return ""
    events = record.events[seq - 1 : seq]
    return events_listed(events, stepwise).removeprefix(f"#{seq} ") if events else ""

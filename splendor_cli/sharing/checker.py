"""`Checker`: judges one change of a game file at a time against the audit's rules (`rules`,
`withdrawals`), keeping the versions it read (by blob id)."""

from __future__ import annotations

from collections.abc import Callable

import attrs

from ..errors import ConflictError, GameFileError
from ..events.codec import Record
from ..forks import cut, decode
from ..gate.judge import judge_events
from .audit_rules import carrier_fault, events_listed, moves_reason, resolved_fork, rewrite_reason, withdrawal_fault
from .history import Blob, Carrier
from .relays import superseded
from .versions import Trusted, Version, extend_version, read_version
from .withdrawals import consent_fault, withdrawal_of


@attrs.define
class Checker:
    """Judges one change at a time, keeping the versions already read (by blob id)."""

    read: dict[str, Version] = attrs.Factory(dict)
    last: Version | None = None
    trusted: Trusted | None = None
    """What this reader verified before of a sealed game (`read_version`, `extend_version`); None:
    everything is checked."""
    known: dict[str, tuple[bytes, Version]] = attrs.Factory(dict)
    """Versions the caller read already (as `store.read` reads them), by blob id, with their bytes."""

    def version(self, blob: Blob) -> Version:
        """`blob` read: as the caller read it, or folded back from a version it read (`fold`), or
        replayed whole."""
        if blob.oid not in self.read:
            self.read[blob.oid] = self.seeded(blob) or self.fold(blob) or read_version(blob.data, self.trusted)
        return self.read[blob.oid]

    def forget(self, oid: str) -> None:
        """Let go of the version of blob `oid`: no change left to judge reads it (`last` stays)."""
        self.read.pop(oid, None)

    def seeded(self, blob: Blob) -> Version | None:
        """The version the caller read of exactly these bytes (`known`), if any."""
        seed = self.known.get(blob.oid)
        return seed[1] if seed is not None and seed[0] == blob.data else None

    def fold(self, blob: Blob) -> Version | None:
        """When `blob`'s bytes begin a version the caller read and end where one of its events
        ends, that version folded back to them (`folded`): the file before the caller's, which a
        walk starts from, is not replayed. (Only where a walk starts: a fold costs the events it
        keeps, where extending a version read before costs only the new ones.)"""
        for data, version in self.known.values():
            if len(blob.data) < len(data) and data.startswith(blob.data):
                found = folded(version, data, len(blob.data))
                if found is not None:
                    return found
        return None

    def check(
        self,
        new: Blob,
        parents: list[tuple[str, Blob | None]],
        email: str,
        *,
        merge: bool,
        staged: bool = False,
        message: Callable[[], str] | None = None,
        carried: Callable[[str], list[Carrier]] | None = None,
    ) -> str | None:
        """The reason the change from `parents` (each named, for a person) to `new` breaks a rule,
        or None when it keeps them. `email` is the change's author's; `message` gives its commit
        message (asked only of a merge that leaves out a side of a forked sealed game); `carried`,
        the commits of a parent's side (by its name) by others than `email` that carried what the
        merge leaves out (`history.carried_by_others`: asked only of a merge that leaves out a
        side of a forked game without e-mails; None: not asked)."""
        olds = [(name, blob) for name, blob in parents if blob is not None]
        kept = [blob for _, blob in olds if new.data.startswith(blob.data)]
        for name, old in olds:
            if new.data.startswith(old.data):
                continue
            if not merge:
                return rewrite_reason(old.data, new.data)
            reason = self.dropped(name, old, new, email, withdrawable=bool(kept), message=message, carried=carried)
            if reason is not None:
                return reason
        base = max(kept, key=lambda blob: len(blob.data), default=None)
        if base is None:
            try:
                version = self.version(new)
            except (GameFileError, ConflictError) as exc:
                return f"creates a file that does not read: {exc}"
            known = 1  # the setup
        else:
            try:
                before = self.version(base)
            except (GameFileError, ConflictError) as exc:
                return f"the file before it does not read: {exc}"
            try:
                version = self.extended(before, base, new)
            except (GameFileError, ConflictError) as exc:
                return f"writes a file that does not read: {exc}"
            known = len(before.record.events)
        try:
            judge_events(version.record, version.game, after=known)  # what the gate judges beyond the fold
        except GameFileError as exc:
            return f"appends an event the gate refuses: {exc}"
        reason = moves_reason(version, known, created=base is None, email=email, staged=staged)
        if reason is None:
            self.last = version
        return reason

    def extended(self, before: Version, base: Blob, new: Blob) -> Version:
        """`new`, read as a file whose bytes extend `base` (read as `before`). Raise a SplendorError."""
        if new.oid not in self.read:
            seed = self.seeded(new)
            self.read[new.oid] = seed or extend_version(before, base.data, new.data, self.trusted)
            if seed is None:
                return self.read[new.oid]
        version = self.read[new.oid]  # read before, maybe extending another file: it extends this one too
        if version.record.header != before.record.header:
            raise GameFileError("the header changed")
        if version.record.events[: len(before.record.events)] != before.record.events:
            raise GameFileError("an earlier event changed")
        return version

    def dropped(
        self,
        name: str,
        old: Blob,
        new: Blob,
        email: str,
        *,
        withdrawable: bool,
        message: Callable[[], str] | None = None,
        carried: Callable[[str], list[Carrier]] | None = None,
    ) -> str | None:
        """Why a merge's file `new` may not leave out what its parent `name`'s file `old` holds; None
        when it is that parent's side of a forked game, withdrawn by its player (`withdrawable`:
        another parent's file is kept): in a game with e-mails, the merge's author (`email`); in a
        game without, the author of the commits that carried it (`carried`), who is the merge's;
        in a sealed game, the player whose signed consent the merge's `message` holds."""
        try:
            before, after = self.version(old), read_version(new.data, self.trusted)
        except (GameFileError, ConflictError):
            return rewrite_reason(old.data, new.data, parent=name)
        ours, theirs = before.record.events, after.record.events
        common = 0
        while common < min(len(ours), len(theirs)) and ours[common] == theirs[common]:
            common += 1
        left = ours[common:]
        if not left or before.record.header != after.record.header:
            return rewrite_reason(old.data, new.data, parent=name)
        variant = before.game.variant
        reason = (
            f"drops {events_listed(left, variant.stepwise, most=5)} of {name}:"
            " a merge may only combine its parents' events"
        )
        if not withdrawable or not resolved_fork(before, after):
            return reason
        if superseded(left, theirs[common:]):  # a relayed turn gave way to its own, or to itself
            return None
        if before.game.protocol.signed:  # signed events: the consent of their player, not the commit's e-mail
            withdrawal = withdrawal_of(before, after, left)
            fault = withdrawal.fault or consent_fault(withdrawal, message() if message is not None else "")
        else:
            fault = withdrawal_fault(left, before.record.header, email, variant.setup_type)
            if fault is None and not any(before.record.header.emails) and carried is not None:
                fault = carrier_fault(carried(name), email)
        return None if fault is None else f"{reason} ({fault})"


def folded(version: Version, data: bytes, size: int) -> Version | None:
    """`version` (read from the bytes `data`) as its file was in its first `size` bytes, when they
    end where one of its events ends (None otherwise): its first events, their game folded again
    without judging them (`Game.at`): they were judged, in this order, when `version` was read."""
    events = version.record.events
    try:
        blocks = cut(decode(data), len(events))
    except GameFileError:
        return None
    end, count = len(blocks.head.encode("utf-8")), 0
    for block in blocks.blocks:
        if end >= size:
            break
        end, count = end + len(block.encode("utf-8")), count + 1
    if end != size or count == 0:
        return None
    kept = events[:count]
    record = Record(header=version.record.header, events=kept, digested=(kept, version.record.digests[:count]))
    return Version(record=record, game=version.game.at(count))

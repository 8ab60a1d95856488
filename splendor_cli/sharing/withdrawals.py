"""A sealed or signed game's forks, withdrawn by their own player's signed consent (see `verify`): what a
merge leaves out (`withdrawals`), what the player signs (`withdrawal_statement`), the line of
the merge's message that holds it (`consent_line`), and whether a message holds it (`consent_fault`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from ..errors import ConflictError, GameFileError
from ..events import Event, actor
from .audit_rules import events_listed, possessive, resolved_fork
from .versions import Trusted, Version, read_version

if TYPE_CHECKING:
    from ..sealing.table import Sealing

# -- a sealed or signed game's forks: withdrawn by their own player's signed consent ------------

WITHDRAWN_BY = "Splendor-Withdrawn-By"
"""The key of the line of a merge's message that holds a player's consent to leave out their events."""
WITHDRAW = "withdraw"
"""The purpose the consent is signed for (`SecretKey.sign`): no event's signature verifies as one."""
_CONSENT = re.compile(rf"^{WITHDRAWN_BY}: (\S+) ([0-9a-f]{{128}})[ \t]*$", re.MULTILINE)


def table_rule(kind: str) -> str:
    """The rule of a forked game at a table of keys (`kind`: the protocol's name, sealed or signed)."""
    return f"settling a forked {kind} game may leave out one player's own signed events, by that player"


@attrs.frozen
class Withdrawal:
    """A branch of a forked sealed or signed game that a merge leaves out: the events after the fork."""

    events: tuple[Event, ...]
    player: str
    """Whose they all are ("" when they are not one player's: see `fault`)."""
    statement: bytes
    """What `player` signs (purpose `WITHDRAW`) to consent to leave them out of the merge's file."""
    fault: str | None
    """Why nobody may leave them out (the deal, or the events of several players); None: `player` may."""
    sealing: Sealing
    """The sealed table of the branch left out (its `keys` verify its player's consent)."""
    listed: str
    """The events, for a person: `#13 bob's turn`."""
    kind: str = "sealed"
    """The game's protocol (`sealed`, `signed`), as the messages name it."""

    @property
    def rule(self) -> str:
        return table_rule(self.kind)


def withdrawal_statement(sealing: Sealing, last_dropped: Event, last_kept: Event) -> bytes:
    """What a player signs to consent to leave out their branch of a fork that ends with
    `last_dropped`, in a merge whose file ends with `last_kept`: the game's root and both events'
    digests (each fixes the whole history before it)."""
    from ..crypto.group import framed
    from ..sealing.signing import full_digest

    return framed(b"splendor-cli/withdraw/v1", sealing.root, full_digest(last_dropped), full_digest(last_kept))


def consent_line(player: str, signature: bytes) -> str:
    """The line of a merge's message that holds `player`'s consent (`signature`, 64 bytes)."""
    return f"{WITHDRAWN_BY}: {player} {signature.hex()}"


def withdrawal_of(dropped: Version, kept: Version, left: tuple[Event, ...]) -> Withdrawal:
    """The branch `left` of the sealed game `dropped` that the merge's file `kept` leaves out."""
    sealing = dropped.game.protocol.signers()  # a sealed game's Sealing, a signed game's table: root and keys
    variant = dropped.game.variant
    owners = list(dict.fromkeys(actor(event) for event in left))
    kind = dropped.game.protocol.name
    fault = None
    if any(isinstance(event, variant.setup_type) for event in left):
        fault = f"{table_rule(kind)}, never the deal"
    elif len(owners) > 1:
        fault = f"{table_rule(kind)}: these are {' and '.join(possessive(who) for who in owners)}"
    return Withdrawal(
        events=left,
        player=owners[0] if len(owners) == 1 and fault is None else "",
        statement=withdrawal_statement(sealing, left[-1], kept.record.events[-1]),
        fault=fault,
        sealing=sealing,
        listed=events_listed(left, variant.stepwise, most=5),
        kind=kind,
    )


def consent_fault(withdrawal: Withdrawal, message: str) -> str | None:
    """Why `message` (a merge's) holds no consent of `withdrawal`'s player; None when it does."""
    who = withdrawal.player
    key = withdrawal.sealing.keys.get(who)
    for name, sig in _CONSENT.findall(message):
        if name == who and key is not None and key.verify(WITHDRAW, withdrawal.statement, bytes.fromhex(sig)):
            return None
    return (
        f"{withdrawal.rule}: they are {who}'s, and the merge holds no consent signed by {who}"
        f" (a `{WITHDRAWN_BY}:` line, which `splendor sync` writes when {who} concludes the merge)"
    )


def withdrawals(parents: Sequence[bytes], merged: bytes, trusted: Trusted | None = None) -> list[Withdrawal]:
    """What a merge of the files `parents` into `merged` leaves out of a forked sealed game: each
    parent's branch after the fork (none for an open game, or when every parent is kept, or when
    no parent is, or for a parent that does not read: those are not settled forks, and
    `git_report` says what is wrong with them). `trusted`: what this reader verified before (the
    signatures and proofs of those events are not checked again, as in `store.read`).

    Raises:
        GameFileError, ConflictError: `merged` does not read.
    """
    kept = [data for data in parents if merged.startswith(data)]
    if not kept or len(kept) == len(parents):
        return []
    after = read_version(merged, trusted)
    if not after.game.protocol.signed:
        return []
    found = []
    for data in parents:
        if merged.startswith(data):
            continue
        try:
            before = read_version(data, trusted)
        except (GameFileError, ConflictError):
            continue  # not a side of a fork: `git_report` names what is wrong with it
        if before.record.header != after.record.header or not resolved_fork(before, after):
            continue
        ours, theirs = before.record.events, after.record.events
        common = 0
        while common < min(len(ours), len(theirs)) and ours[common] == theirs[common]:
            common += 1
        found.append(withdrawal_of(before, after, ours[common:]))
    return found

"""The events of the signed protocol (pure: no cryptography, no I/O): its own events, which any
game's log may hold (`protocol.SignedTable.handlers`; their tags are registered in
`projection.table_protocol`).

Same envelope and rules as every event (`splendor_cli.events`): flat payloads, type tags and
field names never renamed. Every event after `SignedAsked` but the setup is signed by its author.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from ..events import Event, Signable
from ..sealing.events import KeyJoined, TableAsked


@attrs.frozen(kw_only=True)
class SignedAsked(TableAsked):
    """A signed game: each player joins with their key (`SignerJoined`), then shows their share of
    the deal (`DealShared`); the last share deals the cards, open to all. Every event after this
    one is signed by its author."""

    TYPE: ClassVar[str] = "signed_asked"
    TABLE: ClassVar[str] = "signed"
    """The table protocol whose game this event opens."""


@attrs.frozen(kw_only=True)
class SignerJoined(KeyJoined):
    """A player joins a signed game (`sealing.events.KeyJoined`): the key that signs their events,
    their card key of this game, whose share of the deal is theirs, and their nonce. Signed by the
    key it brings."""

    TYPE: ClassVar[str] = "signer_joined"


@attrs.frozen(kw_only=True)
class DealShared(Signable):
    """A player's share of the deal, once every player has joined: their card key times a point
    that every player's key fixes (`protocol.deal_point`), with its Chaum-Pedersen proof (`share`:
    base64 of 96 bytes, crypto/elgamal.py `Share.to_text`). One value per key, which nobody can
    vary: the deal follows from every share."""

    TYPE: ClassVar[str] = "deal_shared"
    player: str
    share: str


SIGNED_TYPES: tuple[type[Event], ...] = (SignedAsked, SignerJoined, DealShared)
"""The events of a signed game's protocol."""


__all__ = ["SIGNED_TYPES", "DealShared", "SignedAsked", "SignerJoined"]

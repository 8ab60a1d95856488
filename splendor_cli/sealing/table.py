"""`Sealing`: where a sealed game's cryptography stands, folded event by event from the log
(pure; the cryptography imported when used).

Every reader rebuilds it: the players' keys (`join`), their shuffles of the decks (`shuffle`),
the decryption shares and the cards they opened (`show`), the keys published at the end
(`publish`), and the signature of every event (`check_signature`). The game is read through what
it declares (`capability.SealedCards`), held as `game`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import IllegalMoveError, excerpt
from ..events import Event
from .capability import cannot
from .events import CardsShown, DeckShuffled, KeysPublished, PlayerJoined, SealedAsked, deck_key
from .placeholders import MOST_CARDS, MOST_DECKS, PLACEHOLDER, level_of, position_of
from .signing import (
    author,
    check_signature,
    context,
    full_digest,
    header_digest,
    joined_key,
    session_id,
    shuffle_context,
)

if TYPE_CHECKING:
    from ..crypto.elgamal import Ciphertext, Deck
    from ..crypto.group import Point
    from ..crypto.keys import PublicKey
    from ..projection.variant import AnyVariant, SealedCards

RULE = "sealed"
"""The rule an `IllegalMoveError` of the sealed protocol names."""


def refuse(message: str) -> IllegalMoveError:
    """The error of an event or a request the sealed protocol refuses."""
    return IllegalMoveError(message, rule=RULE)


@functools.lru_cache(maxsize=16)
def known_deck(cards: tuple[str, ...]) -> Deck:
    """The known deck of these cards (their points are hashed once per process)."""
    from ..crypto.elgamal import Deck

    return Deck(cards)


def in_words(names: Sequence[str]) -> str:
    """`ann`, `ann and bob`, `ann, bob and cy`."""
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else ""


@attrs.frozen(kw_only=True)
class Shuffle:
    """One player's shuffle: the decks it left (by level, from 1), as the bytes of their
    ciphertexts (64 each, from the top: `DeckShuffled.decks` decoded); each card is made a
    `Ciphertext`, its points checked, when first used."""

    player: str
    data: tuple[bytes, ...]
    _made: dict[tuple[int, int], Ciphertext] = attrs.field(factory=dict, eq=False, repr=False, alias="made")

    def card(self, level: int, position: int) -> Ciphertext:
        """The ciphertext at `position` (1-based) of the deck of `level`."""
        key = (level, position)
        made = self._made.get(key)
        if made is None:
            from ..crypto.elgamal import Ciphertext

            data = self.data[level - 1]
            if not 1 <= position <= len(data) // _CIPHERTEXT:
                raise IndexError(f"no card {position} in deck {level}")
            at = (position - 1) * _CIPHERTEXT
            name = deck_key(level, len(self.data))
            made = self._made[key] = Ciphertext.from_bytes(data[at : at + _CIPHERTEXT], f"{name} card {position}")
        return made

    @property
    def decks(self) -> tuple[tuple[Ciphertext, ...], ...]:
        return tuple(
            tuple(self.card(level, k) for k in range(1, len(data) // _CIPHERTEXT + 1))
            for level, data in enumerate(self.data, start=1)
        )


_CIPHERTEXT = 64
"""The bytes of a ciphertext (two points)."""


@attrs.frozen(kw_only=True)
class Sealing:
    """Where a sealed game's cryptography stands (every reader rebuilds it from the log)."""

    players: tuple[str, ...]
    root: bytes
    """SHA-256 of the first event (`SealedAsked`): what binds the joins to this game."""
    header: bytes = b""
    """The full SHA-256 of the header that the first event names (format 4 on; b"" before)."""
    nonces: Mapping[str, bytes] = attrs.Factory(dict)
    """Each joined player's nonce (format 4 on), which the session id hashes (`session`)."""
    cards: Mapping[int, tuple[str, ...]]
    """The cards of each deck, by level (1, 2, ...: as many decks as the game declares), in the
    order the game lists them: the first shuffle's input."""
    keys: Mapping[str, PublicKey] = attrs.Factory(dict)
    shuffles: tuple[Shuffle, ...] = ()
    face_up: tuple[str, ...] = ()
    """The placeholders the setup deals face up (known once every player has shuffled)."""
    shares: Mapping[str, Mapping[str, Point]] = attrs.Factory(dict)
    """The verified decryption shares, by placeholder, then player."""
    revealed: Mapping[str, str] = attrs.Factory(dict)
    """The cards every player's shares opened, by placeholder."""
    published: Mapping[str, KeysPublished] = attrs.Factory(dict)
    dealt: bool = False
    seen: Mapping[str, Mapping[str, int]] = attrs.Factory(dict)
    """When each player could first open each card, by placeholder then player: the seq of the
    event that brought in the last share but theirs (the undo policy reads it: `learned`)."""
    game: SealedCards[Any] = attrs.field(eq=False, repr=False)
    """What the game declares to be sealed (`Variant.sealed_cards`): where its states keep cards
    (reveal.py), how it deals (deal.py), how revealed cards replace placeholders."""
    _memo: dict[str, Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)
    """What is worked out once per table (`partial`, `joint_key`): a new table starts without."""

    @classmethod
    def start(cls, variant: AnyVariant, event: SealedAsked) -> Sealing:
        """The sealed table of a game that `event` (the first of its log) asks for. Refused when
        the game declares no sealed cards (`capability.cannot`)."""
        game = variant.sealed_cards
        if game is None:
            raise refuse(cannot(variant))
        why = decks_problem(game.decks)
        if why:
            raise refuse(f"{variant.name} cannot be sealed: {why}")
        cards = {level: tuple(game.decks[level]) for level in sorted(game.decks)}
        header = header_digest(event)
        return cls(players=event.players, root=full_digest(event), header=header, cards=cards, game=game)

    @property
    def keyed(self) -> bool:
        """A game of format 4 on: its joins carry nonces, and it has a session id."""
        return bool(self.header)

    @property
    def session(self) -> bytes:
        """What the shuffles, the shares and the deal are bound to: the game's session id
        (`signing.session_id`, once every player has joined), or its root in a game older than
        format 4, which has none."""
        if not self.keyed:
            return self.root
        if "session" not in self._memo:
            if not self.joined:
                raise refuse(f"the game has no session id before every player joins: {self.stage()}")
            self._memo["session"] = session_id(self.header, self.root, [self.nonces[p] for p in self.players])
        found: bytes = self._memo["session"]
        return found

    @property
    def levels(self) -> tuple[int, ...]:
        """The levels of the game's sealed decks: 1, 2, ... as many as it declares."""
        return tuple(self.cards)

    # -- where it stands

    @property
    def joined(self) -> bool:
        return len(self.keys) == len(self.players)

    @property
    def shuffled(self) -> bool:
        return len(self.shuffles) == len(self.players)

    def decks(self) -> tuple[tuple[Ciphertext, ...], ...]:
        """The decks as the last shuffle left them (before any shuffle: encrypted openly)."""
        if self.shuffles:
            return self.shuffles[-1].decks

        return tuple(known_deck(self.cards[level]).unmasked() for level in self.levels)

    def joint_key(self) -> Point:
        from ..crypto.elgamal import joint_key

        if "joint" not in self._memo:
            self._memo["joint"] = joint_key(self.keys[p].card for p in self.players)
        key: Point = self._memo["joint"]
        return key

    def ciphertext(self, card: str) -> Ciphertext:
        if self.shuffles:
            return self.shuffles[-1].card(level_of(card), position_of(card))
        return self.decks()[level_of(card) - 1][position_of(card) - 1]

    def partial(self) -> frozenset[str]:
        """The placeholders with some shares in but not every player's."""
        if "partial" not in self._memo:
            count = len(self.players)
            self._memo["partial"] = frozenset(card for card, have in self.shares.items() if len(have) < count)
        found: frozenset[str] = self._memo["partial"]
        return found

    def missing(self, card: str, *, but: str = "") -> list[str]:
        """The players (in turn order) whose share of placeholder `card` is not in, but `but`."""
        have = self.shares.get(card, {})
        return [p for p in self.players if p not in have and p != but]

    def waiting_for(self) -> tuple[str, tuple[str, ...]]:
        """What the setup waits for ("join", "shuffle", "reveal"; "" once it can deal) and whom."""
        if not self.joined:
            return "join", tuple(p for p in self.players if p not in self.keys)
        if not self.shuffled:
            done = {s.player for s in self.shuffles}
            return "shuffle", tuple(p for p in self.players if p not in done)
        late = tuple(p for p in self.players if any(p in self.missing(c) for c in self.face_up))
        return ("reveal", late) if late else ("", ())

    def stage(self) -> str:
        """What the setup waits for, in words ("" once dealt)."""
        if self.dealt:
            return ""
        step, late = self.waiting_for()
        what = {
            "join": "join with their keys",
            "shuffle": "shuffle the sealed decks",
            "reveal": "reveal the face-up cards",
        }.get(step)
        if what is None:
            return "every face-up card is revealed: the cards can be dealt"
        return f"waiting for {in_words(late)} to {what} (`splendor seal --as NAME`)"

    # -- the events

    def join(self, event: PlayerJoined, *, verify: bool = True) -> Sealing:
        """The table with `event`'s keys; `verify`: the proof of possession checked (a file's
        events that this reader verified before need not be: see `replay`'s `trusted`)."""
        self.check_player(event.player)
        public, nonce = joined_key(self.keys, event, self.root, keyed=self.keyed, verify=verify, rule=RULE)
        nonces = {**self.nonces, event.player: nonce} if nonce else self.nonces
        return attrs.evolve(self, keys={**self.keys, event.player: public}, nonces=nonces)

    def shuffle(self, event: DeckShuffled, *, verify: bool = True) -> Sealing:
        """The table with `event`'s decks; `verify`: each deck's proof of shuffle checked (see
        `join`): a deck that is not a permutation and re-encryption of the deck before it (a
        stacked deck, a card dropped, doubled or replaced) is refused at once, naming its player."""
        from ..crypto.elgamal import deck_bytes
        from ..errors import MalformedError

        self.check_player(event.player)
        if not self.joined:
            raise refuse(f"the decks are shuffled only once every player has joined: {self.stage()}")
        if any(s.player == event.player for s in self.shuffles):
            raise refuse(f"{event.player} has shuffled the decks already")
        count = len(self.levels)
        if len(event.decks) != count:
            raise refuse(f"{event.player}'s shuffle holds {len(event.decks)} decks: the game has {count}")
        decks: list[bytes] = []
        for level, text in zip(self.levels, event.decks, strict=True):
            size, name = len(self.cards[level]), deck_key(level, count)
            try:
                decks.append(deck_bytes(text, size, name))
            except MalformedError:
                raise refuse(
                    f"{name} is not the {size} ciphertexts of the deck (base64 of {size} x 64 bytes,"
                    " padded, on one line)"
                ) from None
        if len(event.proofs) != count:
            raise refuse(f"{event.player}'s shuffle carries no proof of shuffle for each deck: it cannot be trusted")
        shuffled = Shuffle(player=event.player, data=tuple(decks))
        if verify:
            from ..crypto.shuffle_proof import ShuffleProof, verify_shuffle

            joint = self.joint_key()
            for level, text, old, new in zip(self.levels, event.proofs, self.decks(), shuffled.decks, strict=True):
                try:
                    proof = ShuffleProof.from_text(text, len(old), f"proof of deck {level}")
                except MalformedError as exc:
                    raise refuse(f"{event.player}'s shuffle: {exc}") from None
                if not verify_shuffle(old, new, joint, proof, shuffle_context(self.session, event.player, level)):
                    raise refuse(
                        f"{event.player}'s shuffle of deck {level} fails its proof: it is not a permutation and"
                        " re-encryption of the deck before it (a stacked or altered deck)"
                    )
        return attrs.evolve(self, shuffles=(*self.shuffles, shuffled))

    def with_face_up(self, face_up: Iterable[str]) -> Sealing:
        return attrs.evolve(self, face_up=tuple(face_up))

    def show(
        self, event: CardsShown, allowed: Callable[[str], str], *, verify: bool = True
    ) -> tuple[Sealing, dict[str, str]]:
        """The table after `event`'s shares, and the cards they revealed (by placeholder).
        `allowed(card)` says why `event.player` may not share `card` now ("" if they may);
        `verify`: each share's proof checked (see `join`). Notes in `seen` who can open a card
        from this event on."""
        from ..crypto.elgamal import Share, combine, verify_share

        self.check_player(event.player)
        if not event.cards or len(event.cards) != len(event.shares):
            raise refuse("cards_shown lists one share per card, and at least one")
        if len(set(event.cards)) != len(event.cards):
            raise refuse("cards_shown names a card twice")
        shares = dict(self.shares)  # each card's shares copied only when this event adds to them
        seen: dict[str, dict[str, int]] = {}
        revealed: dict[str, str] = {}
        for card, text in zip(event.cards, event.shares, strict=True):
            if not PLACEHOLDER.fullmatch(card) or not 1 <= position_of(card) <= len(self.cards[level_of(card)]):
                raise refuse(f"{excerpt(card)} is no sealed card of this game")
            if event.player in shares.get(card, {}):
                raise refuse(f"{event.player} has shown their share of {card} already")
            why = allowed(card)
            if why:
                raise refuse(f"{event.player} may not show {card}: {why}")
            ciphertext = self.ciphertext(card)
            share = Share.from_text(text, f"share of {card}")
            key = self.keys[event.player].card
            if verify and not verify_share(ciphertext, share, key, context(self.session, "share", card)):
                raise refuse(f"{event.player}'s decryption share of {card} does not verify against their key")
            have = shares[card] = {**shares.get(card, {}), event.player: share.point}
            opened = seen.setdefault(card, dict(self.seen.get(card, {})))
            for player in self.players:
                if player not in opened and all(p in have for p in self.players if p != player):
                    opened[player] = event.seq
            if len(have) == len(self.players):
                level = level_of(card)
                try:
                    revealed[card] = known_deck(self.cards[level]).card_of(combine(ciphertext, have.values()))
                except ValueError:
                    raise refuse(f"{card} opens to no card of deck {level}: a shuffle cheated") from None
        known = {**self.revealed, **revealed}
        twice = _twice(known) if revealed else ""  # the cards revealed before were checked then
        if twice:
            raise refuse(f"{twice} is revealed twice in the sealed decks: a shuffle cheated")
        return attrs.evolve(self, shares=shares, revealed=known, seen={**self.seen, **seen}), revealed

    def publish(self, event: KeysPublished, finished: bool) -> Sealing:
        from ..crypto.group import Point, Scalar, parse_hex

        self.check_player(event.player)
        if not finished:
            raise refuse("the keys are published only once the game is over")
        if event.player in self.published:
            raise refuse(f"{event.player} has published their keys already")
        if Point.base_times(Scalar.from_hex(event.card, "card secret")) != self.keys[event.player].card:
            raise refuse(f"{event.player}'s published card secret is not the one of their key")
        if len(event.seeds) != len(self.levels):
            raise refuse(f"keys_published lists {len(self.levels)} seeds, one per deck")
        for text in event.seeds:
            parse_hex(text, 32, "seed")
        return attrs.evolve(self, published={**self.published, event.player: event})

    def check_signature(self, event: Event, previous: Event) -> None:
        """Refuse `event` unless it is signed by its author (`signing.check_signature`: a move
        played for its player by another, `by`, is that player's to sign)."""
        check_signature(self.keys, event, previous, rule=RULE)

    def check_player(self, player: str) -> None:
        """Refuse a player who does not play in this game."""
        if player not in self.players:
            raise refuse(f"{excerpt(player)} does not play in this game")


def decks_problem(decks: Mapping[int, Sequence[str]]) -> str:
    """What keeps a game's declared decks (`SealedCards.decks`) from being sealed ("" when
    nothing does): their levels must be 1, 2, ... up to `MOST_DECKS`, each deck 1 to
    `MOST_CARDS` cards (a placeholder names its level with one digit, its place with two)."""
    levels = sorted(decks)
    if not 1 <= len(levels) <= MOST_DECKS or levels != list(range(1, len(levels) + 1)):
        return f"it declares no decks of levels 1, 2, ... (at most {MOST_DECKS}): {levels}"
    sizes = [level for level in levels if not 1 <= len(decks[level]) <= MOST_CARDS]
    if sizes:
        return f"deck {sizes[0]} holds {len(decks[sizes[0]])} cards (1 to {MOST_CARDS})"
    return ""


def learned(sealing: Sealing, players: Iterable[str], after: int) -> list[tuple[str, str]]:
    """The cards that one of `players` could first open after event `after`, with who: a move
    of theirs taken back past such a reveal would let them choose again knowing the card."""
    names = set(players)
    return [(card, who) for card, by in sealing.seen.items() for who, seq in by.items() if seq > after and who in names]


def _twice(known: Mapping[str, str]) -> str:
    seen: set[str] = set()
    for card in known.values():
        if card in seen:
            return card
        seen.add(card)
    return ""


def signer_of(sealing: Sealing, event: Event) -> bytes | None:
    """The Ed25519 key that must sign `event` (None: nobody's, such as the setup's)."""
    if isinstance(event, PlayerJoined):
        try:
            return bytes.fromhex(event.signing)
        except ValueError:
            return None
    key = sealing.keys.get(author(event))
    return key.signing if key is not None else None


__all__ = [
    "RULE",
    "Sealing",
    "Shuffle",
    "decks_problem",
    "in_words",
    "known_deck",
    "learned",
    "refuse",
    "signer_of",
]

"""Sealed games: signed events, decks nobody alone knows, cards revealed by every player (pure).

A sealed game (`splendor new --sealed`) starts with `SealedAsked`. Then:

1. **Keys.** Each player joins (`PlayerJoined`) with their Ed25519 identity key and a card key
   made for this game alone (`game_key`: derived from their secret key and the game, so that
   publishing it at the end tells nothing of their other games), proving that they hold both
   secrets in this game's context (the digest of the first event, and their seat).
2. **Shuffles.** Once every player has joined, each shuffles the three decks once, in any order
   (`DeckShuffled`): every card re-encrypted under the joint key (the sum of the card keys) and
   put in a new order, by a seed only they know (crypto/shuffle.py). The first shuffle starts
   from the decks in the order the game lists its cards, each card encrypted openly.
3. **The deal.** After the last shuffle, the cards the setup deals face up (a market, a
   pyramid) are revealed: each player publishes a decryption share of each, with its proof
   (`CardsShown`). With every share in, the game deals (its setup event, checked like a
   commit-then-reveal deal): the face-up cards as revealed, every other card a placeholder
   (`sealed.py`), and what else the setup draws (nobles, a Duel's bag) from SHA-256 of the shares.
4. **Play.** A card dealt face up is revealed when every player's share of it is in; a card
   reserved blind from a deck gets every share but its owner's, so that the owner alone sees it,
   until they buy it (then their share reveals it to all). A turn may start only when every
   face-up card is revealed and the player to move can see every card they reserved
   (`blocked`); a player's pending shares (`owed`) ride on their next event.
5. **The end.** Once the game is over, each player publishes their card secret of the game and
   their shuffle seeds (`KeysPublished`); `audit` then re-makes every shuffle and opens every
   card.

Every event after `SealedAsked` but the setup is signed by its author (`actor`): the Ed25519
signature covers the event without its `sig` and the SHA-256 of the whole event before it
(signature included), so a signed event fixes the whole history before it. The setup is signed
by nobody: it follows from the events before it, and every reader checks that it does.

Cryptography is imported here only: an open game never loads it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import IllegalMoveError, excerpt
from ..events import (
    CardsShown,
    DeckShuffled,
    Event,
    KeysPublished,
    PlayerJoined,
    SealedAsked,
    actor,
    signature,
)
from .sealed import PLACEHOLDER, is_placeholder, level_of, placeholder, position_of

if TYPE_CHECKING:
    from ..crypto.elgamal import Ciphertext, Deck
    from ..crypto.group import Point, Scalar, Source
    from ..crypto.keys import PublicKey, SecretKey
    from .variant import AnyVariant, Chance

LEVELS = (1, 2, 3)
"""The sealed decks: `deck 1` to `deck 3`, as both games' deals name them."""
RULE = "sealed"


def _refuse(message: str) -> IllegalMoveError:
    return IllegalMoveError(message, rule=RULE)


# -- the digests and the signatures ----------------------------------------------------------


def canonical(event: Event) -> bytes:
    """The event as the chain and the signatures read it: canonical JSON of its dict."""
    from ..events.codec import event_to_dict

    return _json(event_to_dict(event))


def _json(raw: dict[str, Any]) -> bytes:
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


_DIGESTS: dict[int, tuple[Event, bytes]] = {}
"""The full digest of each event hashed before, by identity (the event held, so that its identity
stays its own): a fold hashes each event as the one before the next, once."""


def full_digest(event: Event) -> bytes:
    """SHA-256 of the whole event (the chain's `parent` keeps 16 hex digits of it)."""
    known = _DIGESTS.get(id(event))
    if known is not None and known[0] is event:
        return known[1]
    digest = hashlib.sha256(canonical(event)).digest()
    _remember_digest(event, digest)
    return digest


def _remember_digest(event: Event, digest: bytes) -> None:
    if len(_DIGESTS) > 20_000:
        _DIGESTS.clear()
    _DIGESTS[id(event)] = (event, digest)


def _unsigned(event: Event) -> Event:
    if not signature(event):
        return event
    unsigned: Event = attrs.evolve(event, sig="")  # type: ignore[misc]
    return unsigned


def _signed_message(event: Event, previous: Event) -> bytes:
    """What a signature covers: the event without its `sig` (as `_unsigned` makes it: a field at
    its default is not written), and the full digest of the event before it. The event's own full
    digest is kept on the way (the next event's signature covers it)."""
    from ..crypto.group import framed
    from ..events.codec import event_to_dict

    raw = event_to_dict(event)
    if "sig" in raw:
        known = _DIGESTS.get(id(event))
        if known is None or known[0] is not event:
            _remember_digest(event, hashlib.sha256(_json(raw)).digest())
        del raw["sig"]
    return framed(b"splendor-cli/event/v1", _json(raw), full_digest(previous))


def sign(event: Event, previous: Event, secret: SecretKey) -> Event:
    """`event` (sealed onto the log: its envelope set) signed by `secret`, after `previous`."""
    sig = secret.sign("event", _signed_message(event, previous)).hex()
    signed: Event = attrs.evolve(event, sig=sig)  # type: ignore[misc]
    return signed


def signer_of(sealing: Sealing, event: Event) -> bytes | None:
    """The Ed25519 key that must sign `event` (None: nobody's, such as the setup's)."""
    if isinstance(event, PlayerJoined):
        try:
            return bytes.fromhex(event.signing)
        except ValueError:
            return None
    key = sealing.keys.get(actor(event))
    return key.signing if key is not None else None


def game_key(secret: SecretKey, root: bytes) -> SecretKey:
    """A player's keys for the game of first-event digest `root`: their own signing key, and a
    card secret made for this game alone (published at the end without harm to other games)."""
    from ..crypto.group import hash_to_scalar
    from ..crypto.keys import SecretKey as Secret

    card = hash_to_scalar("game-card", secret.signing, secret.card.data, root)
    return Secret(name=secret.name, signing=secret.signing, card=card)


def seed_label(root: bytes, player: str, level: int) -> str:
    """The label of a player's shuffle of a deck (crypto/shuffle.py): the game, the seat, the deck."""
    return f"{root.hex()}:{player}:deck {level}"


def _context(root: bytes, *parts: str) -> bytes:
    from ..crypto.group import framed

    return framed(root, *(part.encode("utf-8") for part in parts))


def shuffle_context(root: bytes, player: str, level: int) -> bytes:
    """What a proof of shuffle is bound to besides its decks and the joint key: the game (the
    digest of its first event), the seat and the deck. A proof moved to another game, seat or
    deck does not verify."""
    return _context(root, "shuffle", player, f"deck {level}")


# -- what the game deals ---------------------------------------------------------------------


class _Probe:
    """A chance that records the cards of each deck the game's deal shuffles, and deals them
    as listed (or as `decks` gives them)."""

    def __init__(self, decks: Mapping[int, tuple[str, ...]] | None = None, rest: Chance | None = None) -> None:
        self.cards: dict[int, tuple[str, ...]] = {}
        self.decks = decks or {}
        self.rest = rest

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        level = _level_label(label)
        if level is not None:
            self.cards[level] = tuple(items)
            if level in self.decks:
                return self.decks[level]
            return tuple(placeholder(level, k) for k in range(1, len(items) + 1))
        return self.rest.shuffle(items, label) if self.rest else tuple(items)

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return self.rest.sample(items, count, label) if self.rest else tuple(items[:count])


@functools.lru_cache(maxsize=16)
def _deck(cards: tuple[str, ...]) -> Deck:
    """The known deck of these cards (their points are hashed once per process)."""
    from ..crypto.elgamal import Deck

    return Deck(cards)


def _level_label(label: str) -> int | None:
    for level in LEVELS:
        if label == f"deck {level}":
            return level
    return None


_LAST: list[Any] = [None, ((), {})]
"""The state `placeholders` read last, and what it found: a fold asks of one state several
times (may it move, what is owed, what may be shown)."""


def _placeholders(sealing: Sealing, state: Any) -> tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]]:
    if _LAST[0] is state:
        found: tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]] = _LAST[1]
        return found
    cards, reserves = sealing.places(state)
    found = (
        tuple(card for card in cards if is_placeholder(card)),
        {
            owner: mine
            for owner, kept in reserves.items()
            if (mine := tuple(card for card in kept if is_placeholder(card)))
        },
    )
    _LAST[0], _LAST[1] = state, found
    return found


def placeholders(sealing: Sealing, state: Any) -> tuple[list[str], dict[str, list[str]]]:
    """The placeholders of `state` outside its decks: face up (a market slot), and reserved blind
    (by owner), where the game's `Variant.card_places` says its states keep cards."""
    face_up, reserved = _placeholders(sealing, state)
    return list(face_up), {owner: list(cards) for owner, cards in reserved.items()}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(field.name for field in attrs.fields(cls))
    return names


def substitute(value: Any, cards: Mapping[str, str]) -> Any:
    """`value` (a state) with every placeholder of `cards` replaced by its card: only the parts
    that hold one are made anew, the others are kept as they are (the very objects)."""
    if not cards:
        return value
    return _substituted(value, cards)


_PARTS: dict[type, bool] = {}
"""Whether values of a type may hold cards (a tuple, a dict, an attrs class), by type."""


def _has_parts(kind: type) -> bool:
    known = _PARTS.get(kind)
    if known is None:
        known = _PARTS[kind] = kind is tuple or kind is dict or attrs.has(kind)
    return known


def _substituted(value: Any, cards: Mapping[str, str]) -> Any:
    kind = type(value)
    if kind is str:
        return cards.get(value, value)
    if kind is tuple:
        items: list[Any] = []
        changed = False
        new: Any
        for item in value:
            inner = type(item)
            if inner is str:
                new = cards.get(item, item)
            elif _has_parts(inner):
                new = _substituted(item, cards)
            else:
                new = item  # None, a number, a gem: no card in it
            changed = changed or new is not item
            items.append(new)
        return tuple(items) if changed else value
    if kind is dict:
        pairs = [(_substituted(k, cards), _substituted(v, cards)) for k, v in value.items()]
        changed = any(k is not old_k or v is not old_v for (k, v), (old_k, old_v) in zip(pairs, value.items()))
        return dict(pairs) if changed else value
    if _has_parts(kind):
        changes = {}
        for name in _field_names(kind):
            old = getattr(value, name)
            inner = type(old)
            if inner is str:
                new = cards.get(old, old)
            elif _has_parts(inner):
                new = _substituted(old, cards)
            else:
                continue
            if new is not old:
                changes[name] = new
        return attrs.evolve(value, **changes) if changes else value
    return value


# -- the sealed table ------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Shuffle:
    """One player's shuffle: the decks it left (level 1 to 3), as the bytes of their ciphertexts
    (64 each, from the top: `DeckShuffled.deck_N` decoded); each card is made a `Ciphertext`, its
    points checked, when first used."""

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
            made = self._made[key] = Ciphertext.from_bytes(data[at : at + _CIPHERTEXT], f"deck_{level} card {position}")
        return made

    @property
    def decks(self) -> tuple[tuple[Ciphertext, ...], ...]:
        return tuple(
            tuple(self.card(level, k) for k in range(1, len(data) // _CIPHERTEXT + 1))
            for level, data in zip(LEVELS, self.data, strict=True)
        )


_CIPHERTEXT = 64
"""The bytes of a ciphertext (two points)."""


@attrs.frozen(kw_only=True)
class Sealing:
    """Where a sealed game's cryptography stands (every reader rebuilds it from the log)."""

    players: tuple[str, ...]
    root: bytes
    """SHA-256 of the first event (`SealedAsked`): what binds every proof to this game."""
    cards: Mapping[int, tuple[str, ...]]
    """The cards of each deck, in the order the game lists them: the first shuffle's input."""
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
    places: Callable[[Any], tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]]] = attrs.field(eq=False, repr=False)
    """Where the game's states keep their cards (`Variant.card_places`), for `placeholders`."""
    _memo: dict[str, Any] = attrs.field(init=False, factory=dict, eq=False, repr=False)
    """What is worked out once per table (`partial`, `joint_key`): a new table starts without."""

    @classmethod
    def start(cls, variant: AnyVariant, event: SealedAsked) -> Sealing:
        """The sealed table of a game that `event` (the first of its log) asks for."""
        probe = _Probe()
        variant.deal(event.players, probe)
        if sorted(probe.cards) != list(LEVELS):
            raise _refuse(f"{variant.title} cannot be played sealed: its deal shuffles no three decks")
        return cls(players=event.players, root=full_digest(event), cards=probe.cards, places=variant.card_places)

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

        return tuple(_deck(self.cards[level]).unmasked() for level in LEVELS)

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
        return f"waiting for {_and(late)} to {what} (`splendor seal --as NAME`)"

    # -- the events

    def join(self, event: PlayerJoined, *, verify: bool = True) -> Sealing:
        """The table with `event`'s keys; `verify`: the proof of possession checked (a file's
        events that this reader verified before need not be: see `replay`'s `trusted`)."""
        from ..crypto.group import Point, parse_hex
        from ..crypto.keys import Possession, PublicKey, check_possession

        self._check_player(event.player)
        if event.player in self.keys:
            raise _refuse(f"{event.player} has joined already")
        public = PublicKey(
            name=event.player, signing=parse_hex(event.signing, 32, "signing"), card=Point.from_hex(event.card, "card")
        )
        if any(public.signing == k.signing or public.card == k.card for k in self.keys.values()):
            raise _refuse(f"{event.player} joins with a key another player holds")
        possession = Possession.from_hex(event.possession)
        if verify:
            check_possession(public, possession, _context(self.root, "join", event.player))
        return attrs.evolve(self, keys={**self.keys, event.player: public})

    def shuffle(self, event: DeckShuffled, *, verify: bool = True) -> Sealing:
        """The table with `event`'s decks; `verify`: each deck's proof of shuffle checked (see
        `join`): a deck that is not a permutation and re-encryption of the deck before it (a
        stacked deck, a card dropped, doubled or replaced) is refused at once, naming its player."""
        from ..crypto.elgamal import deck_bytes
        from ..crypto.errors import MalformedError

        self._check_player(event.player)
        if not self.joined:
            raise _refuse(f"the decks are shuffled only once every player has joined: {self.stage()}")
        if any(s.player == event.player for s in self.shuffles):
            raise _refuse(f"{event.player} has shuffled the decks already")
        decks: list[bytes] = []
        for level, text in zip(LEVELS, (event.deck_1, event.deck_2, event.deck_3), strict=True):
            size = len(self.cards[level])
            try:
                decks.append(deck_bytes(text, size, f"deck_{level}"))
            except MalformedError:
                raise _refuse(
                    f"deck_{level} is not the {size} ciphertexts of the deck (base64 of {size} x 64 bytes,"
                    " padded, on one line)"
                ) from None
        if len(event.proofs) != len(LEVELS):
            raise _refuse(f"{event.player}'s shuffle carries no proof of shuffle for each deck: it cannot be trusted")
        shuffled = Shuffle(player=event.player, data=tuple(decks))
        if verify:
            from ..crypto.shuffle_proof import ShuffleProof, verify_shuffle

            joint = self.joint_key()
            for level, text, old, new in zip(LEVELS, event.proofs, self.decks(), shuffled.decks, strict=True):
                try:
                    proof = ShuffleProof.from_text(text, len(old), f"proof of deck {level}")
                except MalformedError as exc:
                    raise _refuse(f"{event.player}'s shuffle: {exc}") from None
                if not verify_shuffle(old, new, joint, proof, shuffle_context(self.root, event.player, level)):
                    raise _refuse(
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

        self._check_player(event.player)
        if not event.cards or len(event.cards) != len(event.shares):
            raise _refuse("cards_shown lists one share per card, and at least one")
        if len(set(event.cards)) != len(event.cards):
            raise _refuse("cards_shown names a card twice")
        shares = dict(self.shares)  # each card's shares copied only when this event adds to them
        seen: dict[str, dict[str, int]] = {}
        revealed: dict[str, str] = {}
        for card, text in zip(event.cards, event.shares, strict=True):
            if not PLACEHOLDER.fullmatch(card) or not 1 <= position_of(card) <= len(self.cards[level_of(card)]):
                raise _refuse(f"{excerpt(card)} is no sealed card of this game")
            if event.player in shares.get(card, {}):
                raise _refuse(f"{event.player} has shown their share of {card} already")
            why = allowed(card)
            if why:
                raise _refuse(f"{event.player} may not show {card}: {why}")
            ciphertext = self.ciphertext(card)
            share = Share.from_text(text, f"share of {card}")
            key = self.keys[event.player].card
            if verify and not verify_share(ciphertext, share, key, _context(self.root, "share", card)):
                raise _refuse(f"{event.player}'s decryption share of {card} does not verify against their key")
            have = shares[card] = {**shares.get(card, {}), event.player: share.point}
            opened = seen.setdefault(card, dict(self.seen.get(card, {})))
            for player in self.players:
                if player not in opened and all(p in have for p in self.players if p != player):
                    opened[player] = event.seq
            if len(have) == len(self.players):
                level = level_of(card)
                try:
                    revealed[card] = _deck(self.cards[level]).card_of(combine(ciphertext, have.values()))
                except ValueError:
                    raise _refuse(f"{card} opens to no card of deck {level}: a shuffle cheated") from None
        known = {**self.revealed, **revealed}
        twice = _twice(known) if revealed else ""  # the cards revealed before were checked then
        if twice:
            raise _refuse(f"{twice} is revealed twice in the sealed decks: a shuffle cheated")
        return attrs.evolve(self, shares=shares, revealed=known, seen={**self.seen, **seen}), revealed

    def publish(self, event: KeysPublished, finished: bool) -> Sealing:
        from ..crypto.group import Point, Scalar, parse_hex

        self._check_player(event.player)
        if not finished:
            raise _refuse("the keys are published only once the game is over")
        if event.player in self.published:
            raise _refuse(f"{event.player} has published their keys already")
        if Point.base_times(Scalar.from_hex(event.card, "card secret")) != self.keys[event.player].card:
            raise _refuse(f"{event.player}'s published card secret is not the one of their key")
        if len(event.seeds) != len(LEVELS):
            raise _refuse(f"keys_published lists {len(LEVELS)} seeds, one per deck")
        for text in event.seeds:
            parse_hex(text, 32, "seed")
        return attrs.evolve(self, published={**self.published, event.player: event})

    def check_signature(self, event: Event, previous: Event) -> None:
        """Refuse `event` unless it is signed by its author (`actor`)."""
        import binascii

        who = actor(event)
        if who not in self.keys:
            raise _refuse(f"{event.TYPE} by {excerpt(who) or 'nobody'}, who holds no key in this game")
        sig = signature(event)
        if not sig:
            raise _refuse(f"{event.TYPE} by {who} is not signed")
        try:
            raw = binascii.unhexlify(sig)
        except (binascii.Error, ValueError):
            raw = b""
        if not self.keys[who].verify("event", _signed_message(event, previous), raw):
            raise _refuse(f"{event.TYPE}: the signature is not {who}'s (a forged or altered event)")

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise _refuse(f"{excerpt(player)} does not play in this game")


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


def _and(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else ""


# -- the deal --------------------------------------------------------------------------------


def face_up_cards(variant: AnyVariant, sealing: Sealing) -> tuple[str, ...]:
    """The placeholders that the game's setup deals face up (in the order the state holds them)."""
    probe = _Probe()
    setup = variant.deal(sealing.players, probe)
    face_up, _ = _placeholders(sealing, variant.start(setup))
    return face_up


def deal(variant: AnyVariant, sealing: Sealing) -> Event:
    """The setup of a sealed game whose face-up cards are all revealed: those cards where the
    deal puts them, a placeholder for every other card, and the rest of the deal (nobles, a
    Duel's bag) from SHA-256 of every share of the face-up cards."""
    from .seeding import SeededChance

    late = [card for card in sealing.face_up if card not in sealing.revealed]
    if not sealing.shuffled or late:
        raise _refuse(f"the cards cannot be dealt yet: {sealing.stage()}")
    decks = {
        level: tuple(
            sealing.revealed.get(placeholder(level, k), placeholder(level, k))
            for k in range(1, len(sealing.cards[level]) + 1)
        )
        for level in LEVELS
    }
    seed = hashlib.sha256(sealing.root)
    for card in sealing.face_up:
        for player in sealing.players:
            seed.update(sealing.shares[card][player].data)
    return variant.deal(sealing.players, _Probe(decks, SeededChance(seed.digest())))


# -- the rules of revealing ------------------------------------------------------------------


def exposed(sealing: Sealing, state: Any) -> list[str]:
    """The cards back in a deck with some shares out (an undo took back the move that dealt or
    reserved them): whoever holds the others' shares could open them alone, so every player owes
    their share, and the card is revealed to all, as at the table a card seen stays seen."""
    partial = sealing.partial()
    if not partial:
        return []
    return [card for deck in state.decks for card in deck if isinstance(card, str) and card in partial]


def may_show(sealing: Sealing, state: Any | None, player: str) -> Callable[[str], str]:
    """Why `player` may not show their share of a placeholder now ("" when they may): before the
    deal, only the face-up cards of the setup; after it, a card face up or reserved, or one an
    undo put back in its deck after it was shown (`exposed`); another deck's card never: it
    would open the deck."""
    if state is None:
        allowed = set(sealing.face_up)
        return lambda card: "" if card in allowed else "before the deal, only the setup's face-up cards are shown"
    face_up, reserved = _placeholders(sealing, state)
    shown = set(face_up) | {card for cards in reserved.values() for card in cards} | set(exposed(sealing, state))
    return lambda card: "" if card in shown else "it is not face up or reserved (a deck's card stays sealed)"


def owed(sealing: Sealing, state: Any | None, player: str) -> list[str]:
    """The shares `player` owes now, in order: each face-up card's (the setup's, before the deal),
    each card another player reserved blind (never their own reserve's), each card shown then
    put back in its deck by an undo (`exposed`)."""
    if sealing.dealt and state is None:
        return []
    if state is None:
        return [card for card in sealing.face_up if player in sealing.missing(card)]
    face_up, reserved = _placeholders(sealing, state)
    cards = [
        *face_up,
        *(card for owner, cards in reserved.items() if owner != player for card in cards),
        *exposed(sealing, state),
    ]
    return [card for card in dict.fromkeys(cards) if player in sealing.missing(card)]


def blocked(sealing: Sealing, state: Any, player: str) -> str:
    """Why `player` may not start a turn now ("" when they may): a face-up card not revealed to
    all, a card shown then put back in its deck not revealed to all, or a card of theirs
    reserved blind that misses another player's share."""
    face_up, reserved = _placeholders(sealing, state)
    for card in face_up:
        late = sealing.missing(card)
        if late:
            return f"the face-up card {card} is not revealed yet: it waits for {_shares(late)}"
    back = exposed(sealing, state)
    if back:
        late = sealing.missing(back[0])
        return f"the card {back[0]}, shown then put back in its deck by an undo, waits for {_shares(late)}"
    for card in reserved.get(player, []):
        late = sealing.missing(card, but=player)
        if late:
            return f"{player}'s blind reserve {card} waits for {_shares(late)}"
    return ""


def _shares(names: Sequence[str]) -> str:
    return f"{_and([f'{n}' for n in names])}'s decryption share{'s' if len(names) > 1 else ''}"


def waiting(sealing: Sealing, state: Any | None) -> list[tuple[str, list[str]]]:
    """Each sealed card that waits for shares, with whose: face up, then reserved blind (for
    those, every player's but the owner's), for `show` to say."""
    if state is None:
        return [(card, sealing.missing(card)) for card in sealing.face_up if sealing.missing(card)]
    face_up, reserved = _placeholders(sealing, state)
    out = [(card, sealing.missing(card)) for card in [*face_up, *exposed(sealing, state)] if sealing.missing(card)]
    for owner, cards in reserved.items():
        out += [(card, sealing.missing(card, but=owner)) for card in cards if sealing.missing(card, but=owner)]
    return out


# -- a seat's view ---------------------------------------------------------------------------


def private_cards(sealing: Sealing, state: Any, seat: str, card_secret: Scalar) -> dict[str, str]:
    """The cards `seat` can open alone with their card secret of the game: every placeholder
    outside the decks whose other shares are all in (their own blind reserves, a face-up card
    that waits only for their share)."""
    from ..crypto.elgamal import combine, share_point

    face_up, reserved = _placeholders(sealing, state)
    out: dict[str, str] = {}
    for card in (*face_up, *reserved.get(seat, ())):
        if card in out or sealing.missing(card, but=seat):
            continue
        ciphertext = sealing.ciphertext(card)
        points = [p for name, p in sealing.shares.get(card, {}).items() if name != seat]
        point = combine(ciphertext, [*points, share_point(ciphertext, card_secret)])
        try:
            out[card] = _deck(sealing.cards[level_of(card)]).card_of(point)
        except ValueError:
            continue  # a cheating shuffle: the audit names it
    return out


# -- a player's part -------------------------------------------------------------------------


def duties(
    sealing: Sealing, state: Any | None, player: str, secret: SecretKey, source: Source, *, finished: bool
) -> list[Event]:
    """The events `player` (holding `secret`, their own secret key) owes the game now, unsigned
    and unsealed, in order: their join, their shuffle, the shares they owe, their keys once the
    game is over. [] when they owe nothing (or must wait for others)."""
    from ..crypto.elgamal import deck_text, decryption_share

    if player not in sealing.players:
        raise _refuse(f"{excerpt(player)} does not play in this game")
    mine = game_key(secret, sealing.root)
    if player not in sealing.keys:
        public = mine.public
        possession = mine.possession(_context(sealing.root, "join", player), source)
        return [
            PlayerJoined(
                seq=0,
                parent="",
                player=player,
                signing=public.signing.hex(),
                card=public.card.to_hex(),
                possession=possession.to_hex(),
            )
        ]
    if sealing.keys[player].card != mine.public.card:
        raise _refuse(f"{player} joined this game with other keys than the ones here")
    if not sealing.joined:
        return []
    if not any(s.player == player for s in sealing.shuffles):
        from ..crypto.shuffle_proof import shuffle_and_prove

        joint = sealing.joint_key()
        made = [
            shuffle_and_prove(
                deck,
                joint,
                secret.shuffle_seed(seed_label(sealing.root, player, level)),
                "deck",
                shuffle_context(sealing.root, player, level),
                source,
            )
            for level, deck in zip(LEVELS, sealing.decks(), strict=True)
        ]
        texts = [deck_text(deck) for deck, _ in made]
        proofs = tuple(proof.to_text() for _, proof in made)
        return [
            DeckShuffled(
                seq=0, parent="", player=player, deck_1=texts[0], deck_2=texts[1], deck_3=texts[2], proofs=proofs
            )
        ]
    events: list[Event] = []
    if not sealing.shuffled:
        return events
    cards = owed(sealing, state, player)
    if cards:
        shares = tuple(
            decryption_share(
                sealing.ciphertext(card), mine.card, _context(sealing.root, "share", card), source
            ).to_text()
            for card in cards
        )
        events.append(CardsShown(seq=0, parent="", player=player, cards=tuple(cards), shares=shares))
    if finished and player not in sealing.published:
        seeds = tuple(secret.shuffle_seed(seed_label(sealing.root, player, level)).hex() for level in LEVELS)
        events.append(KeysPublished(seq=0, parent="", player=player, card=mine.card.to_hex(), seeds=seeds))
    return events


def reveal_own(
    sealing: Sealing, state: Any, player: str, secret: SecretKey, source: Source, cards: Iterable[str]
) -> CardsShown:
    """`player`'s shares of their own blind reserves `cards` (placeholders), to buy one of them."""
    from ..crypto.elgamal import decryption_share

    mine = game_key(secret, sealing.root)
    cards = tuple(cards)
    shares = tuple(
        decryption_share(sealing.ciphertext(card), mine.card, _context(sealing.root, "share", card), source).to_text()
        for card in cards
    )
    return CardsShown(seq=0, parent="", player=player, cards=cards, shares=shares)


# -- the audit -------------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class Audit:
    """What `audit` found: problems (each naming a player or an event), what it could check."""

    problems: tuple[str, ...]
    unpublished: tuple[str, ...]
    """The players who have not published their keys: their shuffles cannot be checked."""
    shuffles_checked: int
    cards_opened: int
    reserves: Mapping[str, tuple[str, ...]] = attrs.Factory(dict)
    """Every player's blind reserves, opened (once every key is published)."""


def audit(sealing: Sealing, state: Any | None) -> Audit:
    """Re-make every shuffle from its published seed, and open every sealed card with the
    published card secrets: a shuffle that no seed explains is named with its player."""
    from ..crypto.elgamal import combine, share_point
    from ..crypto.group import Scalar
    from ..crypto.shuffle import check_shuffle

    problems: list[str] = []
    unpublished = tuple(p for p in sealing.players if p not in sealing.published)
    checked = 0
    if sealing.joined and sealing.shuffled:
        joint = sealing.joint_key()
        before = [_deck(sealing.cards[level]).unmasked() for level in LEVELS]
        for shuffled in sealing.shuffles:
            keys = sealing.published.get(shuffled.player)
            for index, level in enumerate(LEVELS):
                if keys is not None:
                    seed = bytes.fromhex(keys.seeds[index])
                    if not check_shuffle(before[index], shuffled.decks[index], joint, seed, "deck"):
                        problems.append(
                            f"{shuffled.player}'s shuffle of deck {level} is not the shuffle their seed makes:"
                            " a cheating shuffle (cards dropped, doubled or replaced)"
                        )
                    else:
                        checked += 1
                before[index] = shuffled.decks[index]
    opened = 0
    reserves: dict[str, tuple[str, ...]] = {}
    if not unpublished and sealing.shuffled:
        secrets = [Scalar.from_hex(sealing.published[p].card) for p in sealing.players]
        whole = secrets[0]
        for secret in secrets[1:]:
            whole = whole + secret  # the sum of the shares a x_i is a (sum x_i): one product a card
        deck_cards: dict[str, str] = {}
        for level, deck in zip(LEVELS, sealing.decks(), strict=True):
            known = _deck(sealing.cards[level])
            seen: list[str] = []
            for k, ciphertext in enumerate(deck, start=1):
                point = combine(ciphertext, [share_point(ciphertext, whole)])
                try:
                    card = known.card_of(point)
                except ValueError:
                    problems.append(f"{placeholder(level, k)} opens to no card of deck {level}: a shuffle cheated")
                    continue
                deck_cards[placeholder(level, k)] = card
                seen.append(card)
                opened += 1
            if sorted(seen) != sorted(known.cards) and not problems:
                problems.append(f"deck {level} is not a permutation of its cards: a shuffle cheated")
        for card, got in sealing.revealed.items():
            if deck_cards.get(card, got) != got:  # pragma: no cover - the shares' proofs rule it out
                problems.append(f"{card} was revealed as {got}, but opens to {deck_cards[card]}")
        if state is not None:
            _, reserved = _placeholders(sealing, state)
            reserves = {owner: tuple(deck_cards.get(c, c) for c in cards) for owner, cards in reserved.items()}
    return Audit(
        problems=tuple(problems),
        unpublished=unpublished,
        shuffles_checked=checked,
        cards_opened=opened,
        reserves=reserves,
    )


__all__ = [
    "Audit",
    "Sealing",
    "audit",
    "blocked",
    "canonical",
    "deal",
    "duties",
    "face_up_cards",
    "full_digest",
    "game_key",
    "learned",
    "may_show",
    "owed",
    "placeholders",
    "private_cards",
    "reveal_own",
    "sign",
    "signer_of",
    "substitute",
    "waiting",
]

"""The rules of revealing a sealed game's cards, read from a table and the game's state (pure).

Where a state keeps cards outside its decks is what the game declares (`SealedCards.card_places`):
the placeholders found there (`unrevealed`) are the face-up cards being revealed and the cards
reserved blind. From them: what each player may show (`may_show`) and owes (`owed`), what a turn
waits for (`blocked`, `waiting`), the cards a seat opens alone (`private_cards`), and the state
with revealed cards in place (`substitute`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .placeholders import is_placeholder, level_of
from .table import in_words, known_deck

if TYPE_CHECKING:
    from ..crypto.group import Scalar
    from .table import Sealing

_LAST: list[Any] = [None, ((), {})]
"""The state `unrevealed` read last, and what it found: a fold asks of one state several
times (may it move, what is owed, what may be shown)."""


def unrevealed(sealing: Sealing, state: Any) -> tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]]:
    """The placeholders of `state` outside its decks, where the game declares its states keep
    cards: face up (in the order the state holds them), and reserved blind, by owner (only the
    owners who hold one). Kept for the state read last: a fold asks of one state several times."""
    if _LAST[0] is state:
        found: tuple[tuple[str, ...], Mapping[str, tuple[str, ...]]] = _LAST[1]
        return found
    cards, reserves = sealing.game.card_places(state)
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
    (by owner), where the game declares its states keep cards (`SealedCards.card_places`)."""
    face_up, reserved = unrevealed(sealing, state)
    return list(face_up), {owner: list(cards) for owner, cards in reserved.items()}


def substitute(sealing: Sealing, value: Any, cards: Mapping[str, str]) -> Any:
    """`value` (a state, or a play event) with every placeholder of `cards` replaced by its card,
    as the game declares (`SealedCards.substitute`): only the parts that hold one are made anew,
    the others are kept as they are (the very objects)."""
    if not cards:
        return value
    return sealing.game.substitute(value, cards)


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
    face_up, reserved = unrevealed(sealing, state)
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
    face_up, reserved = unrevealed(sealing, state)
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
    face_up, reserved = unrevealed(sealing, state)
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
    return f"{in_words([f'{n}' for n in names])}'s decryption share{'s' if len(names) > 1 else ''}"


def waiting(sealing: Sealing, state: Any | None) -> list[tuple[str, list[str]]]:
    """Each sealed card that waits for shares, with whose: face up, then reserved blind (for
    those, every player's but the owner's), for `show` to say."""
    if state is None:
        return [(card, sealing.missing(card)) for card in sealing.face_up if sealing.missing(card)]
    face_up, reserved = unrevealed(sealing, state)
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

    face_up, reserved = unrevealed(sealing, state)
    out: dict[str, str] = {}
    for card in (*face_up, *reserved.get(seat, ())):
        if card in out or sealing.missing(card, but=seat):
            continue
        ciphertext = sealing.ciphertext(card)
        points = [p for name, p in sealing.shares.get(card, {}).items() if name != seat]
        point = combine(ciphertext, [*points, share_point(ciphertext, card_secret)])
        try:
            out[card] = known_deck(sealing.cards[level_of(card)]).card_of(point)
        except ValueError:
            continue  # a cheating shuffle: the audit names it
    return out


__all__ = [
    "blocked",
    "exposed",
    "may_show",
    "owed",
    "placeholders",
    "private_cards",
    "substitute",
    "unrevealed",
    "waiting",
]

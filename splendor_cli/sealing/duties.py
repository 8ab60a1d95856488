"""A player's part in a sealed game: the events they owe it now (their join, their shuffle,
their decryption shares, their keys at the end), and the shares that show their own blind
reserves to buy one (pure: randomness comes in as `source`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import excerpt
from ..events import Event
from .events import CardsShown, DeckShuffled, KeysPublished, PlayerJoined
from .reveal import owed
from .signing import NONCE_BYTES, context, shuffle_context
from .table import refuse

if TYPE_CHECKING:
    from ..crypto.group import Source
    from .signing import GameKey
    from .table import Sealing


def duties(
    sealing: Sealing, state: Any | None, player: str, keys: GameKey, source: Source, *, finished: bool
) -> list[Event]:
    """The events `player` (holding `keys`, their keys of this game) owes the game now, unsigned
    and not chained (no envelope yet), in order: their join, their shuffle, the shares they owe,
    their keys once the game is over. [] when they owe nothing (or must wait for others)."""
    from ..crypto.elgamal import deck_text, decryption_share

    if player not in sealing.players:
        raise refuse(f"{excerpt(player)} does not play in this game")
    mine = keys.key
    if player not in sealing.keys:
        public = mine.public
        possession = mine.possession(context(sealing.root, "join", player), source)
        return [
            PlayerJoined(
                player=player,
                signing=public.signing.hex(),
                card=public.card.to_hex(),
                possession=possession.to_hex(),
                nonce=source(NONCE_BYTES).hex() if sealing.keyed else "",
            )
        ]
    if sealing.keys[player].card != mine.public.card:
        raise refuse(f"{player} joined this game with other keys than the ones here")
    if not sealing.joined:
        return []
    if not any(s.player == player for s in sealing.shuffles):
        from ..crypto.shuffle_proof import shuffle_and_prove

        joint = sealing.joint_key()
        made = [
            shuffle_and_prove(
                deck,
                joint,
                keys.seed(sealing.session, player, level),
                "deck",
                shuffle_context(sealing.session, player, level),
                source,
            )
            for level, deck in zip(sealing.levels, sealing.decks(), strict=True)
        ]
        texts = [deck_text(deck) for deck, _ in made]
        proofs = tuple(proof.to_text() for _, proof in made)
        return [DeckShuffled(player=player, decks=tuple(texts), proofs=proofs)]
    events: list[Event] = []
    if not sealing.shuffled:
        return events
    cards = owed(sealing, state, player)
    if cards:
        shares = tuple(
            decryption_share(
                sealing.ciphertext(card), mine.card, context(sealing.session, "share", card), source
            ).to_text()
            for card in cards
        )
        events.append(CardsShown(player=player, cards=tuple(cards), shares=shares))
    if finished and player not in sealing.published:
        seeds = tuple(keys.seed(sealing.session, player, level).hex() for level in sealing.levels)
        events.append(KeysPublished(player=player, card=mine.card.to_hex(), seeds=seeds))
    return events


def reveal_own(
    sealing: Sealing, state: Any, player: str, keys: GameKey, source: Source, cards: Iterable[str]
) -> CardsShown:
    """`player`'s shares of their own blind reserves `cards` (placeholders), to buy one of them."""
    from ..crypto.elgamal import decryption_share

    mine = keys.key
    cards = tuple(cards)
    shares = tuple(
        decryption_share(sealing.ciphertext(card), mine.card, context(sealing.session, "share", card), source).to_text()
        for card in cards
    )
    return CardsShown(player=player, cards=cards, shares=shares)


__all__ = ["duties", "reveal_own"]

"""The audit of a sealed game once it is over: every shuffle re-made from its published seed,
every sealed card opened with the published card secrets (pure).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from .placeholders import placeholder
from .reveal import unrevealed
from .table import known_deck

if TYPE_CHECKING:
    from .table import Sealing


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
        before = [known_deck(sealing.cards[level]).unmasked() for level in sealing.levels]
        for shuffled in sealing.shuffles:
            keys = sealing.published.get(shuffled.player)
            for index, level in enumerate(sealing.levels):
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
        for level, deck in zip(sealing.levels, sealing.decks(), strict=True):
            known = known_deck(sealing.cards[level])
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
            _, reserved = unrevealed(sealing, state)
            reserves = {owner: tuple(deck_cards.get(c, c) for c in cards) for owner, cards in reserved.items()}
    return Audit(
        problems=tuple(problems),
        unpublished=unpublished,
        shuffles_checked=checked,
        cards_opened=opened,
        reserves=reserves,
    )


__all__ = ["Audit", "audit"]

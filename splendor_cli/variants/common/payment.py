"""Paying for a card, in both games: the cost after bonuses, the default payment, an exact check.

A cost is the card's `cost.counts` (seven counts in `KINDS` order, pearl last; gold is 0).
Bonuses discount the five colours only: no card gives gold, and no card gives pearls, so a
pearl cost is never discounted (Duel rule 16). Gold stands in for any one gem or pearl.
"""

from __future__ import annotations

import operator

from ...errors import IllegalMoveError
from ...model import KINDS, Tokens

Cost = tuple[int, ...]


def still_to_pay(cost: Cost, bonuses: Tokens) -> Tokens:
    """The cost after the bonuses, per kind, never below zero."""
    c0, c1, c2, c3, c4, _, c6 = cost
    b0, b1, b2, b3, b4, _, _ = bonuses.counts
    return Tokens._trusted(
        (
            c0 - b0 if c0 > b0 else 0,
            c1 - b1 if c1 > b1 else 0,
            c2 - b2 if c2 > b2 else 0,
            c3 - b3 if c3 > b3 else 0,
            c4 - b4 if c4 > b4 else 0,
            0,
            c6,
        )
    )


def default_payment(cost: Cost, bonuses: Tokens, tokens: Tokens) -> Tokens | None:
    """Gems and pearls first, gold for the rest; None when `tokens` cannot pay.

    Unrolled by hand: it runs for every card on the table at every turn of random play.
    """
    c0, c1, c2, c3, c4, _, n6 = cost
    b0, b1, b2, b3, b4, _, _ = bonuses.counts
    h0, h1, h2, h3, h4, gold, h6 = tokens.counts
    n0, n1, n2, n3, n4 = c0 - b0, c1 - b1, c2 - b2, c3 - b3, c4 - b4
    short = (
        (n0 - h0 if n0 > h0 else 0)
        + (n1 - h1 if n1 > h1 else 0)
        + (n2 - h2 if n2 > h2 else 0)
        + (n3 - h3 if n3 > h3 else 0)
        + (n4 - h4 if n4 > h4 else 0)
        + (n6 - h6 if n6 > h6 else 0)
    )
    if short > gold:
        return None
    return Tokens._trusted(
        (
            0 if n0 <= 0 else n0 if n0 <= h0 else h0,
            0 if n1 <= 0 else n1 if n1 <= h1 else h1,
            0 if n2 <= 0 else n2 if n2 <= h2 else h2,
            0 if n3 <= 0 else n3 if n3 <= h3 else h3,
            0 if n4 <= 0 else n4 if n4 <= h4 else h4,
            short,
            n6 if n6 <= h6 else h6,
        )
    )


def affordable(cost: Cost, bonuses: Tokens, tokens: Tokens) -> bool:
    """Whether `tokens` can pay `cost` after `bonuses` (`default_payment` is not None), quicker."""
    c0, c1, c2, c3, c4, _, n6 = cost
    b0, b1, b2, b3, b4, _, _ = bonuses.counts
    h0, h1, h2, h3, h4, gold, h6 = tokens.counts
    n0, n1, n2, n3, n4 = c0 - b0 - h0, c1 - b1 - h1, c2 - b2 - h2, c3 - b3 - h3, c4 - b4 - h4
    return (
        (n0 if n0 > 0 else 0)
        + (n1 if n1 > 0 else 0)
        + (n2 if n2 > 0 else 0)
        + (n3 if n3 > 0 else 0)
        + (n4 if n4 > 0 else 0)
        + (n6 - h6 if n6 > h6 else 0)
    ) <= gold


def check_payment(name: str, card: str, cost: Cost, bonuses: Tokens, tokens: Tokens, payment: Tokens) -> None:
    """Pay the cost after bonuses exactly, gold standing in for any gem or pearl; no change is given.

    Raises:
        IllegalMoveError: `payment` is more than `name` holds, or does not pay the cost exactly.
    """
    if not payment <= tokens:
        raise IllegalMoveError(f"{name} cannot pay {payment}: holds {tokens}", rule="payment")
    need = still_to_pay(cost, bonuses).counts
    paid = payment.counts
    plain = paid[:5] + paid[6:]  # all but gold
    owed = need[:5] + need[6:]
    if all(map(operator.le, plain, owed)) and sum(owed) - sum(plain) == paid[5]:
        return
    for gem, due, given in zip(KINDS[:5] + KINDS[6:], owed, plain):
        if given > due:
            raise IllegalMoveError(
                f"{card} needs {due} {gem} after bonuses, not {given} (no change is given)", rule="payment"
            )
    raise IllegalMoveError(
        f"{card} costs {Tokens._trusted(need) or 'nothing'} after bonuses; {payment} does not pay it exactly",
        rule="payment",
    )


def payment_for(name: str, card: str, cost: Cost, bonuses: Tokens, tokens: Tokens, said: Tokens | None) -> Tokens:
    """The payment of a purchase: the default one when the player said none (`said` None), else
    what they said, checked.

    Raises:
        IllegalMoveError: the player cannot afford the card, or `said` does not pay it exactly.
    """
    if said is not None:
        check_payment(name, card, cost, bonuses, tokens, said)
        return said
    payment = default_payment(cost, bonuses, tokens)
    if payment is None:
        raise IllegalMoveError(
            f"{name} cannot afford {card}: it costs {still_to_pay(cost, bonuses)} after bonuses, {name} holds {tokens}",
            rule="buy",
        )
    return payment

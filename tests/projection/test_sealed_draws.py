"""In a sealed game, nobody can choose a draw by re-making an event (issue 31, item 2).

The last player to show their shares before the deal makes the event that the setup follows
(the setup's `parent` is its link), and the proofs in it carry fresh random nonces: before
format 4 a draw during play followed the whole setup event, envelope included, so that player
could re-make their event until the first draw suited them (a review re-made it 400 times and
got 382 different first draws). From format 4 a draw follows the game's first event, the setup's
payload and its index: re-made any number of times, the event gives one draw.
"""

from __future__ import annotations

import random

import pytest
from sealed_helpers import Table

from splendor_cli.projection.game import Game, replay
from splendor_cli.sealing.events import CardsShown

pytestmark = pytest.mark.slow  # slow tier: a sealed deal made a dozen times; CI runs every tier

REMADE = 12
BAG = tuple(f"token-{n:02d}" for n in range(25))


def before_the_last_show(seed: int) -> tuple[Table, str]:
    """A sealed Duel just before the last `cards_shown` of its deal, and who shows it."""
    dealt = Table.new("duel", 2, seed).deal()
    events = dealt.game.events
    last = max(index for index, event in enumerate(events) if isinstance(event, CardsShown))
    table = Table.new("duel", 2, seed)
    for event in events[1:last]:
        table.add_chained(event)
    return table, events[last].player  # type: ignore[attr-defined]


def first_draws(seed: int, payload_draws: bool) -> set[tuple[str, ...]]:
    """The first draw of each of `REMADE` games whose last show was made again with other nonces."""
    table, shower = before_the_last_show(seed)
    draws = set()
    setups = set()
    for attempt in range(REMADE):
        remade = table.fork()
        remade.source = random.Random(f"nonces:{attempt}")
        (shown,) = remade.duties(shower)
        remade.add(shown, shower)
        remade.add(remade.game.deal())
        setups.add(remade.game.events[-1].parent)
        game: Game = replay(remade.variant, remade.game.events, table="sealed", payload_draws=payload_draws)
        draws.add(game.chance().sample(BAG, 3, "bag"))
    assert len(setups) == REMADE  # every re-made show gave a setup event of its own
    return draws


def test_the_last_show_remade_gives_one_draw() -> None:
    """Format 4: however the last show is re-made, the first draw is the same."""
    assert len(first_draws(41, payload_draws=True)) == 1


def test_before_format_4_the_last_show_chose_among_draws() -> None:
    """What format 4 closes: under the rule of formats 2 and 3 (read as written), the same
    re-made shows give many first draws."""
    assert len(first_draws(41, payload_draws=False)) > REMADE // 2

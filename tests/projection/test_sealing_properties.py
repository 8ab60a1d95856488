"""Sealed games over random seeds and tables (splendor_cli/sealing/): what holds in every game.

Each example plays a sealed game in memory (`sealed_helpers.Table`), its seats choosing on their
own views: every card of each deck is somewhere exactly once, placeholders opened; every legal
move a seat's view lists is one the public fold takes (after the owner's share of a blind
reserve it buys); an undo signed by the player who moved restores the state before the move,
the cards revealed since staying revealed, and the game still replays and audits clean.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from sealed_helpers import Table, cards_in, truth

from splendor_cli.errors import IllegalMoveError
from splendor_cli.events import actor
from splendor_cli.events.codec import format_record, parse
from splendor_cli.projection.game import replay
from splendor_cli.sealing.audit import audit
from splendor_cli.sealing.events import RewindAgreed
from splendor_cli.sealing.reveal import placeholders, substitute
from splendor_cli.sealing.table import learned
from splendor_cli.variants import event_types

TABLES = st.sampled_from([("base", 2), ("base", 3), ("base", 4), ("duel", 2)])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
EXAMPLES = examples(0.15)
"""Each example is a whole sealed game (0.3 to 1.5 s): 2 a property on the dev profile, 15 on CI."""


def _payload(event: Any) -> dict[str, Any]:
    return {k: v for k, v in attrs.asdict(event, recurse=False).items() if k not in ("seq", "parent", "sig")}


def _clean(table: Table) -> None:
    """The file replays to the same game, and the audit finds nothing and opens every card."""
    game = replay(
        table.variant, parse(format_record(table.record), event_types).events, table="sealed", payload_draws=True
    )
    assert game.states == table.game.states and game.undone == table.game.undone
    report = audit(game.sealing, game.state)
    assert report.problems == () and report.unpublished == ()
    assert report.shuffles_checked == 3 * len(table.players)
    assert report.cards_opened == sum(len(cards) for cards in table.sealing.cards.values())


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None)
@given(table=TABLES, seed=SEEDS)
def test_every_card_is_in_every_state_exactly_once(table: tuple[str, int], seed: int) -> None:
    """In each state of a whole game, once the final decks are opened with the published card
    secrets, every card of the three decks lies in exactly one place (a deck, the market or the
    pyramid, a player's cards or reserve), and no placeholder is left; the audit's blind reserves
    are the final state's, opened."""
    game = Table.new(*table, seed=seed).deal().play_to_end(blind=0.15)
    cards = truth(game.sealing)
    every = sorted(card for deck in game.sealing.cards.values() for card in deck)
    for index, state in enumerate(game.game.states):
        opened = cards_in(substitute(game.sealing, state, cards))
        assert sorted(opened) == every, f"state #{index}"
    report = audit(game.sealing, game.state)
    assert report.problems == () and report.cards_opened == len(every)
    _, reserved = placeholders(game.sealing, game.state)
    assert report.reserves == {owner: tuple(cards[c] for c in held) for owner, held in reserved.items()}
    assert all(cards[p] == card for p, card in game.sealing.revealed.items())


def _check_moves(table: Table, every: bool) -> int:
    """Play each legal move of the view of the player to move on a copy of the table (`every`;
    else only those that buy a blind reserve of theirs): the public fold takes each, and records
    the event the view decided. How many needed the owner's share first."""
    table.duty_round()
    private = table.private(table.state.player.name)
    view = substitute(table.sealing, table.state, private)
    shown = 0
    for move in table.variant.legal_moves(view):
        need = table.needs(move, private)
        if not (every or need):
            continue
        shown += bool(need)
        fork = table.fork()
        expected = table.variant.decide(view, table.variant.draw(view, move, table.game.chance()))
        event = fork.play(move)
        assert _payload(event) == _payload(expected), table.variant.format_move(move)
        revealed = fork.sealing.revealed
        assert all(card in revealed and card not in table.sealing.revealed for card in need)
        after = table.variant.evolve(substitute(table.sealing, table.state, revealed), event)
        assert fork.state == substitute(table.sealing, after, revealed)
    return shown


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None)
@given(table=TABLES, seed=SEEDS, moves=st.integers(min_value=0, max_value=80))
def test_every_legal_move_of_a_seat_view_is_taken_by_the_public_fold(
    table: tuple[str, int], seed: int, moves: int
) -> None:
    """Along a game (blind reserves favoured), each legal move the player to move sees on their
    own view that buys a blind reserve of theirs, and at the end every legal move, is played on a
    copy of the table: their share of the blind reserve it buys first; the public fold takes it,
    and records the event the view decided."""
    game = Table.new(*table, seed=seed).deal()
    for _ in range(moves):
        if game.state.finished:
            return
        _check_moves(game, every=False)
        game.step(blind=0.3)
    if not game.state.finished:
        _check_moves(game, every=True)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None)
@given(
    table=TABLES,
    seed=SEEDS,
    undos=st.lists(st.tuples(st.integers(min_value=1, max_value=30), st.booleans()), min_size=1, max_size=3),
)
def test_an_undo_restores_the_state_before_the_move_with_revealed_cards_kept(
    table: tuple[str, int], seed: int, undos: list[tuple[int, bool]]
) -> None:
    """At a few points of a game, the player who just moved takes it back (their undo signed by
    them), right away or after every player's duties: when a card was revealed to them since the
    move, the undo is refused until every other player agrees (no look-then-choose), then it
    goes; the state is the one before the move, with every card revealed since (face up)
    revealed; none is hidden again. The game then goes on to its end, replays from its text and
    audits clean."""
    game, done = Table.new(*table, seed=seed).deal(), 0
    for moves, duties_first in undos:
        for _ in range(moves):
            if game.state.finished:
                break
            game.step(blind=0.3)
        if game.state.finished or len(game.game.after) < 2:
            break
        if duties_first:
            game.duty_round()
        before, revealed = game.game.states[-2], dict(game.sealing.revealed)
        to = game.game.after[-2]
        mover = actor(game.game.events[game.game.after[-1] - 1])
        if learned(game.sealing, [mover], to):
            with pytest.raises(IllegalMoveError, match=f"{mover} saw the card"):
                game.game.decide_undo(by=mover)
            for other in game.players:
                if other != mover:
                    game.add(RewindAgreed(seq=0, parent="", player=other, to=to), other)
        game.undo()
        assert dict(game.sealing.revealed) == revealed
        assert game.state == substitute(game.sealing, before, revealed)
        assert not set(revealed) & set(placeholders(game.sealing, game.state)[0])
        done += 1
    game.play_to_end(blind=0.1)
    assert len(game.game.undone) >= done
    _clean(game)

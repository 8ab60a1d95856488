"""The log's turn numbers come from the folded game (its states, `after`, `undone`), not from a
second fold: the entries are exactly those of folding the events again, which this test keeps as
the reference (the log before), on random games with undos of every kind, Duels stopped mid-turn,
and sealed games with blind reserves taken back."""

from __future__ import annotations

import random

import attrs
import pytest
from helpers import new_duel, new_game, step
from sealed_helpers import Table

from splendor_cli.errors import IllegalMoveError, UsageError
from splendor_cli.events import PlayEvent, TurnUndone, actor
from splendor_cli.projection import Game
from splendor_cli.projection.log import LogEntry, event_notation, log_entries
from splendor_cli.sealing.events import RewindAgreed


def reference(game: Game) -> list[LogEntry]:
    """The log as it was made before: every event folded again, the table read before each move."""
    variant = game.variant
    entries = []
    turn_of: dict[int, int] = {}
    effective: list[PlayEvent] = []
    fold = Game(variant=variant, declared=game.declared)
    for event in game.events:
        revealed: tuple[str, ...] = ()
        if isinstance(event, TurnUndone):
            taken_back = [e for e in effective if e.seq > event.to]
            effective = [e for e in effective if e.seq <= event.to]
            revealed = tuple(card for e in taken_back for card in variant.shown(e))
        elif isinstance(event, variant.play_types):
            turn_of[event.seq] = fold.table.turn + 1
            effective.append(event)
        fold = fold.apply(event, check=False)
        drawn = getattr(event, "drawn", "")
        entries.append(
            LogEntry(
                seq=event.seq,
                type=event.TYPE,
                player=actor(event) or None,
                notation=event_notation(variant, event, sealed=game.sealing is not None),
                turn=turn_of.get(event.seq),
                undone=event.seq in game.undone,
                drawn=drawn if isinstance(drawn, str) else "",
                revealed=revealed,
            )
        )
    return entries


def random_undo(game: Game, rng: random.Random) -> Game | None:
    """An undo to a random effective event, asked by a random player (forced when it must be);
    None when the policy refuses it."""
    to = rng.choice(game.after[:-1])
    by = rng.choice(game.players)
    for forced in (False, True):
        try:
            event = game.decide_undo(to=to, by=by, forced=forced)
        except (IllegalMoveError, UsageError):
            continue
        return game.apply(attrs.evolve(event, seq=game.seq + 1))
    return None


def played(game: Game, seed: int, steps: int, undo_rate: float) -> Game:
    """`steps` random moves and undos (several undos in a row, undos of undone branches' moves)."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.state.finished:
            break
        if len(game.after) > 1 and rng.random() < undo_rate:
            undone = random_undo(game, rng)
            if undone is not None:
                game = undone
                continue
        moves = game.variant.legal_moves(game.state)
        game = step(game, moves[rng.randrange(len(moves))])
    return game


@pytest.mark.parametrize("seed", range(12))
def test_base_games_with_undos(seed: int) -> None:
    game = played(new_game(("ann", "bob", "cy")[: 2 + seed % 2], seed), seed, 90, 0.2)
    assert game.undone, "the game has undone moves"
    assert log_entries(game) == reference(game)


@pytest.mark.parametrize("seed", range(12))
def test_duels_with_undos_mid_turn(seed: int) -> None:
    """A Duel's turns have steps (a bonus token, a return): an undo may stop in the middle of a
    turn, and the steps after it share their turn's number."""
    game = played(new_duel(seed=seed), seed, 120, 0.15)
    assert game.undone
    assert log_entries(game) == reference(game)


def test_games_without_undo_and_finished() -> None:
    for seed in range(3):
        game = played(new_game(seed=seed), seed, 400, 0.0)
        assert game.state.finished and not game.undone
        assert log_entries(game) == reference(game)
    assert log_entries(Game(variant=new_game().variant)) == []


def rewind(table: Table, back: int) -> None:
    """The last `back` moves taken back by the last mover; when that takes back another player's
    turn, or a move after which a card was revealed to its player, with the other players'
    consent first (`RewindAgreed`): a forced rewind."""
    game = table.game
    to, by = game.after[-1 - back], actor(game.events[game.after[-1] - 1])
    try:
        table.add(game.decide_undo(to=to, by=by), by)
    except (IllegalMoveError, UsageError):
        for player in table.players:
            if player != by:
                table.add(RewindAgreed(seq=0, parent="", player=player, to=to), player)
        table.add(table.game.decide_undo(to=to, by=by, forced=True), by)


@pytest.mark.parametrize("variant", ["base", "duel"])
def test_sealed_games_with_blind_reserves_taken_back(variant: str) -> None:
    """A sealed game: moves taken back by their players, blind reserves among them (whose cards
    are revealed since), shares between the moves; the same log as folding again."""
    table = Table.new(variant, 2, seed=3).deal()
    for turn in range(40):
        if table.state.finished:
            break
        table.step(blind=0.4)
        if turn % 4 == 3 and len(table.game.after) > 3:
            rewind(table, 1 + turn % 8 // 4)  # one move, or two
    table.duty_round()
    game = table.game
    assert game.undone and any(isinstance(e, TurnUndone) and e.forced for e in game.events)
    assert log_entries(game) == reference(game)

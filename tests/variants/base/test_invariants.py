"""Properties of random legal games (2-4 players), checked at every state they pass through.

Sized to run in well under a minute on two cores: games are capped in length, and the
properties that judge every listed move of every state get fewer examples.
"""

from __future__ import annotations

import itertools

import attrs
from helpers import BASE, examples, step, undo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import games, header_for, histories, sealed

from splendor_cli.errors import AmbiguousMoveError, IllegalMoveError
from splendor_cli.events.codec import event_digest, format_event, format_header, format_record, header_digest
from splendor_cli.model import COLOURS, GEMS, Tokens
from splendor_cli.projection import Game, replay
from splendor_cli.records import parse_text
from splendor_cli.variants.base.cards import CARDS, NOBLES
from splendor_cli.variants.base.events import GameStarted, TurnPassed
from splendor_cli.variants.base.notation import format_move, parse_move
from splendor_cli.variants.base.rules import Move, choices, decide, evolve, legal_moves
from splendor_cli.variants.base.state import GEMS_PER_COLOUR, GOLD_TOKENS, MAX_TOKENS, WINNING_POINTS, GameState

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]  # a game of 150 turns is a lot of data
FAST = settings(suppress_health_check=_HEALTH)
"""The profile's number of examples (tests/conftest.py)."""
SLOW = settings(max_examples=examples(0.4), suppress_health_check=_HEALTH)
"""Fewer: these judge every listed move of every state."""


def _setup(game: Game) -> GameStarted:
    first = game.events[0]
    assert isinstance(first, GameStarted)
    return first


def _states(history: tuple[Game, ...]) -> list[GameState]:
    """Every state the game passed through, undone ones included (each Game's current state)."""
    return [game.state for game in history]


@FAST
@given(histories(max_turns=150, undo_rate=15))
def test_tokens_are_conserved_and_never_negative(history: tuple[Game, ...]) -> None:
    """Bank plus hands is the starting bank, per colour; no count is negative; no hand holds
    more than 10 tokens at the end of a turn."""
    players = len(history[0].players)
    start = Tokens.of({gem: GEMS_PER_COLOUR[players] for gem in COLOURS}, gold=GOLD_TOKENS)
    for state in _states(history):
        total = state.bank
        for player in state.players:
            assert min(player.tokens.counts) >= 0
            assert player.tokens.total() <= MAX_TOKENS, player
            total = total + player.tokens
        assert min(state.bank.counts) >= 0
        assert total == start


@FAST
@given(histories(max_turns=150, undo_rate=15))
def test_cards_are_conserved(history: tuple[Game, ...]) -> None:
    """Decks + board + reserved + owned are always the 90 cards dealt, each in one place."""
    setup = _setup(history[-1])
    dealt = sorted(card for deck in setup.decks for card in deck)
    assert dealt == sorted(CARDS)
    for state in _states(history):
        places = [card for deck in state.decks for card in deck]
        places += [card for row in state.board for card in row if card is not None]
        for player in state.players:
            places += [*player.reserved, *player.cards]
        assert sorted(places) == dealt
        assert all(len(row) == 4 for row in state.board)
        nobles = [*state.nobles, *(n for p in state.players for n in p.nobles)]
        assert sorted(nobles) == sorted(setup.nobles)


@FAST
@given(histories(max_turns=150))
def test_points_and_bonuses_follow_the_cards_and_prestige_never_decreases(history: tuple[Game, ...]) -> None:
    """A player's prestige is the points of their cards and nobles, bonuses are their cards'
    colours, and prestige never decreases from one effective turn to the next."""
    states = history[-1].states
    for before, after in itertools.pairwise(states):
        for old, new in zip(before.players, after.players, strict=True):
            assert new.points >= old.points
            assert len(new.cards) >= len(old.cards) and new.cards[: len(old.cards)] == old.cards
            assert new.nobles[: len(old.nobles)] == old.nobles
    for player in states[-1].players:
        assert player.points == sum(CARDS[c].points for c in player.cards) + sum(
            NOBLES[n].points for n in player.nobles
        )
        assert player.bonuses == Tokens.from_gems(CARDS[c].bonus for c in player.cards)


@FAST
@given(histories(max_turns=250))
def test_the_game_ends_only_after_a_full_round_or_in_a_dead_position(history: tuple[Game, ...]) -> None:
    """The game ends when a round is complete and someone has 15, or at once after a pass
    in a dead position; never before, and nothing is legal afterwards."""
    game = history[-1]
    for state in game.states:
        players = len(state.players)
        complete = state.turn % players == 0
        reached = any(p.points >= WINNING_POINTS for p in state.players)
        if not state.finished:
            assert not (complete and reached and state.turn > 0)
            assert state.winners() == ()
    state = game.state
    if state.finished:
        assert legal_moves(state) == [] and len(choices(state)) == 0
        assert state.winners()
        by_points = state.turn % len(state.players) == 0 and any(p.points >= WINNING_POINTS for p in state.players)
        assert by_points or isinstance(game.events[-1], TurnPassed)


@SLOW
@given(histories(max_turns=120))
def test_every_listed_move_is_accepted_and_listed_once(history: tuple[Game, ...]) -> None:
    """Every move `legal_moves` lists is accepted by `decide`; no move and no turn is listed
    twice; `pass` is listed only alone; `choices` counts and indexes exactly that list."""
    for state in history[-1].states:
        moves = legal_moves(state)
        options = choices(state)
        assert len(options) == len(moves)
        assert [options.move(i) for i in range(len(options))] == moves
        assert len(set(moves)) == len(moves)
        events = [decide(state, move) for move in moves]
        assert len(set(events)) == len(events)
        for move, event in zip(moves, events):
            hand = evolve(state, event).players[state.to_move].tokens.total()
            assert hand == MAX_TOKENS if move.returned else hand <= MAX_TOKENS, move
        if any(m.action == "pass" for m in moves):
            assert {m.action for m in moves} == {"pass"}
        if not state.finished:
            assert moves


_TAKES = tuple(Tokens.from_gems(combo) for n in (1, 2, 3) for combo in itertools.combinations_with_replacement(GEMS, n))
_CANDIDATES = (
    *(Move(action="take", gems=gems) for gems in _TAKES),
    *(Move(action="reserve", card=card) for card in CARDS),
    *(Move(action="reserve", deck=deck) for deck in (1, 2, 3)),
    *(Move(action="buy", card=card) for card in CARDS),
    Move(action="pass"),
)


@SLOW
@given(histories(max_turns=150))
def test_every_legal_action_is_listed(history: tuple[Game, ...]) -> None:
    """`legal_moves` is complete: every action that `decide` accepts (or finds ambiguous only
    for want of a return or a noble) is listed, and no action it refuses is."""
    for state in history[-1].states[::4]:
        listed = {(m.action, m.gems, m.card, m.deck) for m in legal_moves(state)}
        for move in _CANDIDATES:
            try:
                decide(state, move)
                accepted = True
            except AmbiguousMoveError:
                accepted = True
            except IllegalMoveError:
                accepted = False
            assert accepted == ((move.action, move.gems, move.card, move.deck) in listed), move


@SLOW
@given(histories(max_turns=120))
def test_notation_round_trips_every_listed_move(history: tuple[Game, ...]) -> None:
    """`format_move(parse_move(n))` gives back the notation `n` of every listed move, and
    playing the notation is the same turn as playing the move."""
    for state in history[-1].states:
        for move in legal_moves(state):
            notation = format_move(move)
            parsed = parse_move(notation)
            assert format_move(parsed) == notation
            assert decide(state, parsed) == decide(state, move), notation


@FAST
@given(histories(max_turns=100), st.data())
def test_applying_then_undoing_restores_the_state(history: tuple[Game, ...], data: st.DataObject) -> None:
    """Playing a turn and undoing it gives back the same states; undoing to an earlier turn
    gives back the game as it was then."""
    for game in history:
        if game.state.finished:
            break
        options = choices(game.state)
        move = options.move(data.draw(st.integers(0, len(options) - 1)))
        back = undo(step(game, move))
        assert back.states == game.states
        assert back.state == game.state
        assert back.after == game.after
    final = history[-1]
    if len(final.after) > 2:
        k = data.draw(st.integers(0, len(final.after) - 2))
        earlier = undo(final, to=final.after[k], by=final.players[0], forced=True)  # an agreed rewind
        assert earlier.states == final.states[: k + 1]
        assert earlier.state == replay(BASE, final.events[: final.after[k]]).state


@FAST
@given(histories(max_turns=150, undo_rate=8))
def test_replay_equals_the_game_played_step_by_step(history: tuple[Game, ...]) -> None:
    """Folding the log again (with or without re-judging each turn) gives the same game."""
    for game in (history[len(history) // 3], history[-1]):
        assert replay(BASE, game.events) == game
        assert replay(BASE, game.events, check=False) == game


@FAST
@given(games(max_turns=150, undo_rate=8))
def test_the_log_round_trips_through_toml(game: Game) -> None:
    """Writing the events to TOML and reading them back gives the same events; `seq` counts up
    from 1 and each `parent` is the digest of the event before; the file only ever grows."""
    header = header_for(game)
    record = sealed(game.events, header)
    text = format_record(record)
    read = parse_text(text)
    assert read == record
    assert [attrs.evolve(e, parent="") for e in record.events] == list(game.events)
    assert [e.seq for e in record.events] == list(range(1, len(record.events) + 1))
    parents = [header_digest(header)] + [event_digest(e) for e in record.events[:-1]]
    assert [e.parent for e in record.events] == parents
    appended = format_header(header) + "".join(format_event(e) for e in record.events)
    assert appended == text
    cut = len(record.events) // 2
    assert text.startswith(format_record(attrs.evolve(record, events=record.events[:cut])))
    assert replay(BASE, read.events).states == game.states

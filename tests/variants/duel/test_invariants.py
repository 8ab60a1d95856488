"""Properties of random legal Splendor Duel games, checked at every state they pass through.

A game is dealt by `deal_duel` from a seed that hypothesis draws, then played by a
`random.Random` of the same seed choosing among `legal_steps`, each step judged by `Game.decide`
(which gives a replenish the draw the log fixes), sealed onto the record and folded, as
`splendor play` does; the pure rules' `draw` is exercised on every listed replenish. Some
games are capped at a drawn number of steps; some undo a step now and then, so that undone steps
are in the logs too. A random game to the end is about 170 steps, and playing one
takes a few hundredths of a second: the properties that judge every listed or candidate step
of a state look at fewer games, or fewer states of each.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import attrs
import pytest
from helpers import DUEL, deal_duel, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from splendor_cli.errors import AmbiguousMoveError, IllegalMoveError, SplendorError
from splendor_cli.events import Event, TurnUndone
from splendor_cli.events.codec import Header, Record, chained, format_record
from splendor_cli.model import COLOURS, EMPTY, KINDS, Gem, Tokens
from splendor_cli.projection.game import Game, replay
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.records import parse_text
from splendor_cli.variants.duel import rules as duel
from splendor_cli.variants.duel import state as duel_state
from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS
from splendor_cli.variants.duel.cards import ROYALS
from splendor_cli.variants.duel.events import (
    STEP_TYPES,
    DuelCardBought,
    DuelPassed,
    DuelStarted,
    GoldReserved,
    StepEvent,
)
from splendor_cli.variants.duel.state import DuelState
from splendor_cli.variants.duel.step import Step

NAMES = ("ann", "bob")
HEADER = Header(game="hypothesis-duel", variant="duel", players=NAMES, created="2026-01-01T00:00:00Z")
ALL_CARDS = sorted(DUEL_CARDS)
ALL_ROYALS = sorted(ROYALS)
CELLS = duel_state.SIZE * duel_state.SIZE

# Shares of the profile's number of examples (tests/conftest.py): a whole Duel is slower to play
# than most examples, and the SLOW properties judge every listed or candidate step of a state.
FAST = settings(max_examples=examples(0.6), suppress_health_check=[HealthCheck.too_slow])
MEDIUM = settings(max_examples=examples(0.4), suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=examples(0.25), suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
caps = st.one_of(st.just(1000), st.integers(min_value=0, max_value=250))
"""How many steps to play at most: mostly to the end of the game, sometimes a prefix."""


# -- playing ------------------------------------------------------------------------------------


@attrs.frozen
class Play:
    """A game being played: the fold, and the record a store would have written (sealed events)."""

    game: Game
    record: Record

    @classmethod
    def deal(cls, rng: random.Random) -> Play:
        setup = deal_duel(NAMES, rng)
        assert setup.seq == 1 and setup.parent == ""
        return cls(game=Game(variant=DUEL), record=Record(header=HEADER, events=())).add(setup)

    @property
    def state(self) -> DuelState:
        state = self.game.state
        assert isinstance(state, DuelState)
        return state

    def add(self, event: Event) -> Play:
        """Seal `event` onto the record and fold it (judged by the rules again, as a reader does)."""
        sealed = chained(self.record, event)
        record = attrs.evolve(self.record, events=(*self.record.events, sealed))
        return Play(game=self.game.apply(sealed), record=record)

    def random_step(self, rng: random.Random) -> tuple[Play, StepEvent]:
        # A replenish is listed without its draw: `Game.decide` gives it the one the log fixes.
        event = self.game.decide(rng.choice(duel.legal_steps(self.state)))
        assert isinstance(event, STEP_TYPES)
        return self.add(event), event

    def undo(self, to: int | None = None) -> Play:
        return self.add(self.game.decide_undo(to=to))


def play(seed: int, cap: int = 1000, undo_every: int = 0) -> tuple[Play, list[DuelState]]:
    """A random game of at most `cap` steps (undos included); with `undo_every` n, about one step in
    n is an undo of the last step instead. Also every state the game passed through, undone ones
    included, each built by `duel.evolve` alone (checked against the fold at every step)."""
    rng = random.Random(seed)
    current = Play.deal(rng)
    first = current.game.events[0]
    assert isinstance(first, DuelStarted)
    stack = [duel_state.start(first)]
    seen = [stack[-1]]
    assert current.state == stack[-1]
    for _ in range(cap):
        if current.state.finished:
            break
        if undo_every and len(stack) > 1 and rng.randrange(undo_every) == 0:
            current = current.undo()
            stack.pop()
        else:
            current, event = current.random_step(rng)
            stack.append(duel.evolve(stack[-1], event))
            seen.append(stack[-1])
        assert current.state == stack[-1]
    return current, seen


# -- what a state must hold ---------------------------------------------------------------------


def _board_tokens(state: DuelState) -> Tokens:
    return Tokens.from_gems(gem for gem in state.board if gem is not None)


def _check_conservation(state: DuelState) -> None:
    tokens = _board_tokens(state) + state.bag
    for player in state.players:
        tokens = tokens + player.tokens
    assert tokens == duel_state.TOKENS, state
    assert state.privileges >= 0 and all(p.privileges >= 0 for p in state.players)
    assert state.privileges + sum(p.privileges for p in state.players) == duel_state.PRIVILEGES
    places = [card for deck in state.decks for card in deck]
    places += [card for row in state.pyramid for card in row if card is not None]
    for player in state.players:
        places += [*player.cards, *player.reserved]
        assert set(player.blind) <= set(player.reserved)
        assert len(player.reserved) <= duel_state.MAX_RESERVED
    assert sorted(places) == ALL_CARDS
    assert [len(row) for row in state.pyramid] == list(duel_state.PYRAMID)
    assert sorted([*state.royals, *(r for p in state.players for r in p.royals)]) == ALL_ROYALS
    if state.fresh:  # between turns, nobody holds more than 10 tokens
        assert all(p.tokens.total() <= duel_state.MAX_TOKENS for p in state.players), state


def _check_derived(state: DuelState) -> None:
    """A player's points, crowns, bonuses and colour points are those of their cards (and royals)."""
    for player in state.players:
        cards = [DUEL_CARDS[c] for c in player.cards]
        assert player.points == sum(c.points for c in cards) + sum(ROYALS[r].points for r in player.royals)
        assert player.crowns == sum(c.crowns for c in cards)
        wild = dict(player.wild)
        assert set(wild) == {c.id for c in cards if c.wild}
        bonuses = EMPTY
        colour_points = dict.fromkeys(COLOURS, 0)
        for card in cards:
            colour = card.bonus or wild.get(card.id)
            if card.bonus:
                bonuses = bonuses + card.gives
            elif colour is not None:
                bonuses = bonuses + Tokens.of({colour: card.bonus_count})
            if colour is not None:
                colour_points[colour] += card.points
        assert player.bonuses == bonuses
        assert player.colour_points == tuple(colour_points[c] for c in COLOURS)


# -- 1. conservation ----------------------------------------------------------------------------


@FAST
@given(seeds, caps)
def test_tokens_privileges_cards_and_royals_are_conserved(seed: int, cap: int) -> None:
    """After every step (undone ones too): the 25 tokens across board, bag and hands; the 3
    privileges across supply and players; the 67 cards across decks, pyramid, bought and reserved;
    the 4 royals across the table and the players. Nobody holds more than 10 tokens between turns."""
    _, seen = play(seed, cap, undo_every=10)
    for state in seen:
        _check_conservation(state)
        _check_derived(state)


# -- 2. every listed step applies ---------------------------------------------------------------


@SLOW
@given(seeds, caps)
def test_every_listed_step_applies(seed: int, cap: int) -> None:
    """Every step `legal_steps` lists is accepted by `decide` (a replenish once drawn) and applied
    by `evolve`; no step is listed twice; the list is empty exactly when the game is over; `pass`
    is listed only alone; and `decide` gives back the same event for the step the event records."""
    _, seen = play(seed, cap)
    rng = random.Random(seed)
    for state in seen:
        steps = duel.legal_steps(state)
        assert len(set(steps)) == len(steps), state
        assert bool(steps) == (not state.finished), state
        if any(s.step == "pass" for s in steps):
            assert len(steps) == 1
        events = []
        for listed in steps:
            drawn = duel.draw(state, listed, RandomChance(rng))
            if listed.step == "replenish":
                assert listed.order is None and drawn.order is not None
                assert Tokens.from_gems(drawn.order) == state.bag
            else:
                assert drawn == listed
            event = duel.decide(state, drawn)
            after = duel.evolve(state, event)
            _check_conservation(after)
            assert duel.decide(state, duel.move_of(event)) == event, listed
            events.append(event)
        assert len(set(events)) == len(events)


# -- 3. completeness: what is not listed is refused ---------------------------------------------


_TAKES = tuple(Step(step="take", cells=cells) for n in (1, 2, 3) for cells in itertools.combinations(range(CELLS), n))
_ODD_TAKES = (
    *(Step(step="take", cells=line[::-1]) for line in duel_state.LINES if len(line) > 1),
    *(Step(step="take", cells=line[1:] + line[:1]) for line in duel_state.LINES if len(line) == 3),
    *(Step(step="take", cells=cells) for cells in ((), (0, 0), (12, 12, 13), (25,), (-1,), (0, 1, 2, 3))),
)
_ONE_CELL = tuple(
    Step(step=kind, cells=cells)
    for kind in ("privilege", "token")
    for cells in (*((i,) for i in range(-1, CELLS + 1)), (), (0, 1))
)
_RESERVES = tuple(
    Step(step="reserve", cells=(cell,), card=card, deck=deck)
    for cell in range(CELLS)
    for card, deck in (*((card, 0) for card in (*ALL_CARDS, "", "9-99")), *(("", d) for d in (1, 2, 3, 4)))
)
_RESERVES_ANY_GOLD = tuple(  # no cell named: the only gold on the board, or ambiguous
    Step(step="reserve", card=card, deck=deck)
    for card, deck in (*((card, 0) for card in (*ALL_CARDS, "")), *(("", d) for d in (1, 2, 3)))
)
_BUYS = tuple(Step(step="buy", card=card, wild=wild) for card in (*ALL_CARDS, "", "9-99") for wild in (None, *KINDS))
_CHOICES = (
    *(Step(step=kind, colour=colour) for kind in ("steal", "return") for colour in (None, *KINDS)),
    *(Step(step="royal", card=royal) for royal in (*ALL_ROYALS, "", "R9")),
    Step(step="pass"),
    Step(step="reserve", cells=(0, 1), deck=1),
)


def _candidates(state: DuelState, rng: random.Random) -> Iterator[Step]:
    """Every step of every kind, legal or not (a replenish with a drawn order, a wrong one, none)."""
    yield from _TAKES
    yield from _ODD_TAKES
    yield from _ONE_CELL
    yield from _RESERVES
    yield from _RESERVES_ANY_GOLD
    yield from _BUYS
    yield from _CHOICES
    bag = list(state.bag.gems())
    for _ in range(2):
        rng.shuffle(bag)
        yield Step(step="replenish", order=tuple(bag))
    yield Step(step="replenish", order=(*bag, Gem.WHITE))
    if bag:
        yield Step(step="replenish", order=tuple(bag[1:]))


def _key(step: Step, event: StepEvent | None = None) -> Step:
    """A step in a normal form: a take's cells sorted, a buy's payment left to the default (and a
    wild colour as the rules chose it), a reserve's gold as the rules chose it, a replenish
    without its draw."""
    if step.step == "take":
        return attrs.evolve(step, cells=tuple(sorted(step.cells)))
    if step.step == "buy":
        wild = Gem(event.wild) if isinstance(event, DuelCardBought) and event.wild else step.wild
        return attrs.evolve(step, payment=None, wild=wild)
    if step.step == "reserve" and isinstance(event, GoldReserved):
        return attrs.evolve(step, cells=(duel_state.CELL_INDEX[event.gold],))
    if step.step == "replenish":
        return attrs.evolve(step, order=None)
    return step


@SLOW
@given(seeds, caps, st.data())
def test_every_step_not_listed_is_refused(seed: int, cap: int, data: st.DataObject) -> None:
    """`legal_steps` is complete: of all the steps one can say (every line of 1-3 cells, every cell
    for a privilege or a reserve, every card to reserve or buy, every colour to steal or return,
    every royal, pass), `decide` accepts exactly those listed and refuses the others with a
    SplendorError (never another exception); a replenish without its draw is ambiguous."""
    _, seen = play(seed, cap, undo_every=12)
    rng = random.Random(seed)
    picks = data.draw(st.lists(st.integers(0, len(seen) - 1), min_size=1, max_size=5))
    for state in [seen[i] for i in picks] + [seen[-1]]:
        listed = {_key(s) for s in duel.legal_steps(state)}
        accepted: set[Step] = set()
        for candidate in _candidates(state, rng):
            try:
                event = duel.decide(state, candidate)
            except SplendorError:
                assert _key(candidate) not in listed or candidate.step == "replenish", candidate
                continue
            key = _key(candidate, event)
            assert key in listed, (candidate, state)
            accepted.add(key)
        assert accepted == listed, listed - accepted
        replenish = Step(step="replenish")
        if replenish in listed:
            with pytest.raises(AmbiguousMoveError):
                duel.decide(state, replenish)


# -- 4. undo restores ---------------------------------------------------------------------------


@MEDIUM
@given(seeds, caps)
def test_undo_restores_the_state_before_the_step_and_the_turn(seed: int, cap: int) -> None:
    """At random points, undoing the last step gives back the game before it; undoing to the start
    of the turn (the last state with `fresh` before the current one) gives back the game then, as
    a replay of the log up to that event builds it. The player who took the steps may undo them;
    the other may not, unless forced."""
    rng = random.Random(seed ^ 0x5EED)
    current = Play.deal(random.Random(seed))
    move_rng = random.Random(seed)
    for _ in range(min(cap, 400)):
        if current.state.finished:
            break
        before = current
        current, event = current.random_step(move_rng)
        if rng.randrange(6) == 0:
            back = current.undo()
            assert isinstance(back.game.events[-1], TurnUndone)
            assert back.game.states == before.game.states
            assert back.game.after == before.game.after
            assert back.state == before.state
            assert back.game.undone == before.game.undone | {current.game.seq}
            # Played again, the step is the same event: an undo cannot re-roll a replenish.
            again = Step(step="replenish") if event.TYPE == "board_replenished" else duel.move_of(event)
            assert back.game.decide(again) == attrs.evolve(event, seq=0, parent="")
            current = back
        elif rng.randrange(10) == 0:
            states, after = current.game.states, current.game.after
            start = max(i for i in range(len(states) - 1) if states[i].fresh)  # type: ignore[union-attr]
            to = after[start]
            assert current.game.turn_start() == to
            mover = event.player
            other = next(name for name in NAMES if name != mover)
            back = current.add(current.game.decide_undo(to=to, by=mover))
            assert back.game.states == states[: start + 1]
            assert back.state == states[start]
            assert back.state.at_turn_start or start == 0
            assert replay(DUEL, current.record.events[:to]).state == back.state
            with pytest.raises(IllegalMoveError, match="own turns"):
                current.game.decide_undo(to=to, by=other)
            forced = current.game.decide_undo(to=to, by=other, forced=True)
            assert forced.forced and forced.to == to
            current = back
    assert replay(DUEL, current.record.events) == current.game


# -- 5. replay equals step by step --------------------------------------------------------------


@MEDIUM
@given(seeds, caps)
def test_replay_and_the_toml_record_give_the_state_played(seed: int, cap: int) -> None:
    """The state built by `evolve` step by step (undos popping it) is the fold's at every step
    (checked in `play`), and the state of a replay of the log, with or without judging each step
    again; the record written to TOML and parsed back is the same record, and replays the same."""
    current, _ = play(seed, cap, undo_every=9)
    game, record = current.game, current.record
    assert replay(DUEL, record.events) == game
    assert replay(DUEL, record.events, check=False) == game
    text = format_record(record)
    read = parse_text(text)
    assert read == record
    assert replay(DUEL, read.events).state == current.state
    assert replay(DUEL, read.events).states == game.states
    middle = len(record.events) // 2
    if middle:
        assert game.at(middle).state == replay(DUEL, record.events[:middle]).state


# -- 6. monotone facts and the end ----------------------------------------------------------------


@FAST
@given(seeds, caps)
def test_points_crowns_and_cards_never_decrease_and_the_game_ends_by_the_rules(seed: int, cap: int) -> None:
    """Along the effective history a player's points, crowns, cards and royals only grow; a
    finished game has one winner who meets the condition named (the first of points, crowns,
    colour) and an opponent who meets none, or no winner after two passes in a row."""
    current, _ = play(seed, cap)
    states = current.game.states
    for before, after in itertools.pairwise(states):
        assert isinstance(before, DuelState) and isinstance(after, DuelState)
        assert not before.finished
        assert after.turn >= before.turn
        for old, new in zip(before.players, after.players, strict=True):
            assert new.points >= old.points
            assert new.crowns >= old.crowns
            assert new.cards[: len(old.cards)] == old.cards
            assert new.royals[: len(old.royals)] == old.royals
            assert new.wild[: len(old.wild)] == old.wild
            assert all(n >= o for n, o in zip(new.colour_points, old.colour_points, strict=True))
        if not after.finished:
            assert after.winner == "" and after.win_condition == "" and after.phase != "over"
    state = current.state
    if not state.finished:
        return
    assert state.phase == "over" and duel.legal_steps(state) == []
    if state.winner:
        assert state.winners() == (state.winner,) and state.winner in NAMES
        winner = state.player
        assert winner.name == state.winner
        met = {
            "points": winner.points >= duel_state.WIN_POINTS,
            "crowns": winner.crowns >= duel_state.WIN_CROWNS,
            "colour": max(winner.colour_points) >= duel_state.WIN_COLOUR,
        }
        assert met.get(state.win_condition)
        assert next(condition for condition, yes in met.items() if yes) == state.win_condition
        loser = state.opponent
        assert loser.points < duel_state.WIN_POINTS and loser.crowns < duel_state.WIN_CROWNS
        assert max(loser.colour_points) < duel_state.WIN_COLOUR
    else:
        assert state.winners() == () and state.win_condition == ""
        assert state.passes >= 2
        assert isinstance(current.game.events[-1], DuelPassed)

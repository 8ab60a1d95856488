"""The fold: events -> the game's history of states, with undo.

A `Game` keeps the state after the setup and after each effective turn, so that undoing is
popping and `at(seq)` is a replay of a prefix. Every turn event is judged again by `decide`
as it is folded: a file edited by hand so that it breaks a rule is refused, naming the event.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

import attrs

from ..errors import CorruptLogError, IllegalMoveError, SplendorError, UsageError
from ..events import (
    PLAY_TYPES,
    TURN_TYPES,
    Event,
    GameStarted,
    SeedCommitted,
    SeedRevealed,
    SeedsAsked,
    StepEvent,
    TurnEvent,
    TurnUndone,
    actor,
)
from ..events.duel import STEP_TYPES, BoardReplenished, DuelStarted
from ..model import Gem, Move, Step
from . import duel, rules
from .duel import DuelState
from .seeding import Seeding, shuffled
from .state import GameState, start

VARIANTS = ("base", "duel")
State = GameState | DuelState
"""The table of either game."""
PlayEvent = TurnEvent | StepEvent
"""What a player appends: a base turn or a Duel step."""


def judge(state: State, move: Move | Step) -> PlayEvent:
    """The event for `move` in `state`, by the rules of the game's variant (see rules.decide and duel.decide).

    Raises:
        UsageError: a base-game move in a Duel, or a Duel step in a base game.
        IllegalMoveError, AmbiguousMoveError: as the rules decide.
    """
    if isinstance(state, DuelState):
        if not isinstance(move, Step):
            raise UsageError("this game is a Splendor Duel: play it step by step (see `splendor moves`)")
        return duel.decide(state, move)
    if not isinstance(move, Move):
        raise UsageError("this game is base Splendor: play whole turns (see `splendor moves`)")
    return rules.decide(state, move)


def _evolve(state: State, event: PlayEvent) -> State:
    """Apply a player's event by the rules of the game's variant. Raise ValueError if it cannot apply."""
    if isinstance(state, DuelState):
        if not isinstance(event, STEP_TYPES):
            raise ValueError(f"a {event.TYPE} event has no place in a Splendor Duel")
        return duel.evolve(state, event)
    if not isinstance(event, TURN_TYPES):
        raise ValueError(f"a {event.TYPE} event has no place in base Splendor")
    return rules.evolve(state, event)


def _move_of(event: PlayEvent) -> Move | Step:
    if isinstance(event, TURN_TYPES):
        return rules.move_of(event)
    return duel.move_of(cast(StepEvent, event))


def at_turn_start(state: State) -> bool:
    """Whether `state` is between two turns (always, in the base game; a Duel turn has steps)."""
    return not isinstance(state, DuelState) or state.at_turn_start


@attrs.frozen(kw_only=True)
class Game:
    """A game as far as its log goes: the events and the states of its effective history.

    `states[i]` is the state just after event `after[i]`: the setup first, then each turn
    not undone. Undone turns stay in `events`, and `undone` names them.
    """

    events: tuple[Event, ...] = ()
    states: tuple[State, ...] = ()
    after: tuple[int, ...] = ()
    undone: frozenset[int] = frozenset()
    seeding: Seeding | None = None
    """While a commit-then-reveal deal is under way (see seeding.py); None once dealt or without one."""

    @property
    def seq(self) -> int:
        """The sequence number of the last event taken into account."""
        return len(self.events)

    @property
    def state(self) -> State:
        if not self.states:
            if self.seeding is not None:
                raise IllegalMoveError(f"the cards are not dealt yet: {self.seeding.waiting()}", rule="seed")
            raise CorruptLogError("the log does not start with a game_started event", seq=1)
        return self.states[-1]

    @property
    def players(self) -> tuple[str, ...]:
        return self.seeding.players if self.seeding is not None and not self.states else self.state.names()

    def decide(self, move: Move | Step, *, player: str | None = None) -> PlayEvent:
        """The event for `move`, played by `player` (default: whoever is to move).

        Raises:
            IllegalMoveError: it is not that player's turn, or the rules forbid the move.
        """
        state = self.state
        if player is not None and player != state.player.name:
            if player not in self.players:
                raise IllegalMoveError(
                    f"{player!r} does not play in this game ({', '.join(self.players)})", rule="turn"
                )
            if state.finished:
                raise IllegalMoveError("the game is over", rule="game-over")
            raise IllegalMoveError(f"it is {state.player.name}'s turn, not {player}'s", rule="turn")
        if isinstance(move, Step) and move.step == "replenish" and move.order is None:
            move = attrs.evolve(move, order=self.replenish_draw())
        return judge(state, move)

    def replenish_draw(self) -> tuple[Gem, ...]:
        """The order in which the bag's tokens land if the board is replenished now (Duel).

        It follows from the log: the bag shuffled by a SHA-256 stream seeded with the digest of
        the last effective event. Every reader checks it, so nobody can choose the draw; and
        taking a replenish back and replenishing again lands the same tokens, so an undo cannot
        re-roll it. Like the deck order, it is open to whoever reads the file.
        """
        from ..events.codec import event_digest  # cattrs: not for the base game's fold, nor for simulate

        state = self.state
        assert isinstance(state, DuelState)
        seed = bytes.fromhex(event_digest(self.events[self.after[-1] - 1]))
        return tuple(Gem(g) for g in shuffled(tuple(str(g) for g in state.bag.gems()), seed, "replenish"))

    def turn_start(self) -> int:
        """The event after which the current turn began; at a turn's start, the previous turn's."""
        index = len(self.states) - 2
        while index > 0 and not at_turn_start(self.states[index]):
            index -= 1
        return self.after[max(index, 0)]

    def decide_undo(self, *, to: int | None = None, by: str = "", forced: bool = False) -> TurnUndone:
        """The event that takes the game back to just after event `to` (default: undo the last turn).

        The policy of asynchronous play: a player who says who they are (`by`) may take back only
        their own turns, and only while nobody has moved since; taking back other players' turns
        is an agreed rewind, `forced`, and the event records it. Without `by` (one person at the
        keyboard for everyone), any turn may be taken back.

        Raises:
            IllegalMoveError: nothing to undo, `to` is not an effective event before the last, or
                the policy forbids it.
        """
        if len(self.after) < 2:
            raise IllegalMoveError("there is no turn to undo", rule="undo")
        if by and by not in self.players:
            raise IllegalMoveError(f"{by!r} does not play in this game", rule="undo")
        if to is None:
            to = self.after[-2]
        elif to not in self.after[:-1]:
            if to in self.undone:
                why = "was undone already"
            elif 1 <= to <= self.seq and isinstance(self.events[to - 1], TurnUndone):
                why = "is an undo, not a turn"
            elif to == self.after[-1]:
                why = "is the last turn: the game is there already"
            else:
                why = "does not exist"
            raise IllegalMoveError(f"cannot undo to event #{to}: it {why}", rule="undo")
        if by and not forced:
            others = sorted(
                {p for seq in self.after[self.after.index(to) + 1 :] if (p := actor(self.events[seq - 1])) != by}
            )
            if others:
                raise IllegalMoveError(
                    f"{by} may take back only their own turns while nobody has moved since;"
                    f" this would take back {' and '.join(others)}'s: agree on it and use --force",
                    rule="undo",
                )
        return TurnUndone(seq=0, parent="", by=by, to=to, forced=forced)

    def apply(self, event: Event, *, check: bool = True) -> Game:
        """The game after `event`. With `check`, the event is judged by the rules again first.

        Raises:
            CorruptLogError: the event cannot follow the events before it.
        """
        seq = self.seq + 1
        if event.seq != seq:
            raise CorruptLogError(f"seq is {event.seq}, expected {seq}", seq=seq)
        events = (*self.events, event)
        match event:
            case GameStarted() | DuelStarted():
                if self.states or (self.events and self.seeding is None):
                    raise CorruptLogError(f"a second setup ({event.TYPE})", seq=seq)
                if self.seeding is not None:
                    try:
                        dealt = self.seeding.setup()
                    except IllegalMoveError as exc:
                        raise CorruptLogError(str(exc), seq=seq) from None
                    if attrs.evolve(dealt, seq=event.seq, parent=event.parent) != event:
                        raise CorruptLogError("the deal is not the one the revealed seeds give", seq=seq)
                return Game(events=events, states=(_setup(event),), after=(seq,))
            case SeedsAsked():
                if self.events:
                    raise CorruptLogError("seeds_asked must be the first event", seq=seq)
                _check_players(event.players, event.variant, seq)
                return Game(events=events, seeding=Seeding(players=event.players, variant=event.variant))
            case SeedCommitted() | SeedRevealed():
                if self.seeding is None or self.states:
                    raise CorruptLogError(f"{event.TYPE} outside a commit-then-reveal deal", seq=seq)
                try:
                    seeding = (
                        self.seeding.commit(event) if isinstance(event, SeedCommitted) else self.seeding.reveal(event)
                    )
                except IllegalMoveError as exc:
                    raise CorruptLogError(str(exc), seq=seq) from None
                return Game(events=events, seeding=seeding)
            case TurnUndone():
                try:
                    self.decide_undo(to=event.to, by=event.by, forced=event.forced)
                except IllegalMoveError as exc:
                    raise CorruptLogError(str(exc), seq=seq) from None
                keep = self.after.index(event.to) + 1
                return Game(
                    events=events,
                    states=self.states[:keep],
                    after=self.after[:keep],
                    undone=self.undone | set(self.after[keep:]),
                )
            case _ if isinstance(event, PLAY_TYPES):
                if not self.states:
                    raise CorruptLogError(f"{event.TYPE} before the cards are dealt", seq=seq)
                state = self.state
                if check:
                    _check_turn(state, event)
                    if isinstance(event, BoardReplenished) and event.tokens != self.replenish_draw():
                        raise CorruptLogError(
                            "board_replenished: the tokens are not the draw the log gives"
                            f" ({' '.join(self.replenish_draw())})",
                            seq=seq,
                        )
                try:
                    after = _evolve(state, event)
                except (ValueError, KeyError) as exc:
                    raise CorruptLogError(f"cannot apply {event.TYPE}: {exc}", seq=seq) from None
                return Game(
                    events=events,
                    states=(*self.states, after),
                    after=(*self.after, seq),
                    undone=self.undone,
                )
        raise CorruptLogError(f"unknown event {event!r}", seq=seq)  # pragma: no cover

    def at(self, seq: int) -> Game:
        """The game as it was just after event `seq` (1 = the setup)."""
        if not 1 <= seq <= self.seq:
            raise UsageError(f"there is no event #{seq}: the log has events #1 to #{self.seq}")
        return replay(self.events[:seq], check=False)


def _check_players(players: tuple[str, ...], variant: str, seq: int) -> None:
    if variant not in VARIANTS:
        raise CorruptLogError(f"unknown variant {variant!r}", seq=seq)
    if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
        raise CorruptLogError(f"2 to 4 players with distinct names are needed, not {players!r}", seq=seq)
    if variant == "duel" and len(players) != 2:
        raise CorruptLogError(f"a Duel is for 2 players, not {players!r}", seq=seq)


def _setup(event: GameStarted | DuelStarted) -> State:
    if isinstance(event, DuelStarted):
        problem = duel.setup_problem(event)
        if problem:
            raise CorruptLogError(problem, seq=event.seq)
        return duel.start(event)
    if event.variant != "base":
        raise CorruptLogError(f"game_started sets up base Splendor, not {event.variant!r}", seq=event.seq)
    _check_players(event.players, event.variant, event.seq)
    from ..cards import DECKS, NOBLES

    for level, deck in enumerate((event.deck_1, event.deck_2, event.deck_3), start=1):
        if sorted(deck) != sorted(DECKS[level]):
            raise CorruptLogError(
                f"deck_{level} is not a shuffle of the {len(DECKS[level])} level-{level} cards", seq=event.seq
            )
    if (
        len(event.nobles) != len(event.players) + 1
        or len(set(event.nobles)) != len(event.nobles)
        or not set(event.nobles) <= set(NOBLES)
    ):
        raise CorruptLogError(
            f"{len(event.players) + 1} distinct nobles are needed, not {event.nobles!r}", seq=event.seq
        )
    return start(event.players, (event.deck_1, event.deck_2, event.deck_3), event.nobles)


def _check_turn(state: State, event: PlayEvent) -> None:
    """Refuse a turn event that is not exactly what the rules make of the move it records."""
    seq = event.seq
    if event.player != state.player.name:
        raise CorruptLogError(f"{event.player!r} played, but it was {state.player.name}'s turn", seq=seq)
    try:
        expected = judge(state, _move_of(event))
    except SplendorError as exc:
        raise CorruptLogError(f"illegal {event.TYPE}: {_one_line(exc)}", seq=seq) from None
    except (ValueError, KeyError) as exc:
        raise CorruptLogError(f"bad {event.TYPE}: {_one_line(exc)}", seq=seq) from None
    if type(expected) is not type(event):  # pragma: no cover - move_of keeps the action
        raise CorruptLogError(f"{event.TYPE}: the rules make a {expected.TYPE} of it", seq=seq)
    for name in _PAYLOAD[type(event)]:  # the envelope (seq, parent) is the chain's business
        got, want = getattr(event, name), getattr(expected, name)
        if got != want:
            raise CorruptLogError(f"{event.TYPE}: {name} is {_show(got)}, the rules give {_show(want)}", seq=seq)


_PAYLOAD = {cls: [f.name for f in attrs.fields(cls) if f.name not in ("seq", "parent")] for cls in PLAY_TYPES}


def _one_line(exc: Exception) -> str:
    """The message of a rule broken by a turn read from a file, on one line: the rules quote the
    file's strings as they are (a card, a noble), and an edited file may put a line break in one."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(exc))


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return repr(value)


def replay(events: Iterable[Event], *, check: bool = True) -> Game:
    """Fold the events into a game. With `check`, every turn is judged by the rules again."""
    game = Game()
    for event in events:
        game = game.apply(event, check=check)
    return game

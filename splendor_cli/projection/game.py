"""The fold, whatever the game: events -> the game's history of states, with undo.

A `Game` keeps the state after the setup and after each effective move, so that undoing is
popping and `at(seq)` is a replay of a prefix. Every play event is judged again by the
game's rules (`Variant.decide`) as it is folded: a file edited by hand so that it breaks a
rule is refused, naming the event. The game itself is reached only through its `Variant`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ..errors import CorruptLogError, IllegalMoveError, SplendorError, UsageError, excerpt, one_line
from ..events import Event, PlayEvent, SeedCommitted, SeedRevealed, SeedsAsked, SeedsRestarted, TurnUndone, enveloped
from .table_protocol import OPEN, Handler, TableProtocol, find_protocol, protocol_of
from .variant import AnyVariant, State, check_players

if TYPE_CHECKING:
    from .seeding import SeededChance, Seeding


@attrs.frozen(kw_only=True)
class Game:
    """A game as far as its log goes: the events and the states of its effective history.

    `states[i]` is the state just after event `after[i]`: the setup first, then each move
    not undone. Undone moves stay in `events`, and `undone` names them.
    """

    variant: AnyVariant = attrs.field(eq=False)
    events: tuple[Event, ...] = ()
    states: tuple[Any, ...] = ()
    after: tuple[int, ...] = ()
    undone: frozenset[int] = frozenset()
    seeding: Seeding | None = None
    """While a commit-then-reveal deal is under way; None once dealt or without one."""
    declared: str = "open"
    """The table protocol the game's header declares (`Header.table`): chosen when the file is
    read, its events the only protocol events the log may hold, its opening event the log's first."""
    protocol: TableProtocol = OPEN
    """How the table keeps its cards and proves its moves (projection/table_protocol.py): the state of
    the declared protocol (`declared`) as far as the log goes (open until its opening event)."""
    chained_draws: bool = False
    """A file of format 1: each draw follows the digest of the effective event before it (see
    `chance`)."""
    payload_draws: bool = False
    """A file of format 4 on: a draw follows the game's first event and the setup's payload, never
    an envelope (see `chance`)."""

    @property
    def sealing(self) -> Any:
        """The sealed protocol's table (`sealing.protocol.SealedTable.sealing`, a `Sealing`); None
        in a game of another protocol. Kept for the tests of the sealed protocol: code asks
        `protocol` (and sealed code `sealing.protocol.sealing_of`)."""
        return getattr(self.protocol, "sealing", None)

    @property
    def seq(self) -> int:
        """The sequence number of the last event taken into account."""
        return len(self.events)

    @property
    def state(self) -> Any:
        """The table now (of the game's own state type)."""
        if not self.states:
            if self.seeding is not None:
                raise IllegalMoveError(f"the cards are not dealt yet: {self.seeding.waiting()}", rule="seed")
            stage = self.protocol.stage()
            if stage:
                raise IllegalMoveError(f"the cards are not dealt yet: {stage}", rule=self.protocol.name)
            raise CorruptLogError("the log does not start with its setup", seq=1)
        return self.states[-1]

    def dealing(self) -> str:
        """What the deal under way (commit-then-reveal, or the protocol's) waits for, in words;
        "" once the cards are dealt."""
        if self.states:
            return ""
        return self.protocol.stage() or (self.seeding.waiting() if self.seeding is not None else "")

    @property
    def table(self) -> State:
        """The table now, as the protocol sees it."""
        state: State = self.state
        return state

    @property
    def players(self) -> tuple[str, ...]:
        if self.seeding is not None and not self.states:
            return self.seeding.players
        if self.protocol.players and not self.states:
            return self.protocol.players
        return self.table.names()

    def decide(self, move: Any, *, player: str | None = None, by: str = "") -> PlayEvent:
        """The event for `move`, played by `player` (default: whoever is to move), for them by
        `by` ("": by themselves), as the rules make it: judged once, here (`apply(..., check=False)`
        folds it as it is). A random outcome the move leaves open (a Duel's replenish) is drawn as
        the log decides it.

        Raises:
            IllegalMoveError: it is not that player's turn, `by` is not another player of the game,
                or the rules forbid the move.
        """
        state = self.table
        if player is not None and player != state.player.name:
            if player not in self.players:
                raise IllegalMoveError(
                    f"{excerpt(player)} does not play in this game ({', '.join(self.players)})", rule="turn"
                )
            if state.finished:
                raise IllegalMoveError("the game is over", rule="game-over")
            raise IllegalMoveError(f"it is {state.player.name}'s turn, not {player}'s", rule="turn")
        event = self.variant.decide(state, self.variant.draw(state, move, self.chance()))
        if not by:
            return event
        if by == event.player or all(seat.name != by for seat in state.players):
            raise IllegalMoveError(f"played by {excerpt(by)}: not another player of the game", rule="turn")
        played_for: PlayEvent = attrs.evolve(event, by=by)  # type: ignore[call-arg]
        return played_for

    def chance(self) -> _LogChance:
        """Chance as the log decides it now (`_LogChance`)."""
        return _LogChance(self)

    def turn_start(self) -> int:
        """The event after which the current turn began; at a turn's start, the previous turn's."""
        index = len(self.states) - 2
        while index > 0 and not self.variant.at_turn_start(self.states[index]):
            index -= 1
        return self.after[max(index, 0)]

    def decide_undo(self, *, to: int | None = None, by: str = "", forced: bool = False) -> TurnUndone:
        """The event that takes the game back to just after event `to` (default: the last move).

        The policy of asynchronous play. Every undo records who asked (`by`): when the caller
        does not know (no --as, no git e-mail in the header), the player whose turns are all the
        ones taken back. A player may take back their own turns, and the bot seats' answers that
        followed them; taking back another player's turn is an agreed rewind, `forced`, and the
        event records it. The default `to`, when the last moves are bot seats' answers to a
        person who asks (or to whoever, when nobody says), goes back over that person's last
        move too: a bot's answer alone is not worth taking back.

        Raises:
            UsageError: there is no event `to`; or a forced rewind over several players' turns
                does not say who asks.
            IllegalMoveError: nothing to undo, `to` is not an effective event before the last, or
                the policy forbids it.
        """
        if to is not None and not 1 <= to <= self.seq:
            raise UsageError(f"there is no event #{to}: the log has events #1 to #{self.seq}")
        from .undo_policy import decide_undo  # an undo's rules: read only when there is one

        return decide_undo(self, to=to, by=by, forced=forced)

    def deal(self) -> Event:
        """The setup that a finished commit-then-reveal or sealed deal gives (IllegalMoveError
        before then)."""
        dealt = None if self.states else self.protocol.deal()
        if dealt is not None:
            return dealt
        if self.states or self.seeding is None:
            raise IllegalMoveError("the cards of this game are dealt already", rule="seed")
        return _dealt(self.variant, self.seeding)

    def apply(self, event: Event, *, check: bool = True) -> Game:
        """The game after `event`. With `check`, a play event is judged by the rules again first.

        Raises:
            CorruptLogError: the event cannot follow the events before it.
        """
        fold = _Fold(self)
        fold.add(event, check=check)
        return fold.game()

    def at(self, seq: int) -> Game:
        """The game as it was just after event `seq` (1 = the setup)."""
        if not 1 <= seq <= self.seq:
            raise UsageError(f"there is no event #{seq}: the log has events #1 to #{self.seq}")
        return replay(
            self.variant,
            self.events[:seq],
            check=False,
            chained_draws=self.chained_draws,
            payload_draws=self.payload_draws,
            table=self.declared,
        )


class _Fold:
    """A game being folded, in lists: adding an event costs the same at event #20,000 as at
    event #2 (a `Game` is frozen, and `Game.apply` copies its history each time)."""

    __slots__ = (
        "after",
        "chained_draws",
        "declared",
        "events",
        "handlers",
        "payload_draws",
        "protocol",
        "seeding",
        "states",
        "trusted",
        "undone",
        "variant",
    )

    def __init__(self, game: Game, trusted: int = 0) -> None:
        self.trusted = trusted
        """The events up to this seq were verified before by this reader: their signatures and
        proofs are not checked again (their rules are)."""
        self.variant = game.variant
        self.handlers = _handlers(game.variant)
        self.events: list[Event] = list(game.events)
        self.states: list[Any] = list(game.states)
        self.after: list[int] = list(game.after)
        self.undone: set[int] = set(game.undone)
        self.seeding = game.seeding
        self.protocol = game.protocol
        self.declared = game.declared
        self.chained_draws = game.chained_draws
        self.payload_draws = game.payload_draws

    @property
    def seq(self) -> int:
        return len(self.events)

    @property
    def players(self) -> tuple[str, ...]:
        if self.seeding is not None and not self.states:
            return self.seeding.players
        if self.protocol.players and not self.states:
            return self.protocol.players
        names: tuple[str, ...] = self.states[-1].names()
        return names

    def game(self) -> Game:
        return Game(
            variant=self.variant,
            events=tuple(self.events),
            states=tuple(self.states),
            after=tuple(self.after),
            undone=frozenset(self.undone),
            seeding=self.seeding,
            declared=self.declared,
            protocol=self.protocol,
            chained_draws=self.chained_draws,
            payload_draws=self.payload_draws,
        )

    def add(self, event: Event, *, check: bool) -> None:
        """Fold `event` in (see `Game.apply`), by the handler of its type (`_handlers`). Raise
        CorruptLogError if it cannot follow."""
        seq = self.seq + 1
        if event.seq != seq:
            raise CorruptLogError(f"seq is {event.seq}, expected {seq}", seq=seq)
        verify = check and seq > self.trusted  # the cryptography of the protocol (signatures, proofs)
        if self.protocol.watches:
            self.protocol.check_event(self, event, verify)
        handler = self.handlers.get(type(event)) or _inherited(self.handlers, type(event))
        if handler is None:  # the declared table protocol's own event: its protocol is imported now
            handler = find_protocol(self.declared).handlers().get(type(event))
        if handler is None:
            raise CorruptLogError(self._misplaced(event), seq=seq)
        handler(self, event, check, verify)
        if not self.events and self.protocol.name != self.declared:
            raise CorruptLogError(
                f"the header declares a {self.declared} table, but the log opens with {event.TYPE}"
                f" (a {self.declared} game opens with its protocol's own event)",
                seq=seq,
            )
        self.events.append(event)

    def _misplaced(self, event: Event) -> str:
        """Why `event` has no place in this game: another table protocol's, or no game's."""
        owner = protocol_of(event.TYPE)
        if owner is not None and owner != self.declared:
            return f"{event.TYPE} in a game that is not {owner} (its header declares the {self.declared} table)"
        return f"a {event.TYPE} event has no place in {self.variant.title}"

    def _play(self, event: PlayEvent, check: bool, verify: bool) -> None:
        """A turn of the game, or a step of one: judged by the rules again (`check`), then folded."""
        seq, variant = event.seq, self.variant
        if not self.states:
            raise CorruptLogError(f"{event.TYPE} before the cards are dealt", seq=seq)
        state = self.states[-1]
        if self.protocol.watches:
            self.protocol.check_play(self, event, state)
        if event.by and self.protocol.signed:  # a key says who moved: nobody plays another's seat
            raise CorruptLogError(
                f"played by {excerpt(event.by)}: at a {self.protocol.name} table each seat plays its own turns,"
                " signed by its own key",
                seq=seq,
            )
        if check:
            _check_play(variant, state, event, _LogChance(self))
        # Judged (now, or when the file was first read): it applies, or the rules have a bug.
        # A sealed game needs no substitution here: the state it follows has every card
        # revealed so far in place (its protocol's reveal, an undo substitutes), its decks included.
        self.states.append(variant.evolve(state, event))
        self.after.append(seq)

    def _undo(self, event: TurnUndone, check: bool, verify: bool) -> None:
        """An undo: the policy checked again (`check_undo`), the moves after `to` set aside."""
        from .undo_policy import check_undo

        protocol = self.protocol
        try:
            why = protocol.undo_refused()
            if why:
                raise IllegalMoveError(why, rule="undo")
            actors = check_undo(self, to=event.to, by=event.by, forced=event.forced)
            protocol.check_agreed(self, actors, to=event.to, by=event.by, forced=event.forced)
        except IllegalMoveError as exc:
            raise CorruptLogError(str(exc), seq=event.seq) from None
        keep = self.after.index(event.to) + 1
        self.undone.update(self.after[keep:])
        del self.states[keep:]
        del self.after[keep:]
        self.states[-1] = protocol.after_undo(self.states[-1])  # cards revealed since stay revealed

    def _seeds_asked(self, event: SeedsAsked, check: bool, verify: bool) -> None:
        """The start of a commit-then-reveal deal."""
        check_opening(self, event)
        from .seeding import Seeding  # only for a commit-then-reveal deal

        self.seeding = Seeding(players=event.players)

    def _seed_step(self, event: SeedCommitted | SeedRevealed | SeedsRestarted, check: bool, verify: bool) -> None:
        """A step of a commit-then-reveal deal: a commitment, a secret revealed, a restart."""
        if self.seeding is None or self.states:
            raise CorruptLogError(f"{event.TYPE} outside a commit-then-reveal deal", seq=event.seq)
        try:
            if isinstance(event, SeedCommitted):
                self.seeding = self.seeding.commit(event)
            elif isinstance(event, SeedRevealed):
                self.seeding = self.seeding.reveal(event)
            else:
                self.seeding = self.seeding.restart(event)
        except IllegalMoveError as exc:
            raise CorruptLogError(str(exc), seq=event.seq) from None

    def _setup(self, event: Event, check: bool, verify: bool) -> None:
        """The setup: dealt by the rules, or by the players together (it must be their deal)."""
        seq, protocol = event.seq, self.protocol
        deals = bool(protocol.dealt_by)  # the protocol deals (a sealed game's decks)
        if self.states or (self.events and self.seeding is None and not deals):
            raise CorruptLogError(f"a second setup ({event.TYPE})", seq=seq)
        if self.seeding is not None or deals:  # a deal the players made together
            dealt: Event | None
            try:
                if self.seeding is not None:
                    dealt, source = _dealt(self.variant, self.seeding), "revealed seeds"
                else:
                    dealt, source = protocol.deal(), protocol.dealt_by
            except IllegalMoveError as exc:
                raise CorruptLogError(str(exc), seq=seq) from None
            if dealt is None or enveloped(dealt, seq=event.seq, parent=event.parent) != event:
                raise CorruptLogError(f"the deal is not the one the {source} give", seq=seq)
        self.protocol = protocol.dealt()
        self._start(event)

    def _start(self, event: Event) -> None:
        seq = event.seq
        try:
            state = self.variant.start(event)
        except ValueError as exc:
            raise CorruptLogError(one_line(exc), seq=seq) from None
        problem = check_players(self.variant, state.names())
        if problem:
            raise CorruptLogError(problem, seq=seq)
        self.states, self.after, self.seeding = [state], [seq], None


_HANDLERS: dict[tuple[type, tuple[type, ...]], dict[type, Handler]] = {}


def _handlers(variant: AnyVariant) -> dict[type, Handler]:
    """The fold's handler of each event type a game of `variant` may log: its play events (all
    one handler), its setup, the events every game shares (the undo, the commit-then-reveal
    deal); a table protocol's own events are the declared protocol's (`TableProtocol.handlers`,
    looked up when one is met: an open game's read imports no protocol)."""
    key = (variant.setup_type, variant.play_types)
    known = _HANDLERS.get(key)
    if known is not None:
        return known
    table: dict[type, Handler] = {variant.setup_type: _Fold._setup}
    table.update({TurnUndone: _Fold._undo, SeedsAsked: _Fold._seeds_asked})
    table.update(dict.fromkeys((SeedCommitted, SeedRevealed, SeedsRestarted), _Fold._seed_step))
    table.update(dict.fromkeys(variant.play_types, _Fold._play))  # a play event is first of all a play
    _HANDLERS[key] = table
    return table


def check_opening(fold: Any, event: Any) -> None:
    """Refuse an event that opens a game (a commit-then-reveal deal's, a table protocol's: it
    names the `variant` and the `players`) when it is not the first, names another game, or
    seats players this game cannot (the fold's handlers of such events call it).

    Raises:
        CorruptLogError: naming the event.
    """
    seq, variant = event.seq, fold.variant
    if fold.events:
        raise CorruptLogError(f"{event.TYPE} must be the first event", seq=seq)
    if event.variant != variant.name:
        raise CorruptLogError(f"{event.TYPE} for {event.variant!r}, in a {variant.name!r} game", seq=seq)
    problem = check_players(variant, event.players)
    if problem:
        raise CorruptLogError(problem, seq=seq)


def _inherited(table: Mapping[type, Handler], kind: type) -> Handler | None:
    """The handler of the nearest class `kind` derives from that has one (None: none has)."""
    return next((table[base] for base in kind.__mro__[1:] if base in table), None)


def _dealt(variant: AnyVariant, seeding: Seeding) -> Event:
    """The setup a finished commit-then-reveal deal gives (IllegalMoveError before then)."""
    return variant.deal(seeding.players, seeding.chance())


def _check_play(variant: AnyVariant, state: State, event: PlayEvent, chance: _LogChance) -> None:
    """Refuse a play event that is not exactly what the rules make of the move it records."""
    seq = event.seq
    if event.player != state.player.name:
        raise CorruptLogError(f"{excerpt(event.player)} played, but it was {state.player.name}'s turn", seq=seq)
    by = getattr(event, "by", "")
    if by and (by == event.player or all(seat.name != by for seat in state.players)):
        raise CorruptLogError(f"played by {excerpt(by)}: not another player of the game", seq=seq)
    try:
        move = variant.move_of(event)
    except ValueError as exc:  # an id no table of the game has
        raise CorruptLogError(f"bad {event.TYPE}: {one_line(exc)}", seq=seq) from None
    try:
        expected = variant.decide(state, variant.draw(state, move, chance))
    except SplendorError as exc:
        raise CorruptLogError(f"illegal {event.TYPE}: {one_line(exc)}", seq=seq) from None
    if type(expected) is not type(event):  # pragma: no cover - move_of keeps the action
        raise CorruptLogError(f"{event.TYPE}: the rules make a {expected.TYPE} of it", seq=seq)
    for name in _payload(type(event)):  # the envelope (seq, parent) is the chain's business
        got, want = getattr(event, name), getattr(expected, name)
        if got != want:
            raise CorruptLogError(f"{event.TYPE}: {name} is {_show(got)}, the rules give {_show(want)}", seq=seq)


class _LogChance:
    """Chance as the log decides it (`Game.chance`), the same for every reader, so nobody can
    choose a draw: the k-th draw of a game (counting the effective events of the game's
    `drawing_types` before it) is seeded by SHA-256 of the game's session id (a game of keys:
    `TableProtocol.session`) or else its first event, the setup's payload and k (`payload_draws`,
    format 4 on). A move taken back and played again draws the
    same (an undo cannot re-roll it), and a detour (a privilege used first, another step before)
    cannot choose among draws either: the draw depends on nothing a player does in between. In a
    sealed game the setup's payload follows from every player's decryption shares of the face-up
    cards, which are deterministic for their keys; its envelope does not enter (its `parent` is
    the link of the last `cards_shown`, whose proofs carry fresh random nonces: whoever showed
    last could re-make it until the draw suited him). Like an open game's deck order, the draws
    are open to whoever reads the file.

    Files of formats 2 and 3 drew from SHA-256 of the whole setup event and k, and a file of
    format 1 (`chained_draws`) from the digest of the effective event before the draw, signature
    included; each is read as it was written.

    Computed only if something is drawn (most moves draw nothing); read at once (a fold goes on).
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game | _Fold) -> None:
        self._game = game

    def _seeded(self) -> SeededChance:
        import json
        from hashlib import sha256

        from ..events.codec import event_digest, event_to_dict  # the codec: only for games that draw
        from .seeding import SeededChance

        game = self._game
        events, after = game.events, game.after
        if game.chained_draws:
            return SeededChance(bytes.fromhex(event_digest(events[after[-1] - 1])))
        kinds = game.variant.drawing_types
        drawn = sum(1 for seq in after[1:] if isinstance(events[seq - 1], kinds))
        if game.payload_draws:  # the game's session (or first event) and the setup's payload: no envelope
            session = game.protocol.session()
            if session is not None:
                first = session.hex()
            else:
                first = json.dumps(event_to_dict(events[0]), sort_keys=True, separators=(",", ":"))
            setup = event_to_dict(events[after[0] - 1])
            payload = {key: value for key, value in setup.items() if key not in ("seq", "parent", "sig")}
            parts = (first, json.dumps(payload, sort_keys=True, separators=(",", ":")), str(drawn))
            seed = sha256(b"splendor-cli/draw/v3\0" + "\0".join(parts).encode("utf-8"))
            return SeededChance(seed.digest())
        setup_text = json.dumps(event_to_dict(events[after[0] - 1]), sort_keys=True, separators=(",", ":"))
        seed = sha256(b"splendor-cli/draw/v2\0" + setup_text.encode("utf-8") + b"\0" + str(drawn).encode())
        return SeededChance(seed.digest())

    def shuffle(self, items: Sequence[str], label: str) -> tuple[str, ...]:
        return self._seeded().shuffle(items, label)

    def sample(self, items: Sequence[str], count: int, label: str) -> tuple[str, ...]:
        return self._seeded().sample(items, count, label)


_PAYLOAD: dict[type, tuple[str, ...]] = {}


def _payload(cls: type) -> tuple[str, ...]:
    """The fields of an event class but its envelope."""
    if cls not in _PAYLOAD:
        # `by` (who played the turn for its player, on purpose) is no part of what the rules make
        _PAYLOAD[cls] = tuple(f.name for f in attrs.fields(cls) if f.name not in ("seq", "parent", "sig", "by"))
    return _PAYLOAD[cls]


def _show(value: object) -> str:
    """A value of an event in an error message: a list as `[a, b]`; escaped, and bounded."""
    if isinstance(value, tuple):
        text = "[" + ", ".join(str(v) for v in value) + "]"
        return one_line(ValueError(text if len(text) <= 60 else text[:57] + "..."))
    return excerpt(value, 60)


def replay(
    variant: AnyVariant,
    events: Iterable[Event],
    *,
    check: bool = True,
    trusted: int = 0,
    chained_draws: bool = False,
    payload_draws: bool = False,
    table: str = "open",
) -> Game:
    """Fold the events of a game of `variant` at a table of protocol `table` (the header's:
    `Game.declared`; UsageError when this program has none). With `check`, every move is judged by
    the rules again, and in a sealed game every signature and proof is checked but those of the
    first `trusted` events (ones this reader verified before: the same bytes, by their chain's
    digest). `chained_draws`: a file of format 1 (`Game.chained_draws`); `payload_draws`: of format
    4 on (`Game.payload_draws`). Linear in the number of
    events, undos included."""
    find_protocol(table)  # a protocol this program plays, before any event
    game = Game(variant=variant, chained_draws=chained_draws, payload_draws=payload_draws, declared=table)
    fold = _Fold(game, trusted)
    for event in events:
        fold.add(event, check=check)
    return fold.game()

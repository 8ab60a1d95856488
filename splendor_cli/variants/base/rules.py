"""The rules of base Splendor: legal turns, `decide` (turn -> event) and `evolve` (event -> state).

`decide` is the single judge of legality: it refuses a turn with IllegalMoveError naming the
rule, and otherwise returns the event that records it (with an empty envelope; the log seals
it). `evolve` applies an event that `decide` accepted. `legal_moves` lists every distinct
turn, fully specified, so that a bot or a script can pick one.
"""

from __future__ import annotations

import functools
import itertools
import operator
from typing import TYPE_CHECKING, Literal, assert_never

import attrs

from ...errors import AmbiguousMoveError, IllegalMoveError
from ...model import COLOURS, EMPTY, GEMS, Gem, Tokens
from ...sealing.placeholders import PLACEHOLDER, is_placeholder, level_of
from ..common import payment as paying
from ..common.display import draw_card, take_face_up, unreserve
from ..common.payment import affordable, payment_for
from .cards import CARDS, NOBLES
from .events import CardPurchased, CardReserved, TokensTaken, TurnEvent, TurnPassed
from .state import (
    MAX_RESERVED,
    MAX_TOKENS,
    WINNING_POINTS,
    GameState,
    PlayerState,
    new_player,
    new_state,
)

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

Action = Literal["take", "reserve", "buy", "pass"]
ACTIONS: tuple[Action, ...] = ("take", "reserve", "buy", "pass")


@attrs.frozen(kw_only=True, cache_hash=True)
class Move:
    """A whole turn as a player says it: the action, the tokens returned, the noble chosen.

    `returned` and `noble` may be left unsaid (None); the rules fill them in when there is only
    one choice. `payment` None means the default payment (coloured tokens before gold).
    `deck` is the level of a blind reserve (0 otherwise).
    """

    action: Action
    gems: Tokens = EMPTY
    card: str = ""
    deck: int = 0
    payment: Tokens | None = None
    returned: Tokens | None = None
    noble: str | None = None


@functools.lru_cache(maxsize=1 << 16)
def cached_move(
    action: Action, gems: Tokens = EMPTY, card: str = "", deck: int = 0, returned: Tokens = EMPTY, noble: str = ""
) -> Move:
    """A fully specified move, shared: moves are values, and listing them is the hot path of play."""
    return Move(action=action, gems=gems, card=card, deck=deck, returned=returned, noble=noble)


ONE_GOLD = Tokens.of(gold=1)
_trusted = Tokens._trusted
_TWO = {gem: Tokens.of({gem: 2}) for gem in GEMS}
_NONE = ("",)
_NONE_BY_COLOUR = (_NONE,) * 5
_NO_NOBLES = (_NONE, _NONE_BY_COLOUR)
"""`_nobles_for` a player too few bonuses for any noble, even after a purchase."""
_BONUS_OF = {card.id: card.gives for card in CARDS.values()}
_PRICE = {card.id: card.cost.total() for card in CARDS.values()}
_TAKEN = {Tokens.from_gems(c): n for n in (1, 2, 3) for c in itertools.combinations_with_replacement(COLOURS, n)}
"""How many tokens each possible take holds."""
_RETURN_CHOICES: dict[int, tuple[Tokens, ...]] = {
    k: tuple(Tokens.from_gems(c) for c in itertools.combinations_with_replacement(GEMS, k)) for k in (1, 2, 3)
}
_RETURN_COUNTS = {k: tuple(r.counts for r in returns) for k, returns in _RETURN_CHOICES.items()}


# -- what a player can afford ----------------------------------------------------------------


_COST = {card.id: card.cost.counts for card in CARDS.values()}


def still_to_pay(player: PlayerState, card: str) -> Tokens:
    """The cost of `card` after the player's bonuses, per colour, never below zero."""
    return paying.still_to_pay(_COST[card], player.bonuses)


def default_payment(player: PlayerState, card: str) -> Tokens | None:
    """Coloured tokens first, gold for the rest; None when the player cannot afford the card (or
    it is no card: a sealed game's placeholder, not revealed)."""
    cost = _COST.get(card)
    return None if cost is None else paying.default_payment(cost, player.bonuses, player.tokens)


# -- deciding a turn -------------------------------------------------------------------------


def _find_on_board(state: GameState, card: str) -> tuple[int, int] | None:
    for level, row in enumerate(state.board):
        if card in row:
            return level, row.index(card)
    return None


def _take(state: GameState, gems: Tokens) -> None:
    """rulebook: 3 gems of different colours, or 2 of one colour from a pile of 4 or more; never gold.

    The messages say what is wrong, not the move again (the player just typed it)."""
    if gems[Gem.GOLD]:
        raise IllegalMoveError("gold cannot be taken, only received by reserving a card", rule="take")
    counts = [n for n in gems.counts[:5] if n]
    if max(counts, default=0) > 1 and counts != [2]:
        raise IllegalMoveError("take 3 different colours or 2 of one colour", rule="take")
    if len(counts) > 3:
        raise IllegalMoveError("take 3 different colours or 2 of one colour: at most 3 gems", rule="take-three")
    short = [
        f"no {colour}" if not state.bank[colour] else f"only {state.bank[colour]} {colour}"
        for colour in COLOURS
        if gems[colour] > state.bank[colour]
    ]
    if short:
        raise IllegalMoveError(f"the bank has {' and '.join(short)}", rule="take")
    if counts == [2]:
        colour = next(g for g in COLOURS if gems[g])
        if state.bank[colour] < 4:
            raise IllegalMoveError(
                f"2 {colour} may be taken only from a pile of 4 or more (the bank has {state.bank[colour]})",
                rule="take-two",
            )
        return
    # rulebook: fewer than 3 colours may be taken only when fewer than 3 are left in the bank.
    available = 5 - state.bank.counts[:5].count(0)
    if not counts or len(counts) < 3 <= available:
        raise IllegalMoveError(
            "take 3 different colours or 2 of one colour; fewer only when fewer than 3 colours are left,"
            f" and the bank has {available}",
            rule="take-three",
        )


def _returns(name: str, tokens: Tokens, returned: Tokens | None) -> Tokens:
    """rulebook: a player over 10 tokens returns tokens of their choice until exactly 10 remain."""
    held = sum(tokens.counts)
    excess = held - MAX_TOKENS
    if returned is None:
        if excess <= 0:
            return EMPTY
        choices = return_choices(tokens)
        if len(choices) == 1:
            return choices[0]
        raise AmbiguousMoveError(
            f"{name} would hold {held} tokens: say which {excess} to return,"
            f" e.g. '... return {' '.join(choices[0].gems())}'"
        )
    if returned.total() != max(0, excess):
        raise IllegalMoveError(
            f"{name} would hold {held} tokens and must return {max(0, excess)}, not {returned.total()}",
            rule="ten-tokens",
        )
    if not returned <= tokens:
        raise IllegalMoveError(f"{name} cannot return {returned}: holds {tokens}", rule="ten-tokens")
    return returned


_REQUIRES = {noble.id: noble.requires.counts for noble in NOBLES.values()}


_REQUIRES5 = {noble: requires[:5] for noble, requires in _REQUIRES.items()}
"""A noble's requirement in the five colours: none asks for gold or pearls."""
assert all(not requires[5] and not requires[6] for requires in _REQUIRES.values())
_NOBLE_LEAST = min(sum(requires) for requires in _REQUIRES.values())
"""The fewest bonuses any noble asks for: fewer, and no noble can visit (most of a game)."""
_NOBLE_POINTS = {noble.id: noble.points for noble in NOBLES.values()}


def qualifying_nobles(state: GameState, bonuses: Tokens) -> tuple[str, ...]:
    """The nobles on the table whose requirements the bonuses meet."""
    have = bonuses.counts
    if sum(have) < _NOBLE_LEAST:
        return ()
    return _nobles_meeting(state.nobles, have)


@functools.lru_cache(maxsize=1 << 14)
def _nobles_meeting(nobles: tuple[str, ...], have: tuple[int, ...]) -> tuple[str, ...]:
    """`qualifying_nobles` of the nobles on the table and bonus counts (a position's nobles and a
    player's bonuses recur: asked again at every turn until a card is bought)."""
    return tuple(n for n in nobles if all(map(operator.le, _REQUIRES[n], have)))


@functools.lru_cache(maxsize=1 << 14)
def _nobles_for(nobles: tuple[str, ...], have: tuple[int, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The nobles on the table that bonuses `have` meet (`_nobles_meeting`), and those that may
    visit after a purchase adds a bonus of each colour, by colour; `("",)` for none. A player's
    bonuses stay the same until a purchase."""
    met: list[str] = []
    found: list[list[str]] = [[], [], [], [], []]
    h0, h1, h2, h3, h4 = have[:5]
    for noble in nobles:
        r0, r1, r2, r3, r4 = _REQUIRES5[noble]
        d0, d1, d2, d3, d4 = r0 - h0, r1 - h1, r2 - h2, r3 - h3, r4 - h4
        short = (d0 if d0 > 0 else 0) + (d1 if d1 > 0 else 0) + (d2 if d2 > 0 else 0)
        short += (d3 if d3 > 0 else 0) + (d4 if d4 > 0 else 0)
        if not short:  # met already: it may visit whatever is bought
            met.append(noble)
            for colours in found:
                colours.append(noble)
        elif short == 1:  # one bonus short: it may visit after a card of that colour
            found[0 if d0 > 0 else 1 if d1 > 0 else 2 if d2 > 0 else 3 if d3 > 0 else 4].append(noble)
    after = tuple(tuple(colours) or _NONE for colours in found)
    return tuple(met) or _NONE, _NONE_BY_COLOUR if after == _NONE_BY_COLOUR else after


def _noble(state: GameState, bonuses: Tokens, noble: str | None) -> str:
    """rulebook: a noble whose requirement the bonuses meet must visit; the player picks one."""
    choices = qualifying_nobles(state, bonuses)
    if noble is None:
        if len(choices) > 1:
            raise AmbiguousMoveError(f"nobles {', '.join(choices)} may visit: name one with '... noble {choices[0]}'")
        return choices[0] if choices else ""
    if noble == "" and choices:
        raise IllegalMoveError(f"noble {choices[0]} must visit: a visit is not optional", rule="noble")
    if noble and noble not in choices:
        why = "is not on the table" if noble not in state.nobles else f"asks for {NOBLES[noble].requires} in bonuses"
        raise IllegalMoveError(f"noble {noble} cannot visit {state.player.name}: it {why}", rule="noble")
    return noble


def decide(state: GameState, move: Move) -> TurnEvent:
    """Judge `move` for the player to move and return the event recording it (envelope empty).

    The action is judged by its handler; then, for every action alike, the tokens returned
    down to 10 and the noble that visits.

    Raises:
        IllegalMoveError: the rules forbid it now (the message names the rule).
        AmbiguousMoveError: tokens must be returned or a noble chosen, and the move does not say.
    """
    if state.finished:
        raise IllegalMoveError("the game is over", rule="game-over")
    match move.action:
        case "take":
            return _decide_take(state, move)
        case "reserve":
            return _decide_reserve(state, move)
        case "buy":
            return _decide_buy(state, move)
        case "pass":
            return _decide_pass(state, move)
        case _:
            assert_never(move.action)


def _decide_take(state: GameState, move: Move) -> TokensTaken:
    _take(state, move.gems)
    player = state.player
    returned = _returns(player.name, player.tokens + move.gems, move.returned)
    noble = _noble(state, player.bonuses, move.noble)
    return TokensTaken(player=player.name, gems=move.gems.gems(), returned=returned.gems(), noble=noble)


def _decide_reserve(state: GameState, move: Move) -> CardReserved:
    player = state.player
    if len(player.reserved) >= MAX_RESERVED:
        raise IllegalMoveError(f"{player.name} already holds {MAX_RESERVED} reserved cards", rule="reserve")
    if move.deck:
        if not 1 <= move.deck <= 3:
            raise IllegalMoveError(f"there is no deck {move.deck}", rule="reserve")
        if not state.decks[move.deck - 1]:
            raise IllegalMoveError(f"deck {move.deck} is empty", rule="reserve")
        card, drawn = state.decks[move.deck - 1][0], ""
    else:
        card = move.card
        if _find_on_board(state, card) is None:
            raise IllegalMoveError(f"card {card} is not face up on the board", rule="reserve")
        if is_placeholder(card):
            raise IllegalMoveError(f"card {card} is not revealed yet (a sealed card)", rule="reserve")
        drawn = _top(state, card)
    gold = state.bank.counts[5] > 0
    returned = _returns(player.name, player.tokens + ONE_GOLD if gold else player.tokens, move.returned)
    noble = _noble(state, player.bonuses, move.noble)
    return CardReserved(
        player=player.name,
        card=card,
        blind=bool(move.deck),
        gold=gold,
        drawn=drawn,
        returned=returned.gems(),
        noble=noble,
    )


def _decide_buy(state: GameState, move: Move) -> CardPurchased:
    player = state.player
    card = move.card
    reserved = card in player.reserved
    if not reserved and _find_on_board(state, card) is None:
        raise IllegalMoveError(f"card {card} is neither face up nor reserved by {player.name}", rule="buy")
    if card not in _COST:  # a sealed game's placeholder: the card is not revealed yet
        raise IllegalMoveError(f"card {card} is not revealed yet (a sealed card)", rule="buy")
    payment = payment_for(player.name, card, _COST[card], player.bonuses, player.tokens, move.payment)
    _returns(player.name, player.tokens - payment, move.returned)  # a purchase never brings a hand over 10
    noble = _noble(state, player.bonuses + _BONUS_OF[card], move.noble)
    return CardPurchased(
        player=player.name,
        card=card,
        payment=payment.gems(),
        drawn="" if reserved else _top(state, card),
        noble=noble,
    )


def _decide_pass(state: GameState, move: Move) -> TurnPassed:
    player = state.player
    if has_action(state):
        raise IllegalMoveError(f"{player.name} may not pass: a legal action exists", rule="pass")
    _returns(player.name, player.tokens, move.returned)
    return TurnPassed(player=player.name, noble=_noble(state, player.bonuses, move.noble))


def _top(state: GameState, card: str) -> str:
    """The card dealt into the slot a face-up `card` leaves: the top of its deck ("" if empty;
    in a sealed game, perhaps a placeholder)."""
    deck = state.decks[level_of(card) - 1]
    return deck[0] if deck else ""


def move_of(event: TurnEvent) -> Move:
    """The fully specified move that `event` records (what `decide` must turn back into it).

    A blind reserve of a sealed game names the placeholder of the card it took (`1?05`).

    Raises:
        ValueError: the event names a card or a noble that Splendor does not have.
    """
    card = getattr(event, "card", "")
    sealed = isinstance(event, CardReserved) and event.blind and _is_sealed_card(card)
    for kind, table, value in (("card", CARDS, "" if sealed else card), ("noble", NOBLES, event.noble)):
        if value and value not in table:
            raise ValueError(f"there is no {kind} {value!r} in Splendor")
    match event:
        case TokensTaken():
            return Move(
                action="take",
                gems=Tokens.from_gems(event.gems),
                returned=Tokens.from_gems(event.returned),
                noble=event.noble,
            )
        case CardReserved():
            deck = level_of(event.card) if event.blind else 0
            return Move(
                action="reserve",
                card="" if event.blind else event.card,
                deck=deck,
                returned=Tokens.from_gems(event.returned),
                noble=event.noble,
            )
        case CardPurchased():
            return Move(action="buy", card=event.card, payment=Tokens.from_gems(event.payment), noble=event.noble)
        case TurnPassed():
            return Move(action="pass", noble=event.noble)
        case _:
            assert_never(event)


def _is_sealed_card(card: str) -> bool:
    """Whether `card` is a placeholder a sealed game's blind reserve may name (`1?05`)."""
    return PLACEHOLDER.fullmatch(card) is not None


# -- listing the legal turns -----------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def return_choices(hand: Tokens) -> tuple[Tokens, ...]:
    """Every distinct set of tokens whose return leaves `hand` with exactly 10."""
    excess = hand.total() - MAX_TOKENS
    if excess <= 0:
        return (EMPTY,)
    return tuple(r for r in _RETURN_CHOICES[excess] if r <= hand)


@functools.lru_cache(maxsize=64)
def _takes_from(available: tuple[Gem, ...]) -> tuple[Tokens, ...]:
    """rulebook: 3 different colours, or fewer only when fewer than 3 are left."""
    size = min(3, len(available))
    sizes = [3] if size == 3 else range(size, 0, -1)
    return tuple(Tokens.from_gems(combo) for n in sizes for combo in itertools.combinations(available, n))


def has_action(state: GameState) -> bool:
    """Whether the player to move has any action at all (else the turn is a pass)."""
    player = state.player
    if any(state.bank.counts[:5]):
        return True
    if len(player.reserved) < MAX_RESERVED and (
        any(c and c in _COST for row in state.board for c in row) or any(state.decks)
    ):
        return True
    return any(
        affordable(_COST[card], player.bonuses, player.tokens)
        for row in (*state.board, player.reserved)
        for card in row
        if card and card in _COST  # a placeholder (sealed game) is neither reserved from a row nor bought
    )


_Key = tuple[Action, Tokens, str, int, Move]
"""An action before returns and nobles: the action word, gems, card and deck of a Move, and the
Move itself with nothing returned and no noble (the turn as most turns are: built once)."""
_Group = tuple[tuple[_Key, ...], tuple[Tokens, ...], tuple[str, ...]]


def _key(action: Action, gems: Tokens = EMPTY, card: str = "", deck: int = 0) -> _Key:
    return (action, gems, card, deck, cached_move(action, gems, card, deck))


_PLAIN = operator.itemgetter(4)
"""An action's Move with nothing returned and no noble."""


def _size(groups: tuple[_Group, ...]) -> int:
    return sum(len(keys) * len(returns) * len(nobles) for keys, returns, nobles in groups)


@attrs.frozen
class Choices:
    """The legal turns of a position, grouped: actions that share their return and noble options.

    Each group is (actions, returns, nobles) and stands for every combination of the three.
    Flattened in order, the groups are `legal_moves`; `move(i)` picks the i-th turn without
    building the others (random play needs only one). `size` is how many turns there are.
    """

    groups: tuple[_Group, ...]
    size: int = attrs.field(eq=False, default=attrs.Factory(lambda self: _size(self.groups), takes_self=True))

    def __len__(self) -> int:
        return self.size

    def move(self, index: int) -> Move:
        if index < 0:
            raise IndexError("no such move")
        for keys, returns, nobles in self.groups:
            per_key = len(returns) * len(nobles)
            size = len(keys) * per_key
            if index < size:
                action, gems, card, deck, plain = keys[index // per_key]
                if per_key == 1 and returns[0] is EMPTY and not nobles[0]:
                    return plain
                index %= per_key
                return cached_move(action, gems, card, deck, returns[index // len(nobles)], nobles[index % len(nobles)])
            index -= size
        raise IndexError("no such move")

    def moves(self) -> list[Move]:
        found: list[Move] = []
        for keys, returns, nobles in self.groups:
            if len(nobles) != 1 or nobles[0]:  # a noble to choose: seldom
                found += _every_move(keys, returns, nobles)
            elif returns is _KEEP:
                found += map(_PLAIN, keys)  # most groups: the actions' own moves, built once
            elif isinstance(returns, _Returns):  # a hand near 10: each action with each return
                pick, excess = returns.pick, returns.excess
                built = _EVERY_RETURN[excess]
                for key in keys:
                    made = built.get(key[4])
                    found += pick(made if made is not None else _every_return(key, excess))
            else:
                found += _every_move(keys, returns, nobles)
        return found


def _every_move(keys: tuple[_Key, ...], returns: tuple[Tokens, ...], nobles: tuple[str, ...]) -> list[Move]:
    """The moves of a group, each built (or found in `cached_move`)."""
    return [
        cached_move(action, gems, card, deck, returned, noble)
        for action, gems, card, deck, _ in keys
        for returned in returns
        for noble in nobles
    ]


_KEEP = (EMPTY,)
_new = object.__new__
_SET_GROUPS, _SET_SIZE = Choices.__dict__["groups"].__set__, Choices.__dict__["size"].__set__
assert [f.name for f in attrs.fields(Choices)] == ["groups", "size"] and not hasattr(Choices, "__attrs_post_init__")
_NO_CHOICES = Choices((), 0)
_COST5 = {card: cost[:5] for card, cost in _COST.items()}
"""A card's cost in the five colours: no base card costs gold or pearls."""
assert all(not cost[5] and not cost[6] for cost in _COST.values())
_BONUS_AT: dict[str | None, int] = {card.id: COLOURS.index(card.bonus) for card in CARDS.values() if card.bonus}
assert all(card.bonus and card.gives == Tokens.of({card.bonus: 1}) for card in CARDS.values())  # one bonus each
_POINTS = {card.id: card.points for card in CARDS.values()}
_BUY: dict[str | None, tuple[tuple[_Key, ...]]] = {card: ((_key("buy", card=card),),) for card in CARDS}
"""The one action of a purchase, as a group's actions."""
_PASS = (_key("pass"),)
_BUY_MOVE = {card: keys[0][4] for card, (keys,) in _BUY.items()}
"""A purchase's move, no noble visiting."""
_FULL = (True, True, True)
_Row = tuple[int, tuple[tuple[int, str], ...], tuple[Move, ...]]
_NO_ROW: _Row = (0, (), ())


_TAKE_KEY = {gems: _key("take", gems) for gems in _TAKEN}
"""Every possible take as a group's action, built once."""
_RESERVE_KEY = {card: _key("reserve", EMPTY, card) for card in CARDS}
_DECK_KEY = {level: _key("reserve", EMPTY, "", level) for level in (1, 2, 3)}
_BIT = {card: 1 << at for at, card in enumerate(CARDS)}
"""Each card's bit in the sets of cards of `choices` (ints)."""
_PAIR = {card: (bit, card) for card, bit in _BIT.items()}
_RESERVE_MOVE = {card: key[4] for card, key in _RESERVE_KEY.items()}


def _covered(colour: int) -> tuple[int, ...]:
    costing = [0] * 128  # costing[n]: the cards costing n of that colour, then at most n
    for card, cost in _COST5.items():
        costing[cost[colour]] |= _BIT[card]
    for n in range(1, 128):
        costing[n] |= costing[n - 1]
    return tuple(costing)


_COVERED = tuple(_covered(colour) for colour in range(5))
"""`_COVERED[colour][n]`: the cards costing at most n of that colour (n up to 127: a hand holds at most 10
tokens, 5 of them gold, and 18 cards give a colour's bonus)."""


@functools.lru_cache(maxsize=4096)
def _row(cards: tuple[str | None, ...]) -> _Row:
    """A row of the board, or a player's reserve: its cards (no empty slot, no unrevealed sealed
    card) as a set of bits, as (bit, card) in order, and their reserves as moves. A row stays the
    same until a card of its level leaves it: the other two are met again."""
    known = [card for card in cards if card in _BIT]
    return (
        sum(map(_BIT.__getitem__, known)),
        tuple(map(_PAIR.__getitem__, known)),
        tuple(map(_RESERVE_MOVE.__getitem__, known)),
    )


_DECK_KEYS = {
    left: tuple(_DECK_KEY[level] for level, there in enumerate(left, start=1) if there)
    for left in itertools.product((False, True), repeat=3)
}
"""The blind reserves of the decks not empty, by (deck 1, deck 2, deck 3) not empty."""
_DECK_MOVES = {left: tuple(map(_PLAIN, keys)) for left, keys in _DECK_KEYS.items()}


_TAKE_AT = {gems: at for at, gems in enumerate(_TAKEN)}
"""Every possible take's place in `_hand_returns`; a reserve's gold comes last."""
_GOLD_AT = len(_TAKEN)
_Over = tuple[tuple[tuple[_Key], Tokens, int], ...]
_NO_OVER: _Over = ()


_Take = tuple[int, tuple[_Key], Tokens, int, Move]
"""A take as `choices` and `legal_moves` use it: how many tokens, its action (in a 1-tuple: a
group's actions), its gems, its place in `_hand_returns` and its move (nothing returned)."""
_TAKE = {gems: (_TAKEN[gems], (_TAKE_KEY[gems],), gems, _TAKE_AT[gems], _TAKE_KEY[gems][4]) for gems in _TAKEN}


@functools.lru_cache(maxsize=64)
def _takes_of(available: tuple[int, ...]) -> tuple[_Take, ...]:
    """`_takes_from` the colours (by index) left in the bank, as `_Take`s."""
    return tuple(_TAKE[gems] for gems in _takes_from(tuple(COLOURS[at] for at in available)))


_TWO_TAKE = tuple(_TAKE[_TWO[gem]] for gem in COLOURS)


@functools.lru_cache(maxsize=1 << 15)
def _bank_all(bank: tuple[int, ...]) -> tuple[_Take, ...]:
    """Every legal take from a bank with these gem counts (gold aside): `_takes_from` the colours
    left, then 2 of each colour with 4 or more left."""
    return _takes_of(tuple(at for at, n in enumerate(bank) if n)) + tuple(
        take for take, n in zip(_TWO_TAKE, bank) if n >= 4
    )


def _bank_keys(bank: tuple[int, ...]) -> tuple[_Key, ...]:
    """Every legal take from a bank with these gem counts (gold aside), as actions: what
    `_takes_for` keeps for a hand with room for 3 more tokens or more (most hands)."""
    return tuple(take[1][0] for take in _bank_all(bank))


@functools.lru_cache(maxsize=1 << 15)
def _bank_moves(bank: tuple[int, ...]) -> tuple[Move, ...]:
    """`_bank_keys` as moves: every legal take from the bank, nothing returned, no noble."""
    return tuple(take[4] for take in _bank_all(bank))


@functools.lru_cache(maxsize=4096)
def _takes_for(bank: tuple[int, ...], room: int) -> tuple[tuple[_Key, ...], _Over]:
    """Every legal take from a bank with these gem counts (gold aside), for a hand with room for
    `room` more tokens: the takes that keep the hand within 10, then each take that does not,
    with what it takes and its place in `_hand_returns`."""
    takes = _bank_all(bank)
    return tuple(take[1][0] for take in takes if take[0] <= room), tuple(take[1:4] for take in takes if take[0] > room)


class _Returns(tuple[Tokens, ...]):
    """The return choices of a hand over 10 (`return_choices`), and how to list the turns they
    make: `pick` takes, from an action's moves with every return of `excess` tokens (in
    `_RETURN_CHOICES` order, `_every_return`), those of this hand's returns, in the same order.
    Half the positions of a random game hold a hand near 10, and most of their turns return tokens."""

    excess: int
    pick: Callable[[tuple[Move, ...]], tuple[Move, ...]]


def _returns_of(hand: tuple[int, ...]) -> _Returns:
    """`return_choices` of a hand over 10 given by its counts (a tuple hashes quicker than Tokens)."""
    excess = sum(hand) - MAX_TOKENS
    return _returns_for(excess, tuple([held if held < excess else excess for held in hand]))


@functools.lru_cache(maxsize=4096)
def _returns_for(excess: int, hand: tuple[int, ...]) -> _Returns:
    """`_returns_of` a hand `excess` tokens over 10, each of its counts capped at `excess` (a
    return of `excess` tokens holds no more of a kind: the same returns fit)."""
    h0, h1, h2, h3, h4, h5, _ = hand
    every = _RETURN_CHOICES[excess]
    at = [
        i
        for i, (r0, r1, r2, r3, r4, r5, _) in enumerate(_RETURN_COUNTS[excess])
        if r0 <= h0 and r1 <= h1 and r2 <= h2 and r3 <= h3 and r4 <= h4 and r5 <= h5
    ]
    returns = _Returns(every[i] for i in at)
    returns.excess = excess
    if len(at) == 1:
        only = at[0]
        returns.pick = lambda moves: (moves[only],)
    else:
        returns.pick = operator.itemgetter(*at)
    return returns


@functools.lru_cache(maxsize=4096)
def _hand_returns(hand: tuple[int, ...]) -> list[_Returns | None]:
    """The `_returns_of` a hand near 10 after each take (by its place in `_TAKEN`) and after a
    reserve's gold (last), filled when first asked: a hand recurs far more than a bank and a hand."""
    return [None] * (len(_TAKEN) + 1)


@functools.lru_cache(maxsize=4096)
def _buys_with(card: str, nobles: tuple[str, ...]) -> tuple[Move, ...]:
    """The purchases of `card` after which one of `nobles` visits."""
    return tuple(_every_move(*_BUY[card], _KEEP, nobles))


@functools.lru_cache(maxsize=4096)
def _hand_moves(hand: tuple[int, ...]) -> list[tuple[Move, ...] | None]:
    """The moves of a hand near 10 after each take (by its place in `_TAKEN`), with every return
    and no noble, filled when first asked (`legal_moves`)."""
    return [None] * len(_TAKEN)


_EVERY_RETURN: dict[int, dict[Move, tuple[Move, ...]]] = {1: {}, 2: {}, 3: {}}
"""An action's plain Move -> its moves with every return of 1, 2 or 3 tokens (built when first met)."""


def _every_return(key: _Key, excess: int) -> tuple[Move, ...]:
    action, gems, card, deck, plain = key
    made = tuple(cached_move(action, gems, card, deck, returned, "") for returned in _RETURN_CHOICES[excess])
    _EVERY_RETURN[excess][plain] = made
    return made


def _affordable(
    counts: tuple[int, ...],
    have: tuple[int, ...],
    bits1: int,
    cards1: tuple[tuple[int, str], ...],
    bits2: int,
    cards2: tuple[tuple[int, str], ...],
    bits3: int,
    cards3: tuple[tuple[int, str], ...],
    reserved: tuple[str, ...],
) -> list[str]:
    """The cards a hand of `counts` tokens and `have` bonuses can buy, in the order `choices`
    lists purchases: the board's three rows (each `_row`'s bits and cards), then the reserve."""
    t0, t1, t2, t3, t4, gold, _ = counts
    b0, b1, b2, b3, b4, _, _ = have
    h0, h1, h2, h3, h4 = t0 + b0, t1 + b1, t2 + b2, t3 + b3, t4 + b4
    bits4, cards4, _ = _row(reserved) if reserved else _NO_ROW
    bits = bits1 | bits2 | bits3 | bits4
    a0, a1, a2, a3, a4 = _COVERED
    if gold:  # no colour short by more than the gold, then the whole shortfall checked card by card
        bits &= a0[h0 + gold] & a1[h1 + gold] & a2[h2 + gold] & a3[h3 + gold] & a4[h4 + gold]
    else:  # every colour covered: the cards affordable, all at once
        bits &= a0[h0] & a1[h1] & a2[h2] & a3[h3] & a4[h4]
    found: list[str] = []
    if not bits:
        return found
    for bit, card in (
        *(cards1 if bits & bits1 else ()),
        *(cards2 if bits & bits2 else ()),
        *(cards3 if bits & bits3 else ()),
        *(cards4 if bits & bits4 else ()),
    ):
        if not bits & bit:
            continue
        if gold:
            c0, c1, c2, c3, c4 = _COST5[card]
            short = (
                (c0 - h0 if c0 > h0 else 0)
                + (c1 - h1 if c1 > h1 else 0)
                + (c2 - h2 if c2 > h2 else 0)
                + (c3 - h3 if c3 > h3 else 0)
                + (c4 - h4 if c4 > h4 else 0)
            )
            if short > gold:
                continue
        found.append(card)
    return found


def choices(state: GameState) -> Choices:
    """The legal turns of the player to move, grouped (see Choices).

    This is the inner loop of random play and of every bot: written flat, for speed (the takes
    and reserves of a bank or a board cached, affordability inline, nobles asked only of a player
    with bonuses enough for one).
    """
    if state.finished:
        return _NO_CHOICES
    player = state.players[state.to_move]
    counts, have = player.tokens.counts, player.bonuses.counts
    total = sum(counts)
    bought = sum(have)
    same, after_by = _nobles_for(state.nobles, have) if bought + 1 >= _NOBLE_LEAST else _NO_NOBLES
    per = len(same)
    groups: list[_Group] = []
    size = 0
    room = MAX_TOKENS - total
    if room >= 3:  # every take fits: the bank alone says which
        kept, over = _bank_keys(state.bank.counts[:5]), _NO_OVER
    else:
        kept, over = _takes_for(state.bank.counts[:5], room)
    if over:
        after = _hand_returns(counts)
        for keys, gems, at in over:
            given = after[at]
            if given is None:
                given = after[at] = _returns_of(tuple(map(operator.add, counts, gems.counts)))
            groups.append((keys, given, same))
            size += len(given) * per
    if kept:
        groups.append((kept, _KEEP, same))
        size += len(kept) * per
    row1, row2, row3 = state.board
    bits1, cards1, _ = _row(row1)
    bits2, cards2, _ = _row(row2)
    bits3, cards3, _ = _row(row3)
    reserved = player.reserved
    if len(reserved) < MAX_RESERVED:
        decks = state.decks
        reserves = (
            *[_RESERVE_KEY[card] for _, card in (*cards1, *cards2, *cards3)],
            *_DECK_KEYS[_FULL if all(decks) else tuple(map(bool, decks))],
        )
        if reserves:
            returns: tuple[Tokens, ...] = _KEEP
            if total >= MAX_TOKENS and state.bank.counts[5]:  # the gold brings the hand over 10
                after = _hand_returns(counts)
                gold_back = after[_GOLD_AT]
                if gold_back is None:
                    gold_back = after[_GOLD_AT] = _returns_of(tuple(map(operator.add, counts, ONE_GOLD.counts)))
                returns = gold_back
            groups.append((reserves, returns, same))
            size += len(reserves) * len(returns) * per
    for card in _affordable(counts, have, bits1, cards1, bits2, cards2, bits3, cards3, reserved):
        nobles = after_by[_BONUS_AT[card]]
        groups.append((*_BUY[card], _KEEP, nobles))
        size += len(nobles)
    if not groups:
        groups.append((_PASS, _KEEP, same))
        size = per
    made = _new(Choices)
    _SET_GROUPS(made, tuple(groups))
    _SET_SIZE(made, size)
    return made  # Choices(tuple(groups), size), in half the time


def random_move(state: GameState, rng: random.Random) -> Move:
    """A uniform choice among the legal turns (`legal_moves`): `choices(state).move(i)` for a
    uniform i, drawn the same way (one `randrange` of the number of turns), and now quicker
    through the list `legal_moves` builds directly, whose moves are mostly built already."""
    options = legal_moves(state)
    return options[rng.randrange(len(options))]


def legal_moves(state: GameState) -> list[Move]:
    """Every distinct legal turn of the player to move, fully specified (returns and noble).

    `choices(state).moves()`, the same moves in the same order, built directly: the inner loop
    of every bot's search, written as `choices` is (tests/variants/base/test_legal_moves.py
    holds the two the same), with the moves of a hand near 10 after each take kept by hand."""
    if state.finished:
        return []
    player = state.players[state.to_move]
    counts, have = player.tokens.counts, player.bonuses.counts
    total = sum(counts)
    bought = sum(have)
    same, after_by = _nobles_for(state.nobles, have) if bought + 1 >= _NOBLE_LEAST else _NO_NOBLES
    room = MAX_TOKENS - total
    if room >= 3 and same is _NONE:  # every take fits, no noble: the bank alone says which (most turns)
        found = list(_bank_moves(state.bank.counts[:5]))
        kept: tuple[_Key, ...] = ()
        over = _NO_OVER
    else:
        found = []
        if room >= 3:
            kept, over = _bank_keys(state.bank.counts[:5]), _NO_OVER
        else:
            kept, over = _takes_for(state.bank.counts[:5], room)
    if over:
        if same is _NONE:
            after = _hand_moves(counts)
            for keys, gems, at in over:
                made = after[at]
                if made is None:
                    given = _returns_of(tuple(map(operator.add, counts, gems.counts)))
                    made = after[at] = given.pick(
                        _EVERY_RETURN[given.excess].get(keys[0][4]) or _every_return(keys[0], given.excess)
                    )
                found += made
        else:
            for keys, gems, _ in over:
                found += _every_move(keys, _returns_of(tuple(map(operator.add, counts, gems.counts))), same)
    if kept:
        found += map(_PLAIN, kept) if same is _NONE else _every_move(kept, _KEEP, same)
    row1, row2, row3 = state.board
    bits1, cards1, moves1 = _row(row1)
    bits2, cards2, moves2 = _row(row2)
    bits3, cards3, moves3 = _row(row3)
    reserved = player.reserved
    if len(reserved) < MAX_RESERVED:
        decks = state.decks
        left = _FULL if all(decks) else tuple(map(bool, decks))
        if same is _NONE and (total < MAX_TOKENS or not state.bank.counts[5]):  # most reserves
            found += moves1
            found += moves2
            found += moves3
            found += _DECK_MOVES[left]
        else:
            reserves = (*[_RESERVE_KEY[card] for _, card in (*cards1, *cards2, *cards3)], *_DECK_KEYS[left])
            if total < MAX_TOKENS or not state.bank.counts[5]:
                found += _every_move(reserves, _KEEP, same)
            else:  # the gold brings the hand over 10: each reserve with each return
                given = _returns_of(tuple(map(operator.add, counts, ONE_GOLD.counts)))
                if same is _NONE:
                    pick, built = given.pick, _EVERY_RETURN[given.excess]
                    for key in reserves:
                        made = built.get(key[4])
                        found += pick(made if made is not None else _every_return(key, given.excess))
                else:
                    found += _every_move(reserves, given, same)
    for card in _affordable(counts, have, bits1, cards1, bits2, cards2, bits3, cards3, reserved):
        nobles = after_by[_BONUS_AT[card]]
        if nobles is _NONE:
            found.append(_BUY_MOVE[card])
        else:
            found += _buys_with(card, nobles)
    if not found:
        found += _every_move(_PASS, _KEEP, same)
    return found


def has_turn_but_pass(state: GameState, index: int) -> bool:
    """Whether player `index` could do anything but a plain pass, were it their turn."""
    seat = attrs.evolve(state, to_move=index)
    return has_action(seat) or bool(qualifying_nobles(seat, seat.player.bonuses))


# -- applying an event -----------------------------------------------------------------------


def evolve(state: GameState, event: TurnEvent) -> GameState:
    """The state after a turn event that `decide` accepted. Raise ValueError if it cannot apply."""
    player = state.player
    if event.player != player.name:
        raise ValueError(f"it is {player.name}'s turn, not {event.player}'s")
    bank, board, decks = state.bank, state.board, state.decks
    tokens, reserved, cards = player.tokens, player.reserved, player.cards
    bonuses, points, blind = player.bonuses, player.points, player.blind
    match event:
        case TokensTaken():
            gems, returned = Tokens.from_gems(event.gems), Tokens.from_gems(event.returned)
            bank = bank - gems + returned
            tokens = tokens + gems - returned
        case CardReserved():
            if event.blind:
                decks = draw_card(decks, event.card)
            elif event.card not in CARDS:
                raise ValueError(f"card {event.card} cannot be reserved face up: it is not revealed")
            else:
                board, decks = take_face_up(board, decks, event.card, event.drawn)
            returned = Tokens.from_gems(event.returned)
            gold = ONE_GOLD if event.gold else EMPTY
            bank = bank - gold + returned
            tokens = tokens + gold - returned
            reserved = (*reserved, event.card)
            if event.blind:
                blind = (*blind, event.card)
        case CardPurchased():
            if event.card in reserved:
                reserved, blind = unreserve(reserved, blind, event.card)
            else:
                board, decks = take_face_up(board, decks, event.card, event.drawn)
            payment = Tokens.from_gems(event.payment)
            card = CARDS.get(event.card)
            if card is None:
                raise ValueError(f"card {event.card} cannot be bought: it is not revealed")
            bank = bank + payment
            tokens = tokens - payment
            cards = (*cards, event.card)
            bonuses = bonuses + card.gives
            points += card.points
        case TurnPassed():
            pass
        case _:
            assert_never(event)
    return _next(
        state,
        tokens,
        cards,
        reserved,
        blind,
        bonuses,
        points,
        bank,
        board,
        decks,
        event.noble,
        isinstance(event, TurnPassed),
    )


def _next(
    state: GameState,
    tokens: Tokens,
    cards: tuple[str, ...],
    reserved: tuple[str, ...],
    blind: tuple[str, ...],
    bonuses: Tokens,
    points: int,
    bank: Tokens,
    board: tuple[tuple[str | None, ...], ...],
    decks: tuple[tuple[str, ...], ...],
    noble: str,
    passed: bool,
) -> GameState:
    """The state after the turn of the player to move, who now holds `tokens`, `cards`,
    `reserved`, `blind`, `bonuses` and `points`, leaving the table as `bank`, `board` and
    `decks`; then `noble` (if not empty) visits them (`passed`: the turn was a pass)."""
    me, players = state.to_move, state.players
    player = players[me]
    nobles, won = state.nobles, player.nobles
    if noble:
        nobles = tuple(n for n in nobles if n != noble)
        won = (*won, noble)
        points += _NOBLE_POINTS[noble]
    player = new_player(player.name, tokens, cards, reserved, blind, won, bonuses, points)
    players = (*players[:me], player, *players[me + 1 :])
    # rulebook: reaching 15 points finishes the round, so that everyone has had as many turns.
    last_round = state.last_round or points >= WINNING_POINTS
    to_move = (me + 1) % len(players)
    after = new_state(
        players, bank, board, decks, nobles, to_move, state.turn + 1, last_round, last_round and to_move == 0
    )
    # Decision (splendor_rules.md): a pass after which nobody can ever do anything else ends the game.
    if passed and not after.finished and not any(has_turn_but_pass(after, i) for i in range(len(players))):
        after = attrs.evolve(after, finished=True)
    return after


# -- playing a listed turn, trusted ------------------------------------------------------------------


def play(state: GameState, move: Move) -> GameState:
    """The state after `move`, a turn that `legal_moves` (or `choices`, `random_move`) just listed
    for this state: trusted, not judged, and no event built. Equal to `evolve(state, decide(state,
    move))` (tests/variants/test_play_step.py holds it so for every listed turn); a turn that
    leaves its returns or its noble unsaid goes that way. The engine of random play and search:
    never for a turn read from a file or typed, which `decide` judges."""
    returned, noble = move.returned, move.noble
    if returned is None or noble is None:
        return evolve(state, decide(state, move))
    me, players = state.to_move, state.players
    player = players[me]
    bank, board, decks = state.bank, state.board, state.decks
    tokens, reserved, cards = player.tokens, player.reserved, player.cards
    bonuses, points, blind = player.bonuses, player.points, player.blind
    action = move.action
    if action == "take":
        gems = move.gems
        if returned is EMPTY:  # most takes: the bank and the hand in one step each, a take is gems only
            a, g, t = bank.counts, gems.counts, tokens.counts
            bank = _trusted((a[0] - g[0], a[1] - g[1], a[2] - g[2], a[3] - g[3], a[4] - g[4], a[5], a[6]))
            tokens = _trusted((t[0] + g[0], t[1] + g[1], t[2] + g[2], t[3] + g[3], t[4] + g[4], t[5], t[6]))
        else:  # a take returning tokens: what it takes less what it returns, in one step each
            a, g, r, t = bank.counts, gems.counts, returned.counts, tokens.counts
            d0, d1, d2, d3, d4, d5 = g[0] - r[0], g[1] - r[1], g[2] - r[2], g[3] - r[3], g[4] - r[4], -r[5]
            bank = _trusted((a[0] - d0, a[1] - d1, a[2] - d2, a[3] - d3, a[4] - d4, a[5] - d5, a[6]))
            tokens = _trusted((t[0] + d0, t[1] + d1, t[2] + d2, t[3] + d3, t[4] + d4, t[5] + d5, t[6]))
    elif action == "buy":
        card = move.card
        payment = move.payment
        if payment is None:  # the default payment (coloured first, gold for the rest), unrolled
            c0, c1, c2, c3, c4 = _COST5[card]
            b0, b1, b2, b3, b4, _, _ = bonuses.counts
            t0, t1, t2, t3, t4, t5, t6 = tokens.counts
            a0, a1, a2, a3, a4, a5, a6 = bank.counts
            n0, n1, n2, n3, n4 = c0 - b0, c1 - b1, c2 - b2, c3 - b3, c4 - b4
            p0 = 0 if n0 <= 0 else n0 if n0 <= t0 else t0
            p1 = 0 if n1 <= 0 else n1 if n1 <= t1 else t1
            p2 = 0 if n2 <= 0 else n2 if n2 <= t2 else t2
            p3 = 0 if n3 <= 0 else n3 if n3 <= t3 else t3
            p4 = 0 if n4 <= 0 else n4 if n4 <= t4 else t4
            gold = (n0 - p0 if n0 > 0 else 0) + (n1 - p1 if n1 > 0 else 0) + (n2 - p2 if n2 > 0 else 0)
            gold += (n3 - p3 if n3 > 0 else 0) + (n4 - p4 if n4 > 0 else 0)
            assert gold <= t5, "a listed purchase is affordable"
            tokens = _trusted((t0 - p0, t1 - p1, t2 - p2, t3 - p3, t4 - p4, t5 - gold, t6))
            bank = _trusted((a0 + p0, a1 + p1, a2 + p2, a3 + p3, a4 + p4, a5 + gold, a6))
        else:
            bank = bank + payment
            tokens = tokens - payment
        if card in reserved:
            reserved, blind = unreserve(reserved, blind, card)
        else:
            board, decks = _face_up_taken(board, decks, card)
        cards = (*cards, card)
        b, at = bonuses.counts, _BONUS_AT[card]  # one bonus of the card's colour: bonuses + card.gives
        bonuses = _trusted((*b[:at], b[at] + 1, *b[at + 1 :]))
        points += _POINTS[card]
    elif action == "reserve":
        if move.deck:
            at = move.deck - 1
            deck = decks[at]
            card = deck[0]
            decks = (*decks[:at], deck[1:], *decks[at + 1 :])
            blind = (*blind, card)
        else:
            card = move.card
            board, decks = _face_up_taken(board, decks, card)
        a, t = bank.counts, tokens.counts
        if a[5]:  # the gold that comes with a reserve, then the tokens returned (if any)
            a = (*a[:5], a[5] - 1, a[6])
            t = (*t[:5], t[5] + 1, t[6])
        if returned is not EMPTY:
            r = returned.counts
            a = (a[0] + r[0], a[1] + r[1], a[2] + r[2], a[3] + r[3], a[4] + r[4], a[5] + r[5], a[6] + r[6])
            t = (t[0] - r[0], t[1] - r[1], t[2] - r[2], t[3] - r[3], t[4] - r[4], t[5] - r[5], t[6] - r[6])
        bank, tokens = _trusted(a), _trusted(t)
        reserved = (*reserved, card)
    return _next(state, tokens, cards, reserved, blind, bonuses, points, bank, board, decks, noble, action == "pass")


def _face_up_taken(
    board: tuple[tuple[str | None, ...], ...], decks: tuple[tuple[str, ...], ...], card: str
) -> tuple[tuple[tuple[str | None, ...], ...], tuple[tuple[str, ...], ...]]:
    """The board without face-up `card`, the top of its deck dealt into its slot (None if the
    deck is empty), and the decks without that card."""
    at = int(card[0]) - 1
    row, deck = board[at], decks[at]
    slot = row.index(card)
    drawn = deck[0] if deck else None
    if deck:
        decks = (*decks[:at], deck[1:], *decks[at + 1 :])
    return (*board[:at], (*row[:slot], drawn, *row[slot + 1 :]), *board[at + 1 :]), decks

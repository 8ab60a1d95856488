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
from .state import MAX_RESERVED, MAX_TOKENS, WINNING_POINTS, GameState, PlayerState

if TYPE_CHECKING:
    import random

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
_BONUS_OF = {card.id: card.gives for card in CARDS.values()}
_PRICE = {card.id: card.cost.total() for card in CARDS.values()}
_TAKEN = {Tokens.from_gems(c): n for n in (1, 2, 3) for c in itertools.combinations_with_replacement(COLOURS, n)}
"""How many tokens each possible take holds."""
_RETURN_CHOICES: dict[int, tuple[Tokens, ...]] = {
    k: tuple(Tokens.from_gems(c) for c in itertools.combinations_with_replacement(GEMS, k)) for k in (1, 2, 3)
}


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
def _nobles_after(nobles: tuple[str, ...], have: tuple[int, ...], at: int) -> tuple[str, ...]:
    """The nobles that may visit after a purchase adds a bonus of colour `at` to `have` (never empty:
    `("",)` when none)."""
    after = list(have)
    after[at] += 1
    return tuple(n for n in nobles if all(map(operator.le, _REQUIRES[n], after))) or _NONE


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


@functools.lru_cache(maxsize=1 << 15)
def _bank_takes(bank: tuple[int, ...]) -> tuple[Tokens, ...]:
    """Every legal take from a bank with these gem counts (gold aside)."""
    twos = tuple(_TWO[gem] for gem, n in zip(COLOURS, bank) if n >= 4)
    return _takes_from(tuple(gem for gem, n in zip(COLOURS, bank) if n)) + twos


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
        return [
            cached_move(action, gems, card, deck, returned, noble)
            for keys, returns, nobles in self.groups
            for action, gems, card, deck, _ in keys
            for returned in returns
            for noble in nobles
        ]


_KEEP = (EMPTY,)
_NO_CHOICES = Choices((), 0)
_COST5 = {card: cost[:5] for card, cost in _COST.items()}
"""A card's cost in the five colours: no base card costs gold or pearls."""
assert all(not cost[5] and not cost[6] for cost in _COST.values())
_BONUS_AT: dict[str | None, int] = {card.id: COLOURS.index(card.bonus) for card in CARDS.values() if card.bonus}
_POINTS = {card.id: card.points for card in CARDS.values()}
_BUY: dict[str | None, tuple[tuple[_Key, ...]]] = {card: ((_key("buy", card=card),),) for card in CARDS}
"""The one action of a purchase, as a group's actions."""
_PASS = (_key("pass"),)
_PRICED: dict[str | None, tuple[int, int, int, int, int, int]] = {
    card: (_PRICE[card], *cost) for card, cost in _COST5.items()
}
"""A card's price (all colours) and its cost in the five colours: one look-up per card in `choices`."""
_UNPRICED = (1 << 30, 0, 0, 0, 0, 0)
_FULL = (True, True, True)


_TAKE_KEY = {gems: _key("take", gems) for gems in _TAKEN}
"""Every possible take as a group's action, built once."""
_RESERVE_KEY = {card: _key("reserve", EMPTY, card) for card in CARDS}
_DECK_KEY = {level: _key("reserve", EMPTY, "", level) for level in (1, 2, 3)}
_NO_OVER: tuple[tuple[tuple[_Key], Tokens], ...] = ()


@functools.lru_cache(maxsize=1 << 15)
def _bank_keys(bank: tuple[int, ...]) -> tuple[_Key, ...]:
    """Every legal take from a bank with these gem counts (gold aside), as actions: what
    `_takes_for` keeps for a hand with room for 3 more tokens or more (most hands)."""
    return tuple(_TAKE_KEY[gems] for gems in _bank_takes(bank))


@functools.lru_cache(maxsize=4096)
def _takes_for(bank: tuple[int, ...], room: int) -> tuple[tuple[_Key, ...], tuple[tuple[tuple[_Key], Tokens], ...]]:
    """Every legal take from a bank with these gem counts (gold aside), for a hand with room for
    `room` more tokens: the takes that keep the hand within 10, then each take that does not,
    with what it takes."""
    takes = _bank_takes(bank)
    kept = tuple(_TAKE_KEY[gems] for gems in takes if _TAKEN[gems] <= room)
    over = tuple(((_TAKE_KEY[gems],), gems) for gems in takes if _TAKEN[gems] > room)
    return kept, over


@functools.lru_cache(maxsize=4096)
def _returns_of(hand: tuple[int, ...]) -> tuple[Tokens, ...]:
    """`return_choices` of a hand given by its counts (a tuple hashes quicker than Tokens)."""
    return return_choices(Tokens._trusted(hand))


@functools.lru_cache(maxsize=4096)
def _reserves_for(board: tuple[tuple[str | None, ...], ...], decks: tuple[bool, ...]) -> tuple[_Key, ...]:
    """Every reserve from this board (revealed cards only) and from the decks not empty."""
    keys = _RESERVE_KEY
    return (
        *(keys[card] for row in board for card in row if card in keys),
        *(_DECK_KEY[level] for level, left in enumerate(decks, start=1) if left),
    )


def choices(state: GameState) -> Choices:
    """The legal turns of the player to move, grouped (see Choices).

    This is the inner loop of random play and of every bot: written flat, for speed (the takes
    and reserves of a bank or a board cached, affordability inline, nobles asked only of a player
    with bonuses enough for one).
    """
    if state.finished:
        return _NO_CHOICES
    player = state.player
    tokens, bonuses = player.tokens, player.bonuses
    counts, have = tokens.counts, bonuses.counts
    total = sum(counts)
    bought = sum(have)
    same = (_nobles_meeting(state.nobles, have) or _NONE) if bought >= _NOBLE_LEAST else _NONE
    per = len(same)
    groups: list[_Group] = []
    size = 0
    room = MAX_TOKENS - total
    if room >= 3:  # every take fits: the bank alone says which
        kept, over = _bank_keys(state.bank.counts[:5]), _NO_OVER
    else:
        kept, over = _takes_for(state.bank.counts[:5], room)
    for keys, gems in over:
        returns = _returns_of(tuple(map(operator.add, counts, gems.counts)))
        groups.append((keys, returns, same))
        size += len(returns) * per
    if kept:
        groups.append((kept, _KEEP, same))
        size += len(kept) * per
    if len(player.reserved) < MAX_RESERVED:
        decks = state.decks
        reserves = _reserves_for(state.board, _FULL if all(decks) else tuple(map(bool, decks)))
        if reserves:
            if total < MAX_TOKENS or not state.bank.counts[5]:
                returns = _KEEP
            else:
                returns = _returns_of(tuple(map(operator.add, counts, ONE_GOLD.counts)))
            groups.append((reserves, returns, same))
            size += len(reserves) * len(returns) * per
    t0, t1, t2, t3, t4, gold, _ = counts
    b0, b1, b2, b3, b4, _, _ = have
    h0, h1, h2, h3, h4 = t0 + b0, t1 + b1, t2 + b2, t3 + b3, t4 + b4
    purse = total + bought  # no card costing more than this can be afforded
    nobles_may = bought + 1 >= _NOBLE_LEAST
    priced = _PRICED.get
    for row in (*state.board, player.reserved):
        for card in row:
            # an empty slot (None) or a placeholder (a sealed card, unrevealed) has no price: never bought
            price, c0, c1, c2, c3, c4 = priced(card, _UNPRICED)
            if price > purse:
                continue
            short = (
                (c0 - h0 if c0 > h0 else 0)
                + (c1 - h1 if c1 > h1 else 0)
                + (c2 - h2 if c2 > h2 else 0)
                + (c3 - h3 if c3 > h3 else 0)
                + (c4 - h4 if c4 > h4 else 0)
            )
            if short > gold:
                continue
            nobles: tuple[str, ...] = _NONE
            if nobles_may:
                nobles = _nobles_after(state.nobles, have, _BONUS_AT[card])
            groups.append((*_BUY[card], _KEEP, nobles))
            size += len(nobles)
    if not groups:
        groups.append((_PASS, _KEEP, same))
        size = per
    return Choices(tuple(groups), size)


def random_move(state: GameState, rng: random.Random) -> Move:
    """A uniform choice among the legal turns (`legal_moves`), building only the one chosen."""
    options = choices(state)
    return options.move(rng.randrange(options.size))


def legal_moves(state: GameState) -> list[Move]:
    """Every distinct legal turn of the player to move, fully specified (returns and noble)."""
    return choices(state).moves()


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
    player = state.player
    nobles, won = state.nobles, player.nobles
    if noble:
        nobles = tuple(n for n in nobles if n != noble)
        won = (*won, noble)
        points += _NOBLE_POINTS[noble]
    player = PlayerState(
        name=player.name,
        tokens=tokens,
        cards=cards,
        reserved=reserved,
        blind=blind,
        nobles=won,
        bonuses=bonuses,
        points=points,
    )
    me = state.to_move
    players = (*state.players[:me], player, *state.players[me + 1 :])
    # rulebook: reaching 15 points finishes the round, so that everyone has had as many turns.
    last_round = state.last_round or player.points >= WINNING_POINTS
    to_move = (me + 1) % len(players)
    after = GameState(
        players=players,
        bank=bank,
        board=board,
        decks=decks,
        nobles=nobles,
        to_move=to_move,
        turn=state.turn + 1,
        last_round=last_round,
        finished=last_round and to_move == 0,
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
        else:
            bank = bank - gems + returned
            tokens = tokens + gems - returned
    elif action == "buy":
        card = move.card
        payment = move.payment
        if payment is None:
            payment = paying.default_payment(_COST[card], bonuses, tokens)
            assert payment is not None, "a listed purchase is affordable"
        if card in reserved:
            reserved, blind = unreserve(reserved, blind, card)
        else:
            board, decks = _face_up_taken(board, decks, card)
        bank = bank + payment
        tokens = tokens - payment
        cards = (*cards, card)
        bonuses = bonuses + _BONUS_OF[card]
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
        if bank.counts[5]:
            bank = bank - ONE_GOLD
            tokens = tokens + ONE_GOLD
        bank = bank + returned
        tokens = tokens - returned
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

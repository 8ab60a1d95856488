"""The rules of base Splendor: legal turns, `decide` (turn -> event) and `evolve` (event -> state).

`decide` is the single judge of legality: it refuses a turn with IllegalMoveError naming the
rule, and otherwise returns the event that records it (with an empty envelope; the log seals
it). `evolve` applies an event that `decide` accepted. `legal_moves` lists every distinct
turn, fully specified, so that a bot or a script can pick one.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

import attrs

from ..cards import CARDS, NOBLES
from ..errors import AmbiguousMoveError, IllegalMoveError
from ..events import CardPurchased, CardReserved, TokensTaken, TurnEvent, TurnPassed
from ..model import COLOURS, EMPTY, GEMS, Gem, Move, Tokens, cached_move
from .state import MAX_RESERVED, MAX_TOKENS, WINNING_POINTS, GameState, PlayerState

ONE_GOLD = Tokens.of(gold=1)
_BONUS = {gem: Tokens.of({gem: 1}) for gem in GEMS}
_TWO = {gem: Tokens.of({gem: 2}) for gem in GEMS}
_RETURN_CHOICES: dict[int, tuple[Tokens, ...]] = {
    k: tuple(Tokens.from_gems(c) for c in itertools.combinations_with_replacement(Gem, k)) for k in (1, 2, 3)
}


# -- what a player can afford ----------------------------------------------------------------


def still_to_pay(player: PlayerState, card: str) -> Tokens:
    """The cost of `card` after the player's bonuses, per colour, never below zero."""
    return Tokens._trusted(tuple(c - b if c > b else 0 for c, b in zip(CARDS[card].cost.counts, player.bonuses.counts)))


_COST = {card.id: card.cost.counts[:5] for card in CARDS.values()}


def default_payment(player: PlayerState, card: str) -> Tokens | None:
    """Coloured tokens first, gold for the rest; None when the player cannot afford the card.

    Unrolled by hand: it runs for every card on the table at every turn of random play.
    """
    c0, c1, c2, c3, c4 = _COST[card]
    b0, b1, b2, b3, b4, _ = player.bonuses.counts
    h0, h1, h2, h3, h4, gold = player.tokens.counts
    n0, n1, n2, n3, n4 = c0 - b0, c1 - b1, c2 - b2, c3 - b3, c4 - b4
    p0 = 0 if n0 <= 0 else n0 if n0 <= h0 else h0
    p1 = 0 if n1 <= 0 else n1 if n1 <= h1 else h1
    p2 = 0 if n2 <= 0 else n2 if n2 <= h2 else h2
    p3 = 0 if n3 <= 0 else n3 if n3 <= h3 else h3
    p4 = 0 if n4 <= 0 else n4 if n4 <= h4 else h4
    short = max(n0, 0) + max(n1, 0) + max(n2, 0) + max(n3, 0) + max(n4, 0) - (p0 + p1 + p2 + p3 + p4)
    if short > gold:
        return None
    return Tokens._trusted((p0, p1, p2, p3, p4, short))


def _check_payment(player: PlayerState, card: str, payment: Tokens) -> None:
    if not payment <= player.tokens:
        raise IllegalMoveError(f"{player.name} cannot pay {payment}: holds {player.tokens}", rule="payment")
    need = still_to_pay(player, card)
    short = 0
    for gem in COLOURS:
        if payment[gem] > need[gem]:
            raise IllegalMoveError(
                f"{card} needs {need[gem]} {gem} after bonuses, not {payment[gem]} (no change is given)",
                rule="payment",
            )
        short += need[gem] - payment[gem]
    if short != payment[Gem.GOLD]:
        raise IllegalMoveError(
            f"{card} costs {need or 'nothing'} after bonuses; {payment} does not pay it exactly", rule="payment"
        )


# -- deciding a turn -------------------------------------------------------------------------


def _find_on_board(state: GameState, card: str) -> tuple[int, int] | None:
    for level, row in enumerate(state.board):
        if card in row:
            return level, row.index(card)
    return None


def _take(state: GameState, gems: Tokens) -> None:
    """rulebook: 3 gems of different colours, or 2 of one colour from a pile of 4 or more; never gold."""
    if gems[Gem.GOLD]:
        raise IllegalMoveError("gold cannot be taken, only received by reserving a card", rule="take")
    if not gems <= state.bank:
        raise IllegalMoveError(f"the bank does not have {gems} (it has {state.bank})", rule="take")
    counts = [gems[g] for g in COLOURS if gems[g]]
    if counts == [2]:
        colour = next(g for g in COLOURS if gems[g])
        if state.bank[colour] < 4:
            raise IllegalMoveError(
                f"2 {colour} may be taken only from a pile of 4 or more (the bank has {state.bank[colour]})",
                rule="take-two",
            )
        return
    if any(n > 1 for n in counts):
        raise IllegalMoveError(f"take {gems}: take 3 different colours or 2 of one colour", rule="take")
    # rulebook: fewer than 3 colours may be taken only when fewer than 3 are left in the bank.
    available = sum(1 for g in COLOURS if state.bank[g])
    if not counts or len(counts) > 3 or (len(counts) < 3 <= available):
        raise IllegalMoveError(
            f"take {gems or 'nothing'}: take 3 gems of different colours, or 2 of one colour",
            rule="take-three",
        )


def _after_action(state: GameState, move: Move) -> tuple[PlayerState, str, bool]:
    """Check the action alone; return the player after it, the card concerned, and its gold flag."""
    player = state.player
    if move.action == "take":
        _take(state, move.gems)
        return attrs.evolve(player, tokens=player.tokens + move.gems), "", False
    if move.action == "reserve":
        if len(player.reserved) >= MAX_RESERVED:
            raise IllegalMoveError(f"{player.name} already holds {MAX_RESERVED} reserved cards", rule="reserve")
        if move.deck:
            if not 1 <= move.deck <= 3:
                raise IllegalMoveError(f"there is no deck {move.deck}", rule="reserve")
            if not state.decks[move.deck - 1]:
                raise IllegalMoveError(f"deck {move.deck} is empty", rule="reserve")
            card = state.decks[move.deck - 1][0]
        else:
            card = move.card
            if _find_on_board(state, card) is None:
                raise IllegalMoveError(f"card {card} is not face up on the board", rule="reserve")
        gold = state.bank[Gem.GOLD] > 0
        tokens = player.tokens + ONE_GOLD if gold else player.tokens
        return attrs.evolve(player, tokens=tokens), card, gold
    if move.action == "buy":
        card = move.card
        if card not in player.reserved and _find_on_board(state, card) is None:
            raise IllegalMoveError(f"card {card} is neither face up nor reserved by {player.name}", rule="buy")
        payment = move.payment
        if payment is None:
            payment = default_payment(player, card)
            if payment is None:
                raise IllegalMoveError(
                    f"{player.name} cannot afford {card}: it costs {still_to_pay(player, card)} after bonuses,"
                    f" {player.name} holds {player.tokens}",
                    rule="buy",
                )
        else:
            _check_payment(player, card, payment)
        bought = CARDS[card]
        after = attrs.evolve(
            player,
            tokens=player.tokens - payment,
            bonuses=player.bonuses + _BONUS[bought.bonus],
        )
        return after, card, False
    if move.action == "pass":
        if any(True for _ in _actions(state)):
            raise IllegalMoveError(f"{player.name} may not pass: a legal action exists", rule="pass")
        return player, "", False
    raise IllegalMoveError(f"unknown action {move.action!r}", rule="action")


def _returns(player: PlayerState, returned: Tokens | None) -> Tokens:
    """rulebook: a player over 10 tokens returns tokens of their choice until exactly 10 remain."""
    excess = player.tokens.total() - MAX_TOKENS
    if returned is None:
        if excess <= 0:
            return EMPTY
        choices = return_choices(player.tokens)
        if len(choices) == 1:
            return choices[0]
        raise AmbiguousMoveError(
            f"{player.name} would hold {player.tokens.total()} tokens: say which {excess} to return,"
            f" e.g. '... return {' '.join(choices[0].gems())}'"
        )
    if returned.total() != max(0, excess):
        raise IllegalMoveError(
            f"{player.name} would hold {player.tokens.total()} tokens and must return {max(0, excess)},"
            f" not {returned.total()}",
            rule="ten-tokens",
        )
    if not returned <= player.tokens:
        raise IllegalMoveError(f"{player.name} cannot return {returned}: holds {player.tokens}", rule="ten-tokens")
    return returned


def qualifying_nobles(state: GameState, bonuses: Tokens) -> tuple[str, ...]:
    return tuple(n for n in state.nobles if NOBLES[n].requires <= bonuses)


def _noble(state: GameState, player: PlayerState, noble: str | None) -> str:
    """rulebook: a noble whose requirement the bonuses meet must visit; the player picks one."""
    choices = qualifying_nobles(state, player.bonuses)
    if noble is None:
        if len(choices) > 1:
            raise AmbiguousMoveError(f"nobles {', '.join(choices)} may visit: name one with '... noble {choices[0]}'")
        return choices[0] if choices else ""
    if noble == "" and choices:
        raise IllegalMoveError(f"noble {choices[0]} must visit: a visit is not optional", rule="noble")
    if noble and noble not in choices:
        why = "is not on the table" if noble not in state.nobles else f"asks for {NOBLES[noble].requires} in bonuses"
        raise IllegalMoveError(f"noble {noble} cannot visit {player.name}: it {why}", rule="noble")
    return noble


def decide(state: GameState, move: Move) -> TurnEvent:
    """Judge `move` for the player to move and return the event recording it (envelope empty).

    Raises:
        IllegalMoveError: the rules forbid it now (the message names the rule).
        AmbiguousMoveError: tokens must be returned or a noble chosen, and the move does not say.
    """
    if state.finished:
        raise IllegalMoveError("the game is over", rule="game-over")
    player, card, gold = _after_action(state, move)
    returned = _returns(player, move.returned)
    if returned and move.action not in ("take", "reserve"):  # pragma: no cover - buy/pass never add tokens
        raise IllegalMoveError("only taking or reserving can bring a player over 10 tokens", rule="ten-tokens")
    noble = _noble(state, player, move.noble)
    name = state.player.name
    drawn = ""
    if card and not move.deck and card not in state.player.reserved:
        level = CARDS[card].level
        drawn = state.decks[level - 1][0] if state.decks[level - 1] else ""
    match move.action:
        case "take":
            return TokensTaken(
                seq=0, parent="", player=name, gems=move.gems.gems(), returned=returned.gems(), noble=noble
            )
        case "reserve":
            return CardReserved(
                seq=0,
                parent="",
                player=name,
                card=card,
                blind=bool(move.deck),
                gold=gold,
                drawn=drawn,
                returned=returned.gems(),
                noble=noble,
            )
        case "buy":
            payment = state.player.tokens - player.tokens
            return CardPurchased(
                seq=0, parent="", player=name, card=card, payment=payment.gems(), drawn=drawn, noble=noble
            )
        case _:
            return TurnPassed(seq=0, parent="", player=name, noble=noble)


def move_of(event: TurnEvent) -> Move:
    """The fully specified move that `event` records (what `decide` must turn back into it)."""
    match event:
        case TokensTaken():
            return Move(
                action="take",
                gems=Tokens.from_gems(event.gems),
                returned=Tokens.from_gems(event.returned),
                noble=event.noble,
            )
        case CardReserved():
            deck = CARDS[event.card].level if event.blind and event.card in CARDS else 0
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


def _takes(state: GameState) -> Iterator[Tokens]:
    bank = state.bank
    yield from _takes_from(tuple(g for g in COLOURS if bank[g]))
    for gem in COLOURS:
        if bank[gem] >= 4:
            yield _TWO[gem]


_Action = tuple[str, Tokens, str, int, Tokens, Tokens]


def _actions(state: GameState) -> Iterator[_Action]:
    """Every legal action of the player to move, before returns and nobles: the action, gems,
    card, deck, and the player's tokens and bonuses after it."""
    player = state.player
    tokens, bonuses = player.tokens, player.bonuses
    for gems in _takes(state):
        yield "take", gems, "", 0, tokens + gems, bonuses
    if len(player.reserved) < MAX_RESERVED:
        after = tokens + ONE_GOLD if state.bank.counts[5] else tokens
        for row in state.board:
            for card in row:
                if card is not None:
                    yield "reserve", EMPTY, card, 0, after, bonuses
        for level, deck in enumerate(state.decks, start=1):
            if deck:
                yield "reserve", EMPTY, "", level, after, bonuses
    for row in (*state.board, player.reserved):
        for card in row:
            if card is None:
                continue
            payment = default_payment(player, card)
            if payment is not None:
                yield "buy", EMPTY, card, 0, tokens - payment, bonuses + _BONUS[CARDS[card].bonus]


@attrs.frozen
class Choices:
    """The legal turns of a position, grouped: each action with its return and noble options.

    Flattened in order, the groups are `legal_moves`; `move(i)` picks the i-th turn without
    building the others (random play needs only one).
    """

    groups: tuple[tuple[_Action, tuple[Tokens, ...], tuple[str, ...]], ...]

    def __len__(self) -> int:
        return sum(len(returns) * len(nobles) for _, returns, nobles in self.groups)

    def move(self, index: int) -> Move:
        for (action, gems, card, deck, _, _), returns, nobles in self.groups:
            size = len(returns) * len(nobles)
            if index < size:
                returned, noble = returns[index // len(nobles)], nobles[index % len(nobles)]
                return cached_move(action, gems, card, deck, returned, noble)
            index -= size
        raise IndexError("no such move")

    def moves(self) -> list[Move]:
        return [
            cached_move(action, gems, card, deck, returned, noble)
            for (action, gems, card, deck, _, _), returns, nobles in self.groups
            for returned in returns
            for noble in nobles
        ]


def choices(state: GameState) -> Choices:
    """The legal turns of the player to move, grouped (see Choices)."""
    if state.finished:
        return Choices(())
    player = state.player
    actions = list(_actions(state)) or [("pass", EMPTY, "", 0, player.tokens, player.bonuses)]
    same = qualifying_nobles(state, player.bonuses) or ("",)
    keep = (EMPTY,)
    return Choices(
        tuple(
            (
                action,
                keep if sum(action[4].counts) <= MAX_TOKENS else return_choices(action[4]),
                same if action[5] is player.bonuses else qualifying_nobles(state, action[5]) or ("",),
            )
            for action in actions
        )
    )


def legal_moves(state: GameState) -> list[Move]:
    """Every distinct legal turn of the player to move, fully specified (returns and noble)."""
    return choices(state).moves()


def has_turn_but_pass(state: GameState, index: int) -> bool:
    """Whether player `index` could do anything but a plain pass, were it their turn."""
    seat = attrs.evolve(state, to_move=index)
    return any(True for _ in _actions(seat)) or bool(qualifying_nobles(seat, seat.player.bonuses))


# -- applying an event -----------------------------------------------------------------------


def _replace(board: tuple[tuple[str | None, ...], ...], card: str, drawn: str) -> tuple[tuple[str | None, ...], ...]:
    level = CARDS[card].level - 1
    row = board[level]
    slot = row.index(card)
    new_row = (*row[:slot], drawn or None, *row[slot + 1 :])
    return (*board[:level], new_row, *board[level + 1 :])


def _draw(decks: tuple[tuple[str, ...], ...], card: str) -> tuple[tuple[str, ...], ...]:
    """Take `card` off the top of its deck."""
    level = CARDS[card].level - 1
    if not decks[level] or decks[level][0] != card:
        raise ValueError(f"{card} is not the top card of deck {level + 1}")
    return (*decks[:level], decks[level][1:], *decks[level + 1 :])


def evolve(state: GameState, event: TurnEvent) -> GameState:
    """The state after a turn event that `decide` accepted. Raise ValueError if it cannot apply."""
    if event.player != state.player.name:
        raise ValueError(f"it is {state.player.name}'s turn, not {event.player}'s")
    player = state.player
    bank, board, decks = state.bank, state.board, state.decks
    match event:
        case TokensTaken():
            gems, returned = Tokens.from_gems(event.gems), Tokens.from_gems(event.returned)
            bank = bank - gems + returned
            player = attrs.evolve(player, tokens=player.tokens + gems - returned)
        case CardReserved():
            if event.blind:
                decks = _draw(decks, event.card)
            else:
                board = _replace(board, event.card, event.drawn)
                if event.drawn:
                    decks = _draw(decks, event.drawn)
            returned = Tokens.from_gems(event.returned)
            gold = ONE_GOLD if event.gold else EMPTY
            bank = bank - gold + returned
            player = attrs.evolve(
                player, tokens=player.tokens + gold - returned, reserved=(*player.reserved, event.card)
            )
        case CardPurchased():
            if event.card in player.reserved:
                reserved = tuple(c for c in player.reserved if c != event.card)
            else:
                reserved = player.reserved
                board = _replace(board, event.card, event.drawn)
                if event.drawn:
                    decks = _draw(decks, event.drawn)
            payment = Tokens.from_gems(event.payment)
            card = CARDS[event.card]
            bank = bank + payment
            player = attrs.evolve(
                player,
                tokens=player.tokens - payment,
                reserved=reserved,
                cards=(*player.cards, event.card),
                bonuses=player.bonuses + _BONUS[card.bonus],
                points=player.points + card.points,
            )
        case TurnPassed():
            pass
    if event.noble:
        player = attrs.evolve(
            player, nobles=(*player.nobles, event.noble), points=player.points + NOBLES[event.noble].points
        )
        nobles = tuple(n for n in state.nobles if n != event.noble)
    else:
        nobles = state.nobles
    players = (*state.players[: state.to_move], player, *state.players[state.to_move + 1 :])
    # rulebook: reaching 15 points finishes the round, so that everyone has had as many turns.
    last_round = state.last_round or player.points >= WINNING_POINTS
    to_move = (state.to_move + 1) % len(players)
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
    if isinstance(event, TurnPassed) and not after.finished:
        # Decision (splendor_rules.md): a pass after which nobody can ever do anything else ends the game.
        if not any(has_turn_but_pass(after, i) for i in range(len(players))):
            after = attrs.evolve(after, finished=True)
    return after

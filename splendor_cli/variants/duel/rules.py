"""The rules of Splendor Duel (docs/rules/duel_rules.md): its state, `decide` and `evolve`.

A Duel turn is played step by step (docs/contract.md): optional steps (use privileges, then
replenish), one mandatory step (take a line, reserve with a gold, buy, or pass when nothing
else is possible), then the steps its purchase owes (a token or steal ability, a royal card)
and returns down to 10. Each step is judged by `decide`, recorded by one event, and applied by
`evolve`; the turn ends inside `evolve` when nothing is owed any more: the victory check, then
the other player's turn (or the same player's, after an `again` ability). Both dispatch to one
handler per kind of step (`_decide_take`, `_evolve_take`, ...); `_settle` ends every step.

Rule numbers in comments are those of duel_rules.md. Payments are shared with the base game
(payment.py).
"""

from __future__ import annotations

import functools
import itertools
from typing import TYPE_CHECKING, assert_never

import attrs

from ...errors import AmbiguousMoveError, IllegalMoveError
from ...model import COLOURS, EMPTY, Card, Gem, Tokens
from ...sealing.placeholders import PLACEHOLDER, is_placeholder, level_of
from ..common.display import draw_card, take_face_up, unreserve
from ..common.payment import affordable, default_payment, payment_for
from .cards import CARDS, ROYALS, SPIRAL
from .events import (
    BoardReplenished,
    BonusTokenTaken,
    DuelCardBought,
    DuelPassed,
    GoldReserved,
    LineTaken,
    PrivilegeUsed,
    RoyalTaken,
    StepEvent,
    TokenReturned,
    TokenStolen,
)
from .state import (
    CELL_INDEX,
    CELLS,
    GOLD,
    LINE_SET,
    LINES,
    MASK,
    MAX_RESERVED,
    MAX_TOKENS,
    ONE,
    PEARL,
    ROYAL_AT,
    SIZE,
    WIN_COLOUR,
    WIN_CROWNS,
    WIN_POINTS,
    DuelPlayer,
    DuelState,
    evolve_by_position,
)
from .step import Step, StepKind

if TYPE_CHECKING:
    import random

    from ...projection.variant import Chance

# -- what a player holds and may do ------------------------------------------------------------

_COST = {card.id: card.cost.counts for card in CARDS.values()}
_PRICE = {card.id: card.cost.total() for card in CARDS.values()}
_WILD = {card.id: card.wild for card in CARDS.values()}
_COST6 = {card: (*cost[:5], cost[6]) for card, cost in _COST.items()}
"""A card's cost in the five colours and pearls: no card costs gold."""
assert not any(cost[5] for cost in _COST.values())


_TAKEABLE = frozenset((*COLOURS, PEARL))
_BITS = tuple(1 << i for i in range(SIZE * SIZE))


def _mask(board: tuple[Gem | None, ...]) -> int:
    """The cells holding a gem or a pearl (what a line or a privilege may take), as bits.
    Quicker than caching it (a board seldom comes back): no Python code runs per cell."""
    return sum(itertools.compress(_BITS, map(_TAKEABLE.__contains__, board)))


@functools.lru_cache(maxsize=1 << 14)
def _face_up(pyramid: tuple[tuple[str | None, ...], ...]) -> tuple[str, ...]:
    """The cards of the pyramid that may be reserved or bought, level 1 first: the empty places
    left out, and (a sealed game) the places whose card is being revealed (a placeholder: no
    card of the game, as the places of a pyramid hold nothing else)."""
    return tuple(card for row in pyramid for card in row if card in _WILD)


def _known(cards: tuple[str, ...]) -> tuple[str, ...]:
    """`cards` (a reserve) without the placeholders of a sealed game: cards not revealed, never bought."""
    return cards if not any(is_placeholder(card) for card in cards) else tuple(c for c in cards if c in _WILD)


def _wild_colours(player: DuelPlayer) -> tuple[Gem, ...]:
    """rule 18: a wild card joins a colour of which the player has a bonus."""
    return tuple(gem for gem in COLOURS if player.bonuses[gem])


def default_payment_of(player: DuelPlayer, card: str) -> Tokens | None:
    """Gems and pearls first, gold for the rest; None when the player cannot afford the card."""
    cost = _COST.get(card)  # none for a placeholder (a sealed game's card, not revealed)
    return None if cost is None else default_payment(cost, player.bonuses, player.tokens)


def can_buy(player: DuelPlayer, card: str) -> bool:
    if _WILD[card] and not any(player.bonuses.counts[:5]):
        return False
    return affordable(_COST[card], player.bonuses, player.tokens)


def has_mandatory(state: DuelState) -> bool:
    """Whether any of the three mandatory actions is possible (rule 12)."""
    player = state.player
    if _mask(state.board):
        return True
    if GOLD in state.board and len(player.reserved) < MAX_RESERVED and (_face_up(state.pyramid) or any(state.decks)):
        return True
    return any(can_buy(player, card) for card in (*_face_up(state.pyramid), *_known(player.reserved)))


# -- deciding a step ---------------------------------------------------------------------------


def _cell(index: int) -> str:
    if not 0 <= index < SIZE * SIZE:
        raise IllegalMoveError(f"there is no cell #{index}", rule="cell")
    return CELLS[index]


def decide(state: DuelState, step: Step) -> StepEvent:
    """Judge `step` for the player to move and return the event recording it (envelope empty).

    Raises:
        IllegalMoveError: the rules forbid it now (the message names the rule).
        AmbiguousMoveError: a replenish without its outcome, a wild card without its colour.
    """
    if state.finished:
        raise IllegalMoveError("the game is over", rule="game-over")
    kind, phase = step.step, state.phase
    if phase != "main" and kind != phase:
        name = state.player.name
        raise IllegalMoveError(f"{name} must first {_PHASE_TODO[phase]}, not {kind}", rule="step-order")
    if phase == "main" and kind in _PHASE_TODO:
        name = state.player.name
        raise IllegalMoveError(f"no {kind} step is owed now: {name} has the turn's actions to play", rule="step-order")
    match step.step:
        case "privilege":
            return _decide_privilege(state, step)
        case "replenish":
            return _decide_replenish(state, step)
        case "take":
            return _decide_take(state, step)
        case "reserve":
            return _decide_reserve(state, step)
        case "buy":
            return _decide_buy(state, step)
        case "pass":
            return _decide_pass(state)
        case "token":
            return _decide_token(state, step)
        case "steal":
            return _decide_steal(state, step)
        case "royal":
            return _decide_royal(state, step)
        case "return":
            return _decide_return(state, step)
        case _:
            assert_never(step.step)


_PHASE_TODO = {
    "token": "take the token of the card's ability",
    "steal": "steal a token (the ability)",
    "royal": "take a royal card",
    "return": "return tokens down to 10",
}


def _decide_privilege(state: DuelState, step: Step) -> PrivilegeUsed:
    """rules 8 and 10: a privilege spent on a gem or a pearl, before replenishing."""
    player = state.player
    if state.replenished:
        raise IllegalMoveError("privileges are used before replenishing, not after", rule="privilege")
    if not player.privileges:
        raise IllegalMoveError(f"{player.name} holds no privilege", rule="privilege")
    cell = _one_cell(step)
    gem = state.board[cell]
    if gem is None or gem is GOLD:
        raise IllegalMoveError(
            f"a privilege takes a gem or a pearl, and {_cell(cell)} holds {gem or 'nothing'}", rule="privilege"
        )
    return PrivilegeUsed(player=player.name, cell=CELLS[cell], gem=gem)


def _decide_replenish(state: DuelState, step: Step) -> BoardReplenished:
    """rule 9: the whole bag onto the empty cells, in spiral order, once a turn."""
    if state.replenished:
        raise IllegalMoveError("the board was replenished already this turn", rule="replenish")
    if not state.bag:
        raise IllegalMoveError("the bag is empty: nothing to replenish the board with", rule="replenish")
    if step.order is None:
        raise AmbiguousMoveError("a replenish needs its draw from the bag")
    if Tokens.from_gems(step.order) != state.bag:
        raise IllegalMoveError(f"the draw {list(step.order)} is not the bag ({state.bag})", rule="replenish")
    empty = [CELLS[i] for i in SPIRAL if state.board[i] is None][: len(step.order)]
    return BoardReplenished(player=state.player.name, cells=tuple(empty), tokens=tuple(step.order))


def _decide_take(state: DuelState, step: Step) -> LineTaken:
    """Mandatory action 1 (rule 13): 1 to 3 gems or pearls on a line without gaps, no gold."""
    line = LINE_SET.get(tuple(sorted(step.cells)))
    if line is None:  # the message says what is wrong, not the move again (the player just typed it)
        twice = next((c for c in step.cells if step.cells.count(c) > 1), None)
        raise IllegalMoveError(
            (f"{_cell(twice)} is named twice: " if twice is not None else "")
            + "take 1 to 3 tokens on consecutive cells of one row, column or diagonal",
            rule="take-line",
        )
    gems = tuple(state.board[i] for i in line)
    for i, gem in zip(line, gems):
        if gem is None:
            raise IllegalMoveError(f"{CELLS[i]} is empty: a line has no gaps", rule="take-line")
        if gem is GOLD:
            raise IllegalMoveError(f"{CELLS[i]} holds gold: gold is only taken to reserve", rule="take-gold")
    return LineTaken(player=state.player.name, cells=tuple(CELLS[i] for i in line), gems=gems)  # type: ignore[arg-type]


def _decide_reserve(state: DuelState, step: Step) -> GoldReserved:
    """rule 15: a gold and a card, face up or the top of a deck (at most 3 reserved)."""
    player = state.player
    if len(player.reserved) >= MAX_RESERVED:
        raise IllegalMoveError(f"{player.name} already holds {MAX_RESERVED} reserved cards", rule="reserve")
    cell = _one_cell(step, state)
    if state.board[cell] is not GOLD:
        raise IllegalMoveError(f"{CELLS[cell]} holds no gold", rule="reserve")
    if step.deck:
        if not 1 <= step.deck <= 3:
            raise IllegalMoveError(f"there is no deck {step.deck}", rule="reserve")
        if not state.decks[step.deck - 1]:
            raise IllegalMoveError(f"deck {step.deck} is empty", rule="reserve")
        card, drawn = state.decks[step.deck - 1][0], ""
    else:
        card = step.card
        if card not in _face_up(state.pyramid):
            if is_placeholder(card) and any(card in row for row in state.pyramid):
                raise IllegalMoveError(f"card {card} is not revealed yet (a sealed card)", rule="reserve")
            raise IllegalMoveError(f"card {card} is not face up in the pyramid", rule="reserve")
        drawn = _top(state, card)
    return GoldReserved(player=player.name, gold=CELLS[cell], card=card, blind=bool(step.deck), drawn=drawn)


def _decide_buy(state: DuelState, step: Step) -> DuelCardBought:
    """rule 16: a card of the pyramid or of the player's reserve, paid for."""
    player, card = state.player, step.card
    reserved = card in player.reserved
    if is_placeholder(card) and (reserved or any(card in row for row in state.pyramid)):
        raise IllegalMoveError(f"card {card} is not revealed yet (a sealed card)", rule="buy")
    if not reserved and card not in _face_up(state.pyramid):
        raise IllegalMoveError(f"card {card} is neither in the pyramid nor reserved by {player.name}", rule="buy")
    if _WILD[card]:
        wild = _wild_of(player, step)
    elif step.wild is not None:
        raise IllegalMoveError(f"{card} has no wild bonus to place", rule="wild")
    else:
        wild = ""
    payment = payment_for(player.name, card, _COST[card], player.bonuses, player.tokens, step.payment)
    return DuelCardBought(
        player=player.name,
        card=card,
        payment=payment.gems(),
        wild=wild,
        drawn="" if reserved else _top(state, card),
    )


def _wild_of(player: DuelPlayer, step: Step) -> str:
    """rule 18: the colour that the wild card `step` buys joins, one of the player's bonuses."""
    card, name = step.card, player.name
    colours = _wild_colours(player)
    if not colours:
        raise IllegalMoveError(
            f"{card} has a wild bonus: it joins a colour {name} has a bonus of, and {name} has none", rule="wild"
        )
    if step.wild is None:
        if len(colours) > 1:
            raise AmbiguousMoveError(
                f"{card} has a wild bonus: say which colour it joins,"
                f" e.g. 'buy {card} as {colours[0]}' ({', '.join(colours)})"
            )
        return str(colours[0])
    if step.wild not in colours:
        raise IllegalMoveError(
            f"{card} can join only a colour {name} has a bonus of ({', '.join(colours)}), not {step.wild}", rule="wild"
        )
    return str(step.wild)


def _decide_pass(state: DuelState) -> DuelPassed:
    """rule 12: a pass only when no mandatory action is possible, once the bag is empty."""
    name = state.player.name
    if has_mandatory(state):
        raise IllegalMoveError(f"{name} may not pass: a mandatory action is possible", rule="pass")
    if state.bag:
        raise IllegalMoveError(f"{name} must replenish the board before passing (rule 12)", rule="pass")
    return DuelPassed(player=name)


def _decide_token(state: DuelState, step: Step) -> BonusTokenTaken:
    """rule 18, the `token` ability: a token of the bought card's colour from the board."""
    cell = _one_cell(step)
    colour = CARDS[state.player.cards[-1]].bonus
    if state.board[cell] is not colour:
        raise IllegalMoveError(
            f"the ability takes a {colour} token, and {CELLS[cell]} holds {state.board[cell] or 'nothing'}",
            rule="token",
        )
    return BonusTokenTaken(player=state.player.name, cell=CELLS[cell], gem=colour)  # type: ignore[arg-type]


def _decide_steal(state: DuelState, step: Step) -> TokenStolen:
    """rule 18, the `steal` ability: a gem or a pearl of the opponent's (never gold)."""
    gem = step.colour
    if gem is None or gem is GOLD or not state.opponent.tokens[gem]:
        raise IllegalMoveError(
            f"steal takes a gem or pearl the opponent holds ({_stealable(state) or 'none'}), not {gem}",
            rule="steal",
        )
    return TokenStolen(player=state.player.name, gem=gem)


def _decide_royal(state: DuelState, step: Step) -> RoyalTaken:
    """rule 19: a royal card still available, for a crown threshold passed."""
    if step.card not in state.royals:
        raise IllegalMoveError(
            f"royal card {step.card or '?'} is not available ({', '.join(state.royals)})", rule="royal"
        )
    return RoyalTaken(player=state.player.name, royal=step.card)


def _decide_return(state: DuelState, step: Step) -> TokenReturned:
    """rule 22: a token the player holds, back to the bag, while more than 10 are held."""
    player, gem = state.player, step.colour
    if gem is None or not player.tokens[gem]:
        raise IllegalMoveError(f"{player.name} holds no {gem} to return (holds {player.tokens})", rule="ten-tokens")
    return TokenReturned(player=player.name, gem=gem)


def _one_cell(step: Step, state: DuelState | None = None) -> int:
    """The one cell a step names; for a reserve that names none, the only gold on the board."""
    if state is not None and not step.cells:
        golds = [i for i, gem in enumerate(state.board) if gem is GOLD]
        if len(golds) > 1:
            raise AmbiguousMoveError(
                f"say which gold to take: {', '.join(CELLS[i] for i in golds)}, as in 'reserve ... {CELLS[golds[0]]}'"
            )
        if not golds:
            raise IllegalMoveError("there is no gold on the board to reserve with", rule="reserve")
        return golds[0]
    if len(step.cells) != 1:
        raise IllegalMoveError(f"{step.step} names one cell, not {len(step.cells)}", rule="cell")
    _cell(step.cells[0])
    return step.cells[0]


def _top(state: DuelState, card: str) -> str:
    """The card that replaces `card` in the pyramid: the top of its deck ("" if empty; in a
    sealed game, perhaps a placeholder)."""
    deck = state.decks[level_of(card) - 1]
    return deck[0] if deck else ""


def _stealable(state: DuelState) -> Tokens:
    return _gems_and_pearls(state.opponent.tokens)


def _gems_and_pearls(tokens: Tokens) -> Tokens:
    """What a steal may take of `tokens`: all but gold."""
    return tokens - Tokens.of(gold=tokens[GOLD])


def _index(cell: str) -> int:
    """The flat index of a cell named in an event. Raise ValueError for a name no cell has."""
    if cell not in CELL_INDEX:
        raise ValueError(f"there is no cell {cell!r} on the board (a1 to e5)")
    return CELL_INDEX[cell]


def _card(card: str, sealed: bool = False) -> str:
    """`card`, checked to be a Duel card's id (or, `sealed`, a placeholder: a sealed game's blind reserve)."""
    if card not in CARDS and not (sealed and PLACEHOLDER.fullmatch(card)):
        raise ValueError(f"there is no card {card!r} in Splendor Duel")
    return card


def move_of(event: StepEvent) -> Step:
    """The fully specified step that `event` records (what `decide` must turn back into it).

    Raises:
        ValueError: the event names a cell, card, colour or royal card the game does not have.
    """
    match event:
        case PrivilegeUsed() | BonusTokenTaken():
            return _step("privilege" if isinstance(event, PrivilegeUsed) else "token", cells=(_index(event.cell),))
        case BoardReplenished():
            return Step(step="replenish", order=event.tokens)
        case LineTaken():
            return Step(step="take", cells=tuple(_index(c) for c in event.cells))
        case GoldReserved():
            deck = level_of(_card(event.card, sealed=True)) if event.blind else 0
            return Step(step="reserve", cells=(_index(event.gold),), card="" if event.blind else event.card, deck=deck)
        case DuelCardBought():
            if event.wild and event.wild not in COLOURS:
                raise ValueError(f"a wild card joins a gem colour, not {event.wild!r}")
            return Step(
                step="buy",
                card=_card(event.card),
                payment=Tokens.from_gems(event.payment),
                wild=Gem(event.wild) if event.wild else None,
            )
        case TokenStolen() | TokenReturned():
            return _step("steal" if isinstance(event, TokenStolen) else "return", colour=event.gem)
        case RoyalTaken():
            return _step("royal", card=event.royal)
        case DuelPassed():
            return _step("pass")
        case _:
            assert_never(event)


# -- listing the legal steps -------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _step(
    step: StepKind,
    cells: tuple[int, ...] = (),
    card: str = "",
    deck: int = 0,
    wild: Gem | None = None,
    colour: Gem | None = None,
) -> Step:
    """A step, shared: steps are values, and listing them is the hot path of play."""
    return Step(step=step, cells=cells, card=card, deck=deck, wild=wild, colour=colour)


_TAKES = tuple((MASK[line], _step("take", line)) for line in LINES)
_PRIVILEGES = tuple((1 << i, _step("privilege", (i,))) for i in range(SIZE * SIZE))
_REPLENISH = _step("replenish")
_BUY = {card: _step("buy", card=card) for card in CARDS}
_PASS = _step("pass")


@functools.lru_cache(maxsize=1 << 16)
def _takes_for(mask: int) -> tuple[Step, ...]:
    """The lines that a board with gems or pearls on the cells of `mask` offers."""
    return tuple(step for bits, step in _TAKES if mask & bits == bits)


@functools.lru_cache(maxsize=1 << 16)
def _privileges_for(mask: int) -> tuple[Step, ...]:
    return tuple(step for bit, step in _PRIVILEGES if mask & bit)


@functools.lru_cache(maxsize=4096)
def _reserves_for(golds: tuple[int, ...], cards: tuple[str, ...], decks: tuple[int, ...]) -> tuple[Step, ...]:
    """Every reserve with a gold of `golds`: a pyramid card of `cards`, or the top of a deck of `decks`."""
    return tuple(
        step
        for cell in golds
        for step in (
            *(_step("reserve", (cell,), card) for card in cards),
            *(_step("reserve", (cell,), deck=level) for level in decks),
        )
    )


def legal_steps(state: DuelState) -> list[Step]:
    """Every legal next step of the player to move. A replenish is listed without its draw
    (`order` None): `draw` gives it one. This is the inner loop of random play: written flat."""
    if state.finished:
        return []
    player = state.player
    phase = state.phase
    if phase == "main":
        steps: list[Step] = []
        mask = _mask(state.board)
        if player.privileges and not state.replenished:
            steps += _privileges_for(mask)
        if state.bag and not state.replenished:
            steps.append(_REPLENISH)
        optional = len(steps)
        steps += _takes_for(mask)
        pyramid = _face_up(state.pyramid)
        if len(player.reserved) < MAX_RESERVED and GOLD in state.board:
            golds = tuple(cell for cell, gem in enumerate(state.board) if gem is GOLD)
            decks = tuple(level for level, deck in enumerate(state.decks, start=1) if deck)
            steps += _reserves_for(golds, pyramid, decks)
        t0, t1, t2, t3, t4, gold, t6 = player.tokens.counts
        b0, b1, b2, b3, b4, _, _ = player.bonuses.counts
        h0, h1, h2, h3, h4 = t0 + b0, t1 + b1, t2 + b2, t3 + b3, t4 + b4  # what pays each colour
        coloured = b0 or b1 or b2 or b3 or b4
        purse = h0 + h1 + h2 + h3 + h4 + gold + t6  # no card costing more can be afforded
        price, wild, cost, buy = _PRICE.get, _WILD, _COST6, _BUY
        never = purse + 1  # the price of a placeholder (a sealed card, unrevealed): never bought
        for card in (*pyramid, *player.reserved):
            if price(card, never) > purse or (wild[card] and not coloured):
                continue
            c0, c1, c2, c3, c4, c6 = cost[card]  # affordable(), inline: this runs for every card, every step
            if (
                (c0 - h0 if c0 > h0 else 0)
                + (c1 - h1 if c1 > h1 else 0)
                + (c2 - h2 if c2 > h2 else 0)
                + (c3 - h3 if c3 > h3 else 0)
                + (c4 - h4 if c4 > h4 else 0)
                + (c6 - t6 if c6 > t6 else 0)
            ) > gold:
                continue
            if wild[card]:
                steps += [_step("buy", card=card, wild=gem) for gem in _wild_colours(player)]
            else:
                steps.append(buy[card])
        if len(steps) == optional and not state.bag:
            steps.append(_PASS)
        return steps
    if phase == "token":
        colour = CARDS[player.cards[-1]].bonus
        return [_step("token", (i,)) for i, gem in enumerate(state.board) if gem is colour]
    if phase == "steal":
        return [_step("steal", colour=gem) for gem, _ in _stealable(state).items()]
    if phase == "royal":
        return [_step("royal", card=royal) for royal in state.royals]
    return [_step("return", colour=gem) for gem, _ in player.tokens.items()]


legal_moves = legal_steps
"""The name the game's protocol reads them by (`Variant.legal_moves`): a Duel's moves are steps."""


def draw(state: DuelState, step: Step, chance: Chance) -> Step:
    """`step` with its random outcome drawn from `chance`: for a replenish, the order in which the
    bag's tokens land (whatever order the step said: chance decides it). Other steps as they are."""
    if step.step != "replenish" or not state.bag:
        return step
    order = chance.shuffle(tuple(str(gem) for gem in state.bag.gems()), "replenish")
    return attrs.evolve(step, order=tuple(Gem(gem) for gem in order))


def random_step(state: DuelState, rng: random.Random) -> Step:
    """A uniform choice among the legal steps, its outcome drawn from `rng` (as
    `GameVariant.random_move` draws it: the same step for the same source)."""
    steps = legal_steps(state)
    step = steps[rng.randrange(len(steps))]
    if step.step != "replenish" or not state.bag:
        return step
    order = [str(gem) for gem in state.bag.gems()]
    rng.shuffle(order)  # as `draw` with a `RandomChance(rng)` shuffles
    return attrs.evolve(step, order=tuple(Gem(gem) for gem in order))


# -- applying an event -------------------------------------------------------------------------


def _holding(player: DuelPlayer, tokens: Tokens, privileges: int) -> DuelPlayer:
    """`player` holding `tokens` and `privileges` instead (the most frequent changes, spelled out
    for speed: `evolve_by_position` costs twice as much)."""
    p = player
    return DuelPlayer(
        p.name,
        tokens,
        p.cards,
        p.wild,
        p.reserved,
        p.blind,
        p.royals,
        privileges,
        p.bonuses,
        p.points,
        p.crowns,
        p.colour_points,
    )


def _without(board: tuple[Gem | None, ...], cells: tuple[str, ...]) -> tuple[Gem | None, ...]:
    left = list(board)
    for cell in cells:
        left[CELL_INDEX[cell]] = None
    return tuple(left)


class _Table:
    """What a step may change of a state, as a mutable working copy: `evolve` makes one, the
    handler of the event changes it in place, then `_settle` makes the next state of it (one
    `DuelState` a step, built by position). A plain class with slots: this is the inner loop of play."""

    __slots__ = (
        "acted",
        "again",
        "bag",
        "board",
        "decks",
        "me",
        "owed",
        "passes",
        "players",
        "pyramid",
        "replenished",
        "royals",
        "supply",
    )

    def __init__(self, state: DuelState) -> None:
        self.me = state.to_move
        self.players = list(state.players)
        self.board = state.board
        self.pyramid = state.pyramid
        self.decks = state.decks
        self.bag = state.bag
        self.supply = state.privileges
        """The privileges in the common supply."""
        self.royals = state.royals
        self.owed = state.owed
        self.replenished = state.replenished
        self.again = state.again
        self.passes = state.passes
        self.acted = True
        """The step is the turn's mandatory action or follows it (not a privilege or a replenish)."""


def evolve(state: DuelState, event: StepEvent) -> DuelState:
    """The state after a step event that `decide` accepted. Raise ValueError if it cannot apply."""
    if state.finished:
        raise ValueError("the game is over")
    if event.player != state.player.name:
        raise ValueError(f"it is {state.player.name}'s turn, not {event.player}'s")
    t = _Table(state)
    match event:
        case PrivilegeUsed():
            _evolve_privilege(t, event)
        case BoardReplenished():
            _evolve_replenish(t, event)
        case LineTaken():
            _evolve_take(t, event)
        case GoldReserved():
            _evolve_reserve(t, event)
        case DuelCardBought():
            _evolve_buy(t, event)
        case BonusTokenTaken():
            _evolve_token(t, event)
        case TokenStolen():
            _evolve_steal(t, event)
        case RoyalTaken():
            _evolve_royal(t, event)
        case TokenReturned():
            _evolve_return(t, event)
        case DuelPassed():
            _evolve_pass(t)
        case _:
            assert_never(event)
    return _settle(state, t)


def _gain_privilege(t: _Table, who: int) -> None:
    """rule 17: from the supply, else from the opponent; nothing if `who` holds all 3."""
    players = t.players
    gainer, other = players[who], players[1 - who]
    if t.supply:
        t.supply -= 1
    elif other.privileges:
        players[1 - who] = _holding(other, other.tokens, other.privileges - 1)
    else:
        return
    players[who] = _holding(gainer, gainer.tokens, gainer.privileges + 1)


def _evolve_privilege(t: _Table, event: PrivilegeUsed) -> None:
    """rule 8: the token to the player, the privilege back to the supply."""
    player = t.players[t.me]
    t.board = _without(t.board, (event.cell,))
    t.players[t.me] = _holding(player, player.tokens + ONE[event.gem], player.privileges - 1)
    t.supply += 1
    t.acted = False


def _evolve_replenish(t: _Table, event: BoardReplenished) -> None:
    """rule 9: the bag onto the empty cells; the opponent gains a privilege."""
    filled = dict(zip((CELL_INDEX[c] for c in event.cells), event.tokens))
    if any(t.board[i] is not None for i in filled):
        raise ValueError("a replenish may fill only empty cells")
    t.board = tuple(filled.get(i, gem) for i, gem in enumerate(t.board))
    t.bag = t.bag - Tokens.from_gems(event.tokens)
    _gain_privilege(t, 1 - t.me)  # rule 9
    t.replenished = True
    t.acted = False


def _evolve_take(t: _Table, event: LineTaken) -> None:
    """rules 13-14: the line's tokens to the player; 3 of a colour or both pearls give the
    opponent a privilege."""
    player = t.players[t.me]
    t.board = _without(t.board, event.cells)
    gems = Tokens.from_gems(event.gems)
    t.players[t.me] = _holding(player, player.tokens + gems, player.privileges)
    if (len(event.gems) == 3 and len(set(event.gems)) == 1) or gems[PEARL] == 2:
        _gain_privilege(t, 1 - t.me)  # rule 14
    t.passes = 0


def _evolve_reserve(t: _Table, event: GoldReserved) -> None:
    """rule 15: the gold and the card (face up, replaced from its deck; or the top of a deck)."""
    p = t.players[t.me]
    t.board = _without(t.board, (event.gold,))
    if event.blind:
        t.decks = draw_card(t.decks, event.card)
    elif event.card not in CARDS:
        raise ValueError(f"card {event.card} cannot be reserved face up: it is not revealed")
    else:
        t.pyramid, t.decks = take_face_up(t.pyramid, t.decks, event.card, event.drawn)
    _reserved(t, p, event.card, event.blind)


def _reserved(t: _Table, p: DuelPlayer, card: str, blind: bool) -> None:
    """rule 15 once `card` is off the pyramid or the top of its deck (`blind`): the gold and the
    card to the player `p`."""
    t.players[t.me] = DuelPlayer(  # by position, for speed
        p.name,
        p.tokens + ONE[GOLD],
        p.cards,
        p.wild,
        (*p.reserved, card),
        (*p.blind, card) if blind else p.blind,
        p.royals,
        p.privileges,
        p.bonuses,
        p.points,
        p.crowns,
        p.colour_points,
    )
    t.passes = 0


def _evolve_buy(t: _Table, event: DuelCardBought) -> None:
    """rules 16-20: the card (from the pyramid, replaced, or from the reserve) for its payment;
    its ability, then a royal card owed for a crown threshold passed."""
    player = t.players[t.me]
    card = CARDS.get(event.card)
    if card is None:
        raise ValueError(f"card {event.card} cannot be bought: it is not revealed")
    reserved, blind = player.reserved, player.blind
    if event.card in reserved:
        reserved, blind = unreserve(reserved, blind, event.card)
    else:
        t.pyramid, t.decks = take_face_up(t.pyramid, t.decks, event.card, event.drawn)
    payment = Tokens.from_gems(event.payment)
    _bought(t, player, event.card, card, payment, Gem(event.wild) if event.wild else None, reserved, blind)


def _bought(
    t: _Table,
    player: DuelPlayer,
    name: str,
    card: Card,
    payment: Tokens,
    wild: Gem | None,
    reserved: tuple[str, ...],
    blind: tuple[str, ...],
) -> None:
    """rules 16-20 once the card `name` is off the pyramid or out of `player`'s reserve (leaving
    it `reserved` and `blind`): `payment` into the bag, the card (its colour `wild`, if given)
    to the player; its ability, then a royal card owed for a crown threshold passed."""
    t.bag = t.bag + payment  # rule 16: spent tokens go into the bag
    colour = wild or card.bonus
    bonuses = player.bonuses + (card.gives if card.bonus else ONE[colour] if colour else EMPTY)
    colour_points = player.colour_points
    if colour is not None and card.points:
        at = COLOURS.index(colour)
        colour_points = (*colour_points[:at], colour_points[at] + card.points, *colour_points[at + 1 :])  # type: ignore[assignment]
    crowns = player.crowns + card.crowns
    t.players[t.me] = DuelPlayer(  # by position, for speed
        player.name,
        player.tokens - payment,
        (*player.cards, name),
        (*player.wild, (name, wild)) if wild else player.wild,
        reserved,
        blind,
        player.royals,
        player.privileges,
        bonuses,
        player.points + card.points,
        crowns,
        colour_points,
    )
    # rules 18-20: the card's ability, then a royal card for a crown threshold passed.
    t.owed = ()
    ability = card.ability
    if ability == "privilege":
        _gain_privilege(t, t.me)
    elif ability == "again":
        t.again = True
    elif ability == "token":
        t.owed = ("token",)
    elif ability == "steal":
        t.owed = ("steal",)
    if any(player.crowns < at <= crowns for at in ROYAL_AT):
        t.owed = (*t.owed, "royal")
    t.passes = 0


def _evolve_token(t: _Table, event: BonusTokenTaken) -> None:
    """rule 18, the `token` ability."""
    player = t.players[t.me]
    t.board = _without(t.board, (event.cell,))
    t.players[t.me] = _holding(player, player.tokens + ONE[event.gem], player.privileges)


def _evolve_steal(t: _Table, event: TokenStolen) -> None:
    """rule 18, the `steal` ability (a card's or a royal card's)."""
    me = t.me
    player, other = t.players[me], t.players[1 - me]
    t.players[1 - me] = _holding(other, other.tokens - ONE[event.gem], other.privileges)
    t.players[me] = _holding(player, player.tokens + ONE[event.gem], player.privileges)


def _evolve_royal(t: _Table, event: RoyalTaken) -> None:
    """rule 19: the royal card and its points; its ability at once (a steal is owed first)."""
    player = t.players[t.me]
    royal = ROYALS[event.royal]
    t.royals = tuple(r for r in t.royals if r != event.royal)
    t.players[t.me] = evolve_by_position(
        player, royals=(*player.royals, event.royal), points=player.points + royal.points
    )
    if royal.ability == "privilege":
        _gain_privilege(t, t.me)
    elif royal.ability == "again":
        t.again = True
    elif royal.ability == "steal":
        t.owed = ("steal", *t.owed)


def _evolve_return(t: _Table, event: TokenReturned) -> None:
    """rule 22: a token back to the bag."""
    player = t.players[t.me]
    t.players[t.me] = _holding(player, player.tokens - ONE[event.gem], player.privileges)
    t.bag = t.bag + ONE[event.gem]


def _evolve_pass(t: _Table) -> None:
    """rule 12: a pass; the end of the turn counts it."""
    t.passes += 1


def _settle(state: DuelState, t: _Table) -> DuelState:
    """The state `t` makes after `state`. After the action or a step it owed: the next step owed
    that has a choice (an ability with nothing to take is skipped), else returns down to 10
    (rule 22), else the end of the turn: the victory check (rule 23: only the player whose turn
    ends is checked; rule 12: two passes in a row are a draw), then the next turn (rule 24)."""
    me, players, owed = t.me, t.players, t.owed
    to_move, turn, phase, fresh = me, state.turn, state.phase, False
    replenished, again = t.replenished, t.again
    finished, condition, winner = False, "", ""
    if t.acted:
        acting = players[me]
        while owed:  # the next step owed that has a choice
            step, owed = owed[0], owed[1:]
            if step == "token":
                possible = CARDS[acting.cards[-1]].bonus in t.board
            elif step == "steal":
                possible = bool(_gems_and_pearls(players[1 - me].tokens))
            else:
                possible = bool(t.royals)
            if possible:
                phase = step
                break
        else:
            if acting.tokens.total() > MAX_TOKENS:
                phase = "return"
            else:  # the end of the turn
                turn += 1
                condition = (
                    "points"
                    if acting.points >= WIN_POINTS
                    else "crowns"
                    if acting.crowns >= WIN_CROWNS
                    else "colour"
                    if max(acting.colour_points) >= WIN_COLOUR
                    else ""
                )
                if condition or t.passes >= 2:
                    phase, finished, winner = "over", True, acting.name if condition else ""
                else:
                    to_move = me if again else 1 - me
                    phase, replenished, fresh, again = "main", False, True, False
    return DuelState(
        tuple(players),
        t.board,
        t.pyramid,
        t.decks,
        t.bag,
        t.supply,
        t.royals,
        to_move,
        turn,
        phase,
        owed,
        replenished,
        fresh,
        again,
        t.passes,
        finished,
        condition,
        winner,
    )


# -- playing a listed step, trusted ------------------------------------------------------------------

_AT = {gem: i for i, gem in enumerate((*COLOURS, GOLD, PEARL))}
"""The index of a token's count in `Tokens.counts`."""


def play(state: DuelState, step: Step) -> DuelState:
    """The state after `step`, one that `legal_steps` (or `random_move`) just listed for this
    state, a replenish given its draw by `draw`: trusted, not judged, and no event built. Equal to
    `evolve(state, decide(state, step))` (tests/variants/test_play_step.py holds it so for every
    listed step); a step that leaves something unsaid (a replenish's draw, a wild card's colour,
    the gold of a reserve) goes that way. The engine of random play and search: never for a step
    read from a file or typed, which `decide` judges."""
    kind = step.step
    if (
        state.finished
        or (kind == "replenish" and step.order is None)
        or (kind == "buy" and (step.card not in _WILD or (step.wild is None) == _WILD[step.card]))
        or (kind == "reserve" and not step.cells)
    ):
        return evolve(state, decide(state, step))
    t = _Table(state)
    me, players = t.me, t.players
    player = players[me]
    if kind == "take":
        board = list(t.board)
        counts = list(player.tokens.counts)
        for cell in step.cells:
            counts[_AT[board[cell]]] += 1  # type: ignore[index]
            board[cell] = None
        t.board = tuple(board)
        before = player.tokens.counts
        players[me] = _holding(player, Tokens._trusted(tuple(counts)), player.privileges)
        gained = [n - m for n, m in zip(counts, before)]
        if 3 in gained or gained[6] == 2:  # rule 14: 3 of a colour, or both pearls
            _gain_privilege(t, 1 - me)
        t.passes = 0
    elif kind == "buy":
        _play_buy(state, t, step)
    elif kind == "reserve":
        _play_reserve(state, t, step)
    elif kind == "privilege":
        cell = step.cells[0]
        gem = t.board[cell]
        assert gem is not None
        t.board = (*t.board[:cell], None, *t.board[cell + 1 :])
        players[me] = _holding(player, player.tokens + ONE[gem], player.privileges - 1)
        t.supply += 1
        t.acted = False
    elif kind == "replenish":
        order = step.order
        assert order is not None
        board = list(t.board)
        empty = [cell for cell in SPIRAL if board[cell] is None][: len(order)]
        for cell, gem in zip(empty, order):
            board[cell] = gem
        t.board = tuple(board)
        t.bag = t.bag - Tokens.from_gems(order)
        _gain_privilege(t, 1 - me)  # rule 9
        t.replenished = True
        t.acted = False
    elif kind == "token":
        cell = step.cells[0]
        gem = t.board[cell]
        assert gem is not None
        t.board = (*t.board[:cell], None, *t.board[cell + 1 :])
        players[me] = _holding(player, player.tokens + ONE[gem], player.privileges)
    elif kind == "steal":
        gem = step.colour
        assert gem is not None
        other = players[1 - me]
        players[1 - me] = _holding(other, other.tokens - ONE[gem], other.privileges)
        players[me] = _holding(player, player.tokens + ONE[gem], player.privileges)
    elif kind == "return":
        gem = step.colour
        assert gem is not None
        players[me] = _holding(player, player.tokens - ONE[gem], player.privileges)
        t.bag = t.bag + ONE[gem]
    elif kind == "royal":
        _evolve_royal(t, RoyalTaken(player=player.name, royal=step.card))  # seldom: the event's own way
    else:  # a pass
        t.passes += 1
    return _settle(state, t)


def _play_reserve(state: DuelState, t: _Table, step: Step) -> None:
    """rule 15, as `_evolve_reserve` applies it."""
    p = t.players[t.me]
    cell = step.cells[0]
    t.board = (*t.board[:cell], None, *t.board[cell + 1 :])
    if step.deck:
        card = state.decks[step.deck - 1][0]
        t.decks = draw_card(t.decks, card)
    else:
        card = step.card
        t.pyramid, t.decks = take_face_up(t.pyramid, t.decks, card, _top(state, card))
    _reserved(t, p, card, step.deck != 0)


def _play_buy(state: DuelState, t: _Table, step: Step) -> None:
    """rules 16-20, as `_evolve_buy` applies them."""
    player = t.players[t.me]
    name = step.card
    card = CARDS[name]
    payment = step.payment
    if payment is None:
        payment = default_payment(_COST[name], player.bonuses, player.tokens)
        assert payment is not None, "a listed purchase is affordable"
    reserved, blind = player.reserved, player.blind
    if name in reserved:
        reserved, blind = unreserve(reserved, blind, name)
    else:
        t.pyramid, t.decks = take_face_up(t.pyramid, t.decks, name, _top(state, name))
    _bought(t, player, name, card, payment, step.wild, reserved, blind)

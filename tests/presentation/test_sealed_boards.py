"""The boards of sealed games (sealing/placeholders.py): a placeholder is drawn face down, with its level.

A market or pyramid place holding a placeholder is a card being revealed: the text boards draw
`? level 2` and `being revealed`, the pictures a card back of class `sealed` whose id is the
place's usual one (`card-2?07`). A reserve holding a placeholder (a blind reserve not opened in
this view) is face down as a blind reserve is for the other players, in every view. No board
shows anything of the card a placeholder stands for.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import attrs
import pytest
from sealed_placeholders import SealedChance

from splendor_cli.model import Gem, Tokens
from splendor_cli.projection.seeding import RandomChance
from splendor_cli.sealing.placeholders import is_placeholder
from splendor_cli.variants.base import VARIANT as BASE
from splendor_cli.variants.base.cards import CARDS as BASE_CARDS
from splendor_cli.variants.base.state import GameState
from splendor_cli.variants.duel import VARIANT as DUEL
from splendor_cli.variants.duel.cards import CARDS as DUEL_CARDS
from splendor_cli.variants.duel.state import CELLS, DuelState


@attrs.frozen
class Moment:
    """What a board draws: a state after event `seq`."""

    seq: int
    state: Any


def _paying(state: Any, cost: Tokens) -> Any:
    """`state` with the player to move holding `cost` (from the bank, in the base game)."""
    players = list(state.players)
    players[state.to_move] = attrs.evolve(players[state.to_move], tokens=cost)
    if isinstance(state, GameState):
        return attrs.evolve(state, players=tuple(players), bank=state.bank - cost)
    return attrs.evolve(state, players=tuple(players))


def sealed_base() -> tuple[Moment, object, dict[str, str]]:
    """ann reserves blind from deck 2, bob buys a card of level 1 (its place gets a placeholder),
    ann takes three gems; the last event is bob's purchase."""
    chance = SealedChance(random.Random(5), {1: 4, 2: 4, 3: 4})
    state: GameState = BASE.start(BASE.deal(("ann", "bob"), chance))
    events = []
    for text in ("reserve deck 2", None, "take white blue green"):
        if text is None:
            card = state.board[0][2]
            assert card is not None
            state = _paying(state, BASE_CARDS[card].cost)
            text = f"buy {card}"
        (move,) = BASE.parse_moves(text)
        event = BASE.decide(state, move)
        state = BASE.evolve(state, event)
        events.append(event)
    assert is_placeholder(state.board[0][2]) and is_placeholder(state.players[0].reserved[0])
    return Moment(seq=4, state=state), events[1], chance.truth


def sealed_duel() -> tuple[Moment, object, dict[str, str]]:
    """ann reserves blind from deck 3, bob buys a card of level 2 (its place gets a placeholder)."""
    chance = SealedChance(random.Random(5), {1: 5, 2: 4, 3: 3})
    state: DuelState = DUEL.start(DUEL.deal(("ann", "bob"), chance))
    rng = random.Random(1)
    (move,) = DUEL.parse_moves(f"reserve deck 3 {CELLS[state.board.index(Gem.GOLD)]}")
    state = DUEL.evolve(state, DUEL.decide(state, move))
    while not state.at_turn_start:
        state = DUEL.evolve(state, DUEL.decide(state, DUEL.random_move(state, rng)))
    card = next(c for c in state.pyramid[1] if c is not None and not DUEL_CARDS[c].wild)
    state = _paying(state, DUEL_CARDS[card].cost)
    buy = next(s for s in DUEL.legal_moves(state) if s.step == "buy" and s.card == card)
    event = DUEL.decide(state, DUEL.draw(state, buy, RandomChance(rng)))
    state = DUEL.evolve(state, event)
    assert any(is_placeholder(c) for c in state.pyramid[1]) and is_placeholder(state.players[0].reserved[0])
    return Moment(seq=4, state=state), event, chance.truth


GAMES = {"base": (BASE, sealed_base), "duel": (DUEL, sealed_duel)}


def hidden_ids(moment: Moment, truth: dict[str, str]) -> list[str]:
    """The cards the placeholders of the state stand for: no board may show them."""
    state = moment.state
    rows = state.board if isinstance(state, GameState) else state.pyramid
    found = [c for row in rows for c in row if is_placeholder(c)]
    found += [c for p in state.players for c in p.reserved if is_placeholder(c)]
    assert found
    return [truth[c] for c in found]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("width", [60, 80, 120])
def test_a_sealed_board_draws_placeholders_face_down(game: str, width: int) -> None:
    """At every width, coloured or not, the text board shows none of the cards the placeholders stand
    for, nor the placeholders themselves: a place being revealed and a blind reserve are drawn face
    down, within the width."""
    variant, build = GAMES[game]
    moment, _, truth = build()
    for color in (False, True):
        text = variant.board_text(moment, width=width, color=color, ascii=not color)
        for card in hidden_ids(moment, truth):
            assert card not in text
        if not color:
            assert max(len(line) for line in text.splitlines()) <= width
            assert "? level" in text and "revealed" in text and "face down" in text
            assert "?0" not in text and "?1" not in text  # the placeholders themselves are no one's business


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seat", [None, "ann", "bob"])
def test_a_sealed_picture_draws_placeholders_face_down(game: str, seat: str | None) -> None:
    """The SVG picture, for every seat and for none, shows none of the hidden cards: the place being
    revealed is a card back (`sealed`, `changed`) under its usual id, and ann's blind reserve is
    face down even to ann; ids are unique."""
    variant, build = GAMES[game]
    moment, event, truth = build()
    svg = variant.board_svg(moment, seat=seat, event=event)
    root = ET.fromstring(svg)
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))
    by_id = {e.get("id"): e for e in root.iter() if e.get("id")}
    for card in hidden_ids(moment, truth):
        assert card not in svg
    state = moment.state
    rows = state.board if isinstance(state, GameState) else state.pyramid
    (being,) = [c for row in rows for c in row if is_placeholder(c)]
    sealed = by_id[f"card-{being}"]
    assert {"card", "back", "sealed"} <= set((sealed.get("class") or "").split())
    assert "changed" in (sealed.get("class") or "").split()  # the event dealt it there
    # ann's blind reserve, not opened in this view: face down, even to ann
    hidden = by_id["hidden-ann-1"]
    assert "back" in (hidden.get("class") or "").split()
    assert f"card-{state.players[0].reserved[0]}" not in by_id


@pytest.mark.parametrize("game", GAMES)
def test_a_sealed_board(game: str, snapshot: Any) -> None:
    """The text board of a sealed game, 100 columns, ASCII, as recorded: a place being revealed
    and a blind reserve drawn face down."""
    variant, build = GAMES[game]
    moment, _, _ = build()
    assert variant.board_text(moment, width=100, color=False, ascii=True) == snapshot

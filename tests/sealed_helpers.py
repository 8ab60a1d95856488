"""A sealed game played in memory (splendor_cli/sealing/): keys, duties, the deal, seats' moves.

`Table` is the whole table at once: every player's secret key, the record as the file would
hold it, and the game folded from it. Each player does their duties (join, shuffle, shares,
keys) as `duties` lists them, every event chained onto the record (`codec.chained`) and then
signed by its author (`sign`), as `splendor play` writes them. The player to move
chooses among the legal moves of their own view (the public state with the cards only they can
open: `private_cards`), shows their share of a blind reserve they buy (`reveal_own`), and plays
the public event the fold decides. Everything is drawn from seeded sources: a seed is a game.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from splendor_cli.crypto.elgamal import Deck, combine, share_point
from splendor_cli.crypto.group import Scalar
from splendor_cli.crypto.keys import SecretKey
from splendor_cli.events import Event
from splendor_cli.events.codec import (
    FORMAT,
    PAYLOAD_DRAWS_FORMAT,
    TABLE_FORMAT,
    Header,
    Record,
    chained,
    header_full_digest,
)
from splendor_cli.projection.game import Game, replay
from splendor_cli.projection.variant import AnyVariant
from splendor_cli.sealing.duties import duties, reveal_own
from splendor_cli.sealing.events import SealedAsked
from splendor_cli.sealing.placeholders import placeholder
from splendor_cli.sealing.reveal import placeholders, private_cards, substitute
from splendor_cli.sealing.signing import GameKey, sign
from splendor_cli.sealing.table import Sealing
from splendor_cli.variants import find_variant

NAMES = ("ann", "bob", "cy", "dee")
CREATED = "2026-01-01T00:00:00Z"


def make_keys(players: tuple[str, ...], seed: int) -> dict[str, SecretKey]:
    """Each player's secret key, drawn from `seed` (the same seed, the same keys)."""
    return {p: SecretKey.generate(p, random.Random(f"key:{seed}:{p}").randbytes) for p in players}


def strings(value: Any) -> Iterator[str]:
    """Every string in `value` (an event, a state: attrs classes, tuples, dicts)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            yield from strings(getattr(value, field.name))


@attrs.define
class Table:
    """A sealed game under way, every player's keys at hand."""

    variant: AnyVariant
    players: tuple[str, ...]
    keys: dict[str, SecretKey]
    record: Record
    game: Game
    rng: random.Random
    """Chooses the moves."""
    source: random.Random
    """The randomness of the proofs (`randbytes`)."""

    @classmethod
    def new(
        cls,
        variant: str = "base",
        players: int | tuple[str, ...] = 2,
        seed: int = 1,
        *,
        game: str = "",
        fmt: int = FORMAT,
    ) -> Table:
        """A sealed game just asked for (`SealedAsked`, the only unsigned event before the deal).
        The keys and every draw follow from `seed`; the game's id (`game`) makes its root. `fmt`:
        the file format (an older one: as the releases before format 4 wrote a sealed game)."""
        names = NAMES[:players] if isinstance(players, int) else players
        found = find_variant(variant)
        header = Header(
            game=game or f"sealed-{seed}", variant=variant, players=names, created=CREATED, format=fmt, table="sealed"
        )
        table = cls(
            variant=found,
            players=names,
            keys=make_keys(names, seed),
            record=Record(header=header, events=()),
            game=replay(found, [], table="sealed", payload_draws=fmt >= PAYLOAD_DRAWS_FORMAT),
            rng=random.Random(f"moves:{seed}"),
            source=random.Random(f"proofs:{seed}"),
        )
        bound = header_full_digest(header) if fmt >= TABLE_FORMAT else ""
        table.add(SealedAsked(seq=0, parent="", variant=variant, players=names, header=bound))
        return table

    def fork(self) -> Table:
        """A copy that can go on apart (the record and the game are values; the sources are copied)."""
        rng, source = random.Random(), random.Random()
        rng.setstate(self.rng.getstate())
        source.setstate(self.source.getstate())
        return attrs.evolve(self, rng=rng, source=source)

    # -- events

    @property
    def state(self) -> Any:
        return self.game.states[-1] if self.game.states else None

    @property
    def sealing(self) -> Sealing:
        assert self.game.sealing is not None
        return self.game.sealing

    @property
    def root(self) -> bytes:
        return self.sealing.root

    def signed(self, event: Event, by: str | None) -> Event:
        """`event` chained onto the record and signed by `by` (None: not signed), not added."""
        event = chained(self.record, event)
        if by is not None:
            event = sign(event, self.record.events[-1], self.keys[by])
        return event

    def add_chained(self, event: Event) -> Event:
        """Fold `event`, chained already, and append it to the record."""
        self.game = self.game.apply(event)
        self.record = attrs.evolve(self.record, events=(*self.record.events, event))
        return event

    def add(self, event: Event, by: str | None = None) -> Event:
        """Chain `event`, sign it by `by`, fold it and append it."""
        return self.add_chained(self.signed(event, by))

    # -- duties and the deal

    def game_key(self, player: str, secret: SecretKey | None = None) -> GameKey:
        """`player`'s keys of this game (`secret`: another key than theirs): in a game of format 4,
        from randomness kept for it (here the key's name, the seat and the game's root)."""
        secret = secret or self.keys[player]
        if not self.sealing.keyed:
            return GameKey(secret, self.root)
        kept = hashlib.sha256(f"kept:{secret.public.signing.hex()}:{player}".encode() + self.root).digest()
        return GameKey(secret, self.root, kept)

    def install_keys(self, player: str, folder: Path) -> None:
        """`player`'s keys as their machine keeps them in `folder` (its keys folder, made private):
        their secret key, and the randomness kept for this game (format 4 on: `game_key`)."""
        folder.mkdir(parents=True, mode=0o700, exist_ok=True)
        os.chmod(folder.parent, 0o700)
        key = folder / "secret.toml"
        key.write_text(self.keys[player].to_toml(), encoding="utf-8")
        key.chmod(0o600)
        kept = self.game_key(player).kept
        if kept is not None:
            games = folder / "games"
            games.write_text(f"{self.root.hex()} {kept.hex()}\n", encoding="ascii")
            games.chmod(0o600)

    def duties(self, player: str) -> list[Event]:
        """What `player` owes now (unsigned, not chained)."""
        state = self.state
        finished = bool(state is not None and state.finished)
        keys = self.game_key(player)
        return duties(self.sealing, state, player, keys, self.source.randbytes, finished=finished)

    def duty_round(self) -> bool:
        """Every player's duties, in turn order; whether anyone did anything."""
        did = False
        for player in self.players:
            for event in self.duties(player):
                self.add(event, player)
                did = True
        return did

    def join(self) -> None:
        """Every player joins (and nothing else)."""
        for player in self.players:
            (event,) = self.duties(player)
            self.add(event, player)

    def shuffle(self) -> None:
        """Every player shuffles, once all have joined (and nothing else)."""
        for player in self.players:
            (event,) = self.duties(player)
            self.add(event, player)

    def deal(self) -> Table:
        """Duties until every face-up card is revealed, then the setup (unsigned)."""
        while not self.game.states:
            if not self.duty_round():
                self.add(self.game.deal())
        return self

    # -- a seat's view and moves

    def card_secret(self, player: str) -> Scalar:
        """`player`'s card secret of this game."""
        return self.game_key(player).key.card

    def private(self, player: str) -> dict[str, str]:
        """The cards `player` alone can open now."""
        return private_cards(self.sealing, self.state, player, self.card_secret(player))

    def view(self, player: str | None = None) -> Any:
        """The table as `player` (default: the one to move) sees it."""
        player = player or self.state.player.name
        return substitute(self.sealing, self.state, self.private(player))

    def random_move(self, private: dict[str, str] | None = None, blind: float = 0.0) -> Any:
        """A legal move of the view of the player to move, drawn by the table's rng: a blind
        reserve with probability `blind` when there is one (random play seldom reserves blind)."""
        if private is None:
            private = self.private(self.state.player.name)
        moves = self.variant.legal_moves(substitute(self.sealing, self.state, private))
        reserves = [m for m in moves if getattr(m, "deck", 0)]
        if reserves and blind and self.rng.random() < blind:
            return reserves[self.rng.randrange(len(reserves))]
        return moves[self.rng.randrange(len(moves))]

    def needs(self, move: Any, private: dict[str, str] | None = None) -> list[str]:
        """The blind reserves of the player to move (placeholders) that `move` uses: their own
        share of each must be shown first. `private`: their `private()` cards, when known."""
        player = self.state.player.name
        if private is None:
            private = self.private(player)
        view = substitute(self.sealing, self.state, private)
        event = self.variant.decide(view, self.variant.draw(view, move, self.game.chance()))
        used = set(strings(event))
        _, reserved = placeholders(self.sealing, self.state)
        return [card for card in reserved.get(player, []) if private.get(card) in used]

    def reveal(self, cards: list[str]) -> Event:
        """The player to move shows their share of their own blind reserves `cards`."""
        player = self.state.player.name
        shown = reveal_own(self.sealing, self.state, player, self.game_key(player), self.source.randbytes, cards)
        return self.add(shown, player)

    def play(self, move: Any, private: dict[str, str] | None = None) -> Event:
        """The player to move plays `move` (of their view): their own share of a blind reserve it
        buys first, then the public event, signed. `private`: their `private()` cards, if known."""
        player = self.state.player.name
        need = self.needs(move, private)
        if need:
            self.reveal(need)
        return self.add(self.game.decide(move), player)

    def step(self, blind: float = 0.0) -> Event:
        """Duties, then a random move of the player to move (`random_move`)."""
        self.duty_round()
        private = self.private(self.state.player.name)
        return self.play(self.random_move(private, blind), private)

    def undo(self) -> Event:
        """The player who made the last move takes it back (signed by them)."""
        last = self.game.events[self.game.after[-1] - 1]
        by = getattr(last, "player")  # noqa: B009 - a play event
        return self.add(self.game.decide_undo(by=by), by)

    def play_to_end(self, most: int = 600, blind: float = 0.0) -> Table:
        """Random moves until the game is over, then everyone's duties (their keys)."""
        for _ in range(most):
            if self.state.finished:
                break
            self.step(blind)
        assert self.state.finished, f"not over after {most} moves"
        self.duty_round()
        return self

    # -- the truth, once every key is out

    def truth(self) -> dict[str, str]:
        """Every placeholder of the final decks, opened with every published card secret."""
        return truth(self.sealing)


def truth(table: Sealing) -> dict[str, str]:
    """Every placeholder opened with the published card secrets (all must be published)."""
    secrets = [Scalar.from_hex(table.published[p].card) for p in table.players]
    out: dict[str, str] = {}
    for level, deck in zip(table.levels, table.decks(), strict=True):
        known = Deck(table.cards[level])
        for k, ciphertext in enumerate(deck, start=1):
            out[placeholder(level, k)] = known.card_of(
                combine(ciphertext, [share_point(ciphertext, x) for x in secrets])
            )
    return out


def cards_in(state: Any) -> list[str]:
    """The cards (and placeholders) in `state`, each where it lies once: the decks, the market or
    the pyramid, each player's bought and reserved cards (not `blind`, a subset of `reserved`,
    nor a Duel's `wild`, a subset of `cards`)."""
    found: list[str] = [card for deck in state.decks for card in deck]
    rows = state.pyramid if hasattr(state, "pyramid") else state.board
    found += [card for row in rows for card in row if card is not None]
    for seat in state.players:
        found += [*seat.cards, *seat.reserved]
    return found


def sealed_game(variant: str = "base", players: int = 2, seed: int = 1) -> tuple[Record, dict[str, SecretKey]]:
    """A whole sealed game, every key published at the end: its record and the players' keys."""
    table = Table.new(variant, players, seed).deal().play_to_end()
    return table.record, table.keys


__all__ = ["NAMES", "Table", "cards_in", "make_keys", "sealed_game", "strings", "truth"]

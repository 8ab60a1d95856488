"""The pieces both games' boards are drawn with (rich), and the log as text.

Every function returns rich `Text`, or a plain string: rich renders into a string buffer, with
ANSI colour only when `color` is true. Gems are written with one letter each (`w u g r k`,
`*` for gold, `p` for a Duel pearl), as `Gem.letter` gives them. Every string that comes
from a game file goes through `safe` before it reaches a terminal.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..errors import UNSAFE, safe
from ..model import DUEL_GEMS, Card, Gem, Tokens
from ..sealing.placeholders import is_placeholder, level_of

__all__ = ["UNSAFE", "safe"]  # made safe where they are printed: defined with the errors (stdlib only)

GEM_STYLE = {gem: f"gem.{gem.value}" for gem in Gem}
"""The style each gem is printed in when colour is on: a name the theme (`THEMES`) gives its colours."""

THEMES: dict[str, dict[str, str]] = {
    # Unknown background: nothing that vanishes on either. White and gold are chips (a dark letter
    # on their colour), black a grey that reads on white and on black.
    "auto": {
        "gem.white": "black on white",
        "gem.blue": "bright_blue",
        "gem.green": "green",
        "gem.red": "red",
        "gem.black": "bright_black",
        "gem.gold": "black on yellow",
        "gem.pearl": "magenta",
    },
    # A dark background: white letters read, dark blue does not.
    "dark": {
        "gem.white": "bold bright_white",
        "gem.blue": "bright_blue",
        "gem.green": "green",
        "gem.red": "bright_red",
        "gem.black": "bright_black",
        "gem.gold": "yellow",
        "gem.pearl": "bright_magenta",
    },
    # A light background: white as a light letter on a dark chip, gold as a chip, black as black.
    "light": {
        "gem.white": "bright_white on black",
        "gem.blue": "blue",
        "gem.green": "green",
        "gem.red": "red",
        "gem.black": "bold black",
        "gem.gold": "black on yellow",
        "gem.pearl": "magenta",
    },
}
"""The colours of the gems in each theme (`$SPLENDOR_THEME`: auto, the default, light or dark)."""

_theme = "auto"


def use_theme(name: str) -> None:
    """Draw the boards and the log that follow in the theme `name` (one of `THEMES`)."""
    global _theme
    if name not in THEMES:
        raise ValueError(f"no theme {name!r}")
    _theme = name


def gem_counts(tokens: Tokens, gems: tuple[Gem, ...]) -> Text:
    """`w3 g2 r3`: the positive counts, each in its gem's colour; `-` when there are none."""
    parts = [Text(f"{gem.letter}{tokens[gem]}", style=GEM_STYLE[gem]) for gem in gems if tokens[gem]]
    return Text(" ").join(parts) if parts else Text("-", style="dim")


def card_head(card_id: str, cards: Mapping[str, Card]) -> Text:
    """`2-14 1pt green`: the id to buy or reserve it by, its points (left out when 0), its bonus.

    `cards` is the table the id is looked up in: a Duel card's id may be a base card's too.
    """
    card = cards[card_id]
    return Text.assemble(card_title(card), " ", card_bonus(card))


def card_title(card: Card) -> Text:
    """`2-14 1pt`: the id and the points, left out when 0."""
    title = Text(safe(card.id), style="bold")
    if card.points:
        title.append(f" {card.points}pt", style="bold")
    return title


def card_bonus(card: Card) -> Text:
    """`green`, `red x2` (a Duel double bonus), `wild` or `no bonus` (Duel cards both)."""
    if card.bonus is not None:
        return Text(f"{card.bonus}{' x2' if card.bonus_count == 2 else ''}", style=GEM_STYLE[card.bonus])
    return Text("wild" if card.wild else "no bonus", style="bold" if card.wild else "dim")


def card_extras(card: Card) -> Text:
    """`2 crowns`, `steal`: what a Duel card has besides points and bonus (nothing in the base game).

    A wild card's `wild` ability is its bonus, said by `card_bonus` already.
    """
    parts = [Text(plural(card.crowns, "crown"), style="bold")] if card.crowns else []
    if card.ability and card.ability != "wild":
        parts.append(Text(card.ability, style="italic"))
    return Text(", ").join(parts)


def cost_text(card_id: str, cards: Mapping[str, Card]) -> Text:
    """`w3 g2 r3`, pearls too (`p1`) for a Duel card."""
    return gem_counts(cards[card_id].cost, DUEL_GEMS)


def card_cell(card_id: str | None, cards: Mapping[str, Card]) -> Text:
    """A face-up card on two lines (head, then cost), or `(empty)` when its deck ran out (or,
    a sealed game's placeholder, the card being revealed: `sealed_cell`)."""
    if card_id is None:
        return Text("(empty)", style="dim")
    if is_placeholder(card_id):
        return sealed_cell(card_id)
    return Text.assemble(card_head(card_id, cards), "\n", cost_text(card_id, cards))


def face_down(card_id: str) -> Text:
    """`? level 2`: a card nobody may read here (a sealed game's placeholder), face down: its level only."""
    return Text.assemble(("?", "bold"), f" level {level_of(card_id)}")


def sealed_cell(card_id: str, *, tall: bool = False) -> Text:
    """A face-up place whose card is being revealed (a sealed game's placeholder): face down,
    its level, `being revealed` (on two lines when `tall`, as a narrow market's cards are)."""
    note = "being\nrevealed" if tall else "being revealed"
    return Text.assemble(face_down(card_id), "\n", (note, "dim italic"))


def name_list(names: list[str]) -> str:
    """`ann, bob and cy`, each name made `safe`."""
    names = [safe(name) for name in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def packed(parts: Sequence[tuple[str, Text]], width: int, indent: int = 0) -> Text:
    """The parts on as few lines as `width` allows, each line broken only between two parts
    (never inside one), the lines after the first indented by `indent`.

    Each part comes with the separator written before it when it follows another on its line
    (the first part's is never written). A part wider than the line gets a line of its own.
    """
    lines: list[Text] = []
    for sep, part in parts:
        if lines and lines[-1].cell_len + len(sep) + part.cell_len <= width:
            lines[-1].append(sep)
        else:
            lines.append(Text(" " * indent if lines else ""))
        lines[-1].append_text(part)
    return Text("\n").join(lines)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def gem_row(
    label: str, tokens: Tokens, gems: tuple[Gem, ...], slot: int, total: str | None = None, *, color: bool = False
) -> Text:
    """`tokens  7  w2 u1    r3    *1`: the total, then each gem in its own place (`gem_place`).

    `total` replaces the count of the tokens (a Duel's `points` row shows `9/20` there); `label`
    may be "" (then the row starts with the total). `color`: the board is printed in colour.
    """
    total = f"{tokens.total():>2}" if total is None else total
    row = Text(f"{label:<6} {total} " if label else f"{total} ")
    for gem in gems:
        row.append(" ")
        row.append_text(gem_place(gem, tokens[gem], slot, color=color))
    return row


def gem_place(gem: Gem, count: int, slot: int, *, color: bool = False) -> Text:
    """`w2` in its gem's colour, padded to `slot`; a count of 0 a dim `·` in colour, else blank.

    Only the letter and the count are coloured: a gem drawn on a background (white, gold) would
    otherwise leave a coloured block where there is nothing, which reads as a glitch. Without
    colour a 0 stays blank, the board's text as it always was.
    """
    if count:
        place = f"{gem.letter}{count}"
        return Text.assemble((place, GEM_STYLE[gem]), " " * (slot - len(place)))
    return Text("·".ljust(slot), style="dim") if color else Text(" " * slot)


def reserved_card(
    card_id: str, blind: bool, one_line: bool, cards: Mapping[str, Card], head_width: int | None = None
) -> Text:
    """A reserved card, marked `(blind)` when it came face down from a deck: the other players
    at a real table would not know it (the file, an open record, does say it). A Duel card's
    crowns and ability follow its cost. A sealed game's placeholder (a card reserved blind that
    only its owner may see) is drawn face down: `? level 2`, never more."""
    mark = Text("  (blind)" if blind else "", style="dim italic")
    if is_placeholder(card_id):
        head = face_down(card_id)
        if one_line:
            head.pad_right((head_width or HEAD_WIDTH) - len(head))
            return Text.assemble(head, "  ", ("face down", "dim"), mark)
        return Text.assemble(head, mark, "\n", ("face down", "dim"))
    extras = card_extras(cards[card_id])
    if extras:
        extras = Text.assemble("  ", extras)
    if one_line:
        return Text.assemble(reserved_card_line(card_id, cards, head_width or HEAD_WIDTH), extras, mark)
    return Text.assemble(card_head(card_id, cards), mark, "\n", cost_text(card_id, cards), extras)


def reserved_card_line(card_id: str, cards: Mapping[str, Card], head_width: int | None = None) -> Text:
    """`2-14 1pt green  w3 g2 r3`: a reserved card on one line, the costs of a hand aligned."""
    head = card_head(card_id, cards)
    head.pad_right((head_width or HEAD_WIDTH) - len(head))
    return Text.assemble(head, "  ", cost_text(card_id, cards))


HEAD_WIDTH = len("3-09 3pt green")


def natural_width(console: Console, table: Table) -> int:
    """How wide `table` is when nothing wraps (rich clamps a measure to the width it is given)."""
    return Measurement.get(console, console.options.update_width(1000), table).maximum


def new_console(width: int, color: bool) -> Console:
    """A console that prints into a string, `width` wide, in colour (the theme's, `use_theme`) or not."""
    from rich.theme import Theme

    return Console(
        theme=Theme(THEMES[_theme]),
        file=io.StringIO(),
        width=width,
        color_system="standard" if color else None,
        emoji=False,
        highlight=False,
        force_terminal=color,
        no_color=not color,  # `--color always` wins over NO_COLOR: the command line alone decides
    )


def printed(console: Console) -> str:
    """What was printed, without the spaces at the ends of lines (colour codes may follow them)."""
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(_TRAILING.sub(r"\1", line) for line in printed.splitlines())


_TRAILING = re.compile(r"\s+((?:\x1b\[[0-9;]*m)*)$")

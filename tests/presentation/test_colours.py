"""The gems' colours read on a light and on a dark terminal: no letter in a colour that vanishes
against the background it may be printed on (`$SPLENDOR_THEME`: auto, light, dark)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import ROOT, cli
from rich.style import Style

from splendor_cli.model import Gem
from splendor_cli.presentation.text import GEM_STYLE, THEMES

SAMPLE = ROOT / "games" / "sample-3p.toml"
DUEL = ROOT / "games" / "sample-duel.toml"
LIGHT = {"white", "bright_white", "yellow", "bright_yellow", "bright_cyan", "bright_green"}
"""Foregrounds that vanish on a light background (white, cream)."""
DARK = {"black", "blue"}
"""Foregrounds that vanish on a dark background (black, navy)."""


def _letter_and_ground(style: Style) -> tuple[str | None, str | None]:
    """The colour of the letter and of the ground behind it (None: the terminal's own)."""
    fore = style.color.name if style.color else None
    back = style.bgcolor.name if style.bgcolor else None
    return (back, fore) if style.reverse else (fore, back)


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_gem_reads_on_the_backgrounds_of_its_theme(theme: str) -> None:
    """Each gem has a style in each theme, told apart from the others' and from plain text; its
    letter is never a colour that vanishes on the terminal's background this theme may meet
    (auto: light and dark; light: light; dark: dark), unless it stands on a ground of its own,
    which then differs from the letter."""
    styles = THEMES[theme]
    assert set(GEM_STYLE.values()) <= set(styles)
    parsed = {gem: Style.parse(styles[GEM_STYLE[gem]]) for gem in Gem}
    assert len({str(style) for style in parsed.values()}) == len(Gem)
    backgrounds = {"auto": ("light", "dark"), "light": ("light",), "dark": ("dark",)}[theme]
    for gem, style in parsed.items():
        letter, ground = _letter_and_ground(style)
        assert letter or ground or style.bold, f"{gem} looks like plain text in {theme}"
        if ground is not None:
            assert letter != ground, f"{gem} in {theme}: its letter is its ground"
            continue
        if "light" in backgrounds:
            assert letter not in LIGHT, f"{gem} in {theme}: {letter} on a light terminal"
        if "dark" in backgrounds:
            assert letter not in DARK, f"{gem} in {theme}: {letter} on a dark terminal"


BRIGHT_WHITE_LETTER = re.compile(r"\x1b\[(?:[0-9;]*;)?97(?:;(?![0-9]*4[0-7])[0-9;]*)?m")


@pytest.mark.parametrize("game", [SAMPLE, DUEL], ids=["base", "duel"])
def test_the_board_has_no_bright_white_letters_on_the_terminals_ground(game: Path) -> None:
    """`show --color always` (auto theme, and light) never prints a bright white letter on the
    terminal's own ground (\\x1b[97m alone): the white tokens read on a light terminal; the dark
    theme may (a dark terminal); a theme that is no theme is exit 2, one line."""
    for theme in ("", "auto", "light"):
        code, out, err = cli("show", "-g", game, "--color", "always", env={"SPLENDOR_THEME": theme})
        assert code == 0, err
        assert "\x1b[" in out and "w" in out
        for codes in re.findall(r"\x1b\[([0-9;]*)m", out):
            parts = codes.split(";")
            assert not ("97" in parts and not any(p.startswith("4") or p.startswith("10") for p in parts)), (
                theme,
                codes,
            )
    code, out, _ = cli("show", "-g", game, "--color", "always", env={"SPLENDOR_THEME": "dark"})
    assert code == 0 and "\x1b[1;97m" in out
    code, _, err = cli("show", "-g", game, env={"SPLENDOR_THEME": "neon"})
    assert code == 2 and "SPLENDOR_THEME" in err and err.count("\n") == 1


def test_no_color_and_never_print_no_escape() -> None:
    """`--color never`, and `--color auto` with NO_COLOR set, print no escape at all; the log too."""
    for args, env in ((("--color", "never"), {}), ((), {"NO_COLOR": "1"})):
        for command in ("show", "log"):
            code, out, _ = cli(command, "-g", SAMPLE, *args, env=env)
            assert code == 0 and "\x1b" not in out

"""The systemd unit of `splendor watch --install` starts (issue 31, item 7): its `WorkingDirectory=`
and `ExecStart=` read back, as systemd reads them, as the repository's folder and the command,
whatever the folder's name (spaces, quotes, `%`, `$`, backslashes, non-ASCII); a folder systemd
cannot name is refused (exit 2, nothing written).

`read_unit` reads a unit as systemd.syntax says (for the keys the unit has): lines stripped, a
trailing backslash going on at the next line, comments, sections; specifiers expanded (`%%` is
`%`; an unknown one is an error); `WorkingDirectory=` taken as it is then (absolute, normalized);
`ExecStart=` split into words as systemd does (quotes, C escapes), then `$$` read as `$`. It runs
everywhere; `systemd-analyze verify` runs the real reader where it is installed (not needed in CI).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import PATIENCE, cli, git

WHITESPACE = " \t\n\r"
SPECIFIERS = {"h": "/home/someone", "u": "someone", "n": "unit.service", "N": "unit", "t": "/run/user/1"}
"""The specifiers a value might name by mistake, and what systemd would put there (a user unit)."""
C_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    '"': '"',
    "'": "'",
}


class UnitError(ValueError):
    """What systemd would refuse."""


def _lines(text: str) -> list[str]:
    """The logical lines of a unit: a line whose end (whitespace stripped) is an unescaped
    backslash goes on at the next one, the backslash read as a space (systemd's config_parse)."""
    lines: list[str] = []
    going_on: str | None = None
    for raw in text.split("\n"):
        line = raw if going_on is None else going_on + raw
        end = line.rstrip(WHITESPACE)
        escaped = False
        for char in end:
            escaped = not escaped and char == "\\"
        if escaped:
            going_on = end[:-1] + " "
            continue
        going_on = None
        lines.append(line)
    if going_on is not None:
        lines.append(going_on)
    return lines


def read_unit(text: str) -> dict[tuple[str, str], list[str]]:
    """Each (section, key) of the unit, and its values (stripped), as systemd's parser reads them."""
    values: dict[tuple[str, str], list[str]] = {}
    section = ""
    for line in _lines(text):
        line = line.strip(WHITESPACE)
        if not line or line[0] in "#;":
            continue
        if line[0] == "[":
            if not line.endswith("]"):
                raise UnitError(f"bad section header {line!r}")
            section = line[1:-1]
            continue
        key, equal, value = line.partition("=")
        if not equal or not section:
            raise UnitError(f"not an assignment in a section: {line!r}")
        values.setdefault((section, key.strip(WHITESPACE)), []).append(value.strip(WHITESPACE))
    return values


def specifiers(value: str) -> str:
    """`value` with its specifiers expanded: `%%` is `%`; an unknown one, or a `%` at the end, is an error."""
    out, index = [], 0
    while index < len(value):
        char = value[index]
        if char != "%":
            out.append(char)
            index += 1
            continue
        if index + 1 == len(value):
            raise UnitError(f"a lone % at the end of {value!r}")
        name = value[index + 1]
        if name == "%":
            out.append("%")
        elif name in SPECIFIERS:
            out.append(SPECIFIERS[name])
        else:
            raise UnitError(f"unknown specifier %{name} in {value!r}")
        index += 2
    return "".join(out)


def working_directory(value: str) -> str:
    """What systemd.exec's `WorkingDirectory=` makes of `value`: `~` the home, a leading `-`
    dropped (a missing folder is no error), specifiers expanded; then an absolute, normalized path."""
    if value == "~":
        return SPECIFIERS["h"]
    path = specifiers(value[1:] if value.startswith("-") else value)
    if not path.startswith("/"):
        raise UnitError(f"WorkingDirectory= path is not absolute: {path!r}")
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts:
        raise UnitError(f"WorkingDirectory= path is not normalized: {path!r}")
    return "/" + "/".join(parts)


def exec_words(value: str) -> list[str]:
    """The command of `ExecStart=` `value`: specifiers expanded, no prefix (`-@:+!|`) taken here,
    split into words as systemd's extract_first_word(UNQUOTE | CUNESCAPE) does, then each word's
    environment references replaced as at exec time (`$$` is `$`; any other `$` would name a
    variable: an error here, the unit writes none)."""
    text = specifiers(value)
    if text[:1] in tuple("-@:+!|"):
        raise UnitError(f"unexpected prefix in {text!r}")
    words: list[str] = []
    index = 0
    while True:
        while index < len(text) and text[index] in WHITESPACE:
            index += 1
        if index == len(text):
            break
        word: list[str] = []
        quote = ""
        while index < len(text):
            char = text[index]
            if char == "\\":
                if index + 1 == len(text):
                    raise UnitError(f"a backslash at the end of {text!r}")
                escaped = text[index + 1]
                if escaped not in C_ESCAPES:
                    raise UnitError(f"an escape this reader does not know: \\{escaped}")
                word.append(C_ESCAPES[escaped])
                index += 2
                continue
            if quote:
                if char == quote:
                    quote = ""
                else:
                    word.append(char)
            elif char in "\"'":
                quote = char
            elif char in WHITESPACE:
                break
            else:
                word.append(char)
            index += 1
        if quote:
            raise UnitError(f"an unterminated quote in {text!r}")
        words.append(_environment("".join(word)))
    return words


def _environment(word: str) -> str:
    out, index = [], 0
    while index < len(word):
        if word[index] == "$":
            if word[index + 1 : index + 2] != "$":
                raise UnitError(f"{word!r} names an environment variable")
            out.append("$")
            index += 2
        else:
            out.append(word[index])
            index += 1
    return "".join(out)


# -- the tests ---------------------------------------------------------------------------------

STRANGE = 'my games 100% $HOME "q" \'s back\\slash; é %h'
"""A folder name with everything systemd reads in a value of its own."""


def _installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str) -> tuple[int, str, Path, Path, Path]:
    """`watch --install --kind systemd --write -g games/x.toml` in a repository named `folder`:
    the exit code, stderr, the repository, the program on PATH, and the units' folder."""
    top = tmp_path / folder
    (top / "games").mkdir(parents=True)
    git(top, "init", "-q")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    program = bin_dir / "splendor"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    config = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.chdir(top)
    code, _, err = cli("watch", "--install", "--kind", "systemd", "--write", "-g", "games/x.toml", "--every", "120")
    return code, err, top, program, config / "systemd" / "user"


def test_the_unit_reads_back_as_the_folder_and_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, err, top, program, units = _installed(tmp_path, monkeypatch, STRANGE)
    assert code == 0, err
    (unit,) = units.iterdir()
    values = read_unit(unit.read_text(encoding="utf-8"))
    (directory,) = values["Service", "WorkingDirectory"]
    assert working_directory(directory) == str(top)
    (command,) = values["Service", "ExecStart"]
    game = str(top / "games" / "x.toml")
    assert exec_words(command) == [str(program), "watch", "-g", game, "--every", "120"]
    (description,) = values["Unit", "Description"]
    assert specifiers(description) == f"splendor watch: keeps the games of {top} moving"


@pytest.mark.parametrize("folder", ["ends with a space ", "ends with a backslash\\"], ids=["space", "backslash"])
def test_a_folder_systemd_cannot_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str) -> None:
    """systemd strips a value's trailing space and reads a trailing backslash as a line going on:
    exit 2, one line, no unit written."""
    code, err, _, _, units = _installed(tmp_path, monkeypatch, folder)
    assert code == 2 and err.count("\n") == 1 and "systemd" in err, err
    assert not units.exists() or not any(units.iterdir())


def test_the_reader_is_systemds(tmp_path: Path) -> None:
    """The reader refuses what systemd refuses: a quoted WorkingDirectory (the unit that never
    started), an unknown specifier, a `$` that names a variable; and reads a line that goes on."""
    with pytest.raises(UnitError, match="not absolute"):
        working_directory('"/home/ann/games"')
    with pytest.raises(UnitError, match="specifier"):
        working_directory("/home/ann/100%q")
    with pytest.raises(UnitError, match="environment"):
        exec_words('"/bin/splendor" "$HOME"')
    assert read_unit("[Service]\nExecStart=/bin/a \\\n  b\n") == {("Service", "ExecStart"): ["/bin/a    b"]}
    assert exec_words('/bin/a "b c" \'d\\"\' e\\\\f %%') == ["/bin/a", "b c", 'd"', "e\\f", "%"]


def test_systemd_analyze_verifies_the_unit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where systemd is installed, its own reader takes the unit (not needed in CI: the reader above runs there)."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: test_the_unit_reads_back_as_the_folder_and_the_command reads it")
    code, err, _, _, units = _installed(tmp_path, monkeypatch, STRANGE)
    assert code == 0, err
    (unit,) = units.iterdir()
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0 and "WorkingDirectory" not in done.stderr, done.stderr

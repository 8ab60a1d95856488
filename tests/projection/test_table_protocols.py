"""Table protocols are plug-ins of the fold (projection/table_protocol.py): a game's protocol is chosen
by what its log declares, found by name in a registry, and no code outside a protocol's package
asks which protocol a game plays.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest
from helpers import new_game
from sealed_helpers import Table

from splendor_cli.errors import CorruptLogError, UsageError
from splendor_cli.projection.game import replay
from splendor_cli.projection.table_protocol import OPEN, TableProtocol, find_protocol, protocol_names
from splendor_cli.sealing.protocol import SealedTable, sealing_of

PACKAGE = Path(__file__).resolve().parents[2] / "splendor_cli"


def test_the_registry_finds_each_protocol_by_name() -> None:
    """`open`, `sealed` and `signed` are found by name; any other name is a usage error naming
    the ones there are."""
    from splendor_cli.signed.protocol import SignedTable

    assert protocol_names() == ("open", "sealed", "signed")
    assert find_protocol("open") is TableProtocol
    assert find_protocol("sealed") is SealedTable
    assert find_protocol("signed") is SignedTable
    with pytest.raises(UsageError, match="open, sealed, signed"):
        find_protocol("secret")


def test_a_log_that_declares_no_protocol_is_open() -> None:
    """An open game's protocol is the open one: nothing signed, hidden or owed, no deal of its own."""
    game = new_game()
    assert game.protocol is OPEN
    assert not (game.protocol.signed or game.protocol.hidden or game.protocol.duties)
    assert game.protocol.stage() == "" and game.protocol.deal() is None and game.sealing is None
    assert game.protocol.keys_owed(True) is None and game.protocol.audit(game) is None


def test_a_sealed_asked_first_event_makes_a_sealed_table() -> None:
    """The first event of a sealed game makes its protocol sealed, folded by the sealed
    protocol's handlers; replayed, the file gives the same protocol state."""
    table = Table.new(seed=3)
    table.join()
    game = table.game
    assert isinstance(game.protocol, SealedTable) and game.protocol.name == "sealed"
    assert sealing_of(game) is game.sealing
    assert game.protocol.stage().startswith("waiting for")
    assert (
        replay(game.variant, game.events, table=game.declared, payload_draws=game.payload_draws).protocol
        == game.protocol
    )


def test_a_protocol_event_in_an_open_game_is_refused() -> None:
    """A sealed protocol's event in an open game is refused, naming it and what the header declares."""
    table = Table.new(seed=4)
    table.join()
    joined = table.game.events[1]
    game = new_game()
    with pytest.raises(
        CorruptLogError,
        match=r"^event #2: player_joined in a game that is not sealed \(its header declares the open table\)$",
    ):
        game.apply(attrs.evolve(joined, seq=game.seq + 1))


def test_no_code_outside_the_sealed_package_asks_whether_a_game_is_sealed() -> None:
    """No `sealing is None` or `sealing is not None` outside `splendor_cli/sealing/`: code asks the
    game's protocol."""
    pattern = re.compile(r"sealing is (not )?None")
    found = [
        f"{path.relative_to(PACKAGE)}:{number}"
        for path in PACKAGE.rglob("*.py")
        if "sealing" not in path.relative_to(PACKAGE).parts[:1]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert found == []


def test_the_registry_knows_each_protocols_event_tags_without_importing_it() -> None:
    """The type tags the registry gives each protocol are exactly its own events' (its handlers'
    classes), so a log names its protocol before any is imported; and reading an open game
    imports neither the sealed protocol nor its events (a fresh interpreter; the games' rules use
    sealing/placeholders.py, the names of hidden cards, and nothing else of it)."""
    import subprocess
    import sys

    from splendor_cli.projection import table_protocol

    for name in table_protocol.protocol_names():
        owned = {cls.TYPE for cls in table_protocol.find_protocol(name).handlers()}
        assert owned == {tag for tag, owner in table_protocol._TAGS.items() if owner == name}, name
    program = (
        "import sys; from splendor_cli import store; store.read(sys.argv[1]);"
        "print(sorted(m for m in sys.modules if m in ('splendor_cli.sealing.events', 'splendor_cli.sealing.protocol')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "games/sample-3p.toml"], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "[]"

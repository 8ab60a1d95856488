"""Sealed game files written before `deck_shuffled` became a list of decks still read, chain,
verify and fold as they did: tests/fixtures/sealed-release/ (how they were made: its README).

Their shuffles write `deck_1`, `deck_2`, `deck_3`; the codec reads them into `decks` (an upcast
of the table) and writes a shuffle of three decks so again. Each event keeps its full digest (so
every signature, which covers the digest of the event before it, still verifies), the fold gives
the same view after every event as the code that wrote them, and the file comes out byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT

from splendor_cli.events.codec import event_to_dict, format_record, full_digest
from splendor_cli.projection.game import replay
from splendor_cli.records import parse_text
from splendor_cli.sealing.audit import audit
from splendor_cli.sealing.events import DeckShuffled
from splendor_cli.sealing.signing import canonical
from splendor_cli.variants import find_variant

FIXTURES = ROOT / "tests" / "fixtures" / "sealed-release"
EXPECTED = FIXTURES / "expected"
FILES = sorted(FIXTURES.glob("*.toml"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_the_fixtures_are_all_there() -> None:
    """A 3-player Splendor and a Duel, each sealed, played to the end, every key published, each
    with blind reserves, their shuffles written as `deck_1` to `deck_3`."""
    assert [path.stem for path in FILES] == ["base-3p", "duel"]
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        shuffles = text.count('type = "deck_shuffled"')
        assert shuffles == text.count("\ndeck_1 = '") == text.count("\ndeck_3 = '") >= 2  # the setup's are arrays
        assert "\ndecks = " not in text and "blind = true" in text
        assert text.count('type = "keys_published"') == text.count('type = "player_joined"')


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_each_fixture_keeps_its_bytes_and_digests(path: Path) -> None:
    """Parsed, then written again, the file is byte for byte what it was; each event's full digest
    (as read, and as computed from the event) is the one recorded, and so is the canonical form a
    signature covers."""
    text = path.read_text(encoding="utf-8")
    record = parse_text(text)
    assert format_record(record) == text
    recorded = json.loads((EXPECTED / f"{path.stem}.events.json").read_text(encoding="utf-8"))
    assert [row["digest"] for row in recorded] == list(record.digests)
    assert [full_digest(event_to_dict(event)) for event in record.events] == list(record.digests)
    assert [hashlib.sha256(canonical(event)).hexdigest() for event in record.events] == list(record.digests)
    shuffles = [event for event in record.events if isinstance(event, DeckShuffled)]
    assert shuffles and all(len(event.decks) == 3 for event in shuffles)


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_each_fixture_folds_as_it_did(path: Path) -> None:
    """Every signature and proof checked, the view after each event (the public state, the
    stage of the deal, the cards revealed, the keys published) is the one the code that wrote the
    file gave; the final state and the audit (every shuffle re-made, every card opened) too."""
    record = parse_text(path.read_text(encoding="utf-8"))
    variant = find_variant(record.header.variant)
    recorded = json.loads((EXPECTED / f"{path.stem}.events.json").read_text(encoding="utf-8"))
    game = replay(variant, [], table="sealed")
    views = []
    for event in record.events:
        game = game.apply(event)
        sealing = game.sealing
        assert sealing is not None
        view = {
            "state": variant.state_json(game.seq, game.states[-1]) if game.states else None,
            "stage": sealing.stage(),
            "revealed": dict(sorted(sealing.revealed.items())),
            "published": sorted(sealing.published),
        }
        views.append(
            {"seq": event.seq, "type": event.TYPE, "view": hashlib.sha256(_canonical(view).encode()).hexdigest()}
        )
    assert views == [{key: row[key] for key in ("seq", "type", "view")} for row in recorded]
    assert game.sealing is not None
    found = audit(game.sealing, game.state)
    final = {
        "state": variant.state_json(game.seq, game.state),
        "audit": {
            "problems": list(found.problems),
            "unpublished": list(found.unpublished),
            "shuffles_checked": found.shuffles_checked,
            "cards_opened": found.cards_opened,
            "reserves": {owner: list(cards) for owner, cards in found.reserves.items()},
        },
    }
    assert final == json.loads((EXPECTED / f"{path.stem}.final.json").read_text(encoding="utf-8"))
    assert not found.problems and found.cards_opened == sum(len(cards) for cards in game.sealing.cards.values())

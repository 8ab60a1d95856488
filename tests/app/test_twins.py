"""A game nobody can twin (issue 31, item 1): a key reveals cards in one history of a sealed game.

The review's attack: ann plays a sealed game A with bob, then makes B, a copy of A's log, and in B
takes a card: bob's machine shows his share of the card that replaces it there, which opens, for
ann, a card A still hides, and both games go on. From format 4 the game's root binds its whole
header, so a copy under another id is refused on read (tests/events/test_header_table.py); a copy
with the same header is the same game, forked: bob's key shows its shares in one branch only
(app/services/key_history.py), so once it showed one in B it reveals nothing in A. The memory of
seen games is off on these machines (`Machine.forgetful`): the key guards itself.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from app.test_sealed_cli import Machine, dealt

from splendor_cli.events.codec import event_to_dict, full_digest, parse
from splendor_cli.variants import event_types


def face_up_reserves(machine: Machine, path: Path) -> list[str]:
    """The reserves of a face-up card the player to move may make, as `moves --json` lists them."""
    moves = json.loads(machine.ok("moves", "-g", path, "--json"))
    return [m["notation"] for m in moves if m["notation"].startswith("reserve ") and "-" in m["notation"]]


def test_a_key_shows_its_shares_in_one_branch_of_a_game_only(tmp_path: Path) -> None:
    path, ann, bob = dealt(tmp_path)
    twin = tmp_path / "twin.toml"
    shutil.copy(path, twin)  # B: A's log, header and all (the same id)
    cheat = tmp_path / "ann-before"
    shutil.copytree(ann.root, cheat, symlinks=True)  # ann's machine as it was: hers to put back
    first, second = face_up_reserves(ann, path)[:2]
    ann.ok("play", "-g", twin, *first.split())  # in B, ann takes a face-up card: its place is dealt
    bob.ok("seal", "-g", twin)  # bob shows his share of the card dealt there, in B
    assert "bob to move" in ann.ok("seal", "-g", twin)
    shutil.rmtree(ann.root)  # ann's own machine would refuse A now: she puts it back as it was
    shutil.copytree(cheat, ann.root, symlinks=True)
    ann.ok("play", "-g", path, *second.split())  # in A, ann takes another card
    before = path.read_bytes()
    for command in (("seal", "-g", path), ("show", "-g", path)):
        done = bob(*command)
        if command[0] == "show":  # reading is not revealing: bob sees the table
            assert done.code == 0, done
            continue
        assert done.code == 3, done
        assert "your key revealed cards at event #" in done.err and "another branch of the game" in done.err
    assert path.read_bytes() == before  # nothing revealed, nothing written
    # B goes on: bob's key went on in it.
    assert bob("seal", "-g", twin).code == 0


def test_a_copy_under_another_id_of_a_game_the_key_revealed_in_is_refused(tmp_path: Path) -> None:
    """A game of an older format binds its header by a 64-bit link alone, so a twin under another
    id takes a collision search; the key notes the id it played each root as, and refuses a file of
    that root that says another id, naming both (here the note is written as the search would
    leave it: the same root, another id)."""
    path, ann, bob = dealt(tmp_path)
    ann.ok("play", "-g", path, *face_up_reserves(ann, path)[0].split())  # a card to deal: bob's share owed
    record = parse(path.read_text(), event_types)
    root = full_digest(event_to_dict(record.events[0]))
    keys = Path(bob.env()["XDG_DATA_HOME"]) / "splendor-cli" / "keys" / "acted"
    lines = keys.read_text().splitlines()
    assert [line.split()[0] for line in lines] == [root]  # bob's key showed shares in this game
    seq, digest, game = lines[0].split()[1:]
    keys.write_text(f"{root} {seq} {digest} another-game-7\n")
    os.chmod(keys, 0o600)
    before = path.read_bytes()
    done = bob("seal", "-g", path)
    assert done.code == 4, done
    assert f"this file is game {game!r}, but your key played its first events as game 'another-game-7'" in done.err
    assert path.read_bytes() == before


def test_each_key_joins_with_randomness_it_keeps_and_without_it_reveals_nothing(tmp_path: Path) -> None:
    """From format 4 a player's card key of a game comes from 32 random bytes their machine keeps
    (the keys folder's `games`), not from their secret key and the game's root (which the asker
    chose), and each join carries a nonce of its own; a machine that lost them says so (exit 2)
    and writes nothing."""
    from splendor_cli.crypto.keys import SecretKey
    from splendor_cli.sealing.events import PlayerJoined
    from splendor_cli.sealing.signing import GameKey

    path, ann, bob = dealt(tmp_path)
    record = parse(path.read_text(), event_types)
    root = bytes.fromhex(full_digest(event_to_dict(record.events[0])))
    joins = {e.player: e for e in record.events if isinstance(e, PlayerJoined)}
    assert len({e.nonce for e in joins.values()}) == 2 and all(len(e.nonce) == 64 for e in joins.values())
    for machine in (ann, bob):
        keys = Path(machine.env()["XDG_DATA_HOME"]) / "splendor-cli" / "keys"
        ((noted, kept),) = (line.split() for line in (keys / "games").read_text().splitlines())
        assert noted == root.hex() and (keys / "games").stat().st_mode & 0o077 == 0
        secret = SecretKey.from_toml((keys / "secret.toml").read_text())
        card = joins[machine.name].card
        assert GameKey(secret, root, bytes.fromhex(kept)).key.public.card.to_hex() == card
        assert GameKey(secret, root).key.public.card.to_hex() != card  # not derived from the root
    ann.ok("play", "-g", path, *face_up_reserves(ann, path)[0].split())  # a card to deal: bob's share owed
    games = Path(bob.env()["XDG_DATA_HOME"]) / "splendor-cli" / "keys" / "games"
    games.unlink()
    before = path.read_bytes()
    done = bob("seal", "-g", path)
    assert done.code == 2, done
    assert done.err.count("\n") == 1 and "your key of this game (made when you joined it) is not in" in done.err
    assert path.read_bytes() == before

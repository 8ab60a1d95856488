"""Signed games shared the two ways a table plays without a server, through the real command line
(`python -m splendor_cli`, a process per command), each player on their own machine: their own
HOME, data folder and key (`splendor key new`: scenarios.sealed_table.equip), memory and cache.

1. By mail (a real SMTP server on 127.0.0.1, real Maildirs): ann starts a signed game, joins and
   mails it whole; bob's `apply` takes it in and joins (as $SPLENDOR_PLAYER) with his share of the
   deal; ann's `apply` of his mail adds her share and the deal; then each plays, mails what the
   other lacks (`export --to`) and takes in what came (`apply --maildir`). Both copies verify and
   are the same bytes.
2. Mailed blocks that anyone can write (the check digest made for them): ann's move with its
   tokens changed on the way, her move signed by a key of no seat, her move claiming to be
   played by bob (`by`) signed by her, and one bob signed: the receiver's `apply` refuses each
   (exit 4, one line naming the event and why), their file unchanged; the genuine move then
   applies.
3. Over git (two clones of a bare remote): bob pushes his turn; ann, on her stale clone, takes
   her last turn back and plays another: her `sync` stops at the fork (exit 5). Keeping her side
   would leave out bob's pushed turn: `resolve` refuses it (exit 3), her `sync` refuses the side
   written by hand (exit 5, nothing committed), and a merge pushed by hand (even with a consent
   line she signed under bob's name) is refused by bob's `sync` and by `verify --git` in a fresh
   clone (exit 4). Keeping bob's side withdraws her own events: her sync signs her consent, and
   `verify --git` passes in both clones.
4. ann force-pushes her side over bob's pushed turn: bob's `sync` refuses (exit 4) naming the
   commit and the turn that vanished, nothing merged.
"""

from __future__ import annotations

import email.message
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from app.test_mailing_cli import deliver
from app.test_signed_cli import FINGERPRINT, forged
from scenarios.sealed_table import Post, choose, equip, events_of, mail_settings, seq_of
from scenarios.table import GAME, Player, run_git, table
from sharing.test_notify import smtp_sink

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

NAMES = ("ann", "bob")
PLAYERS = "ann=ann@example.org,bob=bob@example.org"


def _secret(player: Player) -> Any:
    """The player's secret key, as splendor keeps it on their machine."""
    from splendor_cli.crypto.keys import SecretKey

    return SecretKey.from_toml(
        (Path(player.env["XDG_DATA_HOME"]) / "splendor-cli" / "keys" / "secret.toml").read_text()
    )


def _to_move(player: Player, path: Path | str) -> str:
    return str(json.loads(player.splendor("state", "-g", str(path), "--json").stdout)["to_move"])


# -- 1 and 2: by mail ----------------------------------------------------------------------------


class MailTable:
    """ann and bob, each on their own machine with a Maildir, and the game file each holds."""

    def __init__(self, tmp_path: Path, post: Post) -> None:
        self.post = post
        self.people: dict[str, Player] = {}
        for name in NAMES:
            player = Player(name=name, home=tmp_path / name)
            (player.home / "games").mkdir(parents=True)
            equip(player, tmp_path)
            mail_settings(player, post.sink.port)
            self.people[name] = player
        self.paths: dict[str, Path] = {"ann": self.people["ann"].home / "games" / "signed.toml"}

    def mail(self, sender: str, *extra: str) -> str:
        """`sender` mails the other every event they lack (`export --to`); it is delivered."""
        receiver = NAMES[1 - NAMES.index(sender)]
        theirs = seq_of(self.paths[receiver]) if receiver in self.paths else 0
        missing = seq_of(self.paths[sender]) - theirs
        sent = self.people[sender].splendor(
            "export", "-g", str(self.paths[sender]), "--to", f"{receiver}@example.org", "--last", str(missing), *extra
        )
        first = theirs + 1
        span = f"#{first}" if missing == 1 else f"#{first}-{first + missing - 1}"
        assert sent.stdout.startswith(f"sent {span} ({missing} event"), sent.stdout
        assert self.post.deliver() == 1
        return sent.stdout

    def take_in(self, name: str, *, ok: bool = True) -> Any:
        """`name` applies every mail of their Maildir (the first creates their copy)."""
        done = self.people[name].splendor("apply", "--maildir", self.post.box(name), ok=ok)
        created = re.search(r"created (games/\S+\.toml)", done.stdout)
        if created:
            self.paths[name] = self.people[name].home / created.group(1)
        if ok:
            assert ", 0 failed" in done.stdout, done.stdout
        return done

    def play(self, name: str, rng: random.Random) -> str:
        """`name` plays one of the moves `moves --json` lists."""
        path = str(self.paths[name])
        moves = json.loads(self.people[name].splendor("moves", "-g", path, "--json").stdout)
        notation = choose("base", moves, rng)["notation"]
        said = self.people[name].splendor("play", "-g", path, notation).stdout
        assert said.startswith(f"#{seq_of(self.paths[name])} {name}: "), said
        return said


def _dealt_by_mail(table_: MailTable) -> None:
    """ann starts the game and joins; bob joins from her mail and shows his share; ann's apply of
    his mail adds her share and the deal, so that her first move carries them."""
    ann, bob = table_.people["ann"], table_.people["bob"]
    path = str(table_.paths["ann"])
    assert "new game" in ann.splendor("new", "-g", path, "--players", PLAYERS, "--signed").stdout
    joined = ann.splendor("seal", "-g", path, "--as", "ann").stdout
    assert "#2 ann: joins with their key" in joined and "waiting for bob to join" in joined, joined
    assert "with the whole game attached" in table_.mail("ann", "--whole")

    bob.env["SPLENDOR_PLAYER"] = "bob"  # who he is, once: his key joins bob's seat as the mail is applied
    took = table_.take_in("bob").stdout
    del bob.env["SPLENDOR_PLAYER"]
    assert "created games/" in took and "applied #2 ann: joins with their key" in took, took
    log = bob.splendor("log", "-g", str(table_.paths["bob"])).stdout
    assert re.search(r"#3 +bob +joins with their key", log) and re.search(r"#4 +bob +shows their share", log), log
    table_.mail("bob")

    took = table_.take_in("ann").stdout
    assert "applied #3 bob: joins with their key" in took and "applied #4 bob: shows their share" in took, took
    log = ann.splendor("log", "-g", path).stdout
    assert re.search(r"#5 +ann +shows their share of the deal", log), log
    assert re.search(r"#6 +the cards are dealt", log), log
    assert _to_move(ann, path) == "ann"


def test_a_signed_game_played_by_mail_on_two_machines(tmp_path: Path) -> None:
    """Join, the shares and the deal, then four turns each, every move mailed and applied; each
    machine's `verify` passes, every event but the first and the deal is signed, the fingerprints
    are the players' keys, and both copies are the same bytes."""
    rng = random.Random(31)
    with smtp_sink() as smtp:
        game = MailTable(tmp_path, Post(smtp, tmp_path, NAMES))
        _dealt_by_mail(game)
        player = "ann"
        for turn in range(8):
            game.play(player, rng)
            sent = game.mail(player)
            if turn == 0:
                assert sent.startswith("sent #5-7 (3 events)"), sent  # her share and the deal ride on her move
            other = NAMES[1 - NAMES.index(player)]
            took = game.take_in(other).stdout
            assert f"applied #{seq_of(game.paths[other])} {player}: " in took, took
            assert game.paths[other].read_bytes() == game.paths[player].read_bytes()
            assert _to_move(game.people[other], game.paths[other]) == other
            player = other
    prints = {n: json.loads(p.splendor("key", "show", "--json").stdout)["fingerprint"] for n, p in game.people.items()}
    assert all(FINGERPRINT.fullmatch(value) for value in prints.values()), prints
    events = seq_of(game.paths["ann"])
    assert events == 6 + 8
    for name, person in game.people.items():
        path = str(game.paths[name])
        assert person.splendor("verify", "-g", path).returncode == 0
        report = json.loads(person.splendor("verify", "-g", path, "--json").stdout)
        assert report["ok"] and report["events"] == events, report
        assert report["signed"]["signed"] == events - 2 and report["signed"]["fingerprints"] == prints, report
    assert game.paths["ann"].read_bytes() == game.paths["bob"].read_bytes()


def _mail_block(maildir: str, sender: str, block: str) -> None:
    """A mail from `sender` holding `block`, delivered into `maildir` (as a cheat, or a server on
    the way, would send it)."""
    message = email.message.EmailMessage()
    message["From"] = f"{sender}@example.org"
    message["Subject"] = "[splendor] my move"
    message.set_content(f"my move:\n\n{block}\n")
    deliver(message.as_bytes(), Path(maildir))


def _block_of(data: bytes, **changed: Any) -> str:
    """The last event of the game file `data` (its fields `changed`) as `splendor export` blocks
    it, its check digest made for it: what anyone can write."""
    import attrs

    from splendor_cli.records import parse_text
    from splendor_cli.sharing.mail import format_block
    from splendor_cli.variants import find_variant

    record = parse_text(data.decode())
    event = attrs.evolve(record.events[-1], **changed)
    return format_block(record.header.game, [event], find_variant(record.header.variant))


def _refused(game: MailTable, receiver: str, sender: str, block: str, seq: int, why: str) -> None:
    """`block` mailed by `sender` to `receiver`, whose `apply --maildir` refuses it: exit 4, one
    line naming the event and why, their file byte for byte as it was (and still verifying)."""
    path = game.paths[receiver]
    before = path.read_bytes()
    _mail_block(game.post.box(receiver), sender, block)
    done = game.take_in(receiver, ok=False)
    assert done.returncode == 4, (done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    assert f"refused in the block: event #{seq}: {why}" in line and "nothing applied" in line, line
    assert ", 1 failed" in done.stdout, done.stdout
    assert path.read_bytes() == before
    assert game.people[receiver].splendor("verify", "-g", str(path)).returncode == 0


def test_forged_and_altered_signed_moves_by_mail_are_refused(tmp_path: Path) -> None:
    """Dealt by mail, ann to move (her share and the deal mailed to bob). Each refused by the
    receiver's `apply --maildir` (`_refused`): ann's move that bob signed claiming he played it
    for her (`by`), mailed to ann; mailed to bob, ann's genuine move with its tokens changed on
    the way (the block's check made again: anyone can), ann's move signed by a key of no seat,
    and ann's move that she signed claiming bob played it for her. Then her genuine mail applies."""
    from splendor_cli.crypto.keys import SecretKey
    from splendor_cli.model import Gem

    with smtp_sink() as smtp:
        game = MailTable(tmp_path, Post(smtp, tmp_path, NAMES))
        _dealt_by_mail(game)
        ann, bob = game.people["ann"], game.people["bob"]
        assert game.mail("ann").startswith("sent #5-6 (2 events)")  # her share and the deal, before her move
        assert "applied #6 the cards are dealt" in game.take_in("bob").stdout
        theirs = game.paths["bob"]
        seq = seq_of(theirs) + 1
        move = "take white blue green"

        for_her = _block_of(forged(theirs, move, _secret(bob), by="bob"))
        _refused(game, "ann", "bob", for_her, seq, "played by 'bob': at a signed table each seat plays its own turns")

        ann.splendor("play", "-g", str(game.paths["ann"]), *move.split())
        altered = _block_of(game.paths["ann"].read_bytes(), gems=(Gem.WHITE, Gem.BLUE, Gem.RED))
        assert 'gems = ["white", "blue", "red"]' in altered and "sig = " in altered, altered
        _refused(
            game, "bob", "ann", altered, seq, "tokens_taken: the signature is not ann's (a forged or altered event)"
        )
        mallory = SecretKey.generate("mallory", random.Random(7).randbytes)
        stranger = _block_of(forged(theirs, move, mallory))
        _refused(
            game, "bob", "ann", stranger, seq, "tokens_taken: the signature is not ann's (a forged or altered event)"
        )
        claimed = _block_of(forged(theirs, move, _secret(ann), by="bob"))
        _refused(
            game, "bob", "ann", claimed, seq, "tokens_taken: the signature is not bob's (a forged or altered event)"
        )

        game.mail("ann")
        took = game.take_in("bob").stdout
        assert f"applied #{seq} ann: take white blue green" in took, took
        assert theirs.read_bytes() == game.paths["ann"].read_bytes()


# -- 3 and 4: over git ---------------------------------------------------------------------------


def _stale_turns(tmp_path: Path) -> tuple[Path, Player, Player]:
    """A signed game of ann and bob in two clones of a bare remote, dealt by `sync` alone, to #9
    (ann's turn) in both; bob's #10 pushed; ann, still at #9, takes her turn back (#10) and plays
    another (#11), uncommitted. The remote."""
    remote, (ann, bob) = table(tmp_path, NAMES, rebase=False)
    for player in (ann, bob):
        equip(player, tmp_path)
    (ann.home / "games").mkdir()
    ann.splendor("new", "-g", GAME, "--players", PLAYERS, "--signed")
    assert "waiting for bob to join" in ann.splendor("sync", "--as", "ann").stdout
    assert "waiting for ann to show their share" in bob.splendor("sync", "--as", "bob").stdout
    assert "your turn, ann" in ann.splendor("sync").stdout  # her share and the deal, pushed
    for who, notation in ((ann, "take white blue green"), (bob, "take green red black"), (ann, "take white blue red")):
        who.splendor("sync")
        assert _to_move(who, who.home / GAME) == who.name
        who.splendor("play", "-g", GAME, notation)
        assert "pushed to origin/main" in who.splendor("sync").stdout
    bob.splendor("sync")
    bob.splendor("play", "-g", GAME, "take white blue black")
    assert "pushed to origin/main" in bob.splendor("sync").stdout
    assert ann.splendor("undo", "-g", GAME).stdout.startswith("#10 undo: back to just after #8; ann to move")
    assert ann.splendor("play", "-g", GAME, "take green red black").stdout.startswith("#11 ann: take green red black")
    return remote, ann, bob


def _forked(tmp_path: Path) -> tuple[Path, Player, Player, str, str]:
    """`_stale_turns`, then ann's sync: the fork (exit 5); the sides' digests, ann's and bob's."""
    remote, ann, bob = _stale_turns(tmp_path)
    done = ann.splendor("sync", ok=False)
    assert done.returncode == 5, (done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    assert "game forked after event #9" in line and "bob's 'take white blue black' (#10)" in line, line
    anns, bobs = re.findall(r"\[([0-9a-f]{6})\] \((?:ours|theirs)\)", line)
    return remote, ann, bob, anns, bobs


def _remote_head(player: Player) -> str:
    return player.git("ls-remote", "origin", "refs/heads/main").split()[0]


def test_a_signed_fork_keeps_a_pushed_turn_unless_its_player_withdraws(tmp_path: Path) -> None:
    """ann may not keep her side over bob's pushed turn: `resolve --keep ann` is exit 3 (one line:
    only bob may withdraw it; keep bob's side), the file unchanged; her side written by hand, her
    `sync` is exit 5, nothing committed or pushed, the fork put back. She keeps bob's side: her
    sync concludes the merge with her signed consent to withdraw her undo and her turn, bob's
    sync takes it, `verify --git` and `verify` pass in both clones, the same bytes."""
    _, ann, bob, anns, bobs = _forked(tmp_path)
    pushed = _remote_head(bob)
    forked = (ann.home / GAME).read_bytes()

    done = ann.splendor("resolve", "--keep", "ann", "-g", GAME, ok=False)
    assert done.returncode == 3, (done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    assert f"keeping {anns} (ours) makes a merge the audit refuses" in line, line
    assert "it leaves out #10 bob's turn, which only bob may withdraw in a signed game (your key plays ann)" in line
    assert f"keep the other side: `splendor resolve --keep {bobs}`" in line and "the file is unchanged" in line, line
    assert (ann.home / GAME).read_bytes() == forked

    ann.git("checkout", "--ours", "--", GAME)  # her side, past `resolve`
    done = ann.splendor("sync", ok=False)
    assert done.returncode == 5, (done.stdout, done.stderr)
    (line,) = done.stderr.splitlines()
    assert "this merge leaves out #10 bob's turn, which only bob may withdraw in a signed game" in line, line
    assert f"the fork is back: `splendor resolve --keep {bobs}`" in line, line
    assert "nothing committed, nothing pushed" in line, line
    assert (ann.home / GAME).read_bytes() == forked
    assert _remote_head(ann) == pushed and ann.git("rev-list", "--count", "--merges", "HEAD") == "0\n"

    assert f"kept theirs ({bobs})" in ann.splendor("resolve", "--keep", "bob", "-g", GAME).stdout
    assert "pushed to origin/main" in ann.splendor("sync").stdout
    message = ann.git("log", "-1", "--merges", "--format=%B")
    assert re.search(r"^Splendor-Withdrawn-By: ann [0-9a-f]{128}$", message, re.MULTILINE), message
    bob.splendor("sync")
    assert bob.git("rev-parse", "HEAD") == ann.git("rev-parse", "HEAD")
    for player in (ann, bob):
        audit = player.splendor("verify", "--git", "-g", GAME)
        assert ": ok: " in audit.stdout, audit.stdout
        player.splendor("verify", "-g", GAME)
        assert _to_move(player, player.home / GAME) == "ann"
    assert (ann.home / GAME).read_bytes() == (bob.home / GAME).read_bytes()
    last = events_of(ann.home / GAME)[-1]  # bob's #10 kept, ann's two left out
    assert last["seq"] == 10 and last["player"] == "bob" and last["gems"] == ["white", "blue", "black"], last


def test_a_merge_pushed_by_hand_that_drops_a_signed_turn_is_refused(tmp_path: Path) -> None:
    """ann gets round `resolve` and `sync`: her side by hand, the merge committed with a consent
    line she signed under bob's name, and pushed with plain git. bob's `sync` refuses what it
    fetched (exit 4, nothing merged: his branch and file as they were), and `verify --git` in a
    fresh clone names the merge and the turn it drops (exit 4)."""
    from splendor_cli.sharing import gitmerge
    from splendor_cli.sharing.withdrawals import WITHDRAW, consent_line, withdrawals

    remote, ann, bob, _, _ = _forked(tmp_path)
    parents = [ann.git("show", f"{rev}:{GAME}").encode() for rev in ("HEAD", "MERGE_HEAD")]
    _, kept = gitmerge.resolve((ann.home / GAME).read_bytes(), "ann")
    (left,) = withdrawals(parents, kept)
    assert left.player == "bob" and left.listed == "#10 bob's turn"
    line = consent_line("bob", _secret(ann).sign(WITHDRAW, left.statement))  # bob's name, ann's key
    (ann.home / GAME).write_bytes(kept)
    ann.git("add", "--", GAME)
    ann.git("commit", "-q", "--no-verify", "-m", f"splendor sync: merge origin/main\n\n{line}")
    ann.git("push", "-q", "origin", "HEAD:main")
    merge = ann.git("rev-parse", "HEAD").strip()

    head, data = bob.git("rev-parse", "HEAD"), (bob.home / GAME).read_bytes()
    done = bob.splendor("sync", ok=False)
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert f"first bad commit {merge}" in done.stderr and "drops #10 bob's turn" in done.stderr, done.stderr
    assert "the merge holds no consent signed by bob" in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1].endswith("nothing merged, nothing pushed"), done.stderr
    assert bob.git("rev-parse", "HEAD") == head and (bob.home / GAME).read_bytes() == data

    run_git(tmp_path, "clone", "-q", str(remote), "fresh")
    fresh = equip(Player(name="cy", home=tmp_path / "fresh"), tmp_path)
    done = fresh.splendor("verify", "--git", "-g", GAME, ok=False)
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert f"first bad commit {merge}" in done.stdout and "drops #10 bob's turn" in done.stdout, done.stdout
    assert "settling a forked signed game" in done.stdout, done.stdout


def test_sync_refuses_a_remote_that_lost_a_signed_turn(tmp_path: Path) -> None:
    """ann commits her undo and her turn and force-pushes them over bob's pushed #10. bob's `sync`
    refuses, every time (exit 4): the commit that vanished, #10 bob's turn, what to run; nothing
    merged. His clone reset to the rewritten remote: `verify --git` names the event he saw that
    vanished (exit 4); once he forgets it (every player agreed), both pass."""
    _, ann, bob = _stale_turns(tmp_path)
    gone = bob.git("rev-parse", "HEAD").strip()
    ann.splendor("sync", "--offline")
    ann.git("push", "-q", "--force", "origin", "HEAD:main")
    assert _remote_head(ann) != gone

    head, data = bob.git("rev-parse", "HEAD"), (bob.home / GAME).read_bytes()
    for _ in range(2):
        done = bob.splendor("sync", ok=False)
        assert done.returncode == 4, (done.stdout, done.stderr)
        assert f"{gone[:12]} bob <bob@example.org>:" in done.stderr and "events gone: #10 bob's turn" in done.stderr
        last = done.stderr.splitlines()[-1]
        assert f"origin/main no longer holds commit {gone[:8]}, which sync audited there last" in last, last
        assert "the events #10 bob's turn vanished with it" in last and "nothing merged" in last, last
        assert bob.git("rev-parse", "HEAD") == head and (bob.home / GAME).read_bytes() == data

    bob.git("reset", "-q", "--hard", "origin/main")
    done = bob.splendor("verify", "--git", "-g", GAME, ok=False)
    assert done.returncode == 4, (done.stdout, done.stderr)
    assert "VANISHED: event #10 (bob's turn) that you saw" in done.stdout, done.stdout
    bob.splendor("forget", "-g", GAME)
    assert ": ok: " in bob.splendor("verify", "--git", "-g", GAME).stdout
    assert bob.splendor("sync").returncode == 0
    assert _to_move(bob, bob.home / GAME) == "bob"

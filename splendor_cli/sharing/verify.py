"""`splendor verify`: check a game file, or check the git history that wrote it, commit by commit.

The file check (`file_report`) takes a game that `store.read` has already replayed through the
rules and sums it up.

The history check (`git_report`) lists every commit of the range (by default all of HEAD's
history) with its real parents (`git log` with no path and no history simplification: merges
and the commits of their side branches included), follows the file's path back through renames,
and judges, oldest first, every commit whose version of the file differs from one of its
parents' (or that adds or removes it). It stops at the first that breaks one of these rules:

- a commit only appends: the file in its parent is a prefix, byte for byte, of the file it
  wrote. A commit that deletes the file, or rewrites or cuts an earlier byte, is bad. A rename
  (`git mv`, with or without an event appended in the same commit) is neither a deletion nor a
  creation: the walk goes on with the old path in the commits before it (git's rename
  detection, asked only where the file is missing in a parent). A commit that moves the file
  away from the path walked ends that path's history there, and is not a deletion;
- the file it wrote reads and replays, as `store.read` would read it;
- it appends at most one person's move: one turn, or one undo (an undo is a move of its own and
  never shares a commit with a turn), or in Splendor Duel one player's consecutive steps. The
  turns (or steps) of bot seats (players named `bot:SPEC`) may come with it, before or after it,
  and a commit may hold bot seats' turns alone (`splendor play --bots`, `splendor bot`). A
  commit that creates the file counts as appending to nothing: the setup, and that much. A
  commit may append no event at all (a comment, a blank line);
- when the header maps players to e-mail addresses (`splendor new --players ann=ann@x.org,..`),
  the author e-mail of the commit, as recorded (`.mailmap` is not applied), is the address of
  the player of the person's move it appends, compared without regard to case: the player of
  the turn, or who asked for the undo. An undo that names nobody is then bad; a player with no
  address, and bot seats' turns, are not checked. In a game without e-mails nobody is checked;
- a merge only combines its parents' events: every parent's file is a prefix of the merge's,
  byte for byte, and the merge may append a move of its own as any commit may (its base is the
  longest parent's file). The one exception is a forked game settled by `splendor resolve`: a
  parent's events may be left out when they are a branch that forked from the kept history (its
  first event has the seq and parent of a different event of the merge's file), when they all
  belong to one player (that player's turns, undos asked by them, and bot seats' turns; in a
  game without e-mails, undos that name nobody too; never a deal), and, in a game with e-mails,
  when that player's address is the merge's author e-mail: a player may withdraw their own stale
  move, never erase another's. A merge that drops anything else is bad, and the reason names the
  events it drops and the parent they were in.

In a sealed game the signatures say who made each event, and commit e-mails count for nothing
(anyone may write any e-mail into a commit): a merge may leave out a forked branch only when
every event of it is one player's (signed by them; never the deal) and the merge commit carries
that player's signed consent, a line `Splendor-Withdrawn-By: NAME SIGNATURE` of its message:
NAME's Ed25519 signature, by the key they joined the game with (purpose `withdraw`), over the
game's root, the digest of the last event left out and the digest of the last event of the
merge's file (`withdrawal_statement`). Nothing in the file can tell who made a merge: the two
files of "eve withdraws her stale move and keeps bob's" and of "bob erases eve's pushed move and
keeps his" are the same bytes, and so are their commits but for the author, which anyone can
write. The consent is what only the player whose events are left out can give, so it is the
merge's maker as far as the audit goes: a player may withdraw their own signed events, and no
one else's, whoever commits the merge. `splendor sync` concludes a merge with that line when the
local key is the seat whose events the merge leaves out, and refuses to commit it otherwise
(`withdrawals` says what a merge leaves out, and what its player signs). A merge concluded by
hand has no such line and is bad: conclude it with `splendor sync`.

A shallow clone whose cut hides where the file's history begins is refused rather than misjudged.
`staged_report` applies the same rules to the change staged for the next commit (from the file
in HEAD, and in MERGE_HEAD during a merge, to the file in the index), for a pre-commit hook; a
sealed game's consent is looked for in the message git prepared for the merge (MERGE_MSG).

`audit` is the same walk as `splendor sync` runs it before a push: only the commits after the
last one whose history an earlier audit of the file found good (the mark the caller kept: sync
keeps it in the user's own authenticated cache), since a commit's id fixes its whole history;
the whole history when there is no such mark, when it is no ancestor of HEAD (a history
rewritten under it), or when the walk follows a rename. It does not check again the signatures
and proofs that the reader verified before (its verified prefix, as `store.read`), nor read
again the versions of the file the caller read. `verify --git` audits everything (`git_report`).

Git runs as a few subprocesses whatever the length of the history: one `git log`, one `git
cat-file --batch-check` (one more for each rename followed), one `git cat-file --batch` that
reads each version of the file once, and a `git diff-tree` for each commit where the file
appears or disappears against a parent (its creation, a rename). This module prints nothing and
knows nothing of typer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ..bots import seat_spec
from ..errors import ConflictError, GameFileError, UsageError, safe
from ..events import SEALED_TYPES, Event, SeedsRestarted, TurnUndone, actor
from ..events.codec import FORMAT, Header, Record, load_toml, read_events
from ..forks import decode
from ..projection import Game
from ..records import parse_text, replay_record
from ..store import Loaded, StrPath
from ..variants import event_types
from .git import Git, read_git_file

if TYPE_CHECKING:
    from ..projection.sealing import Sealing

# -- the file --------------------------------------------------------------------------------


def file_report(loaded: Loaded) -> dict[str, Any]:
    """A summary of a game that `store.read` accepted: who plays, how far, whose turn, the chain
    head; for a game whose commit-then-reveal deal is under way, who it waits for (`dealing`);
    `keys_owed`: the players of a finished sealed game who have not published their keys (the
    audit cannot open its cards nor re-make their shuffles; `verify` exits 6), else empty."""
    record, game = loaded.record, loaded.game
    header = record.header
    emails = header.emails or ("",) * len(header.players)
    dealing = game.seeding.waiting() if game.seeding is not None and not game.states else None
    if game.sealing is not None and not game.states:
        dealing = game.sealing.stage()
    state = game.table if dealing is None else None
    sealed = _sealed_report(game) if game.sealing is not None else None
    finished = bool(state and state.finished)
    return {
        "path": str(loaded.path),
        "format": header.format,
        "game": header.game,
        "variant": header.variant,
        "created": header.created,
        "players": [{"name": name, "email": email or None} for name, email in zip(header.players, emails)],
        "events": len(game.events),
        "turns": state.turn if state else 0,
        **({"steps": max(len(game.after) - 1, 0)} if game.variant.stepwise else {}),
        "undos": sum(isinstance(event, TurnUndone) for event in game.events),
        "undone": sorted(game.undone),
        "to_move": None if state is None or state.finished else state.player.name,
        "finished": finished,
        "winners": list(state.winners()) if state else [],
        **({"dealing": dealing} if dealing else {}),
        **({"sealed": sealed} if sealed is not None else {}),
        "ok": sealed is None or not sealed["problems"],
        "keys_owed": list(sealed["unpublished"]) if sealed is not None and finished else [],
        "head": record.head,
    }


def _sealed_report(game: Game) -> dict[str, Any]:
    """What `verify` says of a sealed game: every event signed (the read checked each signature
    and share), and, once keys are published, the audit of every shuffle and card."""
    from ..events import signature
    from ..projection.sealing import audit

    sealing = game.sealing
    assert sealing is not None
    state = game.states[-1] if game.states else None
    found = audit(sealing, state)
    return {
        "signed": sum(1 for event in game.events if signature(event)),
        "revealed": len(sealing.revealed),
        "unpublished": list(found.unpublished),
        "shuffles_checked": found.shuffles_checked,
        "cards_opened": found.cards_opened,
        "problems": list(found.problems),
        "blind_reserves": {owner: list(cards) for owner, cards in found.reserves.items()},
    }


def report_text(report: dict[str, Any]) -> str:
    """`file_report` in a few lines, for a person: each line `_safe` (the header's `created` and
    e-mails are the file's own strings)."""
    players = ", ".join(f"{p['name']} <{p['email']}>" if p["email"] else p["name"] for p in report["players"])
    undone = report["undone"]
    noun = "step" if "steps" in report else "turn"
    verdict = "PROBLEMS FOUND" if not report["ok"] else "KEYS OWED" if report.get("keys_owed") else "ok"
    lines = [
        f"{report['path']}: {verdict} (format {report['format']})",
        f"game {report['game']} ({report['variant']}), created {report['created']}",
        f"players: {players}",
        f"{report['events']} events: {report['turns']} turns"
        + (f" in {report['steps']} steps" if "steps" in report else "")
        + f", {_plural(report['undos'], 'undo')}"
        + (f" ({_plural(len(undone), noun)} undone: {_listed(undone)})" if undone else ""),
    ]
    if report.get("dealing"):
        lines.append(f"the deal is under way: {report['dealing']}")
    elif report["finished"]:
        winners = report["winners"]
        lines.append(
            f"finished: {winners[0]} wins" if len(winners) == 1 else f"finished: {', '.join(winners)} share the victory"
        )
    else:
        lines.append(f"{report['to_move']} to move")
    sealed = report.get("sealed")
    if sealed is not None:
        lines.append(
            f"sealed: {sealed['signed']} events signed, each checked; {sealed['revealed']} cards revealed by every"
            " player's share, each proof checked"
        )
        if report.get("keys_owed"):
            lines.append(
                f"KEYS OWED: the game is over, but {', '.join(report['keys_owed'])} did not publish their keys:"
                " their shuffles cannot be checked nor the sealed cards opened (`splendor seal` publishes them)"
            )
        elif sealed["unpublished"]:
            lines.append(
                f"the audit waits for the keys of {', '.join(sealed['unpublished'])} (published after the last move):"
                " their shuffles cannot be checked yet"
            )
        else:
            lines.append(
                f"audit: {sealed['shuffles_checked']} shuffles re-made from their seeds,"
                f" {sealed['cards_opened']} sealed cards opened"
            )
        lines += [f"PROBLEM: {problem}" for problem in sealed["problems"]]
        reserves = sealed["blind_reserves"].items()
        lines += [f"{owner}'s blind reserves were: {', '.join(cards)}" for owner, cards in reserves]
    lines.append(f"chain head: {report['head']}")
    return "\n".join(_safe(line) for line in lines)


_safe = safe  # every string of a report from a file or git is printed through `errors.safe`


def _listed(seqs: list[int], most: int = 10) -> str:
    """`#4, #7`: the first `most` event numbers, then how many more (a long log stays one short line)."""
    shown = ", ".join(f"#{s}" for s in seqs[:most])
    return shown + (f" and {len(seqs) - most} more" if len(seqs) > most else "")


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# -- reading versions of the file ------------------------------------------------------------


@attrs.frozen
class _Version:
    """One version of the file, read and replayed."""

    record: Record
    game: Game


Trusted = Callable[[Record], int]
"""How many of a sealed game's first events this reader verified before (`app.cache.verified_prefix`):
a version's events within it are folded without checking them again (see `_extend`)."""


def _read(data: bytes, trusted: Trusted | None = None) -> _Version:
    """Read a whole version as `store.read` reads a file (without the path in messages); `trusted`:
    as `store.read`'s, the signatures and proofs of the events this reader verified before are
    not checked again."""
    record = parse_text(decode(data))
    return _Version(record=record, game=replay_record(record, trusted(record) if trusted is not None else 0))


def _extend(before: _Version, old: bytes, data: bytes, trusted: Trusted | None = None) -> _Version:
    """Read `data`, a version whose bytes extend `old` (read as `before`): only the new events are replayed.

    When the appended text is plain `[[events]]` blocks after a final newline, only it is parsed
    (so that walking a long history is not quadratic); anything else is parsed whole.

    `trusted`: the new events within the prefix of events this reader verified before (compared by
    their full digests: the same events after the same history) are folded without being judged
    again (`apply(check=False)`): what `store.read` or `store.stage` found of them when this reader
    remembered them (their signatures, proofs and rules) holds of the same events after the same
    history. The events after it are judged whole, as always.
    """
    text = decode(data)
    full: list[str] = []
    events = _appended(before.record, text[len(old) :], full) if old.endswith(b"\n") else None
    if events is None:
        record = parse_text(text)
        if record.header != before.record.header:
            raise GameFileError("the header changed")
        known = before.record.events
        for was, now in zip(known, record.events):
            if was != now:
                raise GameFileError(f"event #{was.seq} changed (the appended text continues its last line?)")
        if len(record.events) < len(known):
            raise GameFileError(f"event #{len(record.events) + 1} and after are gone")
        events = record.events[len(known) :]
        digests = record.digests
    else:
        digests = (*before.record.digests, *full)
    every = (*before.record.events, *events)
    record = Record(header=before.record.header, events=every, digested=(every, tuple(digests)))
    verified = trusted(record) if trusted is not None and events else 0
    game = before.game
    for event in events:
        game = game.apply(event, check=event.seq > verified)
    return _Version(record=record, game=game)


def extend_read(before: Loaded, data: bytes, trusted: Trusted | None = None) -> tuple[Record, Game]:
    """The record and game of `data`, a file whose bytes extend `before.data` (a game read as
    `store.read` reads it), read as `store.read` would read it but parsing and replaying only
    what was appended (`_extend`; `trusted` as there).

    Raises:
        SplendorError: `data` does not extend `before.data`, or does not read (`store.read` says
            why, naming the file).
    """
    if not data.startswith(before.data):
        raise GameFileError("the file does not extend the one read before")
    version = _extend(_Version(record=before.record, game=before.game), before.data, data, trusted)
    return version.record, version.game


def _appended(before: Record, tail: str, full: list[str] | None = None) -> tuple[Event, ...] | None:
    """The events that `tail`, appended to the text of `before` (which ends with a newline), adds;
    None when `codec.parse` must judge the whole text (the tail does not read, or is not plain blocks).
    `full`, when given, gets the full digest of each event read.

    This only ever accepts: whatever it cannot vouch for goes to the full parse, whose word is final.
    Read on its own, the tail means what it means after the old text exactly when the first line
    that is not blank or a comment is `[[events]]` (before it, a key would land in the last old
    event) and the tail defines nothing but `events`.
    """
    if before.header.format > FORMAT:  # pragma: no cover - parse refuses a newer format
        return None
    for line in tail.split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            if line.strip() != "[[events]]":
                return None
            break
    try:
        doc = load_toml(tail)
    except GameFileError:
        return None
    raws = doc.pop("events", [])
    if doc or not isinstance(raws, list):
        return None
    try:
        return read_events(raws, [""] * len(before.events) + [before.head], event_types(before.header.variant), full)
    except (GameFileError, ConflictError):
        if full is not None:
            del full[:]
        return None


# -- git -------------------------------------------------------------------------------------


@attrs.frozen
class _Commit:
    """A commit as `git log` lists it: its real parents, and its author as recorded (no `.mailmap`)."""

    hash: str
    parents: tuple[str, ...]
    author: str
    email: str
    subject: str


@attrs.frozen
class _Step:
    """A commit of the walk with the file's path in it, and the file's path in each of its parents
    (another path where the commit renamed the file)."""

    commit: _Commit
    path: str
    parents: tuple[tuple[str, str], ...]


@attrs.frozen
class _Blob:
    oid: str
    data: bytes


@attrs.frozen
class _Repo:
    root: Path
    rel: str
    """The file's path from the root of the repository, as `REV:PATH` wants it."""
    shallow: frozenset[str]
    """The commits whose parents a shallow clone left out."""
    head: str | None = None
    """The commit HEAD names, when it was asked for (`_locate(head=True)`)."""


_OBJECT = re.compile(r"([0-9a-f]{40}(?:[0-9a-f]{24})?) ([a-z]+) [0-9]+")
"""A line of `git cat-file --batch-check` for an object that exists (SHA-1 or SHA-256 ids)."""


def _git(args: list[str], cwd: Path, *, stdin: bytes | None = None) -> bytes:
    """Run git; its failure is a UsageError naming what git said. Replacement refs (`git replace`)
    are ignored: the walk judges the commits as they are."""
    return Git(cwd=cwd, options=_OPTIONS, needs="`verify --git` needs it").output(*args, stdin=stdin)


_OPTIONS = ("--no-replace-objects", "-c", "log.showSignature=false", "--literal-pathspecs")


def _text(data: bytes) -> str:
    """Paths and ids as git wrote them (any bytes of a path survive the round trip back to git)."""
    return data.decode("utf-8", "surrogateescape")


def _locate(where: StrPath, *, head: bool = False) -> _Repo:
    """The repository of the file at `where`; `head`: with the commit HEAD names (there must be one)."""
    path = Path(where)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{path}: no such folder {str(folder)!r}")
    asked = ["HEAD^{commit}"] if head else []
    fields = ["--show-toplevel", "--show-prefix", "--is-shallow-repository", "--git-path", "shallow"]
    try:
        out = _git(["rev-parse", *asked, *fields], folder)
    except UsageError as exc:
        if "not a git repository" in str(exc):
            raise UsageError(
                f"{path} is not in a git repository: `verify --git` walks the file's git history"
            ) from None
        raise
    lines = _text(out).split("\n")
    tip = lines.pop(0) if head else None
    top, prefix, is_shallow, shallow_path = lines[:4]
    rel = prefix + path.name
    if "\n" in rel:
        raise UsageError(f"{str(path)!r}: `verify --git` cannot look up a path with a line break in git")
    shallow: frozenset[str] = frozenset()
    if is_shallow == "true":
        listed = read_git_file(folder / shallow_path, 1 << 24)
        shallow = frozenset(listed.decode("ascii", "replace").split()) if listed is not None else frozenset()
    return _Repo(root=Path(top), rel=rel, shallow=shallow, head=tip)


def _commits(repo: _Repo, rev_range: str | None) -> list[_Commit]:
    """Every commit of `rev_range` (default: all of HEAD's history), oldest first (parents always
    before their children), with its real parents: no path, so no history simplification."""
    if rev_range is not None and (not rev_range.strip() or rev_range.startswith("-")):
        raise UsageError(f"bad revision range {rev_range!r}: give one like HEAD~5..HEAD or main..feature")
    # No field can hold a line break (git keeps none in an ident, and %s joins the subject's lines).
    fmt = "%H %P%n%an%n%ae%n%s"
    revs = ["--end-of-options", rev_range] if rev_range is not None else []
    out = _git(["log", "-z", "--no-mailmap", "--topo-order", "--reverse", f"--format={fmt}", *revs, "--"], repo.root)
    commits = []
    for item in out.decode("utf-8", "replace").split("\0"):
        item = item.lstrip("\n")
        if not item:
            continue
        ids, author, email, subject = [*item.split("\n", 3), "", "", ""][:4]
        hash_, *parents = ids.split()
        commits.append(_Commit(hash=hash_, parents=tuple(parents), author=author, email=email, subject=subject))
    return commits


def _lookup(repo: _Repo, specs: list[str]) -> dict[str, tuple[str, str] | None]:
    """The id and type of the object each spec (`REV:PATH`, `:PATH`, `REV`) names, None where there
    is none: in one `git cat-file --batch-check`."""
    unique = list(dict.fromkeys(specs))
    if not unique:
        return {}
    stdin = "".join(f"{spec}\n" for spec in unique).encode("utf-8", "surrogateescape")
    lines = _text(_git(["cat-file", "--batch-check"], repo.root, stdin=stdin)).split("\n")
    found: dict[str, tuple[str, str] | None] = {}
    for spec, line in zip(unique, lines):
        match = _OBJECT.fullmatch(line)  # else "SPEC missing" (or ambiguous)
        found[spec] = (match[1], match[2]) if match else None
    return found


def _blob_id(hit: tuple[str, str] | None) -> str | None:
    return hit[0] if hit is not None and hit[1] == "blob" else None


def _blob_ids(repo: _Repo, specs: list[str]) -> dict[str, str | None]:
    """The blob id of the file each `REV:PATH` names; None where it is missing (or is no file)."""
    return {spec: _blob_id(hit) for spec, hit in _lookup(repo, specs).items()}


def _contents(repo: _Repo, oids: list[str]) -> dict[str, bytes]:
    """The bytes of each blob, each read once, in one `git cat-file --batch`."""
    unique = list(dict.fromkeys(oids))
    if not unique:
        return {}
    out = _git(["cat-file", "--batch"], repo.root, stdin="".join(f"{oid}\n" for oid in unique).encode("ascii"))
    contents: dict[str, bytes] = {}
    pos = 0
    for oid in unique:
        end = out.index(b"\n", pos)
        head = out[pos:end].split()
        size = int(head[2])
        contents[oid] = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return contents


def _renames(repo: _Repo, args: list[str]) -> dict[str, str]:
    """The files that git's rename detection says `git diff-tree`/`diff-index ARGS` renamed: new path -> old."""
    fields = _text(_git([*args[:1], "-z", "--find-renames", "--name-status", *args[1:]], repo.root)).split("\0")
    moved: dict[str, str] = {}
    i = 0
    while i < len(fields) and fields[i]:
        status = fields[i]
        if status[:1] in ("R", "C"):
            if status.startswith("R") and "\n" not in fields[i + 1]:
                moved[fields[i + 2]] = fields[i + 1]
            i += 3
        else:
            i += 2
    return moved


def _message(repo: _Repo, commit: str) -> str:
    """The message of `commit`, as its object holds it (after the headers)."""
    _, _, message = _git(["cat-file", "commit", commit], repo.root).partition(b"\n\n")
    return message.decode("utf-8", "replace")


def _merge_msg(repo: _Repo) -> str:
    """The message git prepared for the merge under way (MERGE_MSG), "" when there is none."""
    where = _text(_git(["rev-parse", "--git-path", "MERGE_MSG"], repo.root)).strip()
    return (read_git_file(repo.root / where) or b"").decode("utf-8", "replace")  # bounded, as gitsync's


def _tree_renames(repo: _Repo, parent: str, child: str) -> dict[str, str]:
    return _renames(repo, ["diff-tree", "-r", "--no-commit-id", parent, child])


def _trace(repo: _Repo, commits: list[_Commit]) -> tuple[list[_Step], dict[str, str | None]]:
    """The steps of the walk, oldest first, and the blob id of the file at each `REV:PATH` they name.

    Every commit is walked with the path the file has in it: at the tips of the range, the file's
    path; in a parent, the same path, unless the commit renamed the file from another, which git's
    rename detection is asked only where the file is present in a commit and missing in a parent.
    Each round looks up every path it does not know yet in one `git cat-file --batch-check`; a
    round that finds a rename walks again with the old path (so a file renamed twice takes three).
    """
    children = {parent for commit in commits for parent in commit.parents}
    tips = [commit.hash for commit in commits if commit.hash not in children]
    renames: dict[tuple[str, str], dict[str, str]] = {}
    oids: dict[str, str | None] = {}
    while True:
        paths: dict[str, dict[str, None]] = {commit.hash: {} for commit in commits}
        for tip in tips:
            paths[tip][repo.rel] = None
        steps = []
        for commit in reversed(commits):  # children before their parents
            for path in paths[commit.hash]:
                edges = tuple((p, renames.get((p, commit.hash), {}).get(path, path)) for p in commit.parents)
                for parent, old in edges:
                    if parent in paths:
                        paths[parent].setdefault(old)
                steps.append(_Step(commit=commit, path=path, parents=edges))
        steps.reverse()
        specs = [f"{rev}:{path}" for step in steps for rev, path in ((step.commit.hash, step.path), *step.parents)]
        unknown = [spec for spec in dict.fromkeys(specs) if spec not in oids]
        if unknown:
            oids.update(_blob_ids(repo, unknown))
        appearing = [
            (parent, step.commit.hash)
            for step in steps
            if oids[f"{step.commit.hash}:{step.path}"] is not None
            for parent, old in step.parents
            if oids[f"{parent}:{old}"] is None and (parent, step.commit.hash) not in renames
        ]
        if not appearing:
            return steps, oids
        for parent, child in dict.fromkeys(appearing):
            renames[(parent, child)] = _tree_renames(repo, parent, child)


def _touched(new: str | None, olds: list[str | None], moved: bool) -> bool:
    """Whether a change from files `olds` (blob ids) to `new` is to be judged: it adds, changes,
    moves or removes the file (with no parent, it creates it when it holds it)."""
    if not olds:
        return new is not None
    return moved or any(old != new for old in olds)


def _rewrite_reason(old: bytes, new: bytes, *, parent: str | None = None) -> str:
    """Where `new` stops extending `old`, for a person: the line, and the event it belongs to;
    `parent` names the merge's parent whose file `old` is."""
    at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    line = old[:at].count(b"\n") + 1
    blocks = sum(1 for row in old[:at].split(b"\n")[:-1] if row.strip() == b"[[events]]")
    where = f"event #{blocks}" if blocks else "the header"
    if parent is None:
        if at == len(new):
            return f"cuts the file at line {line} ({where}): a commit may only append events"
        return f"changes line {line} ({where}) of the file before it: a commit may only append events"
    if at == len(new):
        return f"cuts the file of {parent} at line {line} ({where}): a merge may only combine its parents' events"
    return f"changes line {line} ({where}) of the file of {parent}: a merge may only combine its parents' events"


def _describe(event: Event, stepwise: bool) -> str:
    if isinstance(event, TurnUndone):
        return f"#{event.seq} an undo{f' by {event.by}' if event.by else ''}"
    if isinstance(event, SeedsRestarted):
        return f"#{event.seq} a restart of the deal by {event.by}"
    if isinstance(event, SEALED_TYPES):
        return f"#{event.seq} {actor(event) or 'nobody'}'s {event.TYPE.replace('_', ' ')}"
    return f"#{event.seq} {actor(event) or 'the setup'}'s {'step' if stepwise else 'turn'}"


def _events_listed(events: tuple[Event, ...] | list[Event], stepwise: bool, most: int = 3) -> str:
    """`#2 ann's turn, #3 bob's turn`: the first `most` events, then `...`."""
    return ", ".join(_describe(e, stepwise) for e in events[:most]) + (", ..." if len(events) > most else "")


def _is_bot(event: Event) -> bool:
    """Whether the event is a bot seat's turn (or step): an undo is always a person's move."""
    return not isinstance(event, TurnUndone) and bool(seat_spec(actor(event)))


def _own_move(moves: list[Event], stepwise: bool, play_types: tuple[type[Any], ...]) -> list[Event] | None:
    """The person's move among the events a commit appends (its events: one turn, one undo, or one
    player's consecutive steps), [] when they are all bot seats' turns; None when there are the
    moves of more than one person."""
    people = [i for i, event in enumerate(moves) if not _is_bot(event)]
    if not people:
        return []
    first = end = people[0]
    end += 1
    lead = moves[first]
    if stepwise and isinstance(lead, play_types):
        while end < len(moves) and isinstance(moves[end], play_types) and actor(moves[end]) == actor(lead):
            end += 1
    return None if people[-1] >= end else moves[first:end]


SPLIT_ADVICE = "commit one turn (or one undo) per commit: `splendor sync` commits each turn on its own"
"""How to split a staged change that holds several moves."""


@attrs.define
class _Checker:
    """Judges one change at a time, keeping the versions already read (by blob id)."""

    read: dict[str, _Version] = attrs.Factory(dict)
    last: _Version | None = None
    trusted: Trusted | None = None
    """What this reader verified before of a sealed game (`_read`, `_extend`); None: everything is checked."""
    known: dict[str, tuple[bytes, _Version]] = attrs.Factory(dict)
    """Versions the caller read already (as `store.read` reads them), by blob id, with their bytes."""

    def version(self, blob: _Blob) -> _Version:
        if blob.oid not in self.read:
            self.read[blob.oid] = self.seeded(blob) or _read(blob.data, self.trusted)
        return self.read[blob.oid]

    def seeded(self, blob: _Blob) -> _Version | None:
        """The version the caller read of exactly these bytes (`known`), if any."""
        seed = self.known.get(blob.oid)
        return seed[1] if seed is not None and seed[0] == blob.data else None

    def check(
        self,
        new: _Blob,
        parents: list[tuple[str, _Blob | None]],
        email: str,
        *,
        merge: bool,
        staged: bool = False,
        message: Callable[[], str] | None = None,
    ) -> str | None:
        """The reason the change from `parents` (each named, for a person) to `new` breaks a rule,
        or None when it keeps them. `email` is the change's author's; `message` gives its commit
        message (asked only of a merge that leaves out a side of a forked sealed game)."""
        olds = [(name, blob) for name, blob in parents if blob is not None]
        kept = [blob for _, blob in olds if new.data.startswith(blob.data)]
        for name, old in olds:
            if new.data.startswith(old.data):
                continue
            if not merge:
                return _rewrite_reason(old.data, new.data)
            reason = self.dropped(name, old, new, email, withdrawable=bool(kept), message=message)
            if reason is not None:
                return reason
        base = max(kept, key=lambda blob: len(blob.data), default=None)
        if base is None:
            try:
                version = self.version(new)
            except (GameFileError, ConflictError) as exc:
                return f"creates a file that does not read: {exc}"
            known = 1  # the setup
        else:
            try:
                before = self.version(base)
            except (GameFileError, ConflictError) as exc:
                return f"the file before it does not read: {exc}"
            try:
                version = self.extended(before, base, new)
            except (GameFileError, ConflictError) as exc:
                return f"writes a file that does not read: {exc}"
            known = len(before.record.events)
        reason = _moves_reason(version, known, created=base is None, email=email, staged=staged)
        if reason is None:
            self.last = version
        return reason

    def extended(self, before: _Version, base: _Blob, new: _Blob) -> _Version:
        """`new`, read as a file whose bytes extend `base` (read as `before`). Raise a SplendorError."""
        if new.oid not in self.read:
            seed = self.seeded(new)
            self.read[new.oid] = seed or _extend(before, base.data, new.data, self.trusted)
            if seed is None:
                return self.read[new.oid]
        version = self.read[new.oid]  # read before, maybe extending another file: it extends this one too
        if version.record.header != before.record.header:
            raise GameFileError("the header changed")
        if version.record.events[: len(before.record.events)] != before.record.events:
            raise GameFileError("an earlier event changed")
        return version

    def dropped(
        self,
        name: str,
        old: _Blob,
        new: _Blob,
        email: str,
        *,
        withdrawable: bool,
        message: Callable[[], str] | None = None,
    ) -> str | None:
        """Why a merge's file `new` may not leave out what its parent `name`'s file `old` holds; None
        when it is that parent's side of a forked game, withdrawn by its player (`withdrawable`:
        another parent's file is kept): in a game with e-mails, the merge's author (`email`); in a
        sealed game, the player whose signed consent the merge's `message` holds."""
        try:
            before, after = self.version(old), _read(new.data, self.trusted)
        except (GameFileError, ConflictError):
            return _rewrite_reason(old.data, new.data, parent=name)
        ours, theirs = before.record.events, after.record.events
        common = 0
        while common < min(len(ours), len(theirs)) and ours[common] == theirs[common]:
            common += 1
        left = ours[common:]
        if not left or before.record.header != after.record.header:
            return _rewrite_reason(old.data, new.data, parent=name)
        variant = before.game.variant
        reason = (
            f"drops {_events_listed(left, variant.stepwise, most=5)} of {name}:"
            " a merge may only combine its parents' events"
        )
        if not withdrawable or not _resolved_fork(before, after):
            return reason
        if before.game.sealing is not None:  # signed events: the consent of their player, not the commit's e-mail
            withdrawal = _withdrawal(before, after, left)
            fault = withdrawal.fault or _consent_fault(withdrawal, message() if message is not None else "")
        else:
            fault = _withdrawal_fault(left, before.record.header, email, variant.setup_type)
        return None if fault is None else f"{reason} ({fault})"


def _resolved_fork(dropped: _Version, kept: _Version) -> bool:
    """Whether `dropped` is a branch that forked from `kept`'s history and was left out by
    `splendor resolve`: both logs agree up to an event after which each has its own, different
    event with the same seq and parent."""
    ours, theirs = dropped.record.events, kept.record.events
    common = 0
    while common < min(len(ours), len(theirs)) and ours[common] == theirs[common]:
        common += 1
    return (
        common < len(ours)
        and common < len(theirs)
        and ours[common].seq == theirs[common].seq
        and ours[common].parent == theirs[common].parent
    )


def _withdrawal_fault(left: tuple[Event, ...], header: Header, email: str, setup_type: type[Any]) -> str | None:
    """Why a merge authored by `email` may not leave out `left`, a forked branch; None when they
    are all one player's (their turns, undos they asked for, and bot seats' turns) and, in a game
    with e-mails, that player is the merge's author."""
    rule = "settling a forked game may leave out one player's own moves, by that player"
    if any(isinstance(event, setup_type) for event in left):
        return f"{rule}, never a deal"
    emails = any(header.emails)
    owners = dict.fromkeys(actor(event) for event in left if not _is_bot(event))
    if not emails:
        owners.pop("", None)  # without e-mails nobody is checked: an undo that names nobody joins the player's moves
    if len(owners) > 1:
        return f"{rule}: these are {' and '.join(_possessive(who) for who in owners)}"
    if not owners or not emails:
        return None
    who = next(iter(owners))
    if not who:
        unsigned = next(e for e in left if isinstance(e, TurnUndone))
        return f"{rule}: undo #{unsigned.seq} names nobody"
    address = dict(zip(header.players, header.emails)).get(who, "")
    if address and address.casefold() != email.casefold():
        return f"{rule}: they are {who}'s ({address}), but the merge's author is {email or 'unknown'}"
    return None


def _possessive(who: str) -> str:
    return f"{who}'s" if who else "nobody's"


# -- a sealed game's forks: withdrawn by their own player's signed consent ----------------------

WITHDRAWN_BY = "Splendor-Withdrawn-By"
"""The key of the line of a merge's message that holds a player's consent to leave out their events."""
WITHDRAW = "withdraw"
"""The purpose the consent is signed for (`SecretKey.sign`): no event's signature verifies as one."""
_CONSENT = re.compile(rf"^{WITHDRAWN_BY}: (\S+) ([0-9a-f]{{128}})[ \t]*$", re.MULTILINE)

SEALED_RULE = "settling a forked sealed game may leave out one player's own signed events, by that player"


@attrs.frozen
class Withdrawal:
    """A branch of a forked sealed game that a merge leaves out: the events after the fork."""

    events: tuple[Event, ...]
    player: str
    """Whose they all are ("" when they are not one player's: see `fault`)."""
    statement: bytes
    """What `player` signs (purpose `WITHDRAW`) to consent to leave them out of the merge's file."""
    fault: str | None
    """Why nobody may leave them out (the deal, or the events of several players); None: `player` may."""
    sealing: Sealing
    """The sealed table of the branch left out (its `keys` verify its player's consent)."""
    listed: str
    """The events, for a person: `#13 bob's turn`."""


def withdrawal_statement(sealing: Sealing, last_dropped: Event, last_kept: Event) -> bytes:
    """What a player signs to consent to leave out their branch of a fork that ends with
    `last_dropped`, in a merge whose file ends with `last_kept`: the game's root and both events'
    digests (each fixes the whole history before it)."""
    from ..crypto.group import framed
    from ..projection.sealing import full_digest

    return framed(b"splendor-cli/withdraw/v1", sealing.root, full_digest(last_dropped), full_digest(last_kept))


def consent_line(player: str, signature: bytes) -> str:
    """The line of a merge's message that holds `player`'s consent (`signature`, 64 bytes)."""
    return f"{WITHDRAWN_BY}: {player} {signature.hex()}"


def _withdrawal(dropped: _Version, kept: _Version, left: tuple[Event, ...]) -> Withdrawal:
    """The branch `left` of the sealed game `dropped` that the merge's file `kept` leaves out."""
    sealing = dropped.game.sealing
    assert sealing is not None
    variant = dropped.game.variant
    owners = list(dict.fromkeys(actor(event) for event in left))
    fault = None
    if any(isinstance(event, variant.setup_type) for event in left):
        fault = f"{SEALED_RULE}, never the deal"
    elif len(owners) > 1:
        fault = f"{SEALED_RULE}: these are {' and '.join(_possessive(who) for who in owners)}"
    return Withdrawal(
        events=left,
        player=owners[0] if len(owners) == 1 and fault is None else "",
        statement=withdrawal_statement(sealing, left[-1], kept.record.events[-1]),
        fault=fault,
        sealing=sealing,
        listed=_events_listed(left, variant.stepwise, most=5),
    )


def _consent_fault(withdrawal: Withdrawal, message: str) -> str | None:
    """Why `message` (a merge's) holds no consent of `withdrawal`'s player; None when it does."""
    who = withdrawal.player
    key = withdrawal.sealing.keys.get(who)
    for name, sig in _CONSENT.findall(message):
        if name == who and key is not None and key.verify(WITHDRAW, withdrawal.statement, bytes.fromhex(sig)):
            return None
    return (
        f"{SEALED_RULE}: they are {who}'s, and the merge holds no consent signed by {who}"
        f" (a `{WITHDRAWN_BY}:` line, which `splendor sync` writes when {who} concludes the merge)"
    )


def withdrawals(parents: Sequence[bytes], merged: bytes, trusted: Trusted | None = None) -> list[Withdrawal]:
    """What a merge of the files `parents` into `merged` leaves out of a forked sealed game: each
    parent's branch after the fork (none for an open game, or when every parent is kept, or when
    no parent is, or for a parent that does not read: those are not settled forks, and
    `git_report` says what is wrong with them). `trusted`: what this reader verified before (the
    signatures and proofs of those events are not checked again, as in `store.read`).

    Raises:
        GameFileError, ConflictError: `merged` does not read.
    """
    kept = [data for data in parents if merged.startswith(data)]
    if not kept or len(kept) == len(parents):
        return []
    after = _read(merged, trusted)
    if after.game.sealing is None:
        return []
    found = []
    for data in parents:
        if merged.startswith(data):
            continue
        try:
            before = _read(data, trusted)
        except (GameFileError, ConflictError):
            continue  # not a side of a fork: `git_report` names what is wrong with it
        if before.record.header != after.record.header or not _resolved_fork(before, after):
            continue
        ours, theirs = before.record.events, after.record.events
        common = 0
        while common < min(len(ours), len(theirs)) and ours[common] == theirs[common]:
            common += 1
        found.append(_withdrawal(before, after, ours[common:]))
    return found


def _moves_reason(version: _Version, known: int, *, created: bool, email: str, staged: bool = False) -> str | None:
    """What is wrong with the events after the first `known` of `version`: the moves of more than
    one person, or a person's move that is not the author's."""
    # a second setup never replays, so every new event is a move or an undo
    variant = version.game.variant
    moves = [e for e in version.record.events[known:] if not isinstance(e, variant.setup_type)]
    if version.game.sealing is not None:  # one player's turn rides with their shares of the protocol
        moves = [e for e in moves if not isinstance(e, SEALED_TYPES)] or moves[:1]
    own = _own_move(moves, variant.stepwise, variant.play_types)
    if own is None:
        verb = "creates the game with" if created else "appends"
        undos = sum(isinstance(e, TurnUndone) for e in moves)
        noun = "step" if variant.stepwise else "turn"
        counts = [_plural(n, word) for n, word in ((len(moves) - undos, noun), (undos, "undo")) if n]
        rule = SPLIT_ADVICE if staged else "a commit may append one turn, or one undo"
        return f"{verb} {' and '.join(counts)} ({_events_listed(moves, variant.stepwise)}): {rule}"
    header = version.record.header
    if not own or not any(header.emails) or version.game.sealing is not None:
        return None  # a sealed game's events are signed: the signatures say who moved, not the commit's author
    move = own[0]
    if isinstance(move, TurnUndone) and not move.by:
        return f"undo #{move.seq} names nobody: who asked cannot be checked"
    who = actor(move)
    address = dict(zip(header.players, header.emails)).get(who, "")
    if address and address.casefold() != email.casefold():
        what = (
            f"undo #{move.seq} was asked by {who}" if isinstance(move, TurnUndone) else f"turn #{move.seq} is {who}'s"
        )
        return f"{what} ({address}), but the commit's author is {email or 'unknown'}"
    return None


def _report(
    repo: _Repo, checker: _Checker, checked: int, bad: dict[str, Any] | None, *, rev_range: str | None, staged: bool
) -> dict[str, Any]:
    last = checker.last
    return {
        "ok": bad is None,
        "path": repo.rel,
        "range": rev_range,
        "staged": staged,
        "commits": checked,
        "authors_checked": bool(last and any(last.record.header.emails)),
        "head": last.record.head if last else None,
        "bad": bad,
    }


def git_report(path: StrPath, rev_range: str | None = None) -> dict[str, Any]:
    """Walk every commit of the range that changed the game file at `path` (side branches and
    merges included, renames followed), oldest first, and stop at the first that breaks a rule
    (see the module docstring). `rev_range` (`HEAD~5..HEAD`, `main..feature`) limits the walk; by
    default it is all of HEAD's history. `commits` counts the commits judged.

    Raises:
        UsageError: git is missing, `path` is not in a repository, the range is bad, no commit
            holds the file, or a shallow clone hides where the file's history begins.
    """
    repo = _locate(path)
    steps, oids = _trace(repo, _commits(repo, rev_range))
    if rev_range is None:
        _touched_somewhere(repo, steps, oids)
    checker = _Checker()
    judged, bad = _judge(repo, steps, oids, checker)
    return _report(repo, checker, judged, bad, rev_range=rev_range, staged=False)


def audit(
    path: StrPath, mark: str | None = None, trusted: Trusted | None = None, known: Sequence[Loaded] = ()
) -> dict[str, Any]:
    """`git_report` of HEAD's history as `splendor sync` asks it before a push: only what is new
    since `mark` (a commit whose history an earlier audit of this file found good, as this
    function's `mark` said it), every signature and proof that this reader verified before
    (`trusted`, as `store.read`'s) not checked again, and the versions of the file that the
    caller read already (`known`, each as `store.read` read it) not read again.

    A commit's id fixes its whole history (its parents, their files, authors and messages), so
    the history of the commit `mark` names is as good as it was found: the walk judges the
    commits of `MARK..HEAD` alone, against their parents' files (a parent outside the range,
    an ancestor of the mark, gives the version the commit must extend: read whole, but for what
    `trusted` says). The whole history is walked instead when there is no mark, when it is
    malformed or for another path of the file, when its commit is not an ancestor of HEAD (a
    history rewritten under it: a force-push, a rebase; or a commit this repository lacks), and
    when the walk of the range follows a rename (the mark vouches for the file's history under
    its path alone).

    The result is `git_report`'s, with `tip`, the commit audited (HEAD's id, resolved first),
    `since`, the mark's commit the walk started after (None: the whole history), and `mark`, what
    to give the next audit of this file once this one is good: None when it is bad, when the walk
    followed a rename anywhere (the next audit walks the whole history again), or in a shallow
    clone (whose history may yet grow under its cut).

    Raises:
        UsageError: as `git_report`, or HEAD names no commit.
    """
    repo = _locate(path, head=True)
    tip = repo.head
    assert tip is not None
    since = _mark_commit(repo, mark)
    while True:
        rev_range = f"{since}..{tip}" if since is not None else tip
        commits = _commits(repo, rev_range) if since is None else _commits_after(repo, since, tip)
        if commits is None:
            since = None  # not an ancestor of HEAD (a history rewritten under it), or no such commit here
            continue
        steps, oids = _trace(repo, commits)
        renamed = any(step.path != repo.rel or any(old != repo.rel for _, old in step.parents) for step in steps)
        if since is None or not renamed:
            break
        since = None  # a boundary under another path: the mark does not vouch for its history
    if since is None:
        _touched_somewhere(repo, steps, oids)
    checker = _Checker(trusted=trusted)
    for loaded in known:
        version = _Version(record=loaded.record, game=loaded.game)
        checker.known[_blob_oid(loaded.data, sha256=len(tip) > 40)] = (loaded.data, version)
    judged, bad = _judge(repo, steps, oids, checker)
    report = _report(repo, checker, judged, bad, rev_range=None if since is None else rev_range, staged=False)
    markable = bad is None and not renamed and not repo.shallow
    report.update(tip=tip, since=since, mark=f"{tip}\n{repo.rel}" if markable else None)
    return report


def _blob_oid(data: bytes, *, sha256: bool) -> str:
    """The id git gives a file that holds `data` (`git hash-object`)."""
    import hashlib

    return hashlib.new("sha256" if sha256 else "sha1", b"blob %d\0" % len(data) + data).hexdigest()


_COMMIT_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def _mark_commit(repo: _Repo, mark: str | None) -> str | None:
    """The commit of `mark` (`audit`'s) when it is one of this file, at this path; else None."""
    if mark is None:
        return None
    commit, newline, rel = mark.partition("\n")
    if not newline or rel != repo.rel or not _COMMIT_ID.fullmatch(commit):
        return None
    return commit


def _commits_after(repo: _Repo, since: str, tip: str) -> list[_Commit] | None:
    """The commits of `since..tip` (`_commits`), when `since` is `tip` or one of its ancestors;
    None when it is not (or is no commit here). It is one exactly when a commit of the range has
    it for a parent: the commit after it on a path from `tip` down to it is in the range (an
    ancestor of `tip`, and not of `since`: its child), and every commit of the range is an
    ancestor of `tip`."""
    if since == tip:
        return []
    try:
        commits = _commits(repo, f"{since}..{tip}")
    except UsageError:  # git knows no such commit (a history rewritten and collected, another clone's)
        return None
    return commits if any(since in commit.parents for commit in commits) else None


def _touched_somewhere(repo: _Repo, steps: list[_Step], oids: dict[str, str | None]) -> None:
    """Raise UsageError when no commit of the walk holds the file."""
    if all(oids[f"{step.commit.hash}:{step.path}"] is None for step in steps):
        raise UsageError(f"{repo.rel}: no commit has touched it yet (is it committed?)")


def _judge(
    repo: _Repo, steps: list[_Step], oids: dict[str, str | None], checker: _Checker
) -> tuple[int, dict[str, Any] | None]:
    """Judge, oldest first, every step of the walk that changes the file, and stop at the first
    that breaks a rule: how many commits were judged, and what is wrong with the bad one (None)."""
    changes = []
    for step in steps:
        now = oids[f"{step.commit.hash}:{step.path}"]
        if step.commit.hash in repo.shallow and now is not None:
            raise UsageError(
                f"{repo.rel}: the clone is shallow and its history is cut at {step.commit.hash}:"
                " fetch the whole history (`git fetch --unshallow`; in CI, actions/checkout with fetch-depth: 0)"
                " or give a REV-RANGE that starts after the cut"
            )
        olds = [oids[f"{parent}:{old}"] for parent, old in step.parents]
        if _touched(now, olds, any(old != step.path for _, old in step.parents)):
            changes.append(step)
    wanted = [oids[f"{rev}:{p}"] for step in changes for rev, p in ((step.commit.hash, step.path), *step.parents)]
    contents = _contents(repo, [oid for oid in wanted if oid is not None])

    def blob(rev: str, where: str) -> _Blob | None:
        oid = oids[f"{rev}:{where}"]
        return None if oid is None else _Blob(oid=oid, data=contents[oid])

    judged: dict[str, None] = {}
    for step in changes:
        commit = step.commit
        judged.setdefault(commit.hash)
        new = blob(commit.hash, step.path)
        if new is None:
            present = [parent for parent, old in step.parents if oids[f"{parent}:{old}"] is not None]
            moved = all(step.path in _tree_renames(repo, parent, commit.hash).values() for parent in present)
            reason = None if moved else "deletes the game file"
        else:
            parents = [(f"parent {parent[:12]}", blob(parent, old)) for parent, old in step.parents]
            reason = checker.check(
                new,
                parents,
                commit.email,
                merge=len(parents) > 1,
                message=functools.partial(_message, repo, commit.hash),
            )
        if reason is not None:
            bad = {
                "commit": commit.hash,
                "author": commit.author,
                "email": commit.email,
                "subject": commit.subject,
                "reason": reason,
            }
            return len(judged), bad
    return len(judged), None


def staged_report(path: StrPath) -> dict[str, Any]:
    """Hold the change staged for the next commit to the same rules, for a pre-commit hook.

    The change goes from the file in HEAD (and in MERGE_HEAD, during a merge; under its old path
    when the change renames it) to the file in the index; its author is the one git would record
    (`git var GIT_AUTHOR_IDENT`, as it is: `.mailmap` is not applied). A change that holds more
    than one person's move is told how to split it. The result has `git_report`'s shape, with
    `staged` true: `commits` is 1 when the file is staged with a change, 0 when the index holds
    HEAD's version (and MERGE_HEAD's, during a merge); a bad change has `commit` None.

    Raises:
        UsageError: git is missing, `path` is not in a repository, or the file is neither committed
            nor staged.
    """
    repo = _locate(path)
    refs = ("HEAD", "MERGE_HEAD")
    index = f":{repo.rel}"
    found = _lookup(repo, [index, *refs, *(f"{ref}:{repo.rel}" for ref in refs)])
    new_id = _blob_id(found[index])
    parents: list[tuple[str, str | None]] = []
    moved = False
    for ref in (ref for ref in refs if found[ref] is not None):
        oid = _blob_id(found[f"{ref}:{repo.rel}"])
        if oid is None and new_id is not None:
            old = _renames(repo, ["diff-index", "--cached", ref, "--"]).get(repo.rel)
            if old is not None:
                oid = _blob_ids(repo, [f"{ref}:{old}"])[f"{ref}:{old}"]
                moved = True
        parents.append((ref, oid))
    if new_id is None and all(oid is None for _, oid in parents):
        raise UsageError(f"{repo.rel} is neither committed nor staged")
    checker = _Checker()
    if not _touched(new_id, [oid for _, oid in parents], moved):
        return _report(repo, checker, 0, None, rev_range=None, staged=True)
    ident = _git(["var", "GIT_AUTHOR_IDENT"], repo.root).decode("utf-8", "replace")
    author, _, rest = ident.partition(" <")
    email = rest[: rest.rfind(">")] if ">" in rest else rest
    if new_id is None:
        away = _renames(repo, ["diff-index", "--cached", "HEAD", "--"]).values()
        reason = None if repo.rel in away else "deletes the game file"
    else:
        contents = _contents(repo, [new_id, *(oid for _, oid in parents if oid is not None)])
        olds = [(ref, None if oid is None else _Blob(oid=oid, data=contents[oid])) for ref, oid in parents]
        new = _Blob(oid=new_id, data=contents[new_id])
        reason = checker.check(new, olds, email, merge=len(olds) > 1, staged=True, message=lambda: _merge_msg(repo))
    bad = None
    if reason is not None:
        bad = {"commit": None, "author": author, "email": email, "subject": "", "reason": reason}
    return _report(repo, checker, 1, bad, rev_range=None, staged=True)


def git_report_text(report: dict[str, Any]) -> str:
    """`git_report` (or `staged_report`) in a line or three, for a person (`_safe`: the author,
    the subject and the reason may quote anything)."""
    path, bad = report["path"], report["bad"]
    if report["staged"]:
        scope = "the staged change"
    else:
        scope = _plural(report["commits"], "commit") + (f" in {report['range']}" if report["range"] else "")
    if bad is None:
        if report["commits"] == 0:
            why = "the index holds HEAD's file" if report["staged"] else f"no commit in {report['range']} touches it"
            return _safe(f"{path}: ok: nothing to check ({why})")
        rules = "each only appends, one turn or one undo at most, and no merge drops an event" + (
            ", by the player's own e-mail" if report["authors_checked"] else ""
        )
        return _safe(f"{path}: ok: {scope} checked: {rules}; chain head {report['head']}")
    who = f"{bad['author']} <{bad['email']}>"
    if bad["commit"] is None:
        head = f"{path}: the staged change by {who} breaks a rule:"
    else:
        head = f"{path}: first bad commit {bad['commit']} ({who}): {bad['subject']}"
    return f"{_safe(head)}\n  {_safe(bad['reason'])}"

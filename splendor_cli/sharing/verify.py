"""`splendor verify`: check a game file, or check the git history that wrote it, turn by turn.

The file check (`file_report`) takes a game that `store.read` has already replayed through the
rules and sums it up. The history check (`git_report`) walks the commits that `git log -- FILE`
lists (oldest first; git's default history simplification, so a merge that kept one side's
file follows that side) and holds every one of them to these rules:

- it only appends: the file as it was in each parent is a prefix, byte for byte, of the file
  the commit wrote (a commit that deletes the file, or rewrites or cuts an earlier byte, is bad);
- the file it wrote reads and replays, as `store.read` would read it;
- it appends at most one turn, or one undo: an undo is a move of its own and never shares a
  commit with a turn. A commit that creates the file counts as appending to nothing: the setup
  and at most one turn. A commit may append no event at all (a comment, a blank line);
- when the header maps players to e-mail addresses (`splendor new --players ann=ann@x.org,..`),
  the author e-mail of the commit (after `.mailmap`, compared without regard to case) is the
  address of the player of the turn it appends, or of the player who asked for the undo (an
  undo that names nobody, or a player with no address, is not checked).

A merge that changed the file is compared with the longest of its parents' versions, and every
other parent's version must be a prefix too, unless it is the side of a forked game that
`splendor resolve` left out (it forked from the same event as the kept side). Renames are not
followed: the file's history starts at the commit that created it under its present path.
`staged_report` applies the same rules to the change staged for the next commit, for a
pre-commit hook.

Git runs as a subprocess; this module prints nothing and knows nothing of typer.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import attrs

from ..errors import ConflictError, GameFileError, UsageError, safe
from ..events import Event, SeedsRestarted, TurnUndone, actor
from ..events.codec import FORMAT, Record, load_toml, read_events
from ..forks import decode
from ..projection import Game
from ..records import parse_text, replay_record
from ..store import Loaded, StrPath
from ..variants import event_types

# -- the file --------------------------------------------------------------------------------


def file_report(loaded: Loaded) -> dict[str, Any]:
    """A summary of a game that `store.read` accepted: who plays, how far, whose turn, the chain
    head; for a game whose commit-then-reveal deal is under way, who it waits for (`dealing`)."""
    record, game = loaded.record, loaded.game
    header = record.header
    emails = header.emails or ("",) * len(header.players)
    dealing = game.seeding.waiting() if game.seeding is not None and not game.states else None
    state = game.table if dealing is None else None
    return {
        "ok": True,
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
        "finished": bool(state and state.finished),
        "winners": list(state.winners()) if state else [],
        **({"dealing": dealing} if dealing else {}),
        "head": record.head,
    }


def report_text(report: dict[str, Any]) -> str:
    """`file_report` in a few lines, for a person: each line `_safe` (the header's `created` and
    e-mails are the file's own strings)."""
    players = ", ".join(f"{p['name']} <{p['email']}>" if p["email"] else p["name"] for p in report["players"])
    undone = report["undone"]
    noun = "step" if "steps" in report else "turn"
    lines = [
        f"{report['path']}: ok (format {report['format']})",
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


def _read(data: bytes) -> _Version:
    """Read a whole version as `store.read` reads a file (without the path in messages)."""
    record = parse_text(decode(data))
    return _Version(record=record, game=replay_record(record))


def _extend(before: _Version, old: bytes, data: bytes) -> _Version:
    """Read `data`, a version whose bytes extend `old` (read as `before`): only the new events are replayed.

    When the appended text is plain `[[events]]` blocks after a final newline, only it is parsed
    (so that walking a long history is not quadratic); anything else is parsed whole.
    """
    text = decode(data)
    events = _appended(before.record, text[len(old) :]) if old.endswith(b"\n") else None
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
    game = before.game
    for event in events:
        game = game.apply(event, check=True)
    record = Record(header=before.record.header, events=(*before.record.events, *events))
    return _Version(record=record, game=game)


def _appended(before: Record, tail: str) -> tuple[Event, ...] | None:
    """The events that `tail`, appended to the text of `before` (which ends with a newline), adds;
    None when `codec.parse` must judge the whole text (the tail does not read, or is not plain blocks).

    This only ever accepts: whatever it cannot vouch for goes to the full parse, whose word is final.
    Read on its own, the tail means what it means after the old text exactly when the first line
    that is not blank or a comment is `[[events]]` (before it, a key would land in the last old
    event) and the tail defines nothing but `events`.
    """
    if before.header.format != FORMAT:  # pragma: no cover - an older format may need upcasting
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
        return read_events(raws, [""] * len(before.events) + [before.head], event_types(before.header.variant))
    except (GameFileError, ConflictError):
        return None


# -- git -------------------------------------------------------------------------------------


@attrs.frozen
class _Commit:
    hash: str
    parents: tuple[str, ...]
    author: str
    email: str
    subject: str


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


def _git(args: list[str], cwd: Path, *, stdin: bytes | None = None) -> bytes:
    """Run git; its failure is a UsageError naming what git said."""
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(
            ["git", "-c", "log.showSignature=false", "--literal-pathspecs", *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            check=False,
            env=env,
        )
    except FileNotFoundError:
        raise UsageError("git is not installed (or not on PATH): `verify --git` needs it") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(f"git {args[0]} failed: {message[0] if message else f'exit {done.returncode}'}")
    return done.stdout


def _locate(where: StrPath) -> _Repo:
    path = Path(where)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{path}: no such folder {str(folder)!r}")
    try:
        out = _git(
            ["rev-parse", "--show-toplevel", "--show-prefix", "--is-shallow-repository", "--git-path", "shallow"],
            folder,
        )
    except UsageError as exc:
        if "not a git repository" in str(exc):
            raise UsageError(
                f"{path} is not in a git repository: `verify --git` walks the file's git history"
            ) from None
        raise
    top, prefix, is_shallow, shallow_path = out.decode("utf-8", "surrogateescape").split("\n")[:4]
    shallow: frozenset[str] = frozenset()
    if is_shallow == "true":
        shallow_file = folder / shallow_path
        shallow = frozenset(shallow_file.read_text().split()) if shallow_file.exists() else frozenset()
    return _Repo(root=Path(top), rel=prefix + path.name, shallow=shallow)


def _commits(repo: _Repo, rev_range: str | None) -> list[_Commit]:
    """The commits that changed the file, oldest first (parents always before their children)."""
    if rev_range is not None and (not rev_range.strip() or rev_range.startswith("-")):
        raise UsageError(f"bad revision range {rev_range!r}: give one like HEAD~5..HEAD or main..feature")
    fmt = "%H%x1f%P%x1f%aN%x1f%aE%x1f%s"
    revs = ["--end-of-options", rev_range] if rev_range is not None else []
    out = _git(["log", "-z", "--reverse", "--topo-order", f"--format={fmt}", *revs, "--", repo.rel], repo.root)
    commits = []
    for item in out.decode("utf-8", "replace").split("\0"):
        if not item.strip():
            continue
        hash_, parents, author, email, subject = item.strip("\n").split("\x1f", 4)
        commits.append(_Commit(hash=hash_, parents=tuple(parents.split()), author=author, email=email, subject=subject))
    return commits


def _blobs(repo: _Repo, specs: list[str]) -> dict[str, _Blob | None]:
    """The contents of `REV:PATH` for each spec (None where the file is missing), in one `git cat-file`."""
    unique = list(dict.fromkeys(specs))
    if not unique:
        return {}
    out = _git(["cat-file", "--batch"], repo.root, stdin="".join(f"{s}\n" for s in unique).encode("utf-8"))
    blobs: dict[str, _Blob | None] = {}
    pos = 0
    for spec in unique:
        end = out.index(b"\n", pos)
        head = out[pos:end].decode("utf-8", "replace").split()
        pos = end + 1
        if len(head) != 3:  # "<spec> missing" (or ambiguous): the file is not in that commit
            blobs[spec] = None
            continue
        oid, kind, size = head
        data = out[pos : pos + int(size)]
        pos += int(size) + 1
        blobs[spec] = _Blob(oid=oid, data=data) if kind == "blob" else None
    return blobs


def _rewrite_reason(old: bytes, new: bytes) -> str:
    """Where `new` stops extending `old`, for a person: the line, and the event it belongs to."""
    at = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    line = old[:at].count(b"\n") + 1
    blocks = sum(1 for row in old[:at].split(b"\n")[:-1] if row.strip() == b"[[events]]")
    where = f"event #{blocks}" if blocks else "the header"
    if at == len(new):
        return f"cuts the file at line {line} ({where}): a commit may only append events"
    return f"changes line {line} ({where}) of the file before it: a commit may only append events"


def _describe(event: Event, stepwise: bool) -> str:
    if isinstance(event, TurnUndone):
        return f"#{event.seq} an undo{f' by {event.by}' if event.by else ''}"
    if isinstance(event, SeedsRestarted):
        return f"#{event.seq} a restart of the deal by {event.by}"
    return f"#{event.seq} {actor(event)}'s {'step' if stepwise else 'turn'}"


@attrs.define
class _Checker:
    """Judges one commit at a time, keeping the versions already read (by blob id)."""

    read: dict[str, _Version] = attrs.Factory(dict)
    last: _Version | None = None

    def version(self, blob: _Blob) -> _Version:
        if blob.oid not in self.read:
            self.read[blob.oid] = _read(blob.data)
        return self.read[blob.oid]

    def resolved_fork(self, dropped: _Blob, new: _Blob) -> bool:
        """A merge may leave out one side of a forked game (see `_resolved_fork`)."""
        try:
            return _resolved_fork(self.version(dropped), self.version(new))
        except (GameFileError, ConflictError):
            return False

    def check(self, new: _Blob | None, parents: list[_Blob | None], email: str) -> str | None:
        """The reason the change from `parents` to `new` breaks a rule, or None when it keeps them."""
        if new is None:
            return "deletes the game file (renames are not followed)"
        olds = [blob for blob in parents if blob is not None]
        kept = [old for old in olds if new.data.startswith(old.data)]
        for old in olds:
            if old not in kept and not (kept and self.resolved_fork(old, new)):
                return _rewrite_reason(old.data, new.data)
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
            if new.oid not in self.read:
                try:
                    self.read[new.oid] = _extend(before, base.data, new.data)
                except (GameFileError, ConflictError) as exc:
                    return f"writes a file that does not read: {exc}"
            version = self.read[new.oid]
            known = len(before.record.events)
        reason = _moves_reason(version, known, created=base is None, email=email)
        if reason is None:
            self.last = version
        return reason


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


def _moves_reason(version: _Version, known: int, *, created: bool, email: str) -> str | None:
    """What is wrong with the events after the first `known` of `version`: too many moves, or not the author's."""
    # a second setup never replays, so every new event is a move or an undo
    variant = version.game.variant
    moves = [e for e in version.record.events[known:] if not isinstance(e, variant.setup_type)]
    steps = [e for e in moves if isinstance(e, variant.play_types)] if variant.stepwise else []
    if steps and len(steps) == len(moves) and len({actor(e) for e in steps}) == 1:
        moves = moves[:1]  # stepwise: a commit may append one player's steps (a turn, or a part of one)
    if len(moves) > 1:
        verb = "creates the game with" if created else "appends"
        undos = sum(isinstance(e, TurnUndone) for e in moves)
        counts = [_plural(n, noun) for n, noun in ((len(moves) - undos, "turn"), (undos, "undo")) if n]
        listed = ", ".join(_describe(e, variant.stepwise) for e in moves[:3]) + (", ..." if len(moves) > 3 else "")
        return f"{verb} {' and '.join(counts)} ({listed}): a commit may append one turn, or one undo"
    header = version.record.header
    if not moves or not header.emails:
        return None
    move = moves[0]
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
    """Walk the commits that changed the game file at `path`, oldest first, and stop at the first
    that breaks a rule (see the module docstring). `rev_range` (`HEAD~5..HEAD`, `main..feature`)
    limits the walk; by default it is all of HEAD's history.

    Raises:
        UsageError: git is missing, `path` is not in a repository, the range is bad, no commit
            touches the file, or a shallow clone hides where the file's history begins.
    """
    repo = _locate(path)
    commits = _commits(repo, rev_range)
    if not commits and rev_range is None:
        raise UsageError(f"{repo.rel}: no commit has touched it yet (is it committed?)")
    for commit in commits:
        if commit.hash in repo.shallow:
            raise UsageError(
                f"{repo.rel}: the clone is shallow and its history is cut at {commit.hash}:"
                " fetch the whole history (`git fetch --unshallow`; in CI, actions/checkout with fetch-depth: 0)"
                " or give a REV-RANGE that starts after the cut"
            )
    blobs = _blobs(repo, [f"{rev}:{repo.rel}" for c in commits for rev in (c.hash, *c.parents)])
    checker = _Checker()
    for checked, commit in enumerate(commits, start=1):
        parents = [blobs[f"{p}:{repo.rel}"] for p in commit.parents]
        reason = checker.check(blobs[f"{commit.hash}:{repo.rel}"], parents, commit.email)
        if reason is not None:
            bad = {
                "commit": commit.hash,
                "author": commit.author,
                "email": commit.email,
                "subject": commit.subject,
                "reason": reason,
            }
            return _report(repo, checker, checked, bad, rev_range=rev_range, staged=False)
    return _report(repo, checker, len(commits), None, rev_range=rev_range, staged=False)


def staged_report(path: StrPath) -> dict[str, Any]:
    """Hold the change staged for the next commit to the same rules, for a pre-commit hook.

    The change goes from the file in HEAD (and in MERGE_HEAD, during a merge) to the file in the
    index; its author is the one git would record (`git var GIT_AUTHOR_IDENT`, after `.mailmap`).
    The result has `git_report`'s shape, with `staged` true: `commits` is 1 when the file is
    staged with a change, 0 when the index holds HEAD's version; a bad change has `commit` None.

    Raises:
        UsageError: git is missing, `path` is not in a repository, or the file is neither committed
            nor staged.
    """
    repo = _locate(path)
    new_spec, parent_specs = f":{repo.rel}", [f"HEAD:{repo.rel}", f"MERGE_HEAD:{repo.rel}"]
    blobs = _blobs(repo, [new_spec, *parent_specs])
    new, head = blobs[new_spec], blobs[parent_specs[0]]
    checker = _Checker()
    if new is None and head is None:
        raise UsageError(f"{repo.rel} is neither committed nor staged")
    if new is not None and head is not None and new.oid == head.oid:
        return _report(repo, checker, 0, None, rev_range=None, staged=True)
    ident = _git(["var", "GIT_AUTHOR_IDENT"], repo.root).decode("utf-8", "replace")
    mapped = _git(["check-mailmap", ident[: ident.rindex(">") + 1]], repo.root).decode("utf-8", "replace").strip()
    author, _, email = mapped.partition(" <")
    email = email.removesuffix(">")
    reason = checker.check(new, [blobs[spec] for spec in parent_specs], email)
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
        rules = "each only appends, one turn or one undo at most" + (
            ", by the player's own e-mail" if report["authors_checked"] else ""
        )
        return _safe(f"{path}: ok: {scope} checked: {rules}; chain head {report['head']}")
    who = f"{bad['author']} <{bad['email']}>"
    if bad["commit"] is None:
        head = f"{path}: the staged change by {who} breaks a rule:"
    else:
        head = f"{path}: first bad commit {bad['commit']} ({who}): {bad['subject']}"
    return f"{_safe(head)}\n  {_safe(bad['reason'])}"

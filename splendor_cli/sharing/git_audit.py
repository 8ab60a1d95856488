"""`splendor verify --git` and sync's audit: check the git history that wrote a game file, commit by commit.

`git_report` lists every commit of the range (by default all of HEAD's
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
  when that player's address is the merge's author e-mail; in a game without, when every commit
  of the left-out parent's side (those no other parent holds) that carried what the merge leaves
  out has the merge's author e-mail (`history.carried_by_others`): a player may withdraw their
  own stale move, never erase another's. A merge that drops anything else is bad, and the reason names the
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
cat-file --batch-check` (one more for each rename followed) and one for the versions' sizes, a
`git cat-file --batch` for every 32 MiB of versions (each read once, and let go once no later
commit needs it: the walk holds a few versions, never the whole history), and a `git
diff-tree` for each commit where the file appears or disappears against a parent (its
creation, a rename). Each version is parsed by what it appends to its parent's (with or without
a final newline), so the walk is linear in the history. This module prints nothing and knows
nothing of typer.

The audit's parts, each a module of its own: `versions` (a version of the file read, or read by
its new events), `history` (the git walk), `rules` (the reasons a change breaks a rule),
`withdrawals` (a sealed game's fork withdrawn by its player's signed consent) and `checker`
(one change judged); this module is their public face (the reports, the audit).
"""

from __future__ import annotations

import collections
import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import UsageError, safe
from ..projection.log import played_for_line, played_for_others
from ..store import Loaded, StrPath
from .audit_rules import plural
from .checker import Checker
from .history import (
    Blob,
    BlobStream,
    Carrier,
    FileRepo,
    Step,
    blob_contents,
    blob_id,
    blob_ids,
    blob_oid,
    carried_by_others,
    commits_after,
    commits_of,
    find_renames,
    git_output,
    is_touched,
    locate_file,
    lookup_objects,
    mark_commit,
    merge_msg,
    message_of,
    touched_somewhere,
    trace_steps,
    tree_renames,
)
from .versions import Trusted, Version


def _report(
    repo: FileRepo, checker: Checker, checked: int, bad: dict[str, Any] | None, *, rev_range: str | None, staged: bool
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
        **({"played_for": played} if last and (played := played_for_others(last.game)) else {}),
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
    repo = locate_file(path)
    steps, oids = trace_steps(repo, commits_of(repo, rev_range))
    if rev_range is None:
        touched_somewhere(repo, steps, oids)
    checker = Checker()
    judged, bad = _judge(repo, steps, oids, checker)
    return _report(repo, checker, judged, bad, rev_range=rev_range, staged=False)


def audit(
    path: StrPath,
    mark: str | None = None,
    trusted: Trusted | None = None,
    known: Sequence[Loaded] = (),
    *,
    tip: str | None = None,
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
    repo = locate_file(path, head=True)
    tip = repo.head if tip is None else _commit_id(repo, tip)
    assert tip is not None
    since = mark_commit(repo, mark)
    while True:
        rev_range = f"{since}..{tip}" if since is not None else tip
        commits = commits_of(repo, rev_range) if since is None else commits_after(repo, since, tip)
        if commits is None:
            since = None  # not an ancestor of HEAD (a history rewritten under it), or no such commit here
            continue
        steps, oids = trace_steps(repo, commits)
        renamed = any(step.path != repo.rel or any(old != repo.rel for _, old in step.parents) for step in steps)
        if since is None or not renamed:
            break
        since = None  # a boundary under another path: the mark does not vouch for its history
    if since is None:
        touched_somewhere(repo, steps, oids)
    checker = Checker(trusted=trusted)
    for loaded in known:
        version = Version(record=loaded.record, game=loaded.game)
        checker.known[blob_oid(loaded.data, sha256=len(tip) > 40)] = (loaded.data, version)
    judged, bad = _judge(repo, steps, oids, checker)
    report = _report(repo, checker, judged, bad, rev_range=None if since is None else rev_range, staged=False)
    markable = bad is None and not renamed and not repo.shallow
    report.update(tip=tip, since=since, mark=f"{tip}\n{repo.rel}" if markable else None)
    return report


def _commit_id(repo: FileRepo, rev: str) -> str:
    """The id of the commit `rev` names (UsageError: none)."""
    if not rev or rev.startswith("-"):
        raise UsageError(f"bad revision {rev!r}")
    return git_output(["rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}"], repo.root).decode().strip()


def _judge(
    repo: FileRepo, steps: list[Step], oids: dict[str, str | None], checker: Checker
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
        if is_touched(now, olds, any(old != step.path for _, old in step.parents)):
            changes.append(step)
    # Each version is read when a step first needs it and let go after the last step that does,
    # so the walk holds a few versions, not the history (`BlobStream`, `Checker.forget`).
    uses = [
        [oid for rev, p in ((step.commit.hash, step.path), *step.parents) if (oid := oids[f"{rev}:{p}"]) is not None]
        for step in changes
    ]
    left = collections.Counter(oid for used in uses for oid in used)
    stream = BlobStream(repo, [oid for used in uses for oid in used])

    def blob(rev: str, where: str) -> Blob | None:
        oid = oids[f"{rev}:{where}"]
        return None if oid is None else Blob(oid=oid, data=stream.get(oid))

    judged: dict[str, None] = {}
    for step, used in zip(changes, uses):
        commit = step.commit
        judged.setdefault(commit.hash)
        new = blob(commit.hash, step.path)
        if new is None:
            present = [parent for parent, old in step.parents if oids[f"{parent}:{old}"] is not None]
            moved = all(step.path in tree_renames(repo, parent, commit.hash).values() for parent in present)
            reason = None if moved else "deletes the game file"
        else:
            parents = [(f"parent {parent[:12]}", blob(parent, old)) for parent, old in step.parents]
            reason = checker.check(
                new,
                parents,
                commit.email,
                merge=len(parents) > 1,
                message=functools.partial(message_of, repo, commit.hash),
                carried=_carriers(repo, step, commit.email, new.data),
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
        for oid in used:
            left[oid] -= 1
            if not left[oid]:
                stream.drop(oid)
                checker.forget(oid)
    return len(judged), None


def _carriers(repo: FileRepo, step: Step, email: str, merged: bytes) -> Callable[[str], list[Carrier]]:
    """What `Checker.check` asks of a merge that leaves out a side of a game without e-mails: the
    commits of the parent it names (`parent 0123456789ab`) by others than `email` that carried
    what the merge's file `merged` leaves out (`carried_by_others`)."""

    def carried(name: str) -> list[Carrier]:
        for parent, old in step.parents:
            if name == f"parent {parent[:12]}":
                others = [p for p, _ in step.parents if p != parent]
                return carried_by_others(repo, parent, others, old, email=email, merged=merged)
        return []

    return carried


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
    repo = locate_file(path)
    refs = ("HEAD", "MERGE_HEAD")
    index = f":{repo.rel}"
    found = lookup_objects(repo, [index, *refs, *(f"{ref}:{repo.rel}" for ref in refs)])
    new_id = blob_id(found[index])
    parents: list[tuple[str, str | None]] = []
    moved = False
    for ref in (ref for ref in refs if found[ref] is not None):
        oid = blob_id(found[f"{ref}:{repo.rel}"])
        if oid is None and new_id is not None:
            old = find_renames(repo, ["diff-index", "--cached", ref, "--"]).get(repo.rel)
            if old is not None:
                oid = blob_ids(repo, [f"{ref}:{old}"])[f"{ref}:{old}"]
                moved = True
        parents.append((ref, oid))
    if new_id is None and all(oid is None for _, oid in parents):
        raise UsageError(f"{repo.rel} is neither committed nor staged")
    checker = Checker()
    if not is_touched(new_id, [oid for _, oid in parents], moved):
        return _report(repo, checker, 0, None, rev_range=None, staged=True)
    ident = git_output(["var", "GIT_AUTHOR_IDENT"], repo.root).decode("utf-8", "replace")
    author, _, rest = ident.partition(" <")
    email = rest[: rest.rfind(">")] if ">" in rest else rest
    if new_id is None:
        away = find_renames(repo, ["diff-index", "--cached", "HEAD", "--"]).values()
        reason = None if repo.rel in away else "deletes the game file"
    else:
        contents = blob_contents(repo, [new_id, *(oid for _, oid in parents if oid is not None)])
        olds = [(ref, None if oid is None else Blob(oid=oid, data=contents[oid])) for ref, oid in parents]
        new = Blob(oid=new_id, data=contents[new_id])
        heads = [ref for ref, oid in parents if oid is not None]

        def carried(name: str) -> list[Carrier]:
            others = [ref for ref in heads if ref != name]
            return carried_by_others(repo, name, others, repo.rel, email=email, merged=new.data)

        reason = checker.check(
            new, olds, email, merge=len(olds) > 1, staged=True, message=lambda: merge_msg(repo), carried=carried
        )
    bad = None
    if reason is not None:
        bad = {"commit": None, "author": author, "email": email, "subject": "", "reason": reason}
    return _report(repo, checker, 1, bad, rev_range=None, staged=True)


def git_report_text(report: dict[str, Any]) -> str:
    """`git_report` (or `staged_report`) in a line or three, for a person (`errors.safe`: the author,
    the subject and the reason may quote anything)."""
    path, bad = report["path"], report["bad"]
    if report["staged"]:
        scope = "the staged change"
    else:
        scope = plural(report["commits"], "commit") + (f" in {report['range']}" if report["range"] else "")
    if bad is None:
        if report["commits"] == 0:
            why = "the index holds HEAD's file" if report["staged"] else f"no commit in {report['range']} touches it"
            return safe(f"{path}: ok: nothing to check ({why})")
        rules = "each only appends, one turn or one undo at most, and no merge drops an event" + (
            ", by the player's own e-mail" if report["authors_checked"] else ""
        )
        played = f"\n{safe(played_for_line(report['played_for']))}" if report.get("played_for") else ""
        return safe(f"{path}: ok: {scope} checked: {rules}; chain head {report['head']}") + played
    who = f"{bad['author']} <{bad['email']}>"
    if bad["commit"] is None:
        head = f"{path}: the staged change by {who} breaks a rule:"
    else:
        head = f"{path}: first bad commit {bad['commit']} ({who}): {bad['subject']}"
    return f"{safe(head)}\n  {safe(bad['reason'])}"

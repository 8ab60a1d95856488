"""A game file's git history as the audit walks it (`verify`): its repository (`locate_file`),
the commits of a range with their real parents (`commits_of`), the file's path in each (renames
followed: `trace`), the blobs' ids and bytes (`blob_ids`, `contents`), a commit's message.

Git runs through `git.Git` (replacement refs ignored, literal pathspecs), as a few processes
whatever the length of the history: one `git log`, one `git cat-file --batch-check` (one more for
each rename followed, and one for the versions' sizes), a `git cat-file --batch` for every
`BATCH_BYTES` of versions (`BlobStream`), and a `git diff-tree` for each commit where the file
appears or disappears against a parent.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import attrs

from ..errors import UsageError
from ..store import StrPath
from .git import Git, read_git_file

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
class Step:
    """A commit of the walk with the file's path in it, and the file's path in each of its parents
    (another path where the commit renamed the file)."""

    commit: _Commit
    path: str
    parents: tuple[tuple[str, str], ...]


@attrs.frozen
class Blob:
    oid: str
    data: bytes


@attrs.frozen
class FileRepo:
    root: Path
    rel: str
    """The file's path from the root of the repository, as `REV:PATH` wants it."""
    shallow: frozenset[str]
    """The commits whose parents a shallow clone left out."""
    head: str | None = None
    """The commit HEAD names, when it was asked for (`locate_file(head=True)`)."""


_OBJECT = re.compile(r"([0-9a-f]{40}(?:[0-9a-f]{24})?) ([a-z]+) [0-9]+")
"""A line of `git cat-file --batch-check` for an object that exists (SHA-1 or SHA-256 ids)."""


def git_output(args: list[str], cwd: Path, *, stdin: bytes | None = None) -> bytes:
    """Run git; its failure is a UsageError naming what git said. Replacement refs (`git replace`)
    are ignored: the walk judges the commits as they are."""
    return Git(cwd=cwd, options=_OPTIONS, needs="`verify --git` needs it").output(*args, stdin=stdin)


_OPTIONS = ("--no-replace-objects", "-c", "log.showSignature=false", "--literal-pathspecs")


def _text(data: bytes) -> str:
    """Paths and ids as git wrote them (any bytes of a path survive the round trip back to git)."""
    return data.decode("utf-8", "surrogateescape")


def locate_file(where: StrPath, *, head: bool = False) -> FileRepo:
    """The repository of the file at `where`; `head`: with the commit HEAD names (there must be one)."""
    path = Path(where)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{path}: no such folder {str(folder)!r}")
    asked = ["HEAD^{commit}"] if head else []
    fields = ["--show-toplevel", "--show-prefix", "--is-shallow-repository", "--git-path", "shallow"]
    try:
        out = git_output(["rev-parse", *asked, *fields], folder)
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
    return FileRepo(root=Path(top), rel=rel, shallow=shallow, head=tip)


def commits_of(repo: FileRepo, rev_range: str | None) -> list[_Commit]:
    """Every commit of `rev_range` (default: all of HEAD's history), oldest first (parents always
    before their children), with its real parents: no path, so no history simplification."""
    if rev_range is not None and (not rev_range.strip() or rev_range.startswith("-")):
        raise UsageError(f"bad revision range {rev_range!r}: give one like HEAD~5..HEAD or main..feature")
    revs = ["--end-of-options", rev_range] if rev_range is not None else []
    out = git_output(
        ["log", "-z", "--no-mailmap", "--topo-order", "--reverse", f"--format={_LOG_FORMAT}", *revs, "--"], repo.root
    )
    return _listed(out)


_LOG_FORMAT = "%H %P%n%an%n%ae%n%s"
"""A commit as `_listed` reads it. No field can hold a line break (git keeps none in an ident,
and %s joins the subject's lines)."""


def _listed(out: bytes) -> list[_Commit]:
    """The commits of a `git log -z --format=_LOG_FORMAT`."""
    commits = []
    for item in out.decode("utf-8", "replace").split("\0"):
        item = item.lstrip("\n")
        if not item:
            continue
        ids, author, email, subject = [*item.split("\n", 3), "", "", ""][:4]
        hash_, *parents = ids.split()
        commits.append(_Commit(hash=hash_, parents=tuple(parents), author=author, email=email, subject=subject))
    return commits


def lookup_objects(repo: FileRepo, specs: list[str]) -> dict[str, tuple[str, str] | None]:
    """The id and type of the object each spec (`REV:PATH`, `:PATH`, `REV`) names, None where there
    is none: in one `git cat-file --batch-check`."""
    unique = list(dict.fromkeys(specs))
    if not unique:
        return {}
    stdin = "".join(f"{spec}\n" for spec in unique).encode("utf-8", "surrogateescape")
    lines = _text(git_output(["cat-file", "--batch-check"], repo.root, stdin=stdin)).split("\n")
    found: dict[str, tuple[str, str] | None] = {}
    for spec, line in zip(unique, lines):
        match = _OBJECT.fullmatch(line)  # else "SPEC missing" (or ambiguous)
        found[spec] = (match[1], match[2]) if match else None
    return found


def blob_id(hit: tuple[str, str] | None) -> str | None:
    return hit[0] if hit is not None and hit[1] == "blob" else None


def blob_ids(repo: FileRepo, specs: list[str]) -> dict[str, str | None]:
    """The blob id of the file each `REV:PATH` names; None where it is missing (or is no file)."""
    return {spec: blob_id(hit) for spec, hit in lookup_objects(repo, specs).items()}


def blob_contents(repo: FileRepo, oids: list[str]) -> dict[str, bytes]:
    """The bytes of each blob, each read once, in one `git cat-file --batch`."""
    unique = list(dict.fromkeys(oids))
    if not unique:
        return {}
    out = git_output(["cat-file", "--batch"], repo.root, stdin="".join(f"{oid}\n" for oid in unique).encode("ascii"))
    contents: dict[str, bytes] = {}
    pos = 0
    for oid in unique:
        end = out.index(b"\n", pos)
        head = out[pos:end].split()
        size = int(head[2])
        contents[oid] = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return contents


BATCH_BYTES = 32 << 20
"""How many bytes of blobs `BlobStream` asks one `git cat-file --batch` for (one blob more when
a single one is larger): the walk holds a batch, not the whole history, in memory."""


def blob_sizes(repo: FileRepo, oids: list[str]) -> dict[str, int]:
    """The size of each blob, in one `git cat-file --batch-check`."""
    unique = list(dict.fromkeys(oids))
    if not unique:
        return {}
    stdin = "".join(f"{oid}\n" for oid in unique).encode("ascii")
    lines = _text(git_output(["cat-file", "--batch-check"], repo.root, stdin=stdin)).split("\n")
    sizes = {}
    for oid, line in zip(unique, lines):
        fields = line.split()
        sizes[oid] = int(fields[2]) if len(fields) == 3 and fields[2].isdigit() else 0
    return sizes


class BlobStream:
    """The bytes of the blobs a walk reads, in the order it first asks for them (`order`): read a
    batch at a time (`BATCH_BYTES`), each held until the walk says it is done with it (`drop`),
    so that a long history is never in memory whole. A blob asked for out of order, or again
    after it was dropped, is read on its own."""

    def __init__(self, repo: FileRepo, order: list[str], batch: int | None = None) -> None:
        self.repo = repo
        self.order = list(dict.fromkeys(order))
        self.sizes = blob_sizes(repo, self.order)
        self.batch = BATCH_BYTES if batch is None else batch
        self.next = 0
        self.held: dict[str, bytes] = {}
        self.read: set[str] = set()

    def get(self, oid: str) -> bytes:
        if oid not in self.held:
            while self.next < len(self.order) and self.order[self.next] in self.read:
                self.next += 1
            wanted: list[str] = []
            if self.next < len(self.order) and self.order[self.next] == oid:
                total = 0
                for later in itertools.islice(self.order, self.next, None):
                    if later in self.read:
                        continue
                    if wanted and total + self.sizes[later] > self.batch:
                        break
                    wanted.append(later)
                    total += self.sizes[later]
            else:
                wanted = [oid]
            self.read.update(wanted)
            self.held.update(blob_contents(self.repo, wanted))
        return self.held[oid]

    def drop(self, oid: str) -> None:
        self.held.pop(oid, None)


def find_renames(repo: FileRepo, args: list[str]) -> dict[str, str]:
    """The files that git's rename detection says `git diff-tree`/`diff-index ARGS` renamed: new path -> old."""
    fields = _text(git_output([*args[:1], "-z", "--find-renames", "--name-status", *args[1:]], repo.root)).split("\0")
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


def message_of(repo: FileRepo, commit: str) -> str:
    """The message of `commit`, as its object holds it (after the headers)."""
    _, _, message = git_output(["cat-file", "commit", commit], repo.root).partition(b"\n\n")
    return message.decode("utf-8", "replace")


def merge_msg(repo: FileRepo) -> str:
    """The message git prepared for the merge under way (MERGE_MSG), "" when there is none."""
    where = _text(git_output(["rev-parse", "--git-path", "MERGE_MSG"], repo.root)).strip()
    return (read_git_file(repo.root / where) or b"").decode("utf-8", "replace")  # bounded, as gitsync's


def tree_renames(repo: FileRepo, parent: str, child: str) -> dict[str, str]:
    return find_renames(repo, ["diff-tree", "-r", "--no-commit-id", parent, child])


def trace_steps(repo: FileRepo, commits: list[_Commit]) -> tuple[list[Step], dict[str, str | None]]:
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
                steps.append(Step(commit=commit, path=path, parents=edges))
        steps.reverse()
        specs = [f"{rev}:{path}" for step in steps for rev, path in ((step.commit.hash, step.path), *step.parents)]
        unknown = [spec for spec in dict.fromkeys(specs) if spec not in oids]
        if unknown:
            oids.update(blob_ids(repo, unknown))
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
            renames[(parent, child)] = tree_renames(repo, parent, child)


def is_touched(new: str | None, olds: list[str | None], moved: bool) -> bool:
    """Whether a change from files `olds` (blob ids) to `new` is to be judged: it adds, changes,
    moves or removes the file (with no parent, it creates it when it holds it)."""
    if not olds:
        return new is not None
    return moved or any(old != new for old in olds)


def blob_oid(data: bytes, *, sha256: bool) -> str:
    """The id git gives a file that holds `data` (`git hash-object`)."""
    import hashlib

    return hashlib.new("sha256" if sha256 else "sha1", b"blob %d\0" % len(data) + data).hexdigest()


_COMMIT_ID = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def mark_commit(repo: FileRepo, mark: str | None) -> str | None:
    """The commit of `mark` (`audit`'s) when it is one of this file, at this path; else None."""
    if mark is None:
        return None
    commit, newline, rel = mark.partition("\n")
    if not newline or rel != repo.rel or not _COMMIT_ID.fullmatch(commit):
        return None
    return commit


def commits_after(repo: FileRepo, since: str, tip: str) -> list[_Commit] | None:
    """The commits of `since..tip` (`commits_of`), when `since` is `tip` or one of its ancestors;
    None when it is not (or is no commit here). It is one exactly when a commit of the range has
    it for a parent: the commit after it on a path from `tip` down to it is in the range (an
    ancestor of `tip`, and not of `since`: its child), and every commit of the range is an
    ancestor of `tip`."""
    if since == tip:
        return []
    try:
        commits = commits_of(repo, f"{since}..{tip}")
    except UsageError:  # git knows no such commit (a history rewritten and collected, another clone's)
        return None
    return commits if any(since in commit.parents for commit in commits) else None


def touched_somewhere(repo: FileRepo, steps: list[Step], oids: dict[str, str | None]) -> None:
    """Raise UsageError when no commit of the walk holds the file."""
    if all(oids[f"{step.commit.hash}:{step.path}"] is None for step in steps):
        raise UsageError(f"{repo.rel}: no commit has touched it yet (is it committed?)")


# -- who carried what a merge leaves out ----------------------------------------------------------

MAX_CARRIERS = 1000
"""The most commits of a merge's dropped side that `carried_by_others` looks at (the newest)."""


@attrs.frozen
class Carrier:
    """A commit that carried events a merge leaves out: its id and its author as recorded."""

    commit: str
    author: str
    email: str


def carried_by_others(
    repo: FileRepo, side: str, others: list[str], path: str, *, email: str, merged: bytes
) -> list[Carrier]:
    """The commits of a merge's parent `side` that none of its other parents (`others`) holds,
    that changed the file at `path` and hold events the merge's file `merged` leaves out (their
    version of the file is not a prefix of it), authored by another e-mail than `email` (the
    merge's author; compared without regard to case, as recorded: no `.mailmap`), newest first.

    Only the newest MAX_CARRIERS commits of the side are looked at; a version is compared with
    `merged` by its blob id and size (`git cat-file --batch-check`), never read.
    """
    revs = [rev for rev in (side, *others) if _COMMIT_OR_REF.fullmatch(rev)]
    if not revs or revs[0] != side:
        return []
    out = git_output(
        [
            "log",
            "-z",
            "--no-mailmap",
            "--full-history",
            "--no-merges",
            f"--max-count={MAX_CARRIERS}",
            f"--format={_LOG_FORMAT}",
            side,
            "--not",
            *revs[1:],
            "--",
            path,
        ],
        repo.root,
    )
    strangers = [c for c in _listed(out) if c.email.casefold() != email.casefold()]
    if not strangers:
        return []
    oids = blob_ids(repo, [f"{c.hash}:{path}" for c in strangers])
    sizes = blob_sizes(repo, [oid for oid in oids.values() if oid is not None])
    found = []
    for commit in strangers:
        oid = oids.get(f"{commit.hash}:{path}")
        if oid is None:
            continue
        size = sizes.get(oid, 0)
        if size <= len(merged) and blob_oid(merged[:size], sha256=len(oid) > 40) == oid:
            continue  # its version is a prefix of the merge's: it carried nothing left out
        found.append(Carrier(commit=commit.hash, author=commit.author, email=commit.email))
    return found


_COMMIT_OR_REF = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?|HEAD|MERGE_HEAD")
"""What `carried_by_others` takes for a parent: a commit id, or HEAD or MERGE_HEAD."""

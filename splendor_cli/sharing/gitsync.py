"""`splendor sync`'s git work: commit a player's new turns one per commit, fetch, merge by
events (never rebase), and push, retrying when someone pushed first.

Commits are made with git's plumbing on a private index (`read-tree`, `hash-object`,
`update-index --cacheinfo`, `write-tree`, `commit-tree`, `update-ref`), so that each turn gets
a commit of its own that holds the game file exactly as it was after that turn, whatever else
the user has changed or staged: only the game file goes into these commits. Each commit's
author is who played its turn (their address from the header, when it maps one): its player,
or who played it for them on purpose (`play --for`, the event's `by`), as the audit (`verify
--git`) wants it. Who may type a turn is the gate's business: `--as` another player is refused
where the header says who the user is (app/commands/play.py).

Git runs through `git.Git` (sharing/git.py); nothing here prints.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

from ..bots import seat_spec
from ..errors import ConflictError, UsageError, safe
from ..events import Event, TurnUndone, actor, signature
from ..forks import cut, decode
from ..projection.log import event_notation
from ..projection.table_protocol import is_protocol_event
from ..projection.variant import AnyVariant
from ..records import parse_text
from ..store import Loaded, StrPath
from .git import Done, Git, read_git_file

_GIT_DIRS: dict[Path, Path] = {}
"""The git folder of each repository this process located (by its top)."""

PUSH_TRIES = 5
"""How many times `sync` fetches, merges and pushes again when someone else pushed first."""


@attrs.frozen
class Repo:
    """The repository that holds a game file, and the file's path in it."""

    top: Path
    rel: str
    """The file's path from the top of the repository, with `/`."""


@attrs.frozen
class Made:
    """A commit `sync` made: its id, the events it holds, its subject."""

    commit: str
    first: int
    last: int
    subject: str


def git(top: StrPath, *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None) -> str:
    """Run git in `top`; its output. A failure is a UsageError quoting git's last line."""
    return _git(top)(*args, stdin=stdin, env=env)


def _git(top: StrPath) -> Git:
    return Git(cwd=Path(top), needs="`splendor sync` needs it")


def _run(top: StrPath, args: Sequence[str], *, stdin: bytes | None = None) -> Done:
    return _git(top).run(*args, stdin=stdin)


def locate(path: StrPath, *, name: str | None = None) -> Repo:
    """The repository of the game file at `path`. The file need not exist yet (nor its folder:
    `sync -g games/new.toml` before the game arrived): git is asked from the nearest folder that does.
    `name` is what a refusal calls the place (default: `path`).

    Raises:
        UsageError: the file is not in a git repository (or git is missing).
    """
    file = Path(path)
    folder = file.parent if str(file.parent) else Path(".")
    missing: list[str] = []
    while not folder.is_dir() and folder != folder.parent and str(folder) not in ("", "."):
        missing.insert(0, folder.name)
        folder = folder.parent if str(folder.parent) else Path(".")
    done = _run(folder, ["rev-parse", "--show-toplevel", "--show-prefix", "--absolute-git-dir"])
    if done.returncode != 0:
        if b"not a git repository" in done.stderr:
            raise UsageError(
                f"{safe(name or str(path))} is not in a git repository: `splendor sync` shares games through one"
                " (`git clone URL` to join a table's repository, or `git init` to start one; then"
                " `splendor git install`); by mail: `splendor export` and `apply`"
            )
        raise UsageError(f"git rev-parse: {done.last_line()}")
    top, prefix, git_dir = done.stdout.decode("utf-8", "surrogateescape").split("\n")[:3]
    _GIT_DIRS.setdefault(Path(top), Path(git_dir))
    return Repo(top=Path(top), rel=prefix + "".join(f"{part}/" for part in missing) + file.name)


def locate_folder(folder: StrPath) -> Repo:
    """The repository of `folder` (`rel` is the folder's own path in it)."""
    where = os.path.abspath(folder)
    return locate(Path(folder) / "_", name=f"this folder ({where})" if str(folder) in ("", ".") else where)


def under_way(repo: Repo) -> str | None:
    """The git operation that is under way ("merge", "rebase", "cherry-pick", "revert"), or None."""
    paths = git(
        repo.top,
        "rev-parse",
        "--git-path",
        "MERGE_HEAD",
        "--git-path",
        "rebase-merge",
        "--git-path",
        "rebase-apply",
        "--git-path",
        "CHERRY_PICK_HEAD",
        "--git-path",
        "REVERT_HEAD",
    ).split("\n")
    names = ("merge", "rebase", "rebase", "cherry-pick", "revert")
    for name, where in zip(names, paths):
        if (repo.top / where).exists():
            return name
    return None


def unmerged(repo: Repo) -> list[str]:
    """The paths git left in conflict (from the top of the repository)."""
    out = git(repo.top, "diff", "--name-only", "--diff-filter=U", "-z")
    return [p for p in out.split("\0") if p]


def head(repo: Repo) -> str | None:
    """The commit HEAD names, or None in a repository without one yet."""
    done = _run(repo.top, ["rev-parse", "--verify", "-q", "HEAD^{commit}"])
    return done.stdout.decode().strip() if done.returncode == 0 else None


def committed(repo: Repo, rev: str = "HEAD", *, rel: str | None = None) -> bytes | None:
    """The game file (or the file at `rel`, from the top) as `rev` holds it; None when it does not."""
    done = _run(repo.top, ["cat-file", "blob", f"{rev}:{rel or repo.rel}"])
    return done.stdout if done.returncode == 0 else None


def commit_of(repo: Repo, rev: str) -> str | None:
    """The id of the commit `rev` names, or None when it names none."""
    done = _run(repo.top, ["rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}"])
    return done.stdout.decode("ascii", "replace").strip() if done.returncode == 0 else None


def holds(repo: Repo, rev: str, commit: str) -> bool:
    """Whether the history of `rev` holds `commit` (false when this repository lacks it)."""
    return _run(repo.top, ["merge-base", "--is-ancestor", "--end-of-options", commit, rev]).returncode == 0


def has_file(repo: Repo, rev: str, rel: str) -> bool:
    """Whether `rev` holds the file at `rel` (from the top)."""
    return _run(repo.top, ["cat-file", "-e", f"{rev}:{rel}"]).returncode == 0


def remote_address(repo: Repo, remote: str) -> str:
    """The address the remote `remote` fetches from (its name when git has none)."""
    done = _run(repo.top, ["config", "--get", f"remote.{remote}.url"])
    return done.stdout.decode("utf-8", "surrogateescape").strip() if done.returncode == 0 else remote


def commits_only_in(repo: Repo, commit: str, rev: str, rel: str, most: int) -> list[tuple[str, str, str, str]]:
    """The newest `most` commits of `commit`'s history that `rev`'s lacks and that changed the file
    at `rel`: each (id, author, e-mail, subject), as recorded (no `.mailmap`); none when this
    repository lacks `commit`."""
    fmt = "--format=%H%n%an%n%ae%n%s"
    done = _run(repo.top, ["log", "-z", "--no-mailmap", f"--max-count={most}", fmt, commit, "--not", rev, "--", rel])
    if done.returncode != 0:
        return []
    found = []
    for item in done.stdout.decode("utf-8", "replace").split("\0"):
        fields = item.lstrip("\n").split("\n", 3)
        if len(fields) == 4:
            found.append((fields[0], fields[1], fields[2], fields[3]))
    return found


def arriving(repo: Repo, rev: str, folders: Sequence[str]) -> list[str]:
    """The `.toml` files under `folders` (from the top) that `rev` holds and HEAD does not (all
    of them when there is no HEAD yet): the files a merge of `rev` would bring, from the top."""
    has_head = head(repo) is not None
    args = (
        ["diff", "--name-only", "-z", "--diff-filter=A", "HEAD", rev]
        if has_head
        else ["ls-tree", "-r", "--name-only", "-z", rev]
    )
    done = _run(repo.top, [*args, "--", *folders])
    if done.returncode != 0:
        return []
    names = done.stdout.decode("utf-8", "surrogateescape").split("\0")
    return [name for name in names if name.endswith(".toml")]


# -- one turn per commit -------------------------------------------------------------------------


def groups(variant: AnyVariant, events: Sequence[Event]) -> list[list[Event]]:
    """The new events cut into what one commit may hold (the rule `verify --git` checks): the
    setup alone; an undo, or a step of the deal, alone; one person's turn (in a game played in
    steps, their steps in a row), with the turns of the bot seats that answered it."""
    out: list[list[Event]] = []
    for event in events:
        who = actor(event)
        playing = isinstance(event, variant.play_types)
        if out and who and _sealed_together(out[-1][-1], event):
            out[-1].append(event)
            continue
        if out and playing:
            last = out[-1][-1]
            same = variant.stepwise and isinstance(last, variant.play_types) and actor(last) == who
            answer = seat_spec(who) is not None and isinstance(last, variant.play_types)
            if same or answer:
                out[-1].append(event)
                continue
        out.append([event])
    return out


def _sealed_together(last: Event, event: Event) -> bool:
    """Whether `event` joins the commit of `last` in a game of keys (sealed, signed): one player's
    events in a row when one of them is a step of the table protocol (their join, shares or keys
    ride with their turn). Signatures, not commit authors, tell who made them (`verify --git`)."""
    if actor(last) != actor(event) or not signature(last) or not signature(event):
        return False
    return is_protocol_event(last) or is_protocol_event(event)


def subject(game: str, variant: AnyVariant, events: Sequence[Event]) -> str:
    """A commit's standard subject: `<game> #12 bob: take white blue green`, the first event of the
    group in the log's words, and the rest counted. An event nobody made (a sealed game's first,
    an undo nobody signed) is named as the log names it, with no name before it: `<game> #1 new
    sealed game: ann, bob; ...`."""
    first = events[0]
    if isinstance(first, variant.setup_type):
        return f"{game}: new game"
    who = actor(first)
    seqs = f"#{first.seq}" if len(events) == 1 else f"#{first.seq}-{events[-1].seq}"
    more = len(events) - 1
    text = f"{game} {seqs} {f'{who}: ' if who else ''}{event_notation(variant, first)}"
    if more and any(is_protocol_event(e) for e in events):  # a turn with its steps of the table protocol
        text += f" (and {more} more event{'s' if more > 1 else ''})"
    elif more:
        bots = all(seat_spec(actor(e)) for e in events[1:])
        text += f" (and {more} {'bot ' if bots and not isinstance(first, TurnUndone) else ''}"
        text += f"{'step' if variant.stepwise and not bots else 'turn'}{'s' if more > 1 else ''})"
    return safe(text)[:200]


def commit_turns(repo: Repo, loaded: Loaded) -> list[Made]:
    """Commit the events of the game file that HEAD lacks, one group (`groups`) per commit, with
    the file as it was after each; return the commits made (none when HEAD holds the file).

    Only the game file goes into these commits; what else the user changed stays as it was, and
    the index entry of the game file is set to the last commit's. The author of each is the
    player of its turn with their address from the header (when it gives one), else the user.

    Raises:
        ConflictError: the file in HEAD is not where the file on disk started (it was changed
            other than by appending): nothing is committed.
    """
    before = committed(repo)
    data = loaded.data
    if before == data:
        return []
    text = decode(data)
    blocks = cut(text, len(loaded.record.events))
    ends = []
    offset = len(blocks.head.encode("utf-8"))
    for block in blocks.blocks:
        offset += len(block.encode("utf-8"))
        ends.append(offset)
    known = 0
    if before is not None:
        if not data.startswith(before):
            raise ConflictError(
                f"{repo.rel}: the file differs from its last commit other than by new events at its end"
                " (edited by hand?): `git diff` shows how; `git checkout -- FILE` gives the committed game back"
            )
        known = _events_in(before, ends, len(blocks.head.encode("utf-8")))
    new = loaded.record.events[known:]
    if not new:  # only text that is no event (a comment): one commit for it
        return [_commit(repo, data, f"{loaded.record.header.game}: notes", None, known, known)]
    header = loaded.record.header
    emails = dict(zip(header.players, header.emails)) if header.emails else {}
    made = []
    count = known
    chunks = groups(loaded.game.variant, new)
    for i, chunk in enumerate(chunks):
        count += len(chunk)
        version = data if i == len(chunks) - 1 else data[: ends[count - 1]]
        player = next((e for e in chunk if actor(e) and not seat_spec(actor(e))), None)
        who = (getattr(player, "by", "") or actor(player)) if player is not None else ""  # who played it
        author = {"name": who, "email": emails[who]} if emails.get(who) else None
        made.append(
            _commit(
                repo, version, subject(header.game, loaded.game.variant, chunk), author, chunk[0].seq, chunk[-1].seq
            )
        )
    return made


def _events_in(before: bytes, ends: list[int], head: int) -> int:
    """How many events the committed file `before` holds, a prefix of the file whose header ends
    at byte `head` and whose event blocks end at the bytes `ends`: the blocks it holds whole when it
    ends where one does (no second parse); else it is parsed (the file on disk extends it: it reads)."""
    if len(before) == head:
        return 0
    if len(before) in ends:
        return ends.index(len(before)) + 1
    return len(parse_text(decode(before)).events)


def _commit(repo: Repo, data: bytes, message: str, author: dict[str, str] | None, first: int, last: int) -> Made:
    """A commit on HEAD that changes only the game file, to `data`."""
    return Made(commit=commit_file(repo, repo.rel, data, message, author), first=first, last=last, subject=message)


def commit_file(repo: Repo, rel: str, data: bytes, message: str, author: dict[str, str] | None = None) -> str:
    """A commit on HEAD that changes only the file at `rel` (from the top), to `data`; its id.
    The index entry of that file is set to it too; nothing else of the index or the work tree changes."""
    parent = head(repo)
    env = {}
    if author:
        env = {"GIT_AUTHOR_NAME": author["name"], "GIT_AUTHOR_EMAIL": author["email"]}
    mode = "100644"
    if parent is not None:
        listed = git(repo.top, "ls-tree", parent, "--", rel)
        if listed:
            mode = listed.split()[0]
    blob = git(repo.top, "hash-object", "-w", "--stdin", stdin=data)
    with _private_index(repo) as index:
        if parent is not None:
            git(repo.top, "read-tree", parent, env=index)
        else:
            git(repo.top, "read-tree", "--empty", env=index)
        git(repo.top, "update-index", "--add", "--cacheinfo", f"{mode},{blob},{rel}", env=index)
        tree = git(repo.top, "write-tree", env=index)
    args = ["commit-tree", tree, "-m", message] + (["-p", parent] if parent else [])
    commit = git(repo.top, *args, env=env)
    git(repo.top, "update-ref", "-m", f"splendor sync: {message}", "HEAD", commit, parent or "")
    git(repo.top, "update-index", "--add", "--cacheinfo", f"{mode},{blob},{rel}")
    return commit


def _git_dir(top: Path) -> Path:
    """The git folder of the repository at `top` (asked of git once per process: `locate` tells it)."""
    if top not in _GIT_DIRS:
        _GIT_DIRS[top] = Path(git(top, "rev-parse", "--absolute-git-dir"))
    return _GIT_DIRS[top]


@contextlib.contextmanager
def _private_index(repo: Repo) -> Iterator[dict[str, str]]:
    """A scratch index in the repository's own git folder (never a shared /tmp), removed after."""
    path = _git_dir(repo.top) / f"splendor-index-{os.getpid()}"
    try:
        yield {"GIT_INDEX_FILE": str(path)}
    finally:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


# -- fetch, merge, push --------------------------------------------------------------------------


@attrs.frozen
class Upstream:
    """Where `sync` fetches from and pushes to."""

    remote: str
    branch: str
    """The branch on the remote (`main`)."""
    tracking: bool
    """Whether the local branch tracks it already (else the first push sets it)."""

    @property
    def ref(self) -> str:
        return f"refs/remotes/{self.remote}/{self.branch}"


def upstream(repo: Repo) -> Upstream | None:
    """The branch's upstream; else, with exactly one remote, the branch of the same name there;
    None when there is no remote (a repository of one's own: sync only commits)."""
    branch = _run(repo.top, ["symbolic-ref", "-q", "--short", "HEAD"]).stdout.decode().strip()
    if not branch:
        raise UsageError("HEAD is detached (no branch is checked out): `git switch BRANCH`, then `splendor sync`")
    remote = _run(repo.top, ["config", f"branch.{branch}.remote"]).stdout.decode().strip()
    merge = _run(repo.top, ["config", f"branch.{branch}.merge"]).stdout.decode().strip()
    if remote and remote != "." and merge.startswith("refs/heads/"):
        return Upstream(remote=remote, branch=merge.removeprefix("refs/heads/"), tracking=True)
    remotes = git(repo.top, "remote").split()
    if len(remotes) == 1:
        return Upstream(remote=remotes[0], branch=branch, tracking=False)
    if remotes:
        raise UsageError(
            f"branch {branch} has no upstream and there are several remotes ({', '.join(remotes)}):"
            f" choose one with `git branch --set-upstream-to REMOTE/{branch}`"
        )
    return None


def fetch(repo: Repo, up: Upstream) -> bool:
    """Fetch the upstream branch; whether the remote has it (a new, empty remote has not)."""
    done = _run(repo.top, ["fetch", "--quiet", up.remote])
    if done.returncode != 0:
        raise UsageError(f"git fetch {up.remote}: {done.last_line()}")
    return _run(repo.top, ["rev-parse", "--verify", "-q", up.ref]).returncode == 0


@attrs.frozen
class Merged:
    """What `git merge` did: whether it changed HEAD, stopped on a conflict, and what the
    merge driver said (one line per game file it merged)."""

    changed: bool
    conflict: bool
    said: tuple[str, ...]


MERGE_SUBJECT = "splendor sync: merge "
"""How the subject of every merge commit that sync makes begins (`merge`, `conclude_merge`)."""


def author_email(repo: Repo) -> str:
    """The e-mail git would record as the author of the next commit here (`git var
    GIT_AUTHOR_IDENT`, as it is: `.mailmap` is not applied); "" when git has none."""
    done = _run(repo.top, ["var", "GIT_AUTHOR_IDENT"])
    ident = done.stdout.decode("utf-8", "replace") if done.returncode == 0 else ""
    _, _, rest = ident.partition(" <")
    return rest[: rest.rfind(">")] if ">" in rest else ""


def merge_base_file(repo: Repo, rel: str) -> bytes | None:
    """The file at `rel` as the base of the merge under way (of HEAD and MERGE_HEAD) holds it."""
    done = _run(repo.top, ["merge-base", "HEAD", "MERGE_HEAD"])
    if done.returncode != 0:
        return None
    return committed(repo, done.stdout.decode().strip(), rel=rel)


def undo_own_merge(repo: Repo, commit: str | None) -> str | None:
    """Undo the merge commit `commit` when it is HEAD, sync made it (its subject), and it was never
    pushed (no remote-tracking branch holds it): HEAD goes back to its first parent with `git
    reset --keep` (what the user changed in the work tree stays; git refuses, and nothing
    happens, when such a change is in a file the merge changed). The commit undone; None when
    there was nothing sync may undo."""
    tip = head(repo)
    if tip is None or commit is None or tip != commit:
        return None
    parents = git(repo.top, "rev-list", "--parents", "-n", "1", tip).split()[1:]
    if len(parents) < 2 or not git(repo.top, "log", "-1", "--format=%s", tip).startswith(MERGE_SUBJECT):
        return None
    if git(repo.top, "branch", "-r", "--contains", tip):
        return None  # pushed: history now, never rewritten
    if _run(repo.top, ["reset", "-q", "--keep", parents[0]]).returncode != 0:
        return None
    return tip


def merge(repo: Repo, up: Upstream) -> Merged:
    """Merge the upstream branch into HEAD (a fast-forward when it can be): never a rebase,
    whatever `pull.rebase` says. Game files merge by events (the driver `git install` set)."""
    before = head(repo)
    done = _run(
        repo.top,
        ["merge", "--no-edit", "--ff", "--no-verify", "-m", f"{MERGE_SUBJECT}{up.remote}/{up.branch}", up.ref],
    )
    said = tuple(
        line.removeprefix("splendor: ")
        for line in (done.stdout + done.stderr).decode("utf-8", "replace").splitlines()
        if line.startswith("splendor: ")
    )
    if done.returncode != 0:
        if under_way(repo) == "merge":
            return Merged(changed=True, conflict=True, said=said)
        raise UsageError(f"git merge {up.remote}/{up.branch}: {done.last_line()}")
    return Merged(changed=head(repo) != before, conflict=False, said=said)


def conclude_merge(repo: Repo, games: Sequence[str], trailers: Sequence[str] = ()) -> str:
    """Finish a merge whose conflicts are settled: stage the game files (`games`, from the top) and
    commit, with the message git prepared and `trailers` (lines such as a sealed game's
    `Splendor-Withdrawn-By:`) at its end."""
    if games:
        git(repo.top, "add", "--", *games)
    left = unmerged(repo)
    if left:
        raise ConflictError(
            f"the merge still has conflicts in {', '.join(left[:5])}: settle them (`git status`), then `splendor sync`"
        )
    if not trailers:
        git(repo.top, "commit", "--no-edit", "--no-verify")
        return head(repo) or ""
    where = repo.top / git(repo.top, "rev-parse", "--git-path", "MERGE_MSG")
    prepared = (read_git_file(where) or b"").decode("utf-8", "replace")  # git's own file, bounded
    lines = [line for line in prepared.splitlines() if not line.startswith("#")]
    text = "\n".join(lines).strip() or "splendor sync: merge"
    message = f"{text}\n\n" + "".join(f"{line}\n" for line in trailers)
    git(repo.top, "commit", "--no-verify", "--cleanup=strip", "-F", "-", stdin=message.encode("utf-8"))
    return head(repo) or ""


def ahead(repo: Repo, up: Upstream) -> int:
    """How many commits HEAD has that the upstream branch lacks (all of them, if it has none; none
    in a repository without a commit yet)."""
    if head(repo) is None:
        return 0
    done = _run(repo.top, ["rev-list", "--count", f"{up.ref}..HEAD", "--"])
    if done.returncode == 0:
        return int(done.stdout.decode().strip() or "0")
    if _run(repo.top, ["rev-parse", "--verify", "-q", up.ref]).returncode == 0:
        raise UsageError(f"git rev-list: {done.last_line()}")
    return int(git(repo.top, "rev-list", "--count", "HEAD") or "0")


def push(repo: Repo, up: Upstream) -> bool:
    """Push HEAD to the upstream branch: True when it was taken; False when the remote has
    commits HEAD lacks, or another push was updating the branch at that moment (`_RACED`:
    fetch, merge and push again).

    Raises:
        UsageError: the push failed for another reason (no access, no network...).
    """
    args = [
        "push",
        "--porcelain",
        *([] if up.tracking else ["--set-upstream"]),
        up.remote,
        f"HEAD:refs/heads/{up.branch}",
    ]
    done = _run(repo.top, args)
    if done.returncode == 0:
        return True
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    if any(sign in text for sign in _RACED):
        return False
    raise UsageError(f"git push {up.remote}: {done.last_line()}")


_RACED = (
    "[rejected]",
    "fetch first",
    "non-fast-forward",
    "stale info",
    # another push updating the branch at this moment: the remote held its lock, or moved under it
    "failed to update ref",
    "cannot lock ref",
    "failed to lock",
    "incorrect old value",
)
"""What git says of a push refused because someone else pushed first, or is pushing now: fetch,
merge and push again (`sharing.sync.exchange`)."""

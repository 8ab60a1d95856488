"""`splendor verify`: a game file checked whole (every rule, signature and proof again), or its
git history (`--git`: the audit, sharing/git_audit.py)."""

from __future__ import annotations

from ...errors import UsageError
from ..output import json_text, out
from ..params import GAME, JSON, Param, command
from ..services.gamefile import game_path, gate


@command(
    "verify",
    Param("rev_range", help="With --git: the commits to check (main..feature, HEAD~5..HEAD)."),
    GAME,
    Param("git", "--git", kind="flag", help="Check the git history of the file instead."),
    Param("staged", "--staged", kind="flag", help="With --git: check the staged change (a pre-commit hook)."),
    JSON,
)
def verify(
    *,
    rev_range: str | None = None,
    game: str | None = None,
    git: bool = False,
    staged: bool = False,
    json: bool = False,
) -> None:
    """Replay and check everything, and print a short report; exit 0, or 4 when something is wrong.

    A sealed game that is over but whose keys are not all published is exit 6, naming who owes
    them (they run `splendor seal`): until then its cards cannot be audited.

    With --git: every commit that touched the file (side branches and merges included, across
    renames) only appended events, one person's turn or undo at most (with the bots' answers);
    a merge never drops another player's events.

    When the header maps players to e-mails, each turn's player must also be its commit's author.
    An event you saw that HEAD's history no longer holds (a force-push rewrote it) is a problem too.

    Examples:

    splendor verify -g games/friday.toml

    splendor verify --git -g games/friday.toml '@{upstream}..HEAD'
    """
    from ...errors import GameFileError

    if (rev_range or staged) and not git:
        raise UsageError("a revision range and --staged go with --git")
    if git:
        from ...sharing import git_audit as audit

        path = game_path(game)
        report = audit.staged_report(path) if staged else audit.git_report(path, rev_range)
        text = audit.git_report_text(report)
        if not staged and rev_range is None and report["ok"]:  # HEAD's history against what you saw
            from ...sharing.rewritten import gone_from_history

            gone = gone_from_history(path, gate())
            if gone is not None:
                report.update(ok=False, vanished=gone)
                text = f"{report['path']}: VANISHED: {gone['reason']}"
    else:
        from ...sharing import verify as checks

        loaded = gate().read(game_path(game), verify_all=True)  # every signature and proof checked again
        report = checks.file_report(loaded)
        text = checks.report_text(report)
    out(json_text(report) if json else text)
    if not report["ok"]:
        bad = report.get("bad") or report.get("vanished")
        raise GameFileError(f"verify found a problem: {bad['reason'] if bad else 'see above'}")
    if report.get("keys_owed"):
        from ...errors import KeysOwedError
        from ..services.boards import keys_owed_line

        owed = tuple(report["keys_owed"])
        raise KeysOwedError(keys_owed_line(owed), players=owed)

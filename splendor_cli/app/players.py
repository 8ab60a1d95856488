"""Reading the player list of `splendor new` (names, optional e-mails) and checking it."""

from __future__ import annotations

from ..errors import UsageError
from ..projection.variant import AnyVariant, check_players


def parse_players(text: str, variant: AnyVariant) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`alice=alice@example.org,bob`: the names, and the e-mails (empty when none is given).

    Raises:
        UsageError: a bad name, a bad address, or a number of players the game cannot have.
    """
    names, emails = [], []
    for item in text.split(","):
        name, _, email = item.partition("=")
        email = email.strip()
        if email and ("@" not in email or any(c.isspace() or c in ",;\"'<>" for c in email)):
            raise UsageError(f"bad e-mail address {email!r} for {name.strip()!r}")
        names.append(name.strip())
        emails.append(email)
    for name in names:
        if not name or any(c.isspace() or c in ",=;\"'" for c in name):
            raise UsageError(f"bad player name {name!r}: use letters, digits, '-', '_', '.', ':' or '@'")
    problem = check_players(variant, names)
    if problem:
        if len(set(names)) != len(names) and any(":" in n for n in names):
            problem += " (tell two alike bots apart with #: bot:greedy#1,bot:greedy#2)"
        raise UsageError(problem)
    return tuple(names), tuple(emails) if any(emails) else ()

"""Reading the player list of `splendor new` (names, optional e-mails) and checking it."""

from __future__ import annotations

from ..errors import UsageError
from ..projection.variant import AnyVariant, check_players, name_problem


def parse_players(text: str, variant: AnyVariant) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`alice=alice@example.org,bob`: the names, and the e-mails (empty when none is given).

    Raises:
        UsageError: a bad address, a name that breaks the rule of player names (`NAME_RULE` in
            projection/variant.py: 1 to 32 ASCII letters, digits and `_ . @ : # + -`, a letter
            or digit first, no `..`), or a number of players the game cannot have.
    """
    names, emails = [], []
    for item in text.split(","):
        name, _, email = item.partition("=")
        email = email.strip()
        if email and ("@" not in email or any(c.isspace() or not c.isprintable() or c in ",;\"'<>" for c in email)):
            raise UsageError(f"bad e-mail address {email!r} for {name.strip()!r}")
        names.append(name.strip())
        emails.append(email)
    for name in names:
        problem = name_problem(name)  # the rule every read checks too (NAME_RULE), quoted as it is
        if problem:
            raise UsageError(problem)
    problem = check_players(variant, names)
    if problem:
        if len(set(names)) != len(names) and any(":" in n for n in names):
            problem += " (tell two alike bots apart with #: bot:greedy#1,bot:greedy#2)"
        raise UsageError(problem)
    return tuple(names), tuple(emails) if any(emails) else ()

"""`splendor verify`: check a game file (`file_report`, `report_text`).

The file check (`file_report`) takes a game that `store.read` has already replayed through the
rules and sums it up.

The check of the git history that wrote the file (`verify --git`, and sync's audit before a
push) is `git_audit.py`'s: imported only when a history is checked.
"""

from __future__ import annotations

from typing import Any

from ..errors import safe
from ..events import TurnUndone
from ..projection.log import played_for_line, played_for_others
from ..store import Loaded
from .audit_rules import plural

# -- the file --------------------------------------------------------------------------------


def file_report(loaded: Loaded) -> dict[str, Any]:
    """A summary of a game that `store.read` accepted: who plays, how far, whose turn, the chain
    head; for a game whose commit-then-reveal deal is under way, who it waits for (`dealing`);
    `keys_owed`: the players of a finished sealed game who have not published their keys (the
    audit cannot open its cards nor re-make their shuffles; `verify` exits 6), else empty."""
    record, game = loaded.record, loaded.game
    header = record.header
    emails = header.emails or ("",) * len(header.players)
    dealing = game.dealing() or None
    state = game.table if dealing is None else None
    audit = game.protocol.audit(game)  # a sealed or signed game's: signatures, fingerprints... (None: an open game)
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
        **({"played_for": played_for} if (played_for := played_for_others(game)) else {}),
        **({game.protocol.name: audit} if audit is not None else {}),
        "ok": audit is None or not audit["problems"],
        "keys_owed": list(audit.get("unpublished", ())) if audit is not None and finished else [],
        "head": record.head,
    }


def report_text(report: dict[str, Any]) -> str:
    """`file_report` in a few lines, for a person: each line `errors.safe` (the header's `created` and
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
        + f", {plural(report['undos'], 'undo')}"
        + (f" ({plural(len(undone), noun)} undone: {_listed(undone)})" if undone else ""),
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
    if report.get("played_for"):
        lines.append(played_for_line(report["played_for"]))
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
    signed = report.get("signed")
    if signed is not None:
        lines.append(f"signed: {signed['signed']} events signed, each by its author's key, each checked")
        lines += [f"PROBLEM: {problem}" for problem in signed["problems"]]
    prints = (sealed or signed or {}).get("fingerprints", {})
    lines += [f"{seat} signs with {print_}" for seat, print_ in prints.items()]
    lines.append(f"chain head: {report['head']}")
    return "\n".join(safe(line) for line in lines)


def _listed(seqs: list[int], most: int = 10) -> str:
    """`#4, #7`: the first `most` event numbers, then how many more (a long log stays one short line)."""
    shown = ", ".join(f"#{s}" for s in seqs[:most])
    return shown + (f" and {len(seqs) - most} more" if len(seqs) > most else "")

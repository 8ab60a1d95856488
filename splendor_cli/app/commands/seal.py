"""`splendor seal`: the local player's part of a sealed game, now (what `sync`, `apply` and
`play` write on their own: sealing/command_line.py's `write_part`, whose helpers this uses)."""

from __future__ import annotations

from ...errors import UsageError
from ..output import json_text, out
from ..params import AS, GAME, JSON, command
from ..services.gamefile import append, game_path, writing


@command("seal", GAME, AS, JSON)
def seal(*, game: str | None = None, as_: str | None = None, json: bool = False) -> None:
    """Do your part of a sealed game now: join, shuffle, show the shares you owe, publish your keys at the end.

    Run it after receiving the file whenever `show` says the game waits for you; `play`, `sync` and `apply` do it too.

    The first time, say your seat with --as; your key (`splendor key new`) then plays it.

    Example:

    splendor seal -g games/secret.toml --as ann
    """
    from ...events import actor
    from ...projection.log import event_notation
    from ...sealing.command_line import local_key, my_seat, part, waiting_lines  # the sealed protocol's part

    secret = local_key()
    assert secret is not None
    with writing(game) as loaded:
        if not loaded.game.protocol.duties:
            raise UsageError(f"{game_path(game)} is not a sealed game (`splendor new --sealed` makes one)")
        seat = my_seat(loaded.game, secret, as_)
        staged = part(loaded, seat, secret)
        after = append(loaded, *staged.record.events[loaded.game.seq :]) if staged is not loaded else loaded
    added = after.record.events[loaded.game.seq :]
    now = after.game
    waits = waiting_lines(now)
    turn = now.variant.whose_turn(now.state) if now.states else ""
    if json:
        out(
            json_text(
                {
                    "seq": now.seq,
                    "seat": seat,
                    "events": [
                        {"seq": e.seq, "type": e.TYPE, "notation": event_notation(now.variant, e, sealed=True)}
                        for e in added
                    ],
                    "waiting": waits,
                    "to_move": None if not now.states or now.table.finished else now.table.player.name,
                }
            )
        )
        return
    lines = [f"#{e.seq} {actor(e) or 'deal'}: {event_notation(now.variant, e, sealed=True)}" for e in added]
    if not added:
        lines.append(f"{seat} has nothing to do now")
    lines += waits
    if turn:
        lines.append(turn)
    out("\n".join(lines))

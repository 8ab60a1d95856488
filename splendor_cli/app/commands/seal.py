"""`splendor seal`: the local player's part of a sealed or signed game, now (what `sync`, `apply`
and `play` write on their own: the protocol's part, `TablePart.write_part`; `seal` asks its
`seat_part`)."""

from __future__ import annotations

from ...errors import UsageError
from ..output import json_text, out
from ..params import AS, GAME, JSON, command
from ..services.gamefile import append, game_path, writing


@command("seal", GAME, AS, JSON)
def seal(*, game: str | None = None, as_: str | None = None, json: bool = False) -> None:
    """Do your part of a sealed or signed game now: join, shuffle, show what you owe, publish your keys at the end.

    Run it after receiving the file whenever `show` says the game waits for you; `play`, `sync` and `apply` do it too.

    The first time, say your seat with --as; your key (`splendor key new`) then plays it.

    Example:

    splendor seal -g games/secret.toml --as ann
    """
    from ...events import actor
    from ...projection.log import event_notation
    from ..services.table_part import part  # the protocol's part: a sealed or a signed game's

    with writing(game) as loaded:
        if not loaded.game.protocol.duties:
            raise UsageError(
                f"{game_path(game)} is not a sealed game (`splendor new --sealed` makes one)"
                " nor a signed one (--signed)"
            )
        seat, staged = part(loaded.game).seat_part(loaded, as_)
        after = append(loaded, *staged.record.events[loaded.game.seq :]) if staged is not loaded else loaded
    added = after.record.events[loaded.game.seq :]
    now = after.game
    waits = part(now).waiting_lines(now)
    turn = now.variant.whose_turn(now.state) if now.states else ""
    if json:
        out(
            json_text(
                {
                    "seq": now.seq,
                    "seat": seat,
                    "events": [
                        {
                            "seq": e.seq,
                            "type": e.TYPE,
                            "notation": event_notation(now.variant, e, sealed=now.protocol.hidden),
                        }
                        for e in added
                    ],
                    "waiting": waits,
                    "to_move": None if not now.states or now.table.finished else now.table.player.name,
                }
            )
        )
        return
    lines = [
        f"#{e.seq} {actor(e) or 'deal'}: {event_notation(now.variant, e, sealed=now.protocol.hidden)}" for e in added
    ]
    if not added:
        lines.append(f"{seat} has nothing to do now")
    lines += waits
    if turn:
        lines.append(turn)
    out("\n".join(lines))

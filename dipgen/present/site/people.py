"""Who a person is (`person`: her name as written, after the site's alias table) and what a game
tells of each person who played in it, for the players' pages
(`dipgen.present.site.players`): made from the game's public view alone, as typed values
(`dipgen.present.site.card.Sitter`) that the game's card carries (`pages.game_card`), so that the
players' pages of an unchanged game come from the build cache and never from its files.

One entry per sitter (a person in a seat, in turn: a replacement is a second sitter of the same
seat): her name as written, the powers the seat played while she sat in it, the phases she
started and stopped (a replacement's), and for a finished game her result, her centres, her
score and her place at the end (`dipgen.rules.scoring.places`, which the rating reads; the last
sitter only: who left before the end has no result).
"""

from __future__ import annotations

from collections.abc import Mapping

from dipgen.core.phase import Phase
from dipgen.present.site.card import Sitter
from dipgen.present.site.scores import score_table, standings
from dipgen.rules.scoring import End, places
from dipgen.rules.seats import Seat
from dipgen.view import UNKNOWN, GameView


def person(name: str, aliases: Mapping[str, str]) -> str:
    """The person a name as written names: spaces made single, then the alias table."""
    name = " ".join(name.split())
    return aliases.get(name, name)


def alias_table(aliases: Mapping[str, str] | None) -> dict[str, str]:
    """The site's alias table with every name's spaces made single (as `person` reads names)."""
    return {" ".join(k.split()): " ".join(v.split()) for k, v in (aliases or {}).items()}


def _known_changes(view: GameView) -> list:
    """The control changes the public is told of: those of the phases its view shows."""
    last = view.records[-1].phase if view.records else None
    return [c for c in view.seating.changes if last is not None and c.since <= last]


def _powers(view: GameView, seat: Seat, changes: list) -> list[str]:
    """The powers the seat played at some time the public is told of, in the board's order."""
    control = view.seating.control
    return [p for p in view.variant.rules.powers()
            if seat.key in control.get(p, ()) or any(c.power == p and c.new == seat.key for c in changes)]


def _result(view: GameView, powers: list[str], alive: bool) -> str:
    """won, drew, survived (alive at the end, outside the result), out, or abandoned."""
    result = view.result
    if result is None:
        return ""
    if result.kind == "abandoned":
        return "abandoned"
    if set(powers) & set(result.powers):
        return "drew" if result.kind == "draw" else "won"
    return "survived" if alive else "out"


def people_of(view: GameView, system: str) -> list[Sitter]:
    """One entry per sitter of every seat (see the module): name, powers, since/until (phase names
    or ''), the sitters before and after her in the seat (previous/next, or ''), result, centres
    (None where not known), score ('' where none), place (None where the game is not scored) and
    whether she sat to the end. `system`: the site's scoring system."""
    changes = _known_changes(view)
    now = view.records[-1].after if view.records else None
    totals = None if now is None or now.totals is UNKNOWN else now.totals
    table = score_table(view, system)
    scored = {r.power: r.score for r in table.rows} if table and view.seating.standard else {}
    board = standings(view) if scored and view.result else None
    placed = (places(End(view.result.kind, view.result.powers), board) if board and view.result else None) or {}
    out = []
    for seat in view.seating.seats:
        powers = _powers(view, seat, changes)
        held = [p for p in powers if seat.key in view.seating.controllers(p)] if changes else powers
        centres = sum(totals.get(p, 0) for p in held) if totals is not None else None
        alive = now is not None and any(now.total(p) or now.units_of(p, view.variant.rules.unit_kinds)
                                        for p in held)
        sitters = seat.sitters
        last = view.records[-1].phase if view.records else None
        shown = [(name, since) for name, since in sitters if since is None or (last is not None and since <= last)]
        for i, (name, since) in enumerate(shown):
            final = i == len(shown) - 1
            until: Phase | None = shown[i + 1][1] if not final else None
            out.append(Sitter(name=name, powers=tuple(powers), since=since.name if since else "",
                            until=until.name if until else "", to_end=final,
                            previous=shown[i - 1][0] if i else "", next="" if final else shown[i + 1][0],
                            result=_result(view, held, alive) if final else "",
                            centres=centres if final and view.finished else None,
                            score=next((scored[p] for p in held if p in scored), "") if final else "",
                            place=min((placed[p] for p in held if p in placed), default=None) if final else None))
    return out

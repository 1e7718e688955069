"""What the press of the hidden games (Stab!, Blind) shares: it is public, so it keeps to what
the public learns (centre totals, NMRs, and in Stab! the orders that met a foreign unit), and the
GM's notes name only the public calendar's phases."""

from __future__ import annotations

import random

from dipgen.core.phase import Phase
from dipgen.core.position import Position

from .board import on_board, POWERS
from .press import _count_word, _public_name, Composer
from .sim import PhaseLog, Sim


class HiddenComposer(Composer):
    """Press and notes for a hidden game, from dipgen's public view of the game as played."""

    public_board = False
    nmr_press = 0.8
    retreat_note = 0.4
    leader_at = 10
    #: the chance that a filler item is about spies rather than rumour (0: never)
    spy_rumours = 0.0

    def __init__(self, sim: Sim, history, rng: random.Random, style: str):
        super().__init__(sim, history, rng, style)
        from dipgen.view.seen import seen_record as view_record

        self.public = [view_record(history, rec, "public") for rec in history.records]
        assert [r.phase for r in history.records] == [lg.phase for lg in sim.log]

    def phase_name(self, phase: Phase) -> str:
        return _public_name(phase)

    def centre_press(self, i: int, j: int | None, pos: Position, alive: list, cands: list) -> None:
        """The centre totals published before the winter, against the year before."""
        w, rng = self.w, self.rng
        if pos.phase.season_index == 0 and pos.phase.year > 1901:
            now = pos.centre_counts(POWERS)
            before = self.totals_before(pos.phase.year - 1)
            ups = sorted((now[p] - before[p], p) for p in POWERS if now[p] > before[p])
            downs = sorted((now[p] - before[p], p) for p in POWERS if now[p] < before[p] and on_board(pos).units_of(p))
            if ups and rng.random() < 0.7:
                n, p = ups[-1]
                others = [x for x in alive if x != p]
                cands.append((3 + rng.random(), w.press("totals_up", rng.choice(others), p, n=_count_word(n).lower())))
            if downs and rng.random() < 0.5:
                n, p = downs[0]
                cands.append((3 + rng.random(), w.press("totals_down", p, n=_count_word(-n).lower())))

    def totals_before(self, year: int) -> dict:
        """The centre totals published before the winter of `year` (the opening ones before 1901)."""
        for log in self.sim.log:
            if log.phase.year == year and log.after.phase.kind == "adjustments":
                return log.after.centre_counts(POWERS)
        return self.sim.log[0].before.centre_counts(POWERS)

    def filler_press(self, pos: Position, alive: list, cands: list) -> None:
        w, rng = self.w, self.rng
        while len(cands) < 2 or rng.random() < 0.35:
            p = rng.choice(alive)
            cat = "spies" if self.spy_rumours and rng.random() < self.spy_rumours else "rumour"
            cands.append((1 + rng.random(), w.press(cat, p, self.neighbour(p, pos))))

    def asides(self, log: PhaseLog, i: int) -> list:
        w, rng = self.w, self.rng
        out = []
        if (i in (1, 2) or rng.random() < 0.15) and log.phase.kind != "adjustments":
            out.append(w.note("ruling"))
        if rng.random() < 0.08:
            out.append(w.note("misc"))
        return out

    def draw_press(self, log: PhaseLog, powers: list) -> list:
        items = []
        for p in self.rng.sample(powers, 2):
            items.append(self.w.press("draw_end", p, "All", **self.home_where(p)))
        out = [p for p in POWERS if p not in powers and log.after.centres_of(p)]
        if out:
            items.append(self.w.press("survivor", out[0], "All"))
        return items

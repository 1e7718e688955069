"""'Complicated' Diplomacy's words: its pieces' symbols, the bombings' results, dues in supply
points, and the supply table of the game page."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from dipgen.core.orders import Build, Downgrade, Remove, Upgrade
from dipgen.core.position import Position
from dipgen.core.results import STANDARD_WORDS
from dipgen.present.svg.symbols import BOMBER, PLANE, TANK
from dipgen.rules.variant import Words
from dipgen.variants.complicated.rules import HOME_POINTS, OTHER_POINTS, UPGRADE_COST, Bombing, ComplicatedRules, Supply


class ComplicatedWords(Words):
    rules: ComplicatedRules
    title = "'Complicated' Diplomacy"
    description = ("Supply points instead of one unit per centre; planes and bombers beside armies and fleets; "
                   "bombing of centres.")
    unit_symbols = MappingProxyType({"T": TANK, "P": PLANE, "B": BOMBER})
    result_vocabulary = MappingProxyType({**STANDARD_WORDS, Bombing.HIT: "hit", Bombing.DEFENDED: "defended"})
    game_section_below_centres = True

    def adjustment_text(self, n: int) -> str:
        """Supply points, not units: ``5 supply points to spend``, ``2 supply points short``."""
        points = f"{abs(n)} supply point{'s' if abs(n) != 1 else ''}"
        return f"{points} to spend" if n > 0 else f"{points} short (upkeep unpaid)"


    def game_section(self, view) -> str:
        """The supply table per year (`supply_section`), where the view knows the whole board.
        RULING (Blind Complicated): in a hidden game the accounts are each power's own secret
        (income tells how many home centres it holds, bombing losses tell of raids, upkeep the size
        of its forces), so the table is shown to the GM and, at the reveal, to everyone on the
        game's full edition; never on the public site or a private page while the game runs (each
        power reads its own points in its winter report)."""
        if not view.now.whole:
            return ""
        return supply_section(self.rules, view)


@dataclass(frozen=True)
class YearAccount:
    """One power's supply points in one year, as the game page's supply table says them."""

    power: str
    supply: Supply
    built: int | None     # points spent on builds and upgrades (None: the winter is still to come, or never came)
    removed: tuple[str, ...] = ()  # the units removed (or downgraded) for upkeep it could not pay
    disorder: bool = False         # some of them were removed for it (civil disorder)

    @property
    def unspent(self) -> int:
        """Points lost: what was left after upkeep and builds (0 when upkeep could not be paid)."""
        if self.built is None:
            return 0
        return max(self.supply.net, 0) - self.built


def supply_years(rules: ComplicatedRules, view) -> list[tuple[int, list[YearAccount]]]:
    """Each finished Fall's supply accounts, year by year: income, bombing, upkeep, and what the
    winter that followed spent and removed (read from its orders' results), from a view that knows
    the whole board (`dipgen.view.GameView`)."""
    from dipgen.core.phase import ADJUSTMENTS

    kinds = rules.unit_kinds
    year_end: dict[int, Position] = {}
    winters: dict[int, Any] = {}  # the view's records (`dipgen.view.RecordView`)
    for r in view.records:
        if r.after.phase.kind == ADJUSTMENTS:
            year_end[r.after.phase.year] = r.after
        if r.phase.kind == ADJUSTMENTS:
            winters[r.phase.year] = r
    out = []
    for year, pos in sorted(year_end.items()):
        winter = winters.get(year)
        played = winter is not None or view.now.phase > pos.phase  # a winter skipped: nothing to build
        accounts = []
        for power, s in rules.supply(pos).items():
            if not (s.income or s.upkeep):
                continue
            built, removed, disorder = 0, [], False
            for res in (winter.results_of(power) if winter is not None else ()):
                if not res.succeeded or res.unit is None:
                    continue
                if isinstance(res.order, Build):
                    built += kinds[res.unit.kind].build_cost
                elif isinstance(res.order, Upgrade):
                    built += UPGRADE_COST
                elif isinstance(res.order, (Remove, Downgrade)):
                    what = f"{res.unit.kind} {rules.board.format_loc(res.unit.loc)}"
                    removed.append(what + (" (downgraded)" if isinstance(res.order, Downgrade) else ""))
                    disorder = disorder or res.default
            accounts.append(YearAccount(power, s, built if played else None, tuple(removed), disorder))
        out.append((year, accounts))
    return out


def supply_section(rules: ComplicatedRules, view) -> str:
    """The game page's supply table: one small table per year (the latest open), each power's
    income, bombing losses, upkeep, points built with and points lost; removals said below."""
    from html import escape

    years = supply_years(rules, view)
    if not years:
        return ""
    colours = {p: info.colour for p, info in rules.board.powers.items()}
    out = ['<section class="dg-supply">', '<h2 id="supply-points">Supply points</h2>', '<div class="dg-supply-years">']
    for i, (year, accounts) in enumerate(reversed(years)):
        out.append(f'<details class="dg-supply-year"{" open" if i == 0 else ""}><summary>{year}</summary>')
        out.append(f'<div class="dg-scroll" tabindex="0" role="region" aria-label="Supply points, {year}">'
                   '<table class="dg-centres dg-supply-table">'
                   '<thead><tr><th scope="col" class="dg-sticky">Power</th>'
                   '<th scope="col" class="dg-num" title="points from centres owned after the Fall">Income</th>'
                   '<th scope="col" class="dg-num" title="points lost to successful bombings">Bombed</th>'
                   '<th scope="col" class="dg-num" title="what the units cost to keep">Upkeep</th>'
                   '<th scope="col" class="dg-num" title="points spent on builds and upgrades">Built</th>'
                   '<th scope="col" class="dg-num" title="points left over and lost">Lost</th></tr></thead><tbody>')
        notes = []
        for a in accounts:
            s = a.supply
            name = (f'<span class="dg-power-name" style="--dg-c: {escape(colours.get(a.power, "#888"))}">'
                    f'<span class="dg-swatch" aria-hidden="true"></span>{escape(a.power)}</span>')
            if a.built is None:
                built, lost = "—" if view.finished else "due", "—"  # the game ended with that Fall
            elif s.net < 0:
                built, lost = "—", "—"
            else:
                built, lost = str(a.built), str(a.unspent)
            short = ' class="dg-num loss" title="more than the points left after bombing"' if s.net < 0 else \
                ' class="dg-num"'
            out.append(f'<tr><th scope="row" class="dg-sticky">{name}</th><td class="dg-num">{s.income}</td>'
                       f'<td class="dg-num">{s.bombed}</td><td{short}>{s.upkeep}</td>'
                       f'<td class="dg-num">{built}</td><td class="dg-num">{lost}</td></tr>')
            if s.net < 0:
                what = ", ".join(a.removed) if a.removed else "nothing yet"
                how = " (some in civil disorder)" if a.disorder else ""
                notes.append(f"<li>{escape(a.power)} was {-s.net} point{'s' if s.net != -1 else ''} short of its "
                             f"upkeep and removed {escape(what)}{how}.</li>")
        out.append("</tbody></table></div>")
        if notes:
            out.append('<ul class="dg-small">' + "".join(notes) + "</ul>")
        out.append("</details>")
    out.append("</div>")
    out.append(f'<p class="dg-small">Supply points, counted after each Fall: <em>income</em> {HOME_POINTS} for each '
               f"owned centre of the power's home country and {OTHER_POINTS} for each other; <em>bombed</em> "
               "one less for each successful bombing of a centre it owns that year; <em>upkeep</em> what its units "
               "cost to keep, paid first; <em>built</em> what builds and upgrades took from the rest; <em>lost</em> "
               "what was left unspent. Upkeep in red could not be paid: the units removed are said under the year.</p>")
    out.append("</section>")
    return "\n".join(out)

"""Paint a `dipgen.present.mapview.MapView` as SVG elements over the base map: centres, orders, units, marks, legend.

Plain string building: every coordinate rounded to 0.1, shapes reused through ``<use>``,
short class names styled once in an embedded ``<style>``, everything grouped by power so
each group carries its power's class (and colour) once.

Layers, bottom to top: owned centres, support and convoy lines, move arrows, units,
dislodged units, marks (failed-move bars, crosses, build badges), the province names those
hide (`dipgen.present.svg.labels`), title and legend.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise
from xml.sax.saxutils import quoteattr

from dipgen.core.board import Board, province_of
from dipgen.core.orders import (Build, Concealed, Convoy, Disband, Downgrade, Hold, Move, Remove, Retreat, Strike,
                                Support, Upgrade)
from dipgen.core.position import Dislodged, Unit
from dipgen.core.reach import route
from dipgen.core.results import Kind, OrderResult
from dipgen.core.units import downgrade_of
from dipgen.present.mapview import MapView
from dipgen.present.svg.assets import Layout, layout, variant_board_name
from dipgen.present.svg.labels import hidden_svg, label_rules
from dipgen.present.svg.shapes import (BAR_HALF, BEND, CASED, CSS_RULES, DISLODGED_MIN_OFFSET, DISLODGED_SCALE,
                                       HEAD_HALF, HEAD_LEN, MAX_BEND, Pt, along, beside, beside_at, burst_path, cased,
                                       centre_dot, centre_dots, cross_path, dislodged_glyph, letter_mark, line_d, num,
                                       power_classes, power_letters, power_rules, pt, quad, quad_d, rel, standing,
                                       title_element, unit_vec, use)
from dipgen.present.svg.symbols import Symbol, lettered, symbol_id, symbol_table


class Painter:
    """Collects one map's SVG elements, layer by layer and power by power.

    `titles`: give units and orders a ``<title>`` (a tooltip where the SVG is shown on its
    own; an overlay shown as an ``<img>`` has no tooltips, so it goes without).
    """

    LAYERS = ("centres", "rings", "supports", "moves", "units", "dislodged", "pieces", "marks")

    def __init__(self, variant, layout: Layout, symbols: dict[str, Symbol], titles: bool = True):
        self.variant = variant
        self.board: Board = variant.rules.board
        self.layout = layout
        self.symbols = dict(symbols)
        self.titles = titles
        self.pclass = power_classes(self.board)
        self.letters = power_letters(self.board)
        self.powers = list(self.board.powers)
        self.layers: dict[str, dict[str, list[str]]] = {name: {} for name in self.LAYERS}
        self.keys: set[str] = set()          # what the legend must explain
        self.kinds_used: set[str] = set()
        self.move_paths: dict[str, tuple[str, Pt]] = {}  # mover's province -> (dest province, attach point)
        self.piece_at: dict[Unit, Pt] = {}   # where each piece drawn beside a unit stands
        # what covers a province's name (drawn again on top): discs (units, rings, marks), lines
        self.spots: list[tuple[Pt, float]] = []
        self.lines: list[tuple[list[Pt], float]] = []

    # ------------------------------------------------------------------ helpers
    def add(self, layer: str, power: str, element: str) -> None:
        self.layers[layer].setdefault(power, []).append(element)

    def title(self, text: str) -> str:
        return title_element(text) if self.titles else ""

    def wrap(self, cls: str, title: str, content: str) -> str:
        """`content` in a group when it needs one: for a class, or for a title."""
        title = self.title(title)
        if not cls and not title:
            return content
        return f'<g{f" class={quoteattr(cls)}" if cls else ""}>{title}{content}</g>'

    def symbol(self, kind: str) -> Symbol:
        sym = self.symbols.get(kind)
        if sym is None:
            sym = self.symbols[kind] = lettered(kind)
        return sym

    def radius(self, kind: str | None) -> float:
        return self.symbol(kind).radius if kind else 10.0

    def kind_name(self, kind: str) -> str:
        info = self.variant.rules.unit_kinds.get(kind)
        return getattr(info, "name", None) or self.symbol(kind).name

    def describe(self, unit: Unit) -> str:
        """``French army, Paris`` (for titles; empty when the map has none)."""
        if not self.titles:
            return ""
        info = self.board.powers.get(unit.power)
        adj = info.adjective if info else unit.power
        return f"{adj} {self.kind_name(unit.kind)}, {self.board.full_name(unit.loc)}"

    def order_title(self, r: OrderResult) -> str:
        if not self.titles:
            return ""
        tags = self.variant.words.result_words(r)
        text = f"{r.power}: {r.order_text(self.board)}"
        return text + (f" ({', '.join(tags)})" if tags else "")

    def is_fleet_like(self, kind: str) -> bool:
        info = self.variant.rules.unit_kinds.get(kind)
        return getattr(info, "terrain", "land") == "sea"

    def dest_loc(self, unit: Unit, dest: str, after: Iterable[Unit] = ()) -> str:
        """Where on `dest` a unit's move arrives: the coast a fleet reaches, or the province."""
        prov = self.board.provinces.get(province_of(dest))
        if "/" in dest or prov is None or not prov.coasts or not self.is_fleet_like(unit.kind):
            return dest
        for u in after:
            if u.power == unit.power and u.province == prov.id and "/" in u.loc:
                return u.loc
        reach = self.board.fleet_adj.get(unit.loc, frozenset())
        for c in prov.coasts:
            if f"{prov.id}/{c}" in reach:
                return f"{prov.id}/{c}"
        return dest

    def dislodged_at(self, loc: str) -> Pt:
        """Where a dislodged unit is drawn: the layout's dislodged anchor, pushed out if it is too close."""
        ux, uy = self.layout.unit(loc)
        dx, dy = self.layout.dislodged(loc)
        d = math.hypot(dx - ux, dy - uy)
        if d < 1e-6:
            return ux + DISLODGED_MIN_OFFSET * 0.7, uy - DISLODGED_MIN_OFFSET * 0.7
        k = max(1.0, DISLODGED_MIN_OFFSET / d)
        return ux + (dx - ux) * k, uy + (dy - uy) * k

    # ------------------------------------------------------------------ primitives
    def centres(self, owners) -> None:
        """A dot in its owner's colour on each owned centre: one path of round-capped points per power."""
        dots: dict[str, list[Pt]] = {}
        for prov in sorted(owners):
            at = self.layout.centre(prov)
            if at is not None:
                dots.setdefault(owners[prov], []).append(at)
        for power, pts in dots.items():
            self.add("centres", power, centre_dots(pts))

    def unit(self, unit: Unit, title: str = "", ghost: bool = False) -> None:
        at = self.layout.unit(unit.loc)
        self.kinds_used.add(unit.kind)
        r = self.radius(unit.kind)
        self.spots.append((at, r + 1))
        token, mark = _unit_elements(unit.kind, at, r, self.letters.get(unit.power, ""), ghost)
        group = self.layers["units"].setdefault(unit.power, [])
        group.append(token if not self.titles or not title else
                     use(standing(unit.kind, at) + (' class="gh"' if ghost else ""), self.title(title)))
        if mark:
            group.append(mark)

    def pieces(self, pieces: Iterable[Unit]) -> None:
        """Pieces that do not occupy (spies, planes, bombers): small, beside the province's unit
        anchor where their symbol says (spies below left, aircraft above), side by side when
        several share a province."""
        seen: dict[tuple, int] = {}
        for p in sorted(pieces, key=lambda u: (u.province, self.powers.index(u.power) if u.power in self.powers else 99,
                                               u.kind)):
            sym = self.symbol(p.kind)
            i = seen[p.province, sym.beside] = seen.get((p.province, sym.beside), -1) + 1
            at = self.layout.unit(p.province)
            self.kinds_used.add(p.kind)
            self.piece_at.setdefault(p, beside_at(sym, at, i))
            self.spots.append((self.piece_at[p], sym.radius * sym.beside[0] + 1))
            self.add("pieces", p.power, use(beside(p.kind, sym, at, i), self.title(self.describe(p))))

    def drawn_at(self, unit: Unit) -> Pt:
        """Where `unit` is drawn: beside its province's unit when it does not occupy, else at the anchor."""
        return self.piece_at.get(unit) or self.layout.unit(unit.loc)

    def small_radius(self, unit: Unit) -> float:
        """How far arrows keep from `unit` as drawn (a piece beside another is drawn small)."""
        sym = self.symbol(unit.kind)
        return sym.radius * sym.beside[0] if unit in self.piece_at else sym.radius

    def dislodged_unit(self, d: Dislodged, destroyed: bool) -> None:
        x, y = self.dislodged_at(d.unit.loc)
        self.kinds_used.add(d.unit.kind)
        self.keys.add("dislodged")
        why = f"dislodged by {d.by_power} from {self.board.full_name(d.attacker_from)}" if d.by_power else "dislodged"
        if destroyed:
            why += "; destroyed: nowhere to retreat"
        elif d.retreats:
            why += "; may retreat to " + ", ".join(self.board.format_loc(r) for r in d.retreats)
        ring = self.pclass.get(d.by_power, "")
        self.spots.append(((x, y), 16.0))  # the dislodged glyph's dashed ring, r 14.5, and its stroke
        self.add("dislodged", d.unit.power,
                 dislodged_glyph(d.unit.kind, (x, y), self.title(self.describe(d.unit) + ": " + why), ring))
        if destroyed:
            self.cross(d.unit.power, (x, y), large=True)

    def cross(self, power: str, at: Pt, large: bool = False, title: str = "") -> None:
        self.keys.add("remove" if large else "cut")
        ref = "o-xl" if large else "o-xs"
        self.spots.append((at, 11.5 if large else 6.5))
        self.add("marks", power, use(f'href="#{ref}" x="{num(at[0])}" y="{num(at[1])}" class="x"',
                                      self.title(title)))

    def arrow(self, power: str, points: list[Pt], r0: float, r1: float, ok: bool, title: str,
              key: str = "move", via: str = "convoy") -> Pt:
        """A move or retreat through `points` (start, any convoying fleets or spaces flown over, end;
        `via` the legend's key for what is between, "" for none). Returns its attach point."""
        start, end = points[0], points[-1]
        if len(points) == 2:
            ux, uy, d = unit_vec(start, end)
            if d < r0 + r1 + 8:
                k = max(d - 8, 2) / (r0 + r1)
                r0, r1 = r0 * k, r1 * k
            s = (start[0] + ux * r0, start[1] + uy * r0)
            e = (end[0] - ux * r1, end[1] - uy * r1)
            off = min(d * BEND, MAX_BEND)
            c = ((s[0] + e[0]) / 2 - uy * off, (s[1] + e[1]) / 2 + ux * off)
            attach = quad(s, c, e, 0.55)
            head_from = c
        else:
            fleets = points[1:-1]
            s = along(start, fleets[0], r0)
            e = along(end, fleets[-1], r1)
            prev = ((fleets[-2][0] + fleets[-1][0]) / 2, (fleets[-2][1] + fleets[-1][1]) / 2) if len(fleets) > 1 else s
            attach = quad(prev, fleets[-1], e, 0.5) if via else along(fleets[-1], e, unit_vec(fleets[-1], e)[2] / 2)
            head_from = fleets[-1]
            if via:
                self.keys.add(via)
        tx, ty, _ = unit_vec(head_from, e)
        nx, ny = -ty, tx
        if ok:
            base = (e[0] - tx * HEAD_LEN, e[1] - ty * HEAD_LEN)
            line_end = (base[0] + tx * 1.5, base[1] + ty * 1.5)
            mark = (f'<path class="hd" d="M{pt(e)}L{pt((base[0] + nx * HEAD_HALF, base[1] + ny * HEAD_HALF))} '
                    f'{pt((base[0] - nx * HEAD_HALF, base[1] - ny * HEAD_HALF))}Z"/>')
            dash = ""
        else:
            line_end = e
            a = (e[0] + nx * BAR_HALF, e[1] + ny * BAR_HALF)
            mark = f'<path d="{line_d(a, (e[0] - nx * BAR_HALF, e[1] - ny * BAR_HALF))}"/>'
            dash = ' class="d"'
        if len(points) == 2:
            d_attr = quad_d(s, c, line_end)
        elif not via:  # a flight: straight legs through the middle of each space crossed
            d_attr = f"M{pt(s)}" + "".join(f"L{pt(w)}" for w in [*fleets, line_end])
        else:
            d_attr, cur = f"M{pt(s)}", s
            for a, b in pairwise(fleets):
                m = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                d_attr += f"q{rel(cur, a)} {rel(cur, m)}"
                cur = m
            d_attr += f"q{rel(cur, fleets[-1])} {rel(cur, line_end)}"
        self.keys.add(key if ok else "failed")
        self.spots.append(((e[0] - tx * HEAD_LEN / 2, e[1] - ty * HEAD_LEN / 2), HEAD_LEN / 2 + 2) if ok
                          else (e, BAR_HALF + 2))  # the head, or the bar, over a name, and the line
        self.lines.append(([quad(s, c, line_end, i / 8) for i in range(9)] if len(points) == 2
                           else [s, *fleets, line_end], 3.5))
        self.add("moves", power, self.wrap("", title, f'<path{dash} d="{d_attr}"/>{mark}'))
        return attach

    def support_line(self, power: str, start: Pt, target: Pt, r0: float, r1: float, ok: bool, cut: bool,
                     title: str, key: str = "support") -> None:
        ux, uy, d = unit_vec(start, target)
        r0 = min(r0, d / 3)
        r1 = min(r1, d / 3)
        s = (start[0] + ux * r0, start[1] + uy * r0)
        e = (target[0] - ux * r1, target[1] - uy * r1)
        self.lines.append(([s, e], 2.5))
        self.keys.add(key)
        self.add("supports", power,
                 self.wrap("" if ok else "fa", title,
                           f'<path d="{line_d(s, e)}"/>'
                           f'<circle class="sd" cx="{num(e[0])}" cy="{num(e[1])}" r="3.4"/>'))
        if cut:
            self.cross(power, ((s[0] + e[0]) / 2, (s[1] + e[1]) / 2), title=title)

    def ring(self, power: str, at: Pt, r: float, style: str, title: str) -> None:
        """A ring around a unit: a hold (plain), a convoy (``dc``, dashed), a secret order (``dt``, dotted)."""
        cls = f' class="{style}"' if style else ""
        self.spots.append((at, r + 3))  # the ring's casing
        self.add("rings", power,
                 f'<circle{cls} cx="{num(at[0])}" cy="{num(at[1])}" r="{num(r)}">{self.title(title)}</circle>')

    # ------------------------------------------------------------------ a view
    def paint(self, sc: MapView) -> None:
        self.centres(sc.owners)
        units_by_prov = {u.province: u for u in sc.units}
        changed = self.changed_units(sc)
        for u in sc.units:
            if u in changed:  # upgraded or downgraded this winter: drawn as it is now
                self.unit(changed[u], self.describe(changed[u]))
            elif u.loc in sc.ghosts:
                self.unit(u, self.describe(u) + ": dislodged", ghost=True)
            else:
                self.unit(u, self.describe(u))
        for d, destroyed in sc.dislodged:
            self.dislodged_unit(d, destroyed)
        self.pieces(sc.pieces)
        order = {p: i for i, p in enumerate(self.powers)}
        ordered = sorted(enumerate(sc.results), key=lambda ir: (order.get(ir[1].power, len(order)), ir[0]))
        kinds = self.variant.rules.unit_kinds
        # units outside combat (spies) are shown where they stand; their orders stay in the reports
        results = [r for _, r in ordered if r.unit is None or kinds[r.unit.kind].fights]
        if sc.kind == "movement":
            self.paint_movement(sc, results, units_by_prov)
        elif sc.kind == "retreats":
            self.paint_retreats(sc, results)
        elif sc.kind == "adjustments":
            self.paint_adjustments(sc, results)

    def paint_movement(self, sc: MapView, results: list[OrderResult], units_by_prov: dict[str, Unit]) -> None:
        on_route: set[str] = set()
        # moves first, so that supports can find the arrows they back
        for r in results:
            if not isinstance(r.order, Move) or r.unit is None:
                continue
            u = r.unit
            dest = self.dest_loc(u, r.order.dest, sc.after_units)
            route = r.route  # the fleets the level sees carrying it (the engine's, `OrderResult.route`)
            on_route.update(f.province for f in route)
            over = [] if route else self.flown_over(u, province_of(dest))
            pts = ([self.drawn_at(u)] + [self.layout.unit(f.loc) for f in route] + [self.layout.unit(p) for p in over]
                   + [self.layout.unit(dest)])
            target = units_by_prov.get(province_of(dest))
            r1 = self.radius(target.kind) + 1 if target else 6.0
            attach = self.arrow(r.power, pts, self.small_radius(u), r1, r.succeeded, self.order_title(r),
                                via="" if over else "convoy")
            self.move_paths[u.province] = (province_of(dest), attach)
        for r in results:
            o = r.order
            if r.unit is None or isinstance(o, Move):
                continue
            u = r.unit
            here = self.drawn_at(u)
            if isinstance(o, Hold):
                if not r.default:
                    self.keys.add("hold")
                    self.ring(r.power, here, self.small_radius(u) + 5, "", self.order_title(r))
            elif isinstance(o, Strike):
                self.bombing(r, o, u, here)
            elif isinstance(o, Support):
                self.paint_support(r, o, u, units_by_prov)
            elif isinstance(o, Concealed):  # the level knows only that the unit supported or convoyed
                self.keys.add("secret")
                self.ring(r.power, here, self.radius(u.kind) + 5, "dt", self.order_title(r))
                if r.has(Kind.CUT):
                    self.cross(r.power, (here[0] + 12, here[1] - 12), title=self.order_title(r))
            elif isinstance(o, Convoy):
                if u.province in on_route:
                    self.keys.add("convoy")
                    self.ring(r.power, here, self.radius(u.kind) + 5.5, "dc", self.order_title(r))
                    if not r.succeeded:
                        self.cross(r.power, (here[0] + 12, here[1] - 12), title=self.order_title(r))
                else:  # a convoy that carried nobody: a faint line to the army it meant
                    army = units_by_prov.get(o.target.province)
                    aim = self.layout.unit(army.loc if army else o.target.loc)
                    self.support_line(r.power, here, aim, self.radius(u.kind),
                                      self.radius(army.kind if army else None), False, False,
                                      self.order_title(r), key="convoy")

    def flown_over(self, unit: Unit, dest: str) -> list[str]:
        """The spaces between `unit` and `dest` on its move when its kind moves more than one
        space at a time (`dipgen.core.reach.route`): empty for a move to a neighbour."""
        kind = self.variant.rules.unit_kinds.get(unit.kind)
        if kind is None or kind.steps < 2:
            return []
        return route(self.board, kind, unit.province, dest)[1:-1]

    def paint_support(self, r: OrderResult, o: Support, u: Unit, units_by_prov: dict[str, Unit]) -> None:
        """`r`, the result of support `o` of unit `u`: a line to the unit it supports or the arrow it backs."""
        here = self.drawn_at(u)
        supported = units_by_prov.get(o.target.province)
        target_loc = supported.loc if supported else o.target.loc
        cut = r.has(Kind.CUT)
        ok = r.succeeded and not r.has(Kind.VOID) and not r.has(Kind.ILLEGAL)
        if o.dest is None:
            self.support_line(r.power, here, self.layout.unit(target_loc), self.small_radius(u),
                              self.radius(supported.kind if supported else None) + 3, ok, cut, self.order_title(r))
            return
        path = self.move_paths.get(o.target.province)
        if path is not None and path[0] == province_of(o.dest):
            attach = path[1]
        else:  # the supported unit did not make that move: aim at where it would have gone
            dest = self.layout.unit(self.dest_loc(supported, o.dest) if supported else o.dest)
            src = self.layout.unit(target_loc)
            attach = (src[0] + (dest[0] - src[0]) * 0.6, src[1] + (dest[1] - src[1]) * 0.6)
        self.support_line(r.power, here, attach, self.small_radius(u), 0.0, ok, cut, self.order_title(r))

    def bombing(self, r: OrderResult, o: Strike, u: Unit, here: Pt) -> None:
        """A bomber's run (`r`, the result of strike `o` of bomber `u`): a dotted line to the centre
        it bombs, ending in a burst filled with the bomber's colour when the bombing hit, or left
        blank when planes fended it off."""
        if r.has(Kind.ILLEGAL) or r.has(Kind.VOID):
            return
        target = self.layout.centre(province_of(o.target)) or self.layout.unit(o.target)
        ux, uy, d = unit_vec(here, target)
        r0 = min(self.small_radius(u), d / 3)
        s, e = (here[0] + ux * r0, here[1] + uy * r0), (target[0] - ux * 6, target[1] - uy * 6)
        key = "bomb" if r.succeeded else "bomb-failed"
        self.keys.add(key)
        self.add("supports", r.power, self.wrap("", self.order_title(r), f'<path class="dt" d="{line_d(s, e)}"/>'))
        self.add("marks", r.power, use(f'href="#o-bm" x="{num(target[0])}" y="{num(target[1])}" '
                                        f'class="{"hd" if r.succeeded else "bb"}"', self.title(self.order_title(r))))

    def paint_retreats(self, sc: MapView, results: list[OrderResult]) -> None:
        for r in results:
            u = r.unit
            if u is None:
                continue
            here = self.dislodged_at(u.loc)
            if isinstance(r.order, Retreat):
                dest = self.dest_loc(u, r.order.dest, sc.after_units)
                over = [self.layout.unit(p) for p in self.flown_over(u, province_of(dest))]
                self.arrow(r.power, [here, *over, self.layout.unit(dest)], self.radius(u.kind) * DISLODGED_SCALE, 6.0,
                           r.succeeded, self.order_title(r), key="retreat", via="")
                if not r.succeeded:
                    self.cross(r.power, here, large=True, title=self.order_title(r))
            elif isinstance(r.order, Disband):
                self.cross(r.power, here, large=True, title=self.order_title(r))

    def paint_adjustments(self, sc: MapView, results: list[OrderResult]) -> None:
        for r in results:
            u = r.unit
            if u is None or not r.succeeded:
                continue
            x, y = self.layout.unit(u.loc)
            self.spots.append(((x, y), self.radius(u.kind) + 6))  # a build's or a change's dashed circle
            if isinstance(r.order, Build):
                self.keys.add("build")
                self.unit(u, self.describe(u) + ": built")
                rad = self.radius(u.kind)
                self.add("marks", r.power, self.wrap("", self.order_title(r),
                         f'<circle class="nw" cx="{num(x)}" cy="{num(y)}" r="{num(rad + 5)}"/>'
                         f'<use href="#o-bd" x="{num(x + rad)}" y="{num(y - rad)}"/>'))
            elif isinstance(r.order, Remove):
                self.cross(r.power, (x, y), large=True, title=self.order_title(r))
            elif isinstance(r.order, (Upgrade, Downgrade)):
                key, badge = ("upgrade", "o-up") if isinstance(r.order, Upgrade) else ("downgrade", "o-dn")
                self.keys.add(key)
                rad = self.radius(u.kind)
                self.add("marks", r.power, self.wrap("", self.order_title(r),
                         f'<circle class="nw" cx="{num(x)}" cy="{num(y)}" r="{num(rad + 5)}"/>'
                         f'<use href="#{badge}" x="{num(x + rad)}" y="{num(y - rad)}"/>'))

    def changed_units(self, sc: MapView) -> dict[Unit, Unit]:
        """Units an adjustment phase upgraded or downgraded: the unit before -> the unit after."""
        if sc.kind != "adjustments":
            return {}
        kinds = self.variant.rules.unit_kinds
        out = {}
        for r in sc.results:
            if r.unit is not None and r.succeeded and isinstance(r.order, (Upgrade, Downgrade)):
                new = (kinds[r.unit.kind].upgrades_to if isinstance(r.order, Upgrade)
                       else getattr(downgrade_of(kinds, r.unit.kind), "letter", ""))
                if new in kinds:
                    out[r.unit] = replace(r.unit, kind=new)
        return out

    # ------------------------------------------------------------------ output
    def body(self) -> str:
        out = []
        for name in self.LAYERS:
            groups = self.layers[name]
            if not groups:
                continue
            parts = []
            for power in self.powers + sorted(set(groups) - set(self.powers)):
                if power in groups:
                    parts.append(f'<g class="{self.pclass.get(power, "")}">' + "".join(groups[power]) + "</g>")
            content = "".join(parts)
            if name in CASED:
                out.append(cased(name, content, f"o-{name}"))
            else:
                out.append(f'<g id="o-{name}">{content}</g>')
        names = hidden_svg(variant_board_name(self.variant), self.spots, self.lines)
        if names:
            out.append(f'<g id="o-labels">{names}</g>')
        return "\n".join(out)

    def defs(self, content: str) -> str:
        """The <defs> for `content` (the drawn body and legend): the shapes and style rules it uses."""
        shapes = [f'<g id="{symbol_id(k)}">{self.symbol(k).body}</g>' for k in sorted(self.kinds_used)]
        for ref, shape in (("o-xs", f'<path id="o-xs" d="{cross_path(5.5, 1.7)}"/>'),
                           ("o-xl", f'<path id="o-xl" d="{cross_path(10, 2.6)}"/>'),
                           ("o-bd", '<g id="o-bd"><circle class="bb" r="5.6"/>'
                                    '<path class="bp" d="M-3.2 0H3.2M0-3.2V3.2"/></g>'),
                           ("o-up", '<g id="o-up"><circle class="bb" r="5.6"/>'
                                    '<path class="bp" d="M-3.2 1.8 0-1.6 3.2 1.8"/></g>'),
                           ("o-dn", '<g id="o-dn"><circle class="bb" r="5.6"/>'
                                    '<path class="bp" d="M-3.2-1.8 0 1.6 3.2-1.8"/></g>'),
                           ("o-bm", f'<path id="o-bm" d="{burst_path(10, 4.4, 8)}"/>')):
            if f'href="#{ref}"' in content:
                shapes.append(shape)
        shapes_text = "".join(shapes)
        used = set(" ".join(_CLASSES.findall(content + shapes_text)).split())  # joined and split in C
        rules = "".join(rule for rule in CSS_RULES if rule[1:rule.index("{")] in used)
        if 'id="o-labels"' in content:
            rules += label_rules(variant_board_name(self.variant))
        return f"<defs><style>{rules}{self.power_css()}</style>{shapes_text}</defs>"

    def power_css(self) -> str:
        return power_rules(tuple((self.pclass[name], info.colour, info.safe)
                                 for name, info in self.board.powers.items()))


_CLASSES = re.compile(r'class="([^"]*)"')


@lru_cache(maxsize=1 << 13)
def _unit_elements(kind: str, at: Pt, radius: float, letter: str, ghost: bool) -> tuple[str, str]:
    """A unit's token without a title, and its power's letter ("" without one): the same few hundred
    on every map of a board, so each is written once a process."""
    token = use(standing(kind, at) + (' class="gh"' if ghost else ""))
    if not letter:
        return token, ""
    return token, letter_mark(letter, at, radius).replace('class="pl"', 'class="pl gh"' if ghost else 'class="pl"')


def unit_marks(variant, kind: str, loc: str) -> tuple[re.Pattern, ...]:
    """How an overlay may draw a unit of `kind` at `loc`, whoever owns it: standing (or faded),
    dislodged, or beside the units as a piece outside combat. Patterns of the overlay's text,
    made by the same code that draws, so that a check of what a map shows (`dipgen.usecases.leaks`)
    needs to know nothing of SVG, nor of the kinds there are."""
    lay = layout_of(variant)
    sym = symbol_table(variant).get(kind) or lettered(kind)
    try:
        at = lay.unit(loc)
        aside = Painter(variant, lay, {}, titles=False).dislodged_at(loc)
    except ValueError:  # a place the map cannot draw a unit on
        return ()
    title, ring = "\0title\0", "\0ring\0"
    dislodged = re.escape(dislodged_glyph(kind, aside, title, ring))
    dislodged = dislodged.replace(re.escape(title), "(?:<title>[^<]*</title>)?").replace(re.escape(ring), '[^"]*')
    pieces = ([] if "/" in loc else
              [re.escape(beside(kind, sym, at, i)) for i in range(2 * len(variant.rules.board.powers))])
    return tuple(re.compile(p) for p in (re.escape(standing(kind, at)), dislodged, *pieces))


def centre_mark(variant, centre: str) -> re.Pattern | None:
    """How an overlay draws the ownership dot of `centre`, whoever owns it (None: it has none)."""
    at = layout_of(variant).centre(centre)
    return None if at is None else re.compile(re.escape(centre_dot(at)) + r"(?![\d.])")


def layout_of(variant) -> Layout:
    return layout(variant_board_name(variant))

"""The 2-player game's words: the Table of International Relations in a report, on a season page,
and as a chart of every relationship through the game; how the game is won."""

from __future__ import annotations

import textwrap
from types import MappingProxyType

from dipgen.core.results import STANDARD_WORDS
from dipgen.present.svg.chart import frame, label_step, legend
from dipgen.rules.variant import Words
from dipgen.variants.tir.rules import LEVELS, OwnShift, TirNote, TirReport, TirRules, die_rule


class TirWords(Words):
    rules: TirRules
    title = "2-player Diplomacy with a Table of International Relations"
    description = ("Two players on the standard map; the other five powers follow both players' orders as far as "
                   "the Table of International Relations allows, with dice from the game's committed seed.")
    result_vocabulary = MappingProxyType({**STANDARD_WORDS, TirNote.INVALID: "invalid under the TIR",
                                          TirNote.OVERRULED: "one order invalid", TirNote.CHOSEN: "chosen by die",
                                          TirNote.SUGGESTED: "by die"})

    scoring_note = ("A game between two players is won or lost: the winner scores 1 and her opponent 0; a draw the "
                    "GM declares gives each \u00bd. The scoring systems for seven players do not apply.")

    def victory_text(self) -> str:
        return ("A player wins once her opponent has no unit left and owns no home centre to build on; "
                "centres alone win nothing.")

    def report_section(self, view, record) -> list[str]:
        """The TIR before and after a turn, relationship by relationship, in a report."""
        return (report_lines(self.rules, view, record.intake, record.phase)
                if isinstance(record.intake, TirReport) else [])

    def season_section(self, view, record) -> str:
        return season_html(self.rules, record.intake) if isinstance(record.intake, TirReport) else ""

    def game_section(self, view) -> str:
        """The chart of every relationship through the game (the board is open: every level sees it)."""
        return chart_svg(self.rules, view.records)


BANDS = ((3, "to At War"), (5, "one step toward war"), (8, "no change"), (10, "one step toward alliance"),
         (12, "to Allied"))
RULE = ("Dice + points: 2-3 (or less) to At War, 4-5 one step toward war, 6-8 no change, 9-10 one step toward "
        "alliance, 11-12 (or more) to Allied. A player's attack moves her relationship with the attacked power "
        "to At War, her support or convoy of an attack two steps toward war, from the next turn.")


def band(total: int) -> str:
    """What a roll's total does, in words: 'total 9: one step toward alliance'."""
    return f"total {total}: " + next(text for top, text in BANDS if max(2, min(12, total)) <= top)


def shift_text(s: OwnShift) -> str:
    """A player's own shift in words: "France's A Bur - Mun attacks Germany: At War"."""
    other = next(p for p in s.pair.split("-") if p != s.player)
    what = f"attacks {other}" if s.what == "attack" else f"{s.what}s an attack on {other}"
    return f"{s.player}'s {s.order} {what}: {LEVELS[s.after]}"


def report_lines(rules: TirRules, view, report: TirReport, phase) -> list[str]:
    """The report's TIR table: before, dice, each player's points, total, after, and why; '*'
    marks a relationship that changed."""
    if not report.rolls:
        return []
    rolls = {r.pair: r for r in report.rolls}
    shifts: dict[str, list[OwnShift]] = {}
    for sh in report.shifts:
        shifts.setdefault(sh.pair, []).append(sh)
    p1, p2 = report.players
    who = " and ".join(f"{p} ({view.player(p, phase)})" if view.player(p, phase) else p for p in (p1, p2))
    rows = [("Relationship", "Before", "Dice", p1, p2, "Total", "After", "Why")]
    marks = [" "]
    for a, b in rules.pairs():
        name = rules.pair_name(a, b)
        r = rolls.get(name)
        before, after = report.before[name], report.after[name]
        if r is None:
            why = "the players' own: At War for the whole game"
            rows.append((name, LEVELS[before], "", "", "", "", LEVELS[after], why))
        else:
            pts = dict(r.points)
            why = "; ".join([band(r.total)] + [shift_text(x) for x in shifts.get(name, ())])
            rows.append((name, LEVELS[before], f"{r.dice[0]} + {r.dice[1]}", f"{pts.get(p1, 0):+d}",
                         f"{pts.get(p2, 0):+d}", str(r.total), LEVELS[after], why))
        marks.append("*" if after != before else " ")
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    right = {3, 4, 5}
    out = [f"Table of International Relations, before and after the turn; points from {who}:"]
    for mark, row in zip(marks, rows, strict=True):
        # `widths` has no entry for the last cell (the reason, written after the padded ones): zip stops before it
        cells = [f"{c:>{w}}" if i in right else f"{c:{w}}"
                 for i, (c, w) in enumerate(zip(row, widths, strict=False))]
        out.append(f"  {mark} " + "  ".join(cells) + f"  {row[-1]}".rstrip())
    out.extend(textwrap.wrap("(* changed this turn) " + RULE, 100, initial_indent="  ", subsequent_indent="  "))
    return out + [""]


# ------------------------------------------------------------------ pages
def _esc(text) -> str:
    import html

    return html.escape(str(text), quote=True)


def season_html(rules: TirRules, report: TirReport) -> str:
    """The TIR section of a season page: the table before and after, each roll, the players'
    own shifts, and each unit of the five with both players' orders."""
    out = []
    if report.rolls or report.before != report.after:
        rolls = {r.pair: r for r in report.rolls}
        shifts: dict[str, list[OwnShift]] = {}
        for s in report.shifts:
            shifts.setdefault(s.pair, []).append(s)
        p1, p2 = report.players
        out.append('<h2 id="tir">Table of International Relations</h2>\n<div class="dg-scroll" tabindex="0" '
                   'role="region" aria-label="Table of International Relations"><table class="dg-tir">')
        out.append(f'<thead><tr><th scope="col">Relationship</th><th scope="col">Before</th><th scope="col">Dice</th>'
                   f'<th scope="col" class="dg-num">{_esc(p1)}</th><th scope="col" class="dg-num">{_esc(p2)}</th>'
                   '<th scope="col" class="dg-num">Total</th><th scope="col">After the dice</th>'
                   '<th scope="col">Players\' orders</th><th scope="col">After</th></tr></thead><tbody>')
        for a, b in rules.pairs():
            name = rules.pair_name(a, b)
            r = rolls.get(name)
            before, after = report.before[name], report.after[name]
            dice = f"{r.dice[0]} + {r.dice[1]}" if r else "—"
            pts = dict(r.points) if r else {}
            mid = r.after if r else before
            own = "; ".join(shift_text(s) for s in shifts.get(name, ()))
            changed = " dg-tir-changed" if after != before else ""
            out.append(f'<tr class="dg-tir-{after}{changed}"><th scope="row">{_esc(name)}</th><td>{LEVELS[before]}</td>'
                       f'<td>{dice}</td><td class="dg-num">{pts.get(p1, 0):+d}</td>'
                       f'<td class="dg-num">{pts.get(p2, 0):+d}</td>'
                       f'<td class="dg-num">{r.total if r else "—"}</td><td>{LEVELS[mid]}</td><td>{_esc(own)}</td>'
                       f'<td><strong>{LEVELS[after]}</strong></td></tr>')
        out.append('</tbody></table></div>')
        out.append(f'<p class="dg-small">{_esc(RULE)}</p>')
    if report.choices:
        out.append('<h2 id="tir-orders">The five powers\' orders</h2>\n<ul class="dg-tir-units">')
        for c in report.choices:
            what = _esc(c.where and rules.board.format_loc(c.where) or c.power)
            cands = "; ".join(f"{_esc(x.writer)}: <code>{_esc(x.text)}</code>"
                              + ("" if x.valid else f" <em>invalid: {_esc(x.why)}</em>") for x in c.candidates)
            if c.die is not None:
                verdict = (f"draw {c.draw} rolled {c.die} ({_esc(die_rule(report.players))})"
                           + (f": {_esc(c.by)}'s <code>{_esc(c.chosen)}</code>" if c.chosen
                              else f": {_esc(c.by)}'s, which then fails" if c.by else ""))
            elif c.chosen:
                verdict = (f"{_esc(c.by)}'s " if c.by else "") + f"<code>{_esc(c.chosen)}</code>"
            else:
                verdict = ""
            if not c.chosen:
                verdict += ("; " if verdict else "") + "holds" + (f" ({_esc(c.why)})" if c.why else "")
            out.append(f'<li><strong>{_esc(c.power)}</strong> {what}: {cands} → {verdict}</li>')
        out.append('</ul>')
    return "\n".join(out)


COLOURS = ("#b91c1c", "#ea580c", "#6b7280", "#16a34a", "#1d4ed8")


def chart_svg(rules: TirRules, records) -> str:
    """The history of every relationship as a band of colour per relationship, one cell per turn
    (an SVG drawn with the site's chart pieces, `dipgen.present.svg.chart`), narrow enough to read on
    a phone without scrolling sideways."""
    turns = [(r.phase, r.intake) for r in records if isinstance(r.intake, TirReport) and r.intake.rolls]
    if not turns:
        return ""
    first = turns[0][1]
    fixed = rules.pair_name(*first.players)
    names = [rules.pair_name(a, b) for a, b in rules.pairs() if rules.pair_name(a, b) != fixed]
    width, label_h, band_h, gap, top = 440, 15, 12, 7, 22
    cell = width / (len(turns) + 1)  # the start, then each turn
    row = label_h + band_h + gap
    parts = []
    # the years along the top, a faint line at each year's first turn
    every = label_step(2 * cell, 36)  # a label needs about 36 units
    years = [(j + 1, ph) for j, (ph, _) in enumerate(turns) if j == 0 or ph.year != turns[j - 1][0].year]
    for k, (j, ph) in enumerate(years):
        x = j * cell
        parts.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{top + row * len(names) - gap}" '
                     'stroke="currentColor" stroke-opacity=".25" stroke-width="0.5"/>')
        if k % every == 0:
            parts.append(f'<text x="{x:.1f}" y="{top - 8}" font-size="11">{ph.year}</text>')
    labels = ["the start"] + [ph.name for ph, _ in turns]
    for i, name in enumerate(names):
        y0 = top + i * row
        parts.append(f'<text x="0" y="{y0 + label_h - 4}" font-size="13">{_esc(name)}</text>')
        levels = [first.before[name]] + [rep.after[name] for _, rep in turns]
        j = 0
        while j < len(levels):  # one rectangle per run of turns at one level
            k = j
            while k + 1 < len(levels) and levels[k + 1] == levels[j]:
                k += 1
            span = labels[j] if j == k else f"{labels[j]} to {labels[k]}"
            parts.append(f'<rect x="{j * cell:.1f}" y="{y0 + label_h}" width="{(k - j + 1) * cell:.1f}" '
                         f'height="{band_h}" fill="{COLOURS[levels[j]]}"><title>{_esc(name)}: {LEVELS[levels[j]]} '
                         f'({_esc(span)})</title></rect>')
            j = k + 1
    key, key_h = legend(list(zip(COLOURS, LEVELS, strict=True)), top + row * len(names), width, 12)
    desc = (f"Each relationship but {fixed}'s, from the start to {turns[-1][0].name}: "
            + "; ".join(f"{n} {LEVELS[first.before[n]]} at the start, {LEVELS[turns[-1][1].after[n]]} at the end"
                        for n in names) + ". Each season page has the table turn by turn.")
    svg = (frame(width, top + row * len(names) + key_h, "tir-chart-svg", "Each relationship of the TIR, turn by turn",
                 desc, "dg-tir-chart", 560) + "".join(parts) + key + "</svg>")
    return ('<h2 id="tir-chart">Relationships through the game</h2>\n<div class="dg-tir-chart-box">' + svg
            + f'</div>\n<p class="dg-small">Each band one relationship, from the start (left) to the last turn '
            f'(right), coloured by its step of the table; {_esc(fixed)}, the players\' own, is At War throughout. '
            'Point at a band for its turns.</p>')

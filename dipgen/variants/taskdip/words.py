"""Taskdip's words: who plays which power, the neutral powers and their re-allotment, and the
tasks as far as the page's view knows them."""

from __future__ import annotations

from types import MappingProxyType

from dipgen.core.results import STANDARD_WORDS
from dipgen.rules.variant import Words
from dipgen.variants.taskdip.rules import Neutrality, TaskdipRules, allotment_of


class TaskdipWords(Words):
    rules: TaskdipRules
    title = "Taskdip"
    description = ("Two to seven players: powers and secret tasks drawn by lot, the other powers neutral until "
                   "someone violates their neutrality.")
    result_vocabulary = MappingProxyType({**STANDARD_WORDS, Neutrality.VIOLATES: "violates neutrality"})

    scoring_note = ("Taskdip is won by a player, most often by meeting a task, not by centres: the winner scores 1, "
                    "players who win in the same Fall share 1 equally. The systems that score each power by its "
                    "centres do not apply.")

    def game_section(self, view) -> str:
        return _game_section(self.rules, view)


def _tasks_html(rules: TaskdipRules, view, powers, progress: bool) -> str:
    """Each of `powers`' task (as the view knows them), its cards, and (if `progress`) centre by
    centre how far it is."""
    from html import escape

    a = allotment_of(view.now)
    if a is None:  # (`_game_section` asks only of a view that holds the lots)
        return ""
    owners = view.now.owners
    board = rules.board
    items = []
    for power in powers:
        task = a.tasks.get(power)
        if task is None:
            continue
        cards = a.cards[power]
        drawn = f"card: {cards[-1]}" + (f"; the {cards[0]} was redrawn" if len(cards) > 1 else "")
        line = f"<strong>{escape(power)}</strong> ({escape(drawn)}): {escape(task.text)}"
        if progress:
            parts = []
            for g, have in task.progress(c for c, o in owners.items() if o == power):
                names = ", ".join(board.format_loc(c) for c in g.centres)
                held = ", ".join(board.format_loc(c) for c in have) or "none"
                what = f"all of {names}" if g.count == len(g.centres) else f"{g.count} of {names}"
                parts.append(f"<li>{escape(what)}: {escape(power)} holds {escape(held)} "
                             f"({min(len(have), g.count)} of {g.count}{', done' if len(have) >= g.count else ''})</li>")
            done = " <em>Fulfilled.</em>" if task.fulfilled(c for c, o in owners.items() if o == power) else ""
            line += done + "<ul>" + "".join(parts) + "</ul>"
        items.append(f"<li>{line}</li>")
    return "<ul>" + "".join(items) + "</ul>" if items else ""


def _game_section(rules: TaskdipRules, view) -> str:
    """Who plays which power, the neutral powers, violations and re-allotments (public); the tasks
    as far as the view knows them: on their player's private page, or once the game is revealed
    (or for the GM)."""
    from html import escape

    a = allotment_of(view.now)
    if a is None:
        return ""
    seating = view.seating
    level = view.level
    changes = [c for r in view.records for c in r.control]
    out = ['<section class="dg-taskdip">']
    seat = seating.seat(level)
    if seat is not None:
        out.append("<h2>Your tasks</h2>")
        out.append(_tasks_html(rules, view, a.powers.get(level, ()), True) or "<p>None.</p>")
        later = [c.power for c in changes if c.new == level]
        if later:
            out.append(f"<p>Allotted to you later, without a task: {escape(', '.join(later))}.</p>")
        out.append("</section>")
        return "\n".join(out)
    out.append("<h2>Players and powers</h2><ul>")
    for s in seating.keys():
        powers = [escape(p) for p in a.powers.get(s, ())]
        later = [f"{escape(c.power)} (after {escape(r.phase.name)})" for r in view.records for c in r.control
                 if c.new == s]
        out.append(f"<li><strong>{escape(s)}</strong>: {', '.join(powers) or 'no power'}"
                   f"{'; later ' + ', '.join(later) if later else ''}</li>")
    out.append("</ul>")
    source = ("drawn from the game's committed seed" if a.source == "seed"
              else "drawn with playing cards, as the GM wrote them")
    out.append(f"<p>Powers and tasks were {escape(source)} before the first phase.</p>")
    neutral = rules.originally_neutral(a)
    if neutral:
        out.append("<h3>Originally neutral powers</h3><ul>")
        for n in neutral:
            mine = [c for c in changes if c.power == n]
            status = "neutral: its units hold" if not mine else escape(mine[0].why)
            out.append(f"<li><strong>{escape(n)}</strong>: {status}</li>")
        out.append("</ul>")
    allotted = [p for s in seating.keys() for p in a.powers.get(s, ())]
    redrawn = [p for p in allotted if p in (a.redrawn or ())]  # (`Allotment` fills it in)
    out.append("<h3>Tasks</h3>")
    if redrawn:
        out.append("<p>" + " ".join(f"{escape(p)}'s first task was redrawn (it needed a home centre of its "
                                    "player's other power)." for p in redrawn) + "</p>")
    if all(p in a.tasks for p in allotted):
        out.append(_tasks_html(rules, view, allotted, True))
    else:
        out.append("<p>Each allotted power has a secret task, known only to its player until the game ends.</p>")
    out.append("</section>")
    return "\n".join(out)

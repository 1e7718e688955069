"""The one door from a History to every output: `game_view(history, level)`.

A view is made from the History, the variant's visibility policy and the level, here and
nowhere else (`dipgen.view.seen` applies the policy to each record, `dipgen.view.timeline`
decides which records the level is told of). Pages, maps, search entries, private pages,
reports, draws, feeds, calendars and status lines are made from a `GameView` alone.
"""

from __future__ import annotations


from dipgen.rules.draws import CHAIN
from dipgen.core.phase import ADJUSTMENTS, RETREATS
from dipgen.play.records import History
from dipgen.rules.visibility import GM, PUBLIC, reveal_reached, revealed
from dipgen.view.cache import cache_of
from dipgen.view.seen import _key, check_level, own_powers
from dipgen.view.timeline import timeline
from dipgen.view.types import ChainView, DemoSeat, DemoSecrets, DrawsView, GameInfoView, GameView


def game_view(history: History, level: str, demo: DemoSecrets | None = None) -> GameView:
    """The game as `level` ("gm", "public", a power, or a seat's key) may know it (cached by the
    view, `dipgen.view.cache`). `demo`: an example game's published secrets (`dipgen.view.DemoSecrets`), shown on
    its public page while it runs."""
    check_level(history, level)
    cache = cache_of(history).views
    key = (level, demo)
    if key not in cache:
        cache[key] = _make(history, level, demo)
    return cache[key]


def _make(history: History, level: str, demo: DemoSecrets | None) -> GameView:
    variant = history.variant
    shown, now, due, season, fixed = timeline(history, level)
    public = timeline(history, PUBLIC)[0] if level != PUBLIC else shown
    info = history.info
    open_ = revealed(history)
    reached = reveal_reached(history)
    demo_seats = None
    if demo is not None and level == PUBLIC and not open_:
        demo_seats = tuple(DemoSeat(seat, page, phrase) for seat, (page, phrase) in demo.pages.items())
    draws = None
    source = history.draws
    if source is not None and source.commitment:
        setup = tuple(d for d in source.setup_draws if not d.secret or reached)
        draws = DrawsView(source.commitment, source.start, CHAIN,
                          source.seed.hex() if reached and source.seed is not None else "",
                          setup, _key(history, None) if setup else "")
    own = own_powers(history.seating, level, history.position.phase, variant.rules.powers())
    told = lambda power: level == GM or power in own or not variant.policy.hidden  # noqa: E731
    owed: dict[str, int] = {}
    retreating: tuple = ()
    if due is not None and due.kind == ADJUSTMENTS:
        owed = {p: n for p, n in sorted(variant.rules.adjustment_counts(history.position).items()) if told(p)}
    elif due is not None and due.kind == RETREATS:
        retreating = tuple(d.unit for d in history.position.dislodged if told(d.unit.power))
    return GameView(
        level=level,
        info=GameInfoView(info.slug, info.title, info.gm, info.description, info.file,
                          info.lines.get("description"), info.created, info.reminders, info.orders_to),
        variant=variant, seating=history.seating, records=tuple(shown), now=now, due=due, season=season,
        result=history.result, result_line=history.result_line(), fixed=fixed, revealed=open_,
        hidden=variant.policy.hidden, own=own, draws=draws, demo=demo_seats, public_phases=len(public), owed=owed,
        retreating=retreating, deadline=None if history.finished else info.deadline,
        chain=_chain(history, shown, open_))


def _chain(history: History, shown, open_: bool) -> ChainView | None:
    """The record as a level may check it (`shown`: its records): the salt of a hidden game and the
    phase files themselves only once everything may be published."""
    chain = history.chain
    if chain is None:
        return None
    salted = bool(chain.salt)
    files = tuple((r.phase, r.data) for r in history.records) if open_ else ()
    latest = next((r.link for r in reversed(shown) if r.link is not None), None)
    return ChainView(chain.genesis, salted, chain.salt.hex() if salted and open_ else "", files, latest)

"""The hall of fame, at ``hall-of-fame/``: the archive's solos, best scores, most games played,
longest games, its games by variant and the wins per power (with a bar chart), made from the
games' cards (`pages.game_card`: each from its game's public view), as the players' pages are.
Finished games only count, but for "most games", which counts every game a person is in; the
players' alias table and private list apply (`dipgen.present.site.players`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from markupsafe import Markup

from dipgen.present.site.card import GameCard
from dipgen.present.site.jinja import render
from dipgen.present.site.links import href
from dipgen.present.site.page import SitePage
from dipgen.present.site.players import by_person, person, player_uris
from dipgen.present.svg.bars import bar_chart

URI = "hall-of-fame/index.md"
#: how many rows a "best" table shows
TOP = 10
WINS = ("solo", "concession")


def _number(score: str) -> float:
    return float(score.replace(",", ""))


def _span(card: GameCard) -> int:
    """How many years a game lasted (its ``years_sort`` is its first and last year, four digits each)."""
    first, last = card.years_sort[:4], card.years_sort[4:8]
    return int(last) - int(first) + 1 if first.isdigit() and last.isdigit() else 0


def _names(card: GameCard, powers: Iterable[str], aliases: Mapping[str, str], private: frozenset[str]) -> str:
    """Who played `powers` to the end of the game, private people left unnamed."""
    wanted = set(powers)
    names = [person(e["name"], aliases) for e in card.people if e["to_end"] and wanted & set(e["powers"])]
    return ", ".join(n for n in dict.fromkeys(names) if n not in private) or "—"


def fame_files(cards: Iterable[GameCard], directory_urls: bool = True, aliases: Mapping[str, str] | None = None,
               private: Iterable[str] = ()) -> dict[str, str]:
    """The hall of fame page (see the module)."""
    aliases = {" ".join(k.split()): " ".join(v.split()) for k, v in (aliases or {}).items()}
    private = frozenset(person(n, aliases) for n in private)
    cards = sorted(cards, key=lambda c: (c.years_sort, c.title.lower()))
    done = [(c, c.ended) for c in cards if c.finished and c.ended]  # each finished game and how it ended
    link = lambda uri: href(URI, uri, directory_urls)  # noqa: E731
    people = {p: g for p, g in by_person(cards, aliases).items() if p not in private}
    uris = player_uris(people)
    colours = {p[0]: p[1] for c in cards for p in c.players}

    solos = [dict(title=c.title, url=link(c.uri), variant=c.variant, year=c.years.split("–")[-1],
                  powers=[(p, colours.get(p, "#888")) for p in end.powers], who=_names(c, end.powers, aliases, private))
             for c, end in done if end.kind in WINS]
    scores = sorted(((e["score"], p, c, e) for p, games in people.items() for c, e in games
                     if c.finished and e["score"] and e["to_end"]), key=lambda t: (-_number(t[0]), t[1].lower()))
    best = [dict(score=s, name=p, url=link(uris[p]), title=c.title, game_url=link(c.uri),
                 powers=[(q, colours.get(q, "#888")) for q in e["powers"]]) for s, p, c, e in scores[:TOP]]
    most = [dict(name=p, url=link(uris[p]), games=len(g))
            for p, g in sorted(people.items(), key=lambda kv: (-len(kv[1]), kv[0].lower()))[:TOP]]
    longest = [dict(title=c.title, url=link(c.uri), variant=c.variant, years=c.years, span=_span(c))
               for c in sorted((c for c, _ in done), key=lambda c: (-_span(c), c.title.lower()))[:TOP]]
    variants: dict[str, Counter] = {}
    for c in cards:
        count = variants.setdefault(c.variant, Counter())
        count["games"] += 1
        if c.finished and c.ended:
            count[c.ended.kind] += 1
    wins = Counter(p for _, end in done if end.kind in WINS for p in end.powers)
    powers = sorted(colours, key=lambda p: (-wins[p], p))
    chart = bar_chart([(p, wins[p], colours[p]) for p in powers], "fame-wins", "Wins per power",
                      "Games won by each power, solo or by concession: "
                      + ", ".join(f"{p} {wins[p]}" for p in powers) + ".")
    content = render("fame.html", solos=solos, best=best, most=most, longest=longest,
                     variants=sorted(variants.items()), wins=[(p, colours[p], wins[p]) for p in powers],
                     chart=Markup(chart), scoring_href=link("scoring.md"))
    return {URI: SitePage.make("Hall of fame", content)}

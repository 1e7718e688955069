"""The hall of fame, at ``hall-of-fame/``: the archive's rating table (`rating`), its solos, best
scores, most games played, longest games, each variant's records (its games by result, with a
chart; its solos, best score and longest game) and the wins per power (with a bar chart), made from
the games' cards (`pages.game_card`: each from its game's public view), as the players' pages are.
Finished games only count, but for "most games", which counts every game a person is in; the
players' alias table and private list apply (`dipgen.present.site.players`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict

from markupsafe import Markup

from dipgen.present.site.card import CardEnd, GameCard
from dipgen.present.site.jinja import render, safe_colour
from dipgen.present.site.links import href
from dipgen.present.site.page import SitePage
from dipgen.present.site.players import INDEX, alias_table, by_person, person, player_uris
from dipgen.present.site.rating import UNRATED_REASON, ArchiveRating
from dipgen.present.svg.bars import bar_chart, stacked_bars

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
    names = [person(e.name, aliases) for e in card.people if e.to_end and wanted & set(e.powers)]
    return ", ".join(n for n in dict.fromkeys(names) if n not in private) or "—"


#: the results of a variant's games, as its chart's parts (name, colour: read in both colour schemes)
RESULTS = (("solo", "Solos", "#d4a017"), ("draw", "Draws", "#4f86c6"), ("abandoned", "Abandoned", "#b0b0b0"),
           ("running", "Running", "#8fbf8f"))
#: a count of games of one result, in words
COUNTED = {"solo": ("solo", "solos"), "draw": ("draw", "draws"), "abandoned": ("abandoned", "abandoned"),
           "running": ("running", "running")}


def _kind(card: GameCard) -> str:
    """A game's result for the chart: solo (a concession too), draw, abandoned, or running."""
    ended = card.ended if card.finished else None
    if not ended:
        return "running"
    return "solo" if ended.kind in WINS else ended.kind


def _and(words: tuple[str, ...]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return " and ".join([", ".join(words[:-1]), words[-1]] if len(words) > 1 else list(words))


def _variants(cards: list[GameCard]) -> list[str]:
    """The variants of the games (their titles), in the order of their words (not their quotes)."""
    return sorted({c.variant for c in cards}, key=lambda v: (v.strip("'\"‘’“”").lower(), v))


def _variant_records(cards: list[GameCard], done: list[tuple[GameCard, CardEnd]], best: list[tuple], link,
                     uris: Mapping[str, str], aliases: Mapping[str, str], private: frozenset[str]) -> list[dict]:
    """Per variant (by its title): its games by result, its solos, best score and longest game."""
    out = []
    for variant in _variants(cards):
        games = [c for c in cards if c.variant == variant]
        count = Counter(_kind(c) for c in games)
        ended = [(c, end) for c, end in done if c.variant == variant]
        top = next(((s, p, c, e) for s, p, c, e in best if c.variant == variant), None)
        longest = min((c for c, _ in ended), key=lambda c: (-_span(c), c.title.lower()), default=None)
        out.append(dict(
            name=variant, games=len(games),
            counts=[f"{count[k]} {COUNTED[k][count[k] != 1]}" for k, _, _ in RESULTS if count[k]],
            solos=[dict(title=c.title, url=link(c.uri), year=c.years.split("–")[-1],
                        who=_names(c, end.powers, aliases, private), powers=", ".join(end.powers))
                   for c, end in ended if end.kind in WINS],
            best=None if top is None else dict(score=top[0], name=top[1], url=link(uris[top[1]]), title=top[2].title,
                                               game_url=link(top[2].uri), powers=", ".join(top[3].powers)),
            longest=None if longest is None or not _span(longest) else dict(
                title=longest.title, url=link(longest.uri), span=_span(longest), years=longest.years)))
    return out


def _variants_chart(cards: list[GameCard]) -> str:
    """The games of each variant by result, as stacked bars."""
    names = _variants(cards)
    counts = {v: Counter(_kind(c) for c in cards if c.variant == v) for v in names}
    kinds = [(k, label, colour) for k, label, colour in RESULTS if any(counts[v][k] for v in names)]
    rows = [(v, [counts[v][k] for k, _, _ in kinds]) for v in names]
    desc = "; ".join(f"{v}: {sum(n)} game{'s' * (sum(n) != 1)}, "
                     + ", ".join(f"{label.lower()} {counts[v][k]}" for k, label, _ in kinds if counts[v][k])
                     for v, n in rows) + "."
    return stacked_bars(rows, [(label, colour) for _, label, colour in kinds], "fame-variants",
                        "Games by variant and result", desc)


def fame_files(cards: Iterable[GameCard], directory_urls: bool = True, aliases: Mapping[str, str] | None = None,
               private: Iterable[str] = (), rating: ArchiveRating | None = None) -> dict[str, str]:
    """The hall of fame page (see the module); `rating`: the archive's rating
    (`dipgen.present.site.rating.archive_rating`), whose table it shows."""
    aliases = alias_table(aliases)
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
    scores = sorted(((e.score, p, c, e) for p, games in people.items() for c, e in games
                     if c.finished and e.score and e.to_end), key=lambda t: (-_number(t[0]), t[1].lower()))
    best = [dict(score=s, name=p, url=link(uris[p]), title=c.title, game_url=link(c.uri),
                 powers=[(q, colours.get(q, "#888")) for q in e.powers]) for s, p, c, e in scores[:TOP]]
    most = [dict(name=p, url=link(uris[p]), games=len(g))
            for p, g in sorted(people.items(), key=lambda kv: (-len(kv[1]), kv[0].lower()))[:TOP]]
    longest = [dict(title=c.title, url=link(c.uri), variant=c.variant, years=c.years, span=_span(c))
               for c in sorted((c for c, _ in done), key=lambda c: (-_span(c), c.title.lower()))[:TOP]]
    wins = Counter(p for _, end in done if end.kind in WINS for p in end.powers)
    powers = sorted(colours, key=lambda p: (-wins[p], p))
    chart = bar_chart([(p, wins[p], colours[p]) for p in powers], "fame-wins", "Wins per power",
                      "Games won by each power, solo or by concession: "
                      + ", ".join(f"{p} {wins[p]}" for p in powers) + ".",
                      safe={colours[p]: safe_colour(colours[p]) for p in powers})
    shown = [r for r in rating.rows if r.rank <= TOP] if rating else []
    table = None if rating is None else dict(
        rows=[dict(asdict(r), url=link(uris[r.name])) for r in shown], least=rating.least, total=len(rating.rows),
        more=len(shown) < len(rating.rows), index_url=link(INDEX),
        rated=len(rating.history), unrated=_and(rating.unrated_variants), reason=UNRATED_REASON)
    content = render("fame.html", solos=solos, best=best, most=most, longest=longest,
                     variants=_variant_records(cards, done, scores, link, uris, aliases, private),
                     variants_chart=Markup(_variants_chart(cards)),
                     wins=[(p, colours[p], wins[p]) for p in powers], rating=table,
                     chart=Markup(chart), scoring_href=link("scoring.md"))
    return {URI: SitePage.make("Hall of fame", content)}

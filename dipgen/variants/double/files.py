"""Double Diplomacy's files: ``players:`` as each player's two powers (or seven names, seated by a
draw with ``seats: random``), and orders keyed by power, then by the captain who sent them."""

from __future__ import annotations

from dipgen.core.errors import Problem

from dipgen.io.paths import display_path
from dipgen.core.phase import Phase
from dipgen.io.yamlfile import kind_of, line_of, unknown_keys
from dipgen.rules.seats import Seat, Seating
from dipgen.rules.variant import Files
from dipgen.variants.double.rules import PAIRS, TABLE

_EXAMPLE = ("e.g.\n      players:\n        Ann: [England, Turkey]\n        Ben: [Turkey, Germany]\n"
            "        Cleo: [Germany, Italy]\n        Dan: [Italy, Russia]\n        Eve: [Russia, France]\n"
            "        Fay: [France, Austria]\n        Gus: [England, Austria]\n"
            "    or, for seats drawn from the game's seed:\n      seats: random\n"
            "      players: [Ann, Ben, Cleo, Dan, Eve, Fay, Gus]")


class DoubleFiles(Files):
    order_form = "power/writer"
    order_form_example = ("e.g.\n      orders:\n        England:\n"
                          "          Ann: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n"
                          "          Gus: [F Lon - ENG, F Edi - NWG, A Lvp - Yor]")
    game_keys = frozenset({"seats"})

    def read_seats(self, raw, file, line, problems):
        """`players:` as player -> her two powers (the seed's pairs), or, with `seats: random`,
        a list of seven names; a replaced player is {name:, later: [{name:, from:}]}."""
        if isinstance(raw, list):
            return self._random_seats(raw, file, line, problems)
        if not isinstance(raw, dict):
            problems.append(Problem(file, line,
                                    f"players must map each player to her two powers, not be {kind_of(raw)}",
                                    _EXAMPLE, code="bad-player"))
            return Seating((), {})
        seats, control = [], {p: [] for p in self.rules.powers()}
        for name, value in raw.items():
            kline = line_of(raw, name) or line
            later = []
            if isinstance(value, dict):
                problems.extend(unknown_keys(value, {"powers", "later"}, file, f"under {name}"))
                later = _later(value.get("later"), name, file, kline, problems)
                value = value.get("powers")
            powers = [self.rules.board.power_lookup(str(p)) for p in value] if isinstance(value, list) else []
            if len(powers) != 2 or None in powers or powers[0] == powers[1]:
                problems.append(Problem(file, kline, f"{name} must play two of the seven powers, not {value!r}",
                                        f"e.g. {name}: [England, Turkey] (the seed's pairs: {_pairs_text()})",
                                        code="bad-player"))
                continue
            if frozenset(powers) not in PAIRS:
                problems.append(Problem(file, kline, f"{powers[0]} and {powers[1]} are not a pair of the seed's table",
                                        f"the pairs: {_pairs_text()}", code="bad-player"))
                continue
            seats.append(Seat(str(name), ((str(name), None), *later)))
            for p in powers:
                control[p].append(str(name))
        if len(seats) == len(raw):
            for power, keys in control.items():
                if len(keys) != 2:
                    problems.append(Problem(file, line,
                                            f"{power} has {len(keys)} players ({', '.join(keys) or 'none'}): "
                                            "each power has two", _EXAMPLE, code="bad-player"))
        return Seating(tuple(seats), {p: tuple(k) for p, k in control.items()})

    def _random_seats(self, raw, file, line, problems):
        seats = []
        for item in raw:
            later, name = [], item
            if isinstance(item, dict):
                name = item.get("name")
                problems.extend(unknown_keys(item, {"name", "later"}, file, "in players"))
                later = _later(item.get("later"), name, file, line_of(item) or line, problems)
            if not isinstance(name, str) or not name.strip():
                problems.append(Problem(file, line_of(item) or line, f"a player is a name, not {kind_of(name)}",
                                        _EXAMPLE, code="bad-player"))
                continue
            seats.append(Seat(name.strip(), ((name.strip(), None), *later)))
        keys = [s.key.casefold() for s in seats]
        if len(raw) != 7 or len(set(keys)) != len(keys):
            problems.append(Problem(file, line, f"Double Diplomacy has seven players, each named once; "
                                    f"players lists {len(raw)}", _EXAMPLE, code="bad-player"))
        return Seating(tuple(seats), {p: () for p in self.rules.powers()})

    def new_players(self):
        """Seven players, each with her two powers as the seed's table pairs them."""
        return {f"Player {n}": list(pair) for n, pair in TABLE.items()}

    def read_setup(self, game, problems: list) -> dict:
        """``seats: random`` (the seats are drawn at the set-up), with players a list of names:
        {"random_seats": True}; a map of players to their powers: nothing to draw."""
        seats, listed = game.raw.get("seats"), isinstance(game.raw.get("players"), list)
        file = display_path(game.path / "game.yml")
        if seats is None:
            if listed:
                problems.append(Problem(file, game.lines.get("players"), "players is a list of names, but game.yml "
                                        "does not say how they are seated", "add seats: random (the seats are drawn "
                                        "from the game's seed), or map each player to her two powers",
                                        code="bad-player"))
            return {}
        if seats != "random" or not listed:
            problems.append(Problem(file, game.lines.get("seats"), "seats: random is the one form of seats, with "
                                    "players: a list of seven names", _EXAMPLE, code="bad-player"))
            return {}
        return {"random_seats": True}


def _later(raw, name, file, line, problems) -> list[tuple[str, Phase]]:
    """The players who took over a seat: [{name:, from: 1905-spring}], each later than the one before."""
    if raw is None:
        return []
    example = f"e.g. later: [{{name: Zoe, from: 1905-spring}}] (Zoe plays {name}'s powers from Spring 1905)"
    if not isinstance(raw, list):
        problems.append(Problem(file, line, f"later must be a list of players with name and from, not {kind_of(raw)}",
                                example, code="bad-player"))
        return []
    out: list[tuple[str, Phase]] = []
    for item in raw:
        who = item.get("name") if isinstance(item, dict) else None
        since = item.get("from") if isinstance(item, dict) else None
        try:
            phase = Phase.from_slug(since) if isinstance(since, str) else None
        except ValueError:
            phase = None
        if not isinstance(who, str) or not who.strip() or phase is None or out and phase <= out[-1][1]:
            problems.append(Problem(file, line_of(item) or line, f"each player who took over {name}'s seat needs name: "
                                    "and from: (the first phase she played, later than the one before)", example,
                                    code="bad-player"))
            continue
        out.append((who.strip(), phase))
    return out


def _pairs_text() -> str:
    return "; ".join(" and ".join(ps) for ps in TABLE.values())

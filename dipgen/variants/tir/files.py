"""The 2-player game's files: ``players:`` as the two players' powers, orders keyed by the player
who wrote them (for her own power and the five others'), and each turn's diplomacy points
(``dp:``), read and checked."""

from __future__ import annotations

from dipgen.core.errors import Problem
from dipgen.core.phase import MOVEMENT
from dipgen.io.yamlfile import Signed, by_power, kind_of, line_of
from dipgen.rules.seats import Seat, Seating
from dipgen.rules.variant import Files
from dipgen.variants.tir.rules import MAX_PER_RELATIONSHIP, MAX_POINTS, TirRules


class TirFiles(Files):
    rules: TirRules
    phase_keys = frozenset({"dp"})
    order_form = "writer/power"
    order_form_example = ("e.g.\n      orders:\n        France:\n          France: [A Par - Bur]\n"
                          "          Germany: [A Mun - Ruh, A Ber S A Mun]\n        Russia:\n"
                          "          Russia: [A War - Gal]\n          Germany: [A Mun H]")

    def new_players(self):
        """The two players' powers (any two the GM and players agree on), with their players."""
        return {"France": "to be announced", "Russia": "to be announced"}

    def read_seats(self, raw, file, line, problems):
        example = "e.g.\n      players:\n        France: Alice\n        Russia: Boris"
        if not isinstance(raw, dict):
            problems.append(Problem(file, line, f"players must name the two players' powers, not be {kind_of(raw)}",
                                    example, code="bad-player"))
            return Seating((), {p: () for p in self.rules.powers()})
        seats = []
        for power, who, kline in by_power(self.rules.board, raw, file, problems, "under players",
                                          "name each power once"):
            if not isinstance(who, str) or not who.strip():
                problems.append(Problem(file, kline, f"no player named for {power}", f"write {power}: <name>",
                                        code="no-player"))
                continue
            seats.append(Seat(power, ((who.strip(), None),)))
        if len(raw) != 2:
            problems.append(Problem(file, line, f"a TIR game has two players, each ruling one power; players names "
                                    f"{len(raw)}", example, code="bad-player"))
        order = self.rules.powers()
        seats.sort(key=lambda s: order.index(s.key))
        return Seating(tuple(seats), {p: ((p,) if any(s.key == p for s in seats) else ()) for p in order})

    def writers(self, seating) -> dict[str, str]:
        """A player writes under her power's name or her own: either way her orders are her power's."""
        out = {}
        for seat in seating.seats:
            for name in [seat.key, *seat.names()]:
                out[name.casefold()] = seat.key
        return out

    def read_phase(self, phase, extra, file, first, seating, problems) -> dict:
        """``dp:`` in a Spring or Fall turn: each player's points per relationship (`read_points`)."""
        out = dict(extra)
        raw = out.pop("dp", None)
        if raw is not None and phase.kind != MOVEMENT:
            problems.append(Problem(file, None, f"diplomacy points (dp) are allotted in Spring and Fall turns, not in "
                                    f"{phase.name}", "delete dp from this file", code="bad-points"))
        players = tuple(s.key for s in seating.seats) if seating is not None else ()
        if phase.kind == MOVEMENT and len(players) == 2:  # (game.yml's players say what is wrong otherwise)
            out["dp"] = self.read_points(raw, players, file, problems)
        return out

    def read_points(self, raw, players, file: str, problems: list[Problem]) -> dict[str, dict[str, int]]:
        """``dp:``: each player's points per relationship, checked (at most 10 in all, at most 2 on
        one relationship, a known relationship, not the players' own)."""
        if raw is None:
            return {}
        example = "e.g.\n      dp:\n        France: {France-Germany: +2, England-Italy: -1}\n        Russia: {}"
        if not isinstance(raw, dict):
            problems.append(Problem(file, line_of(raw), f"dp must map each player to her points per relationship, "
                                    f"not be {kind_of(raw)}", example, code="bad-points"))
            return {}
        fixed = self.rules.pair_name(*players)
        writers = {n.casefold(): p for p in players for n in (p,)}
        out: dict[str, dict[str, int]] = {}
        for key, given in raw.items():
            kline = line_of(raw, key)
            player = writers.get(str(key).strip().casefold())
            if player is None:
                problems.append(Problem(file, kline, f"{key!r} under dp is not a player's power",
                                        f"the players: {', '.join(players)}", code="bad-points"))
                continue
            if player in out:
                problems.append(Problem(file, kline, f"{player} appears twice under dp", "merge the two",
                                        code="bad-points"))
                continue
            out[player] = mine = {}
            if given is None:
                continue
            if not isinstance(given, dict):
                problems.append(Problem(file, kline, f"{player}'s points must map relationships to points, not be "
                                        f"{kind_of(given)}", example, code="bad-points"))
                continue
            for rel, n in given.items():
                line = line_of(given, rel) or kline
                name = self.relationship(rel)
                if name is None:
                    problems.append(Problem(file, line, f"{rel!r} is not a relationship: two powers joined by '-'",
                                            "e.g. France-Germany", code="bad-points"))
                    continue
                if name == fixed:
                    problems.append(Problem(file, line, f"{name} is the players' own relationship: At War for the "
                                            "whole game, so it takes no points", f"delete {rel}", code="bad-points"))
                    continue
                if name in mine:
                    problems.append(Problem(file, line, f"{player} gives points to {name} twice", "merge the two",
                                            code="bad-points"))
                    continue
                if isinstance(n, bool) or not isinstance(n, int):
                    problems.append(Problem(file, line, f"points must be a whole number from -2 to +2, not "
                                            f"{kind_of(n)}", f"e.g. {name}: +2", code="bad-points"))
                    continue
                if n > 0 and not isinstance(n, Signed):  # the seed: "positive or negative must be specified"
                    problems.append(Problem(file, line, f"{n} points on {name}: say whether for or against, "
                                            f"+{abs(n)} or -{abs(n)}", f"e.g. {name}: +{abs(n)}", code="bad-points"))
                    continue
                if abs(n) > MAX_PER_RELATIONSHIP:
                    problems.append(Problem(file, line, f"{n:+d} points on {name}: at most {MAX_PER_RELATIONSHIP} "
                                            "(positive or negative) on one relationship", f"e.g. {name}: +2",
                                            code="bad-points"))
                    continue
                mine[name] = n
            spent = sum(abs(n) for n in mine.values())
            if spent > MAX_POINTS:
                problems.append(Problem(file, kline, f"{player} allots {spent} points: at most {MAX_POINTS} in all "
                                        "(a negative point counts as one)", "take points off some relationships",
                                        code="bad-points"))
        return out

    def relationship(self, text) -> str | None:
        if not isinstance(text, str) or text.count("-") != 1:
            return None
        a, b = (self.rules.board.power_lookup(t.strip()) for t in text.split("-"))
        if a is None or b is None or a == b:
            return None
        return self.rules.pair_name(a, b)

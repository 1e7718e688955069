"""Kruijswijk's guess-and-check ("The Math of Adjudication", DATC 3.0 section 5), apart from
any rule of the game.

Every order has one yes-or-no decision, keyed by an int. A subclass says how one decision
follows from others (`adjudicate`, which asks `resolve` for the ones it needs) and what
settles a cycle with no single answer (`backup_rule`). Decisions are resolved recursively;
one that depends on itself is guessed both ways; when the two guesses disagree, the backup
rule settles the cycle.
"""

from __future__ import annotations

_INF = 1 << 30


class GuessAndCheck:
    def __init__(self) -> None:
        #: the decisions settled for good
        self.value_final: dict[int, bool] = {}
        #: the calls in progress, each with its depth, and the guess each stands on
        self.depth: dict[int, int] = {}
        self.guess: dict[int, bool] = {}
        #: results that consulted the guess of a call still in progress: (value, lowest depth consulted)
        self.provisional: dict[int, tuple[bool, int]] = {}
        self.prov_order: list[int] = []
        #: the lowest depth of a guess consulted by the call in progress
        self.low = _INF

    def adjudicate(self, key: int) -> bool:
        """The decision at `key`, given what it depends on (each through `resolve`)."""
        raise NotImplementedError

    def backup_rule(self, cycle: list[int]) -> None:
        """Settle (in `value_final`) the decisions of a cycle with no single answer."""
        raise NotImplementedError

    def resolve(self, key: int) -> bool:
        """The decision of the order at `key`, resolving what it depends on.

        Each call in progress has a depth. A result that consulted the guess of a call still
        in progress (directly, or through another such result) is provisional: it is kept
        only while that guess stands. The call whose own guess was consulted, and no guess
        further up, is the ancestor of the cycle: it tries the other guess, and if the two
        guesses give different answers the backup rule settles the cycle.
        """
        value = self.value_final.get(key)
        if value is not None:
            return value
        if key in self.depth:  # in progress: use its current guess
            self.low = min(self.low, self.depth[key])
            return self.guess[key]
        if key in self.provisional:
            value, low = self.provisional[key]
            self.low = min(self.low, low)
            return value
        d = len(self.depth)
        self.depth[key] = d
        outer_low, mark = self.low, len(self.prov_order)
        self.guess[key], self.low = False, _INF
        first = self.adjudicate(key)
        if self.low == _INF:  # the usual case: it depended on no guess at all
            del self.depth[key]
            self.low = outer_low
            self.value_final[key] = first
            return first
        results = [first]
        members: list[int] = []
        if self.low >= d:  # it depended on its own guess: try the other (below: on a guess further up)
            members = self._drop_provisional(mark)
            self.guess[key], self.low = True, _INF
            results.append(self.adjudicate(key))
        del self.depth[key]
        low = self.low
        if low < d:
            self.provisional[key] = (results[0], low)
            self.prov_order.append(key)
            self.low = min(outer_low, low)
            return results[0]
        if len(results) == 2:
            members = members + self._drop_provisional(mark)
        if len(results) == 1 or results[0] == results[1]:
            self.low = outer_low
            self.value_final[key] = results[0]
            return results[0]
        self.backup_rule(list(dict.fromkeys(members + [key])))
        self.low = outer_low
        value = self.resolve(key)
        self.low = outer_low
        return value

    def _drop_provisional(self, mark: int) -> list[int]:
        dropped = self.prov_order[mark:]
        for k in dropped:
            self.provisional.pop(k, None)
        del self.prov_order[mark:]
        return dropped

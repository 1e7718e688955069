"""'Complicated' Diplomacy's options in game.yml (the seed's optional plane limit), read and checked."""

from __future__ import annotations

from dipgen.core.errors import Problem
from dipgen.io.yamlfile import kind_of, line_of
from dipgen.rules.variant import Files


class ComplicatedFiles(Files):
    game_keys = frozenset({"options"})

    def read_setup(self, game, problems: list) -> dict:
        """``options: {plane_limit: true}``: {"plane_limit": True}; nothing without options."""
        raw = game.raw.get("options")
        if raw is None:
            return {}
        if (not isinstance(raw, dict) or set(raw) - {"plane_limit"}
                or not isinstance(raw.get("plane_limit", False), bool)):
            problems.append(Problem("game.yml", line_of(game.raw, "options"), f"options must be a mapping such as "
                                    f"{{plane_limit: true}}, not {kind_of(raw) if not isinstance(raw, dict) else raw}",
                                    "the only option is plane_limit: true or false", code="bad-value"))
            return {}
        return {"plane_limit": raw.get("plane_limit", False)}

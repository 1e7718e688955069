"""'Complicated' Diplomacy's options in game.yml (the seed's optional plane limit), read and checked."""

from __future__ import annotations

from dipgen.core.errors import Problem

from dipgen.io.paths import display_path
from dipgen.io.yamlfile import kind_of
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
            what = kind_of(raw) if not isinstance(raw, dict) else raw
            problems.append(Problem(display_path(game.path / "game.yml"), game.lines.get("options"),
                                    f"options must be a mapping such as {{plane_limit: true}}, not {what}",
                                    "the only option is plane_limit: true or false", code="bad-value"))
            return {}
        return {"plane_limit": raw.get("plane_limit", False)}

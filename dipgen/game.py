"""A game on disk: ``games/<slug>/game.yml`` and one YAML file per phase.

`load_game` reads and checks the files' shape (keys, names, order syntax) and gives a
`Game`; whether each order fits the position is checked during the replay (`history.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from .board import UnknownName
from .errors import GameError, Problem, display_path
from .orders import Order, OrderSyntaxError, for_phase, parse_order
from .phase import Phase
from .variants import Variant, get_variant
from .yamlio import line_of, load, unknown_keys

GAME_KEYS = {"title", "variant", "gm", "players", "start", "end", "reveal", "seed_sha256", "description", "map"}
PHASE_KEYS = {"orders", "press", "notes"}
END_KEYS = {"draw", "concession", "abandoned", "phase", "note"}
SECRETS_FILE = "secrets.yml"


@dataclass(frozen=True)
class OrderLine:
    """One order as the GM wrote it: the power, the text, the parsed order, where it stands."""

    power: str
    text: str
    order: Order
    file: str
    line: int | None


@dataclass
class PhaseFile:
    phase: Phase
    path: Path
    orders: dict[str, list[OrderLine]]   # power -> orders, in the order written
    order_lines: dict[str, int | None]    # power -> line of its key
    press: str = ""
    notes: str = ""
    extra: dict = field(default_factory=dict)  # variant keys (e.g. Stab! placement)

    @property
    def name(self) -> str:
        return display_path(self.path)


@dataclass(frozen=True)
class Ending:
    """How the GM declared the game over (``end:`` in game.yml)."""

    kind: str                   # "draw", "concession" or "abandoned"
    powers: tuple[str, ...] = ()
    phase: Phase | None = None  # the last phase played; None: the last with a file
    note: str = ""


@dataclass
class Game:
    slug: str
    path: Path
    title: str
    variant: Variant
    gm: str
    players: dict[str, list[tuple[str, Phase | None]]]  # power -> [(name, from phase)], first from the start
    start: int
    phases: dict[Phase, PhaseFile]
    ending: Ending | None = None
    reveal: str = "end"
    description: str = ""
    seed_sha256: str | None = None
    raw: dict = field(default_factory=dict)

    def player(self, power: str, phase: Phase | None = None) -> str:
        """Who played `power` at `phase` (by default: at the end)."""
        name = ""
        for who, since in self.players.get(power, []):
            if since is None or phase is None or since <= phase:
                name = who
        return name

    def player_names(self, power: str) -> list[str]:
        return [who for who, _ in self.players.get(power, [])]


def _text(value) -> str:
    """A value as text; a string from the file keeps its line (`yamlio.Text`), for the site's messages."""
    return "" if value is None else value if isinstance(value, str) else str(value)


def load_game(path: Path | str) -> Game:
    """Read a game folder. Raises GameError listing every problem found."""
    path = Path(path)
    problems: list[Problem] = []
    game_file = path / "game.yml"
    gname = display_path(game_file)
    if not path.is_dir():
        raise GameError([Problem(display_path(path), None, "no such game folder",
                                 "games live in games/<slug>/; create one with 'dipgen new <slug>'")])
    if not game_file.exists():
        raise GameError([Problem(gname, None, "the game has no game.yml",
                                 f"create it with 'dipgen new {path.name}' or copy one from another game")])
    data = load(game_file)
    if not isinstance(data, dict):
        raise GameError([Problem(gname, 1, "game.yml must be a mapping of keys such as title, gm and players")])

    try:
        variant = get_variant(data.get("variant") or "standard")
    except ValueError as e:
        raise GameError([Problem(gname, line_of(data, "variant"), str(e))])
    problems.extend(unknown_keys(data, GAME_KEYS | set(getattr(variant, "game_keys", ())), gname, "in game.yml"))
    for key in ("title", "gm", "players"):
        if not data.get(key):
            problems.append(Problem(gname, None, f"game.yml needs {key!r}",
                                    {"title": "e.g. title: Spring Offensive",
                                     "gm": "e.g. gm: Jane Doe",
                                     "players": "a mapping of power to player, e.g. England: Alice"}[key]))
    board = variant.board
    start = data.get("start", board.start_year)
    if not isinstance(start, int) or not 1000 <= start <= 9999:
        problems.append(Problem(gname, line_of(data, "start"), f"start must be a year such as 1901, not {start!r}"))
        start = board.start_year

    players: dict[str, list[tuple[str, Phase | None]]] = {}
    raw_players = data.get("players") or {}
    if not isinstance(raw_players, dict):
        problems.append(Problem(gname, line_of(data, "players"), "players must map each power to its player",
                                "e.g.\n      players:\n        England: Alice\n        France: Bob"))
        raw_players = {}
    for key, who in raw_players.items():
        try:
            power = board.power_name(str(key))
        except UnknownName as e:
            problems.append(Problem(gname, line_of(raw_players, key), str(e)))
            continue
        entries: list[tuple[str, Phase | None]] = []
        if isinstance(who, list):  # a power that changed hands: [{name:, from: 1903-spring}, ...]
            for item in who:
                if isinstance(item, dict) and "name" in item:
                    since = None
                    if item.get("from"):
                        try:
                            since = Phase.from_slug(str(item["from"]))
                        except ValueError as e:
                            problems.append(Problem(gname, line_of(item, "from"), str(e)))
                    entries.append((_text(item["name"]), since))
                else:
                    entries.append((_text(item), None))
        else:
            entries.append((_text(who), None))
        players[power] = entries
    for power in variant.powers():
        if power not in players and raw_players:
            problems.append(Problem(gname, line_of(data, "players"), f"no player named for {power}",
                                    f"add '{power}: <name>' under players (write 'civil disorder' if nobody plays it)"))

    ending = None
    raw_end = data.get("end")
    if raw_end:
        ending = _read_end(board, raw_end, gname, line_of(data, "end"), problems)

    reveal = str(data.get("reveal", "end")).lower()
    if reveal not in ("end", "now"):
        problems.append(Problem(gname, line_of(data, "reveal"), f"reveal must be 'end' or 'now', not {reveal!r}"))

    phases: dict[Phase, PhaseFile] = {}
    for file in sorted(path.iterdir()):
        if file.name in ("game.yml", SECRETS_FILE) or file.name.startswith(".") or file.is_dir():
            continue
        if file.suffix.lower() not in (".yml", ".yaml"):
            if file.suffix.lower() in (".md", ".txt", ".png", ".svg", ".jpg"):
                continue  # the GM's own notes and pictures
            problems.append(Problem(display_path(file), None, "not a YAML file; phase files are named like 1901-spring.yml"))
            continue
        try:
            phase = Phase.from_slug(file.stem)
        except ValueError:
            problems.append(Problem(display_path(file), None, f"{file.name!r} is not a phase file name",
                                    _name_hint(file.stem)))
            continue
        if file.suffix.lower() == ".yaml" and (path / f"{file.stem}.yml").exists():
            problems.append(Problem(display_path(file), None, f"both {file.stem}.yml and {file.name} exist", "keep one"))
            continue
        try:
            phases[phase] = _read_phase(variant, phase, file, problems)
        except GameError as e:
            problems.extend(e.problems)
    if any(p.severity == "error" for p in problems):
        raise GameError(problems)
    return Game(
        slug=path.name, path=path, title=_text(data["title"]), variant=variant, gm=_text(data["gm"]),
        players=players, start=start, phases=phases, ending=ending, reveal=reveal,
        description=_text(data.get("description")), seed_sha256=data.get("seed_sha256"), raw=dict(data),
    )


def _name_hint(stem: str) -> str:
    m = re.match(r"(\d{3,4})[-_ ]?([a-z]+)(?:[-_ ]?([a-z]+))?", stem.lower())
    if m:
        season = {"s": "spring", "sp": "spring", "spr": "spring", "f": "fall", "a": "fall", "autumn": "fall",
                  "aut": "fall", "fa": "fall", "w": "winter", "win": "winter"}.get(m.group(2), m.group(2))
        for candidate in ("spring", "fall", "winter"):
            if candidate.startswith(season[:2]):
                suffix = "-retreats" if m.group(3) and m.group(3).startswith("r") and candidate != "winter" else ""
                return f"did you mean {m.group(1)}-{candidate}{suffix}.yml?"
    return "phase files are named 1901-spring.yml, 1901-spring-retreats.yml, 1901-fall.yml, 1901-fall-retreats.yml, 1901-winter.yml"


def _read_end(board, raw, gname, line, problems) -> Ending | None:
    if not isinstance(raw, dict):
        problems.append(Problem(gname, line, "end must be a mapping, e.g. end: {draw: [England, France]}"))
        return None
    problems.extend(unknown_keys(raw, END_KEYS, gname, "under end", hint="use draw: [powers], concession: power, "
                                 "or abandoned: reason; optionally phase: 1910-fall"))
    kinds = [k for k in ("draw", "concession", "abandoned") if k in raw]
    if len(kinds) != 1:
        problems.append(Problem(gname, line, "end needs exactly one of draw, concession or abandoned"))
        return None
    kind = kinds[0]
    powers: list[str] = []
    if kind in ("draw", "concession"):
        names = raw[kind] if isinstance(raw[kind], list) else [raw[kind]]
        for n in names:
            try:
                powers.append(board.power_name(str(n)))
            except UnknownName as e:
                problems.append(Problem(gname, line_of(raw, kind), str(e)))
        if kind == "concession" and len(powers) != 1:
            problems.append(Problem(gname, line_of(raw, kind), "a concession is to one power"))
        if kind == "draw" and len(powers) < 2:
            problems.append(Problem(gname, line_of(raw, kind), "a draw is between two or more powers"))
    phase = None
    if raw.get("phase"):
        try:
            phase = Phase.from_slug(str(raw["phase"]))
        except ValueError as e:
            problems.append(Problem(gname, line_of(raw, "phase"), str(e)))
    note = _text(raw.get("abandoned") if kind == "abandoned" and not isinstance(raw.get("abandoned"), bool) else raw.get("note"))
    return Ending(kind, tuple(powers), phase, note)


def split_orders(value) -> list[tuple[str, int | None]]:
    """An order list or block string -> [(text, line)], skipping blanks and # comments."""
    if isinstance(value, str):
        out = []
        base = line_of(value)
        for i, line in enumerate(value.splitlines()):
            text = line.split("#", 1)[0].strip()
            if text:
                out.append((text, base + i if base else None))
        return out
    if isinstance(value, list):
        return [(_text(v).split("#", 1)[0].strip(), line_of(v)) for v in value if _text(v).strip()]
    return []


def _read_phase(variant: Variant, phase: Phase, file: Path, problems: list[Problem]) -> PhaseFile:
    name = display_path(file)
    data = load(file)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise GameError([Problem(name, 1, "a phase file is a mapping with 'orders' (and optionally 'press' and 'notes')",
                                 "e.g.\n      orders:\n        England:\n          - F Lon - NTH")])
    allowed = PHASE_KEYS | set(getattr(variant, "phase_keys", ()))
    problems.extend(unknown_keys(data, allowed, name, hint=f"a phase file has {', '.join(sorted(allowed))}"))
    board = variant.board
    orders: dict[str, list[OrderLine]] = {}
    key_lines: dict[str, int | None] = {}
    raw_orders = data.get("orders") or {}
    if not isinstance(raw_orders, dict):
        problems.append(Problem(name, line_of(data, "orders"), "orders must map each power to its orders",
                                "e.g.\n      orders:\n        France:\n          - A Par - Bur"))
        raw_orders = {}
    for key, value in raw_orders.items():
        kline = line_of(raw_orders, key)
        try:
            power = board.power_name(str(key))
        except UnknownName as e:
            problems.append(Problem(name, kline, str(e)))
            continue
        if power in orders:
            problems.append(Problem(name, kline, f"{power} has two lists of orders", "merge them into one"))
            continue
        if value is not None and not isinstance(value, (str, list)):
            problems.append(Problem(name, kline, f"{power}'s orders must be a list or a block of lines"))
            continue
        lines = []
        for text, line in split_orders(value):
            try:
                order = for_phase(parse_order(board, text, variant.order_words), phase.kind)
            except (OrderSyntaxError, UnknownName) as e:
                problems.append(Problem(name, line or kline, str(e)))
                continue
            lines.append(OrderLine(power, text, order, name, line or kline))
        orders[power] = lines
        key_lines[power] = kline
    extra = {k: data[k] for k in data if k not in PHASE_KEYS and k in allowed}
    return PhaseFile(phase, file, orders, key_lines, _text(data.get("press")), _text(data.get("notes")), extra)


def discover_games(root: Path | str) -> list[Path]:
    """Every game folder under `root` (folders with a game.yml), sorted by name."""
    root = Path(root)
    return sorted(p.parent for p in root.glob("*/game.yml"))


def player_map(game: Game) -> Mapping[str, str]:
    return {p: game.player(p) for p in game.variant.powers()}

"""A game on disk: ``games/<slug>/game.yml`` and one YAML file per phase.

`load_game` reads and checks the files' shape (keys, names, order syntax) and gives a
`Game`; whether each order fits the position is checked during the replay (`history.py`).
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Mapping

from dipgen.core.board import UnknownName
from dipgen.core.errors import GameError, Problem, display_path
from dipgen.core.orders import OrderSyntaxError, UnknownUnitKind, for_phase, parse_order
from dipgen.core.phase import Phase
from dipgen.core.orderline import OrderLine
from dipgen.play.game import Ending, Game, PhaseFile
from dipgen.rules.seats import Seating
from dipgen.io.secretsfile import SECRETS_FILE
from dipgen.variants import Variant, get_variant
from dipgen.io.acknowledge import read_acknowledged
from dipgen.io.yamlfile import (by_power, decode, kind_of, line_of, link_out, load, parse, power_key, read_bytes,
                                text_field, unknown_keys)

GAME_KEYS = {"title", "variant", "gm", "players", "start", "end", "reveal", "seed_sha256", "seed", "description", "map",
             "demo_secrets"}
PHASE_KEYS = {"orders", "press", "notes", "acknowledged"}
END_KEYS = {"draw", "concession", "abandoned", "phase", "note"}


#: A game folder's name, which is the game's address on the site (as `dipgen new` makes them)
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
#: The longest title or name (the GM's, a player's), in characters: a title heads every page of the
#: game and names it in the browser's tab and the archive's table, names stand in tables, reports
#: and headings; anything longer is a paragraph (the description's job), not a title or a name.
MAX_LINE = 200
#: If nobody sent orders, the file still says so: an empty orders mapping is taken for a mistake
NONE_SENT = "if nobody sent orders, list each power with an empty list, e.g. England: []"
_ORDERS_EXAMPLE = "e.g.\n      orders:\n        England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n        France: []"


def suggest_slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "my-game"


def load_game(path: Path | str) -> Game:
    """Read a game folder. Raises GameError listing every problem found; when the phases can
    still be played as far as the first broken phase file (game.yml's errors, if any, are in
    keys the play does not read, such as the title), the error carries the game up to the first
    broken phase, that one with the orders that could be read (`GameError.partial`, and
    `GameError.stopped` that phase), so that what comes before, and the other orders of that
    phase, can still be checked."""
    path = Path(path)
    folder = display_path(path)
    loop = _folder_loop(path)
    if loop:
        raise GameError([loop])
    if not path.is_dir():
        raise GameError([Problem(folder, None, "no such game folder",
                                 "games live in games/<slug>/; create one with 'dipgen new <slug>'")])
    problems: list[Problem] = []
    slug = Path(os.path.abspath(path)).name  # its name in games/, even if the folder is a link
    if not SLUG.fullmatch(slug):
        problems.append(Problem(folder, None, f"{slug!r} cannot name a game folder: the name is the game's address "
                                              "on the site", f"rename the folder to {suggest_slug(slug)!r} (lower case "
                                                             "letters, digits and dashes)"))
    game_file = path / "game.yml"
    gname = display_path(game_file)
    try:
        if not os.path.lexists(game_file):
            raise GameError([_no_game_file(path, folder, slug)])
        if game_file.is_dir() and not game_file.is_symlink():
            raise GameError([Problem(gname, None, "game.yml is a folder; it must be the game's file, with title, gm "
                                     "and players", "move what the folder holds elsewhere, delete it, and write game.yml "
                                     "(see 'The files of a game' in README.md)")])
        data = load(_inside(path, game_file))
    except GameError as e:
        raise GameError(problems + e.problems)
    if not isinstance(data, dict):
        raise GameError(problems + [Problem(gname, 1, "game.yml must be a mapping of keys such as title, gm and players",
                                            "e.g.\n      title: Spring Offensive\n      gm: Jane Doe\n      players:\n"
                                            "        England: Alice")])
    try:
        variant = get_variant(text_field(data, "variant", gname, problems, "standard") or "standard")
    except ValueError as e:
        raise GameError(problems + [Problem(gname, line_of(data, "variant"), str(e))])
    problems.extend(unknown_keys(data, GAME_KEYS | set(variant.files.game_keys), gname, "in game.yml"))
    title = text_field(data, "title", gname, problems, "Spring Offensive")
    gm = text_field(data, "gm", gname, problems, "Jane Doe")
    for key, value, example in (("title", title, "title: Spring Offensive"), ("gm", gm, "gm: Jane Doe")):
        if not value.strip() and isinstance(data.get(key), (str, type(None))):
            problems.append(Problem(gname, line_of(data, key), f"game.yml needs {key!r}", f"e.g. {example}"))
    problems.extend(one_line(title, "the title", MAX_LINE, gname, line_of(data, "title"),
                             "the description (description: |) takes the rest"))
    problems.extend(one_line(gm, "the GM's name", MAX_LINE, gname, line_of(data, "gm")))
    description = text_field(data, "description", gname, problems)
    demo = data.get("demo_secrets", False)
    if not isinstance(demo, bool):
        problems.append(Problem(gname, line_of(data, "demo_secrets"), f"demo_secrets is true or false, not {kind_of(demo)}",
                                "only an example game whose secrets.yml is public on purpose says demo_secrets: true"))
        demo = False
    problems.extend(_names(data.get("players"), gname, line_of(data, "players")))
    shown = len(problems)  # the problems so far are in what the game shows, not in what it plays
    players, seating = _read_seats(variant, data, gname, problems)
    start, ending, reveal, commitment = _read_settings(variant, data, gname, problems)
    seed = _read_seed(data, commitment, gname, problems)
    game_ok = not any(p.severity == "error" for p in problems[shown:])
    phases, broken = _read_phases(variant, path, variant.rules.calendar.first(start), problems, seating)
    game = Game(slug=slug, path=path, title=title, variant=variant, gm=gm, players=players, start=start,
                phases=phases, ending=ending, reveal=reveal, description=description, seed_sha256=commitment,
                raw=dict(data), seed=seed, lines={k: line_of(data, k) for k in data}, seating=seating,
                demo_secrets=demo)
    before = len(problems)
    game.setup = variant.files.read_setup(game, problems)  # the variant's keys of the set-up, read and checked
    setup_ok = not any(p.severity == "error" for p in problems[before:])
    if any(p.severity == "error" for p in problems):
        partial = stopped = None
        if game_ok and not setup_ok:  # the game cannot start: no phase is played, and none is said to follow
            partial = replace(game, phases={}, ending=None)
        elif game_ok:  # the phases up to the first broken one can still be played: that one with the orders
            stopped = min(broken) if broken else None  # that could be read, for the errors of its other orders
            partial = replace(game, phases={ph: pf for ph, pf in phases.items() if not broken or ph <= stopped},
                              ending=game.ending if not broken else None)
        raise GameError(problems, partial=partial, stopped=stopped)
    return replace(game, warnings=problems)  # no errors: warnings only


def one_line(text: str, what: str, limit: int, file: str, line: int | None, more: str = "") -> list[Problem]:
    """A problem if `text` (a title, a name: plain text shown on one line) is longer than `limit`
    characters or holds a line break or another control character."""
    out = []
    if len(text) > limit:
        out.append(Problem(file, line, f"{what} is {len(text):,} characters long; at most {limit}",
                           f"shorten it{'; ' + more if more else ''}"))
    control = next((c for c in text if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        which = "a line break" if control in "\n\r" else f"a control character (\\x{ord(control):02x})"
        out.append(Problem(file, line, f"{what} holds {which}: it is shown on one line, as plain text",
                           "write it on one line, in quotes, without escapes such as \\n or \\e"))
    return out


def _names(raw, file: str, line: int | None) -> list[Problem]:
    """`one_line`'s problems for every text under ``players:`` (the players' names, in whatever
    form the variant reads them), each with its own line, in the order written."""
    if isinstance(raw, str):
        return one_line(raw, "a name", MAX_LINE, file, line_of(raw) or line)
    out: list[Problem] = []
    if isinstance(raw, dict):
        for key, value in raw.items():
            out += _names(key, file, line_of(raw, key) or line) + _names(value, file, line_of(raw, key) or line)
    elif isinstance(raw, list):
        for i, value in enumerate(raw):
            out += _names(value, file, line_of(raw, i) or line)
    return out


def _folder_loop(path: Path) -> Problem | None:
    """A game folder that is a link to the folder that holds it (``games/loop -> .``) or to one
    above it: every game would be read inside it again."""
    if not path.is_symlink():
        return None
    try:
        real, holder = path.resolve(), path.parent.resolve()
    except (OSError, RuntimeError):
        return Problem(display_path(path), None, "a link that leads back to itself (a loop of links)",
                       "delete the link; a game is a folder of its own")
    if real == holder or real in holder.parents:
        return Problem(display_path(path), None, f"a link to {os.readlink(path)}, the folder that holds it: "
                       "a game folder cannot hold itself", "delete the link; a game is a folder of its own")
    return None


def _read_settings(variant: Variant, data: dict, gname: str, problems: list[Problem]):
    """game.yml's optional keys, checked: start, end, reveal, map and seed_sha256."""
    board = variant.rules.board
    start = data.get("start", board.start_year)
    if isinstance(start, bool) or not isinstance(start, int) or not 1000 <= start <= 9999:
        what = "a year outside 1000-9999" if isinstance(start, int) and not isinstance(start, bool) else kind_of(start)
        problems.append(Problem(gname, line_of(data, "start"), f"start must be a year such as {board.start_year}, "
                                f"not {what}", f"write the year alone, e.g. start: {board.start_year}"))
        start = board.start_year
    ending = None
    if data.get("end") is not None:
        ending = _read_end(board, data["end"], gname, line_of(data, "end"), problems)
    reveal = data.get("reveal", "end")
    if not isinstance(reveal, str) or reveal.lower() not in ("end", "now"):
        what = repr(str(reveal)) if isinstance(reveal, str) else kind_of(reveal)
        problems.append(Problem(gname, line_of(data, "reveal"), f"reveal must be 'end' or 'now', not {what}",
                                "reveal: end publishes a hidden game when it ends; reveal: now publishes it at once"))
        reveal = "end"
    map_name = data.get("map", variant.rules.board_name)
    if not isinstance(map_name, str) or map_name.strip().lower() != variant.rules.board_name:
        from dipgen.variants import VARIANTS

        known = sorted({make().rules.board_name for make in VARIANTS.values()})
        what = repr(str(map_name)) if isinstance(map_name, str) else kind_of(map_name)
        problems.append(Problem(gname, line_of(data, "map"), f"{variant.words.title} is played on the {variant.rules.board_name} "
                                f"map, not {what} (known maps: {', '.join(known)})",
                                f"write map: {variant.rules.board_name}, or leave map out"))
    seed = data.get("seed_sha256")
    if seed is not None and not (isinstance(seed, str) and re.fullmatch(r"[0-9a-fA-F]{64}", seed)):
        what = "" if isinstance(seed, str) else f", not {kind_of(seed)}"
        problems.append(Problem(gname, line_of(data, "seed_sha256"), "seed_sha256 must be the SHA-256 of the game's "
                                f"secret seed: 64 hexadecimal digits{what}", 'in quotes, e.g. seed_sha256: "9f86d081..."'))
        seed = None
    return start, ending, str(reveal).lower(), str(seed) if seed else None


def _read_seed(data: dict, commitment: str | None, gname: str, problems: list[Problem]) -> str | None:
    """game.yml's ``seed:``: the seed, published there once the game is over, in the shape of
    one (whether it may be there yet, and whether it matches, is `dipgen.io.seed`'s check)."""
    seed = data.get("seed")
    if seed is None:
        return None
    if not (isinstance(seed, str) and re.fullmatch(r"[0-9a-fA-F]{64}", seed)):
        what = "" if isinstance(seed, str) else f", not {kind_of(seed)}"
        problems.append(Problem(gname, line_of(data, "seed"), f"seed must be the game's seed from secrets.yml: "
                                f"64 hexadecimal digits{what}", 'copy it in quotes, e.g. seed: "3a7bd3e2..."'))
        return None
    if commitment is None:
        problems.append(Problem(gname, line_of(data, "seed"), "a seed without its commitment (seed_sha256): "
                                "nobody can tell that it is the seed the game's draws were made from",
                                "keep the seed_sha256 that game.yml had while the game ran"))
    return seed.lower()


def _inside(folder: Path, file: Path) -> Path:
    """`file`, if it is inside the game folder once symlinks are followed. A link out of the
    folder is refused: a game's files are its own, and the build must not publish what a link
    happens to point at on the machine that builds it."""
    target = link_out(folder, file)
    if target is not None:
        raise GameError([Problem(display_path(file), None, f"a link to {target}, outside the game folder",
                                 "copy the file into the game folder instead of linking to it")])
    return file


def _no_game_file(path: Path, folder: str, slug: str) -> Problem:
    entries = list(path.iterdir())
    near = sorted(f.name for f in entries if f.name.lower() in ("game.yml", "game.yaml"))
    phase_files = [f.name for f in entries if f.suffix.lower() in (".yml", ".yaml")]
    hidden = sorted(f.name for f in entries if f.name.startswith(".") and f.is_dir())
    if near:
        hint = f"rename {near[0]} to game.yml (exactly that name)"
    elif phase_files:
        hint = "a game's phase files need a game.yml beside them, with title, gm and players"
    elif hidden and len(hidden) == len(entries):
        return Problem(folder, None, f"no game here: {', '.join(hidden)} "
                       f"{'is' if len(hidden) == 1 else 'are'} hidden (a folder whose name starts with a dot is "
                       "skipped), and there is no game.yml", "to make a hidden folder a game, rename it without the "
                       "dot; to start a game, run 'dipgen new <slug>'")
    else:
        hint = ("a game folder holds game.yml and the phase files: write its game.yml (see 'The files of a game' "
                "in README.md), or delete the folder")
    return Problem(folder, None, "no game.yml in this folder", hint)


def _read_seats(variant: Variant, data: dict, gname: str, problems: list[Problem]) -> tuple[dict, Seating]:
    """game.yml's `players:`: in the variant's own form if it has one (`Variant.read_seats`), else
    the standard form, power -> player (one seat per power, keyed by the power's name)."""
    raw = data.get("players")
    seating = variant.files.read_seats(raw, gname, line_of(data, "players"), problems) if raw is not None else None
    if seating is None:
        players = _read_players(variant, data, gname, problems)
        return players, Seating.one_per_power({p: players[p] for p in variant.rules.powers() if p in players})
    powers = variant.rules.powers()
    reserved = {p.lower() for p in powers} | {"gm", "public"}
    for seat in seating.seats:
        own = seating.control.get(seat.key) == (seat.key,) and seating.powers_of(seat.key) == (seat.key,)
        if seat.key.lower() in reserved and not own:  # a power's own seat (as in the standard form) may
            problems.append(Problem(gname, line_of(data, "players"), f"a player cannot be called {seat.key!r}: "
                                    "that name is a power's, or a level of the site's views",
                                    "add a surname or an initial, e.g. 'Gm Smith'"))
    return {p: [(seating.player(p), None)] for p in powers if seating.player(p)}, seating


def _read_players(variant: Variant, data: dict, gname: str, problems: list[Problem]) -> dict:
    players: dict[str, list[tuple[str, Phase | None]]] = {}
    example = "e.g.\n      players:\n        England: Alice\n        France: Bob"
    raw = data.get("players")
    if raw is None or raw == {}:
        problems.append(Problem(gname, line_of(data, "players"), "game.yml needs 'players'",
                                "a mapping of power to player, e.g. England: Alice"))
        return players
    if not isinstance(raw, dict):
        problems.append(Problem(gname, line_of(data, "players"),
                                f"players must map each power to its player, not be {kind_of(raw)}", example))
        return players
    for power, who, kline in by_power(variant.rules.board, raw, gname, problems, "under players",
                                      "keep one; a power that changed hands lists its players under one key"):
        players[power] = _player_entries(power, who, gname, kline, problems)
    for power in variant.rules.powers():
        if power not in players:
            problems.append(Problem(gname, line_of(data, "players"), f"no player named for {power}",
                                    f"add '{power}: <name>' under players (write 'civil disorder' if nobody plays it)"))
    return players


def _player_entries(power: str, who, gname: str, kline, problems: list[Problem]) -> list[tuple[str, Phase | None]]:
    """A power's players: a name, or a list of {name:, from:} for a power that changed hands."""
    if who is None or isinstance(who, str):
        if not (who or "").strip():
            problems.append(Problem(gname, kline, f"no player named for {power}",
                                    f"write {power}: <name> (write 'civil disorder' if nobody plays it)"))
        return [(str(who or ""), None)]
    example = ("e.g.\n      Austria:\n        - name: Mirela Vasic\n        - name: Tomas Kral\n"
               "          from: 1905-fall")
    if not isinstance(who, list) or not who:
        problems.append(Problem(gname, kline, f"{power}'s player must be a name, or a list of players with name and "
                                              f"from, not {kind_of(who)}", example))
        return []
    entries: list[tuple[str, Phase | None]] = []
    for item in who:
        line = line_of(item) or kline
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name.strip():
            problems.append(Problem(gname, line, f"each of {power}'s players needs name: (and from: for all but "
                                                 "the first)", example))
            continue
        problems.extend(unknown_keys(item, {"name", "from"}, gname, f"in {power}'s players"))
        since = None
        raw_from = item.get("from")
        if raw_from is not None:
            try:
                if not isinstance(raw_from, str):
                    raise ValueError(f"from must be a phase such as 1905-fall, not {kind_of(raw_from)}")
                since = Phase.from_slug(raw_from)
            except ValueError as e:
                problems.append(Problem(gname, line_of(item, "from"), str(e)))
                continue
        if entries and (since is None or entries[-1][1] is not None and since <= entries[-1][1]):
            problems.append(Problem(gname, line, f"{power}'s player {str(name)!r} needs from: the first phase they "
                                                 "played, later than the player before", example))
            continue
        entries.append((str(name), since))
    return entries


def _read_phases(variant: Variant, path: Path, first: Phase, problems: list[Problem],
                 seating=None) -> tuple[dict[Phase, PhaseFile], list[Phase]]:
    """The phase files of a game folder, and the phases whose files have errors."""
    phases: dict[Phase, PhaseFile] = {}
    names: dict[Phase, str] = {}
    broken: list[Phase] = []
    for file in sorted(path.iterdir()):
        name = display_path(file)
        if file.name in ("game.yml", SECRETS_FILE) or file.name.startswith("."):
            continue
        stem, suffix = file.stem, file.suffix.lower()
        if file.is_dir():
            if suffix in (".yml", ".yaml") or _is_phase_name(file.name):  # not silently skipped
                problems.append(Problem(name, None, "a folder where a phase file should be",
                                        "a phase file is a plain file; remove the folder or put the file in its place"))
            continue  # the GM's own folders (pictures, drafts) are no business of dipgen
        if suffix not in (".yml", ".yaml"):
            if suffix in (".md", ".txt", ".png", ".svg", ".jpg"):
                continue  # the GM's own notes and pictures
            problems.append(Problem(name, None, "not a YAML file; phase files are named like 1901-spring.yml"))
            continue
        if file.name.lower() in ("game.yml", "game.yaml", "secrets.yml", "secrets.yaml"):
            real = "game.yml" if stem.lower() == "game" else SECRETS_FILE
            problems.append(Problem(name, None, f"dipgen reads {real}, spelt exactly so; this file is not read",
                                    f"merge it into {real} and delete it" if (path / real).exists()
                                    else f"rename it to {real}"))
            continue
        try:
            phase = Phase.from_slug(stem)
        except ValueError:
            problems.append(Problem(name, None, f"{file.name!r} is not a phase file name", _name_hint(stem)))
            continue
        if phase in names:
            problems.append(Problem(name, None, f"both {names[phase]} and {file.name} are the file of {phase.name}",
                                    "keep one"))
            continue
        names[phase] = file.name
        if phase < first:
            problems.append(Problem(name, None, f"{phase.name} is before the game's start in Spring {first.year}",
                                    "correct start: in game.yml, or this file's name"))
            continue
        before = len(problems)
        try:
            phases[phase] = _read_phase(variant, phase, _inside(path, file), problems, first, seating)
        except GameError as e:
            problems.extend(e.problems)
        if any(p.severity == "error" for p in problems[before:]):
            broken.append(phase)
    return phases, broken


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
        problems.append(Problem(gname, line, f"end must be a mapping, not {kind_of(raw)}",
                                "e.g. end: {draw: [England, France]}"))
        return None
    problems.extend(unknown_keys(raw, END_KEYS, gname, "under end", hint="use draw: [powers], concession: power, "
                                 "or abandoned: reason; optionally phase: 1910-fall"))
    kinds = [k for k in ("draw", "concession", "abandoned") if k in raw]
    if len(kinds) != 1:
        problems.append(Problem(gname, line, "end needs exactly one of draw, concession or abandoned"))
        return None
    kind = kinds[0]
    kline = line_of(raw, kind)
    powers: list[str] = []
    if kind in ("draw", "concession"):
        names = raw[kind] if isinstance(raw[kind], list) else [raw[kind]]
        for n in names:
            power = power_key(board, n, gname, kline, problems)
            if power in powers:
                problems.append(Problem(gname, kline, f"{power} is named twice in the {kind}", "name each power once"))
            elif power is not None:
                powers.append(power)
        if kind == "concession" and len(powers) != 1:
            problems.append(Problem(gname, kline, "a concession is to one power", "e.g. concession: Turkey"))
        if kind == "draw" and len(names) < 2:
            problems.append(Problem(gname, kline, "a draw is between two or more powers",
                                    "e.g. draw: [England, France]"))
    phase = None
    if raw.get("phase") is not None:
        try:
            if not isinstance(raw["phase"], str):
                raise ValueError(f"phase must be the last phase played, such as 1910-fall, not {kind_of(raw['phase'])}")
            phase = Phase.from_slug(raw["phase"])
        except ValueError as e:
            problems.append(Problem(gname, line_of(raw, "phase"), str(e)))
    note = text_field(raw, "note", gname, problems)
    if kind == "abandoned" and raw["abandoned"] is not True:
        note = text_field(raw, "abandoned", gname, problems, "the players lost interest")
    return Ending(kind, tuple(powers), phase, note, line_of(raw, "phase") if phase else line)


def split_orders(value) -> list[tuple[str, int | None]]:
    """An order list or block string -> [(text, line)], skipping blanks and # comments.
    Items that are not text are left out (`_read_phase` reports them)."""
    if isinstance(value, str):
        out = []
        base = line_of(value)
        for i, line in enumerate(value.splitlines()):
            text = line.split("#", 1)[0].strip()
            if text:
                out.append((text, base + i if base else None))
        return out
    if isinstance(value, list):
        return [(v.split("#", 1)[0].strip(), line_of(v)) for v in value if isinstance(v, str) and v.split("#", 1)[0].strip()]
    return []


def _read_phase(variant: Variant, phase: Phase, file: Path, problems: list[Problem], first: Phase,
                seating=None) -> PhaseFile:
    name = display_path(file)
    raw = read_bytes(file)  # the file's exact bytes: the game's record is a chain of them (dipgen.rules.chain)
    data = parse(decode(raw, name), name)
    if data is None:
        raise GameError([Problem(name, None, "the file is empty",
                                 f"write the orders received; {NONE_SENT}\n    {_ORDERS_EXAMPLE}")])
    if not isinstance(data, dict):
        raise GameError([Problem(name, 1, "a phase file is a mapping with 'orders' (and optionally 'press' and 'notes')",
                                 "e.g.\n      orders:\n        England:\n          - F Lon - NTH")])
    setup = set(variant.files.setup_keys)
    allowed = PHASE_KEYS | set(variant.files.phase_keys) | setup
    unknown = unknown_keys(data, allowed, name, hint=f"a phase file has {', '.join(sorted(allowed))}")
    problems.extend(unknown)
    for key in sorted(setup & set(data)) if phase != first else ():
        problems.append(Problem(name, line_of(data, key), f"{key} belongs in the game's first phase file, {first.slug}.yml",
                                f"it sets up the game; move it to {first.slug}.yml or delete it"))
    press = text_field(data, "press", name, problems)
    notes = text_field(data, "notes", name, problems)
    orders: dict[str, list[OrderLine]] = {}
    key_lines: dict[str, int | None] = {}
    raw_orders = data.get("orders")
    if not raw_orders and isinstance(raw_orders, (dict, type(None))):
        if "orders" in data or not unknown:  # a misspelt 'orders' has been reported already
            problems.append(Problem(name, line_of(data, "orders"), "orders is empty" if "orders" in data else "no orders",
                                    f"{NONE_SENT}\n    {_ORDERS_EXAMPLE}"))
        raw_orders = {}
    elif not isinstance(raw_orders, dict):
        problems.append(Problem(name, line_of(data, "orders"), f"orders must map each power to its orders, not be "
                                f"{kind_of(raw_orders)}", "e.g.\n      orders:\n        France:\n          - A Par - Bur"))
        raw_orders = {}
    writers: dict[tuple[str, str], int | None] = {}
    for key, value, kline in _order_blocks(variant, seating, raw_orders, name, problems):
        power, writer = key
        writers[key] = kline
        if value is None:
            who = power if writer == power else f"{writer} for {power}"
            problems.append(Problem(name, kline, f"{who} has nothing after it",
                                    f"list the orders under it, or write {writer}: [] if none were sent"))
            continue
        if not isinstance(value, (str, list)):
            problems.append(Problem(name, kline, f"{power}'s orders must be a list or a block of lines, not "
                                                 f"{kind_of(value)}", 'quote each order: - "F Lon - NTH"'))
            continue
        for i, item in enumerate(value if isinstance(value, list) else ()):
            if item is None:
                problems.append(Problem(name, line_of(value, i) or kline,
                                        f"an empty order in {power}'s list: a '-' with nothing after it",
                                        f"write the order after the dash, or delete the line; write {writer}: [] "
                                        "if no orders were sent"))
            elif isinstance(item, dict):
                problems.append(Problem(name, line_of(item) or kline, "this order reads as a mapping (key: value): "
                                        "YAML takes ': ' or '{ }' that way", 'quote the order: - "F Lon - NTH"'))
            elif item is not None and not isinstance(item, str):
                problems.append(Problem(name, line_of(item) or kline, f"an order must be text, not {kind_of(item)}",
                                        'write one order a line, e.g. - "A Par - Bur"'))
        orders.setdefault(power, [])
        for text, line in split_orders(value):
            order_line = _order_line(variant, phase, power, text, line or kline, name, problems, writer)
            if order_line is not None:
                orders[power].append(order_line)
        key_lines.setdefault(power, kline)
    extra = variant.files.read_phase(phase, {k: data[k] for k in data if k not in PHASE_KEYS and k in allowed}, name,
                                     first, seating, problems)
    acknowledged = read_acknowledged(data, name, problems)
    return PhaseFile(phase, file, orders, key_lines, press, notes, extra, writers, raw, acknowledged)


def _order_blocks(variant: Variant, seating, raw: dict, file: str, problems: list[Problem]):
    """The lists of orders under ``orders:``, as ((power, writer), value, line of its key), in the
    form the variant reads them (`Variant.order_form`): ``power`` (each power's orders, written by
    its player), ``power/writer`` (each power's orders per player: Double Diplomacy) or
    ``writer/power`` (each player's orders per power she orders: the 2-player game)."""
    form = variant.files.order_form
    if form == "power":
        for power, value, kline in by_power(variant.rules.board, raw, file, problems, "under orders",
                                            "merge its two lists of orders into one"):
            yield (power, power), value, kline
        return
    writers = variant.files.writers(seating)
    outer_is_power = form == "power/writer"
    outer = by_power(variant.rules.board, raw, file, problems, "under orders", "merge the two lists into one") \
        if outer_is_power else _by_writer(writers, raw, file, problems, "under orders")
    for first, inner, kline in outer:
        if inner is None or isinstance(inner, (str, list)):
            what = "each of its players" if outer_is_power else "each power she orders"
            problems.append(Problem(file, kline, f"{first}'s orders are given per writer: a mapping of {what} to a "
                                    f"list of orders", variant.files.order_form_example))
            continue
        if not isinstance(inner, dict):
            problems.append(Problem(file, kline, f"{first}'s orders must be a mapping, not {kind_of(inner)}",
                                    variant.files.order_form_example))
            continue
        seconds = _by_writer(writers, inner, file, problems, f"under {first}") if outer_is_power else \
            by_power(variant.rules.board, inner, file, problems, f"under {first}", "merge the two lists into one")
        for second, value, line in seconds:
            yield ((first, second) if outer_is_power else (second, first)), value, line


def _by_writer(writers: dict, raw: dict, file: str, problems: list[Problem], where: str):
    """(writer, value, line) for each key of `raw` that names a writer of this game (a player)."""
    from dipgen.core.names import did_you_mean

    seen: dict[str, int | None] = {}
    for key, value in raw.items():
        line = line_of(raw, key)
        name = writers.get(str(key).strip().casefold()) if isinstance(key, str) else None
        if name is None:
            known = ", ".join(sorted(set(writers.values())))
            problems.append(Problem(file, line, f"{key!r} {where} is not a player of this game."
                                    f"{did_you_mean(str(key), list(writers.values()))}", f"the players: {known}"))
            continue
        if name in seen:
            problems.append(Problem(file, line, f"{name} appears twice {where} (first on line {seen[name]})",
                                    "merge the two lists into one"))
            continue
        seen[name] = line
        yield name, value, line


def _order_line(variant: Variant, phase: Phase, power: str, text: str, line, file: str,
                problems: list[Problem], writer: str | None = None) -> OrderLine | None:
    try:
        order = for_phase(parse_order(variant.rules.board, text, variant.rules.order_words, variant.rules.verbs),
                          phase.kind)
    except UnknownUnitKind as e:
        problems.append(Problem(file, line, str(e), _unit_kind_hint(variant, e.word)))
        return None
    except (OrderSyntaxError, UnknownName) as e:
        problems.append(Problem(file, line, str(e)))
        return None
    return OrderLine(power, text, order, file, line, writer or power)


def _unit_kind_hint(variant: Variant, word: str) -> str:
    """Where a unit letter this variant lacks comes from: 'S' is a Blind spy."""
    from dipgen.variants import VARIANTS

    for name, make in VARIANTS.items():
        if name == variant.name:
            continue
        other = make()
        kind = other.rules.order_words.get(word)
        if kind is not None and other.rules.unit_kinds.get(kind) is not None:
            unit = other.rules.unit_kinds[kind]
            return (f"{unit.plural} ({kind}) are a piece of {other.words.title} (variant: {other.name}); "
                    f"this game is {variant.words.title}")
    return "orders start with the unit, e.g. A Par - Bur or F Lon - NTH"


def discover_games(root: Path | str) -> list[Path]:
    """Every game folder under `root`, sorted by name: every folder is a game (reading one that
    is not, say with game.yaml for game.yml, is an error that says so), except those whose name
    starts with a dot, which are hidden, like dot files, and skipped."""
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def holds_games(path: Path | str) -> bool:
    """Whether a folder named on the command line is a folder of games rather than a game:
    it has game folders, and no file of a game of its own (game.yml, however spelt, or a
    phase file)."""
    path = Path(path)
    return path.is_dir() and bool(discover_games(path)) and not any(map(_game_file_name, path.iterdir()))


def game_of(file: Path | str) -> Path | None:
    """The game folder a file belongs to: the nearest folder above it that holds a game's file
    (game.yml, however spelt, or a phase file); None for a file of no game."""
    for folder in Path(file).parents:
        try:
            if any(map(_game_file_name, folder.iterdir())):
                return folder
        except OSError:
            return None
    return None


def _game_file_name(file: Path) -> bool:
    """A game's file, by its name (a folder so named too: reading the game then says what is wrong)."""
    return file.suffix.lower() in (".yml", ".yaml") and (file.stem.lower() == "game" or _is_phase_name(file.stem))


def phase_files(path: Path | str) -> dict[Phase, Path]:
    """The files of a game folder named like phase files (the first of two for one phase)."""
    out: dict[Phase, Path] = {}
    try:
        files = sorted(Path(path).iterdir())
    except OSError:
        return out
    for file in files:
        if file.suffix.lower() in (".yml", ".yaml") and not file.name.startswith(".") and _is_phase_name(file.stem):
            out.setdefault(Phase.from_slug(file.stem), file)
    return out


def _is_phase_name(name: str) -> bool:
    try:
        Phase.from_slug(name)
        return True
    except ValueError:
        return False


def player_map(game: Game) -> Mapping[str, str]:
    return {p: game.player(p) for p in game.variant.rules.powers()}

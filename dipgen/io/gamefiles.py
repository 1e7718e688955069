"""A game on disk: ``games/<slug>/game.yml`` and the phase files beside it.

`load_game` reads and checks game.yml and the folder (each phase file by `dipgen.io.phasefile`)
and gives a `Game`; whether each order fits the position is the replay's to check
(`dipgen.play.replay`).
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import replace
from pathlib import Path
from collections.abc import Mapping

from dipgen.core.errors import GameError, Problem

from dipgen.io.paths import display_path
from dipgen.core.outcome import DeclaredEnd
from dipgen.core.phase import Phase
from dipgen.play.game import Ending, Game, PhaseFile
from dipgen.rules.seats import Seating
from dipgen.io.deadline import read_deadline, read_reminders
from dipgen.io.orders_to import read_orders_to
from dipgen.io.secretsfile import SECRETS_FILE
from dipgen.variants import Variant, get_variant
from dipgen.io.folders import is_phase_name, name_hint
from dipgen.io.phasefile import read_phase
from dipgen.io.yamlfile import by_power, kind_of, line_of, link_out, load, power_key, text_field, unknown_keys

GAME_KEYS = {"title", "variant", "gm", "players", "start", "end", "reveal", "seed_sha256", "seed", "description", "map",
             "demo_secrets", "deadline", "reminders", "orders_to"}
END_KEYS = {"draw", "concession", "abandoned", "phase", "note"}


#: A game folder's name, which is the game's address on the site (as `dipgen new` makes them)
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
#: The longest title or name (the GM's, a player's), in characters: a title heads every page of the
#: game and names it in the browser's tab and the archive's table, names stand in tables, reports
#: and headings; anything longer is a paragraph (the description's job), not a title or a name.
MAX_LINE = 200
#: If nobody sent orders, the file still says so: an empty orders mapping is taken for a mistake


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
                                 "games live in games/<slug>/; create one with 'dipgen new <slug>'",
                                 code="no-game-folder")])
    problems: list[Problem] = []
    slug = Path(os.path.abspath(path)).name  # its name in games/, even if the folder is a link
    if not SLUG.fullmatch(slug):
        problems.append(Problem(folder, None, f"{slug!r} cannot name a game folder: the name is the game's address "
                                              "on the site", f"rename the folder to {suggest_slug(slug)!r} (lower case "
                                                             "letters, digits and dashes)", code="bad-folder-name"))
    data, gname = _read_game_file(path, folder, slug, problems)
    try:
        variant = get_variant(text_field(data, "variant", gname, problems, "standard") or "standard")
    except ValueError as e:
        raise GameError(problems + [Problem(gname, line_of(data, "variant"), str(e), code="unknown-variant")]) from None
    problems.extend(unknown_keys(data, GAME_KEYS | set(variant.files.game_keys), gname, "in game.yml"))
    title, gm, description, demo = _read_shown(data, gname, problems)
    deadline = read_deadline(data, gname, problems)
    reminders = read_reminders(data, gname, problems)
    orders_to = read_orders_to(data, gname, problems)
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
                demo_secrets=demo, deadline=deadline, reminders=reminders, orders_to=orders_to,
                shown=display_path(path))
    before = len(problems)
    game.setup = variant.files.read_setup(game, problems)  # the variant's keys of the set-up, read and checked
    setup_ok = not any(p.severity == "error" for p in problems[before:])
    if any(p.severity == "error" for p in problems):
        partial = stopped = None
        if game_ok and not setup_ok:  # the game cannot start: no phase is played, and none is said to follow
            partial = replace(game, phases={}, ending=None)
        elif game_ok:  # the phases up to the first broken one can still be played: that one with the orders
            stopped = min(broken) if broken else None  # that could be read, for the errors of its other orders
            partial = replace(game, phases={ph: pf for ph, pf in phases.items() if stopped is None or ph <= stopped},
                              ending=game.ending if stopped is None else None)
        raise GameError(problems, partial=partial, stopped=stopped)
    return replace(game, warnings=problems)  # no errors: warnings only


def _read_game_file(path: Path, folder: str, slug: str, problems: list[Problem]) -> tuple[dict, str]:
    """game.yml read as a mapping, and its name as shown; a GameError (with `problems` so far) if it
    cannot be."""
    game_file = path / "game.yml"
    gname = display_path(game_file)
    try:
        if not os.path.lexists(game_file):
            raise GameError([_no_game_file(path, folder, slug)])
        if game_file.is_dir() and not game_file.is_symlink():
            raise GameError([Problem(gname, None, "game.yml is a folder; it must be the game's file, with title, gm "
                                     "and players", "move what the folder holds elsewhere, delete it, and write "
                                     "game.yml (see 'The files of a game' in README.md)", code="not-a-file")])
        data = load(_inside(path, game_file))
    except GameError as e:
        raise GameError(problems + e.problems) from None
    if not isinstance(data, dict):
        raise GameError(problems + [Problem(gname, 1, "game.yml must be a mapping of keys such as title, gm and "
                                            "players",
                                            "e.g.\n      title: Spring Offensive\n      gm: Jane Doe\n      players:\n"
                                            "        England: Alice", code="not-a-mapping")])
    return data, gname


def _read_shown(data: dict, gname: str, problems: list[Problem]) -> tuple[str, str, str, bool]:
    """What the game shows and does not play: its title, GM, description, and whether its secrets
    are a demo's."""
    title = text_field(data, "title", gname, problems, "Spring Offensive")
    gm = text_field(data, "gm", gname, problems, "Jane Doe")
    for key, value, example in (("title", title, "title: Spring Offensive"), ("gm", gm, "gm: Jane Doe")):
        if not value.strip() and isinstance(data.get(key), (str, type(None))):
            problems.append(Problem(gname, line_of(data, key), f"game.yml needs {key!r}", f"e.g. {example}",
                                    code="missing-key"))
    problems.extend(one_line(title, "the title", MAX_LINE, gname, line_of(data, "title"),
                             "the description (description: |) takes the rest"))
    problems.extend(one_line(gm, "the GM's name", MAX_LINE, gname, line_of(data, "gm")))
    description = text_field(data, "description", gname, problems)
    demo = data.get("demo_secrets", False)
    if not isinstance(demo, bool):
        problems.append(Problem(gname, line_of(data, "demo_secrets"),
                                f"demo_secrets is true or false, not {kind_of(demo)}",
                                "only an example game whose secrets.yml is public on purpose says demo_secrets: true",
                                code="bad-value"))
        demo = False
    return title, gm, description, demo


def one_line(text: str, what: str, limit: int, file: str, line: int | None, more: str = "") -> list[Problem]:
    """A problem if `text` (a title, a name: plain text shown on one line) is longer than `limit`
    characters or holds a line break or another control character."""
    out = []
    if len(text) > limit:
        out.append(Problem(file, line, f"{what} is {len(text):,} characters long; at most {limit}",
                           f"shorten it{'; ' + more if more else ''}", code="too-long"))
    control = next((c for c in text if unicodedata.category(c) == "Cc"), None)
    if control is not None:
        which = "a line break" if control in "\n\r" else f"a control character (\\x{ord(control):02x})"
        out.append(Problem(file, line, f"{what} holds {which}: it is shown on one line, as plain text",
                           "write it on one line, in quotes, without escapes such as \\n or \\e", code="not-one-line"))
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
                       "delete the link; a game is a folder of its own", code="link-loop")
    if real == holder or real in holder.parents:
        return Problem(display_path(path), None, f"a link to {os.readlink(path)}, the folder that holds it: "
                       "a game folder cannot hold itself", "delete the link; a game is a folder of its own",
                       code="link-loop")
    return None


def _read_settings(variant: Variant, data: dict, gname: str, problems: list[Problem]):
    """game.yml's optional keys, checked: start, end, reveal, map and seed_sha256."""
    board = variant.rules.board
    start = data.get("start", board.start_year)
    if isinstance(start, bool) or not isinstance(start, int) or not 1000 <= start <= 9999:
        what = "a year outside 1000-9999" if isinstance(start, int) and not isinstance(start, bool) else kind_of(start)
        problems.append(Problem(gname, line_of(data, "start"), f"start must be a year such as {board.start_year}, "
                                f"not {what}", f"write the year alone, e.g. start: {board.start_year}",
                                code="bad-value"))
        start = board.start_year
    ending = None
    if data.get("end") is not None:
        ending = _read_end(board, data["end"], gname, line_of(data, "end"), problems)
    reveal = data.get("reveal", "end")
    if not isinstance(reveal, str) or reveal.lower() not in ("end", "now"):
        what = repr(str(reveal)) if isinstance(reveal, str) else kind_of(reveal)
        problems.append(Problem(gname, line_of(data, "reveal"), f"reveal must be 'end' or 'now', not {what}",
                                "reveal: end publishes a hidden game when it ends; reveal: now publishes it at once",
                                code="bad-value"))
        reveal = "end"
    map_name = data.get("map", variant.rules.board_name)
    if not isinstance(map_name, str) or map_name.strip().lower() != variant.rules.board_name:
        from dipgen.variants import VARIANTS

        known = sorted({make().rules.board_name for make in VARIANTS.values()})
        what = repr(str(map_name)) if isinstance(map_name, str) else kind_of(map_name)
        problems.append(Problem(gname, line_of(data, "map"),
                                f"{variant.words.title} is played on the {variant.rules.board_name} "
                                f"map, not {what} (known maps: {', '.join(known)})",
                                f"write map: {variant.rules.board_name}, or leave map out", code="wrong-map"))
    seed = data.get("seed_sha256")
    if seed is not None and not (isinstance(seed, str) and re.fullmatch(r"[0-9a-fA-F]{64}", seed)):
        what = "" if isinstance(seed, str) else f", not {kind_of(seed)}"
        problems.append(Problem(gname, line_of(data, "seed_sha256"), "seed_sha256 must be the SHA-256 of the game's "
                                f"secret seed: 64 hexadecimal digits{what}",
                                'in quotes, e.g. seed_sha256: "9f86d081..."', code="bad-value"))
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
                                f"64 hexadecimal digits{what}", 'copy it in quotes, e.g. seed: "3a7bd3e2..."',
                                code="bad-value"))
        return None
    if commitment is None:
        problems.append(Problem(gname, line_of(data, "seed"), "a seed without its commitment (seed_sha256): "
                                "nobody can tell that it is the seed the game's draws were made from",
                                "keep the seed_sha256 that game.yml had while the game ran",
                                code="seed-without-commitment"))
    return seed.lower()


def _inside(folder: Path, file: Path) -> Path:
    """`file`, if it is inside the game folder once symlinks are followed. A link out of the
    folder is refused: a game's files are its own, and the build must not publish what a link
    happens to point at on the machine that builds it."""
    target = link_out(folder, file)
    if target is not None:
        raise GameError([Problem(display_path(file), None, f"a link to {target}, outside the game folder",
                                 "copy the file into the game folder instead of linking to it", code="link-outside")])
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
                       "dot; to start a game, run 'dipgen new <slug>'", code="no-game")
    else:
        hint = ("a game folder holds game.yml and the phase files: write its game.yml (see 'The files of a game' "
                "in README.md), or delete the folder")
    return Problem(folder, None, "no game.yml in this folder", hint, code="no-game")


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
                                    "add a surname or an initial, e.g. 'Gm Smith'", code="bad-player"))
    return {p: [(seating.player(p), None)] for p in powers if seating.player(p)}, seating


def _read_players(variant: Variant, data: dict, gname: str, problems: list[Problem]) -> dict:
    players: dict[str, list[tuple[str, Phase | None]]] = {}
    example = "e.g.\n      players:\n        England: Alice\n        France: Bob"
    raw = data.get("players")
    if raw is None or raw == {}:
        problems.append(Problem(gname, line_of(data, "players"), "game.yml needs 'players'",
                                "a mapping of power to player, e.g. England: Alice", code="missing-key"))
        return players
    if not isinstance(raw, dict):
        problems.append(Problem(gname, line_of(data, "players"),
                                f"players must map each power to its player, not be {kind_of(raw)}", example,
                                code="bad-value"))
        return players
    for power, who, kline in by_power(variant.rules.board, raw, gname, problems, "under players",
                                      "keep one; a power that changed hands lists its players under one key"):
        players[power] = _player_entries(power, who, gname, kline, problems)
    for power in variant.rules.powers():
        if power not in players:
            problems.append(Problem(gname, line_of(data, "players"), f"no player named for {power}",
                                    f"add '{power}: <name>' under players (write 'civil disorder' if nobody plays it)",
                                    code="no-player"))
    return players


def _player_entries(power: str, who, gname: str, kline, problems: list[Problem]) -> list[tuple[str, Phase | None]]:
    """A power's players: a name, or a list of {name:, from:} for a power that changed hands."""
    if who is None or isinstance(who, str):
        if not (who or "").strip():
            problems.append(Problem(gname, kline, f"no player named for {power}",
                                    f"write {power}: <name> (write 'civil disorder' if nobody plays it)",
                                    code="no-player"))
        return [(str(who or ""), None)]
    example = ("e.g.\n      Austria:\n        - name: Mirela Vasic\n        - name: Tomas Kral\n"
               "          from: 1905-fall")
    if not isinstance(who, list) or not who:
        problems.append(Problem(gname, kline, f"{power}'s player must be a name, or a list of players with name and "
                                              f"from, not {kind_of(who)}", example, code="bad-player"))
        return []
    entries: list[tuple[str, Phase | None]] = []
    for item in who:
        line = line_of(item) or kline
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str) or not name.strip():
            problems.append(Problem(gname, line, f"each of {power}'s players needs name: (and from: for all but "
                                                 "the first)", example, code="bad-player"))
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
                problems.append(Problem(gname, line_of(item, "from"), str(e), code="bad-value"))
                continue
        if entries and (since is None or entries[-1][1] is not None and since <= entries[-1][1]):
            problems.append(Problem(gname, line, f"{power}'s player {str(name)!r} needs from: the first phase they "
                                                 "played, later than the player before", example, code="bad-player"))
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
            if suffix in (".yml", ".yaml") or is_phase_name(file.name):  # not silently skipped
                problems.append(Problem(name, None, "a folder where a phase file should be",
                                        "a phase file is a plain file; remove the folder or put the file in its place",
                                        code="folder-not-file"))
            continue  # the GM's own folders (pictures, drafts) are no business of dipgen
        if suffix not in (".yml", ".yaml"):
            if suffix in (".md", ".txt", ".png", ".svg", ".jpg"):
                continue  # the GM's own notes and pictures
            problems.append(Problem(name, None, "not a YAML file; phase files are named like 1901-spring.yml",
                                    code="not-yaml"))
            continue
        if file.name.lower() in ("game.yml", "game.yaml", "secrets.yml", "secrets.yaml"):
            real = "game.yml" if stem.lower() == "game" else SECRETS_FILE
            problems.append(Problem(name, None, f"dipgen reads {real}, spelt exactly so; this file is not read",
                                    f"merge it into {real} and delete it" if (path / real).exists()
                                    else f"rename it to {real}", code="misnamed-file"))
            continue
        try:
            phase = Phase.from_slug(stem)
        except ValueError:
            problems.append(Problem(name, None, f"{file.name!r} is not a phase file name", name_hint(stem),
                                    code="bad-phase-name"))
            continue
        if phase in names:
            problems.append(Problem(name, None, f"both {names[phase]} and {file.name} are the file of {phase.name}",
                                    "keep one", code="duplicate-phase"))
            continue
        names[phase] = file.name
        if phase < first:
            problems.append(Problem(name, None, f"{phase.name} is before the game's start in Spring {first.year}",
                                    "correct start: in game.yml, or this file's name", code="before-start"))
            continue
        before = len(problems)
        try:
            phases[phase] = read_phase(variant, phase, _inside(path, file), problems, first, seating)
        except GameError as e:
            problems.extend(e.problems)
        if any(p.severity == "error" for p in problems[before:]):
            broken.append(phase)
    return phases, broken


def _read_end(board, raw, gname, line, problems) -> Ending | None:
    if not isinstance(raw, dict):
        problems.append(Problem(gname, line, f"end must be a mapping, not {kind_of(raw)}",
                                "e.g. end: {draw: [England, France]}", code="bad-end"))
        return None
    problems.extend(unknown_keys(raw, END_KEYS, gname, "under end", hint="use draw: [powers], concession: power, "
                                 "or abandoned: reason; optionally phase: 1910-fall"))
    declared: tuple[DeclaredEnd, ...] = ("draw", "concession", "abandoned")
    kinds = [k for k in declared if k in raw]
    if len(kinds) != 1:
        problems.append(Problem(gname, line, "end needs exactly one of draw, concession or abandoned", code="bad-end"))
        return None
    kind = kinds[0]
    kline = line_of(raw, kind)
    powers: list[str] = []
    if kind in ("draw", "concession"):
        names = raw[kind] if isinstance(raw[kind], list) else [raw[kind]]
        for n in names:
            power = power_key(board, n, gname, kline, problems)
            if power in powers:
                problems.append(Problem(gname, kline, f"{power} is named twice in the {kind}", "name each power once",
                                        code="duplicate-power"))
            elif power is not None:
                powers.append(power)
        if kind == "concession" and len(powers) != 1:
            problems.append(Problem(gname, kline, "a concession is to one power", "e.g. concession: Turkey",
                                    code="bad-end"))
        if kind == "draw" and len(names) < 2:
            problems.append(Problem(gname, kline, "a draw is between two or more powers",
                                    "e.g. draw: [England, France]", code="bad-end"))
    phase = None
    if raw.get("phase") is not None:
        try:
            if not isinstance(raw["phase"], str):
                raise ValueError(f"phase must be the last phase played, such as 1910-fall, not {kind_of(raw['phase'])}")
            phase = Phase.from_slug(raw["phase"])
        except ValueError as e:
            problems.append(Problem(gname, line_of(raw, "phase"), str(e), code="bad-value"))
    note = text_field(raw, "note", gname, problems)
    if kind == "abandoned" and raw["abandoned"] is not True:
        note = text_field(raw, "abandoned", gname, problems, "the players lost interest")
    return Ending(kind, tuple(powers), phase, note, line_of(raw, "phase") if phase else line)


def player_map(game: Game) -> Mapping[str, str]:
    return {p: game.player(p) for p in game.variant.rules.powers()}

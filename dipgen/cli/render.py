"""`dipgen render`: one map of one phase at one visibility level, as SVG or as a PNG picture
(`dipgen.present.svg.raster`), by the output file's extension."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.cli.say import fail, refused
from dipgen.core.errors import CommandError, GameError
from dipgen.io.paths import display_path


def add_parser(sub) -> None:
    p = sub.add_parser(
        "render", help="draw one phase's map as a standalone SVG or a PNG picture",
        description="Draw the map of one phase as one self-contained SVG file, or as a PNG picture to attach to "
                    "an e-mail or a forum post (-o map.png): the orders and their "
                    "results on the position before the phase (--when orders, the default), or the position "
                    "after it (--when after). Phases not yet played draw the current position.")
    p.add_argument("game", help="the game folder, e.g. games/my-game")
    p.add_argument("--phase", help="e.g. 1901-spring, 1901-fall-retreats, 1901-winter (default: the latest)")
    p.add_argument("--view", default="public", help="gm, public, or a power's name (default: public)")
    p.add_argument("--when", choices=("orders", "after"), default="orders", help="which map of the phase")
    p.add_argument("-o", "--output", help="the file to write: .svg for SVG, .png for a PNG picture "
                                          "(default: SVG on standard output); never a game's file or a YAML "
                                          "file, and an existing file only with --force")
    p.add_argument("--width", type=int, help="a PNG's width in pixels (default: the map's own, 1100 for the "
                                              "standard board); its height follows")
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.set_defaults(func=run)


#: what `dipgen render` writes, by the output's extension
FORMATS = {".svg": "SVG", ".png": "PNG"}


def output_problem(output: Path, force: bool) -> CommandError | None:
    """Why the map may not be written to `output`, or None if it may. A game's files (anything in
    a game folder) and YAML files are never written over; another existing file only with force;
    the extension says the format (`FORMATS`), and no other is guessed at."""
    resolved = output.resolve()
    shown = display_path(output)
    if any(p.suffix.lower() in (".yml", ".yaml") for p in (output, resolved)):
        return CommandError(f"{shown} is a YAML file, such as a game's orders: dipgen render writes maps and never "
                            f"over a game file; name the map with .svg or .png, e.g. -o {output.stem or 'map'}.png",
                            code="out-taken")
    if resolved.is_dir():
        return CommandError(f"{shown} is a folder; name the map's file, e.g. -o {display_path(output / 'map.svg')}",
                            code="bad-option")
    if not output.exists() and not resolved.exists():
        if not resolved.parent.is_dir():
            return CommandError(f"no folder {display_path(output.parent)} to write {shown} in", code="bad-option")
        return _format_problem(output)
    if any((folder / "game.yml").is_file() for folder in resolved.parents):
        return CommandError(f"{shown} is a file of the game folder {display_path(_game_folder(resolved))}: dipgen "
                            "render never writes over a game's files, even with --force; write the map under "
                            "another name or elsewhere", code="out-taken")
    if not force:
        return CommandError(f"{shown} exists; add --force to replace it, or write the map under another name",
                            code="out-taken")
    return _format_problem(output)


def _format_problem(output: Path) -> CommandError | None:
    if output.suffix.lower() in FORMATS:
        return None
    what = f"the extension {output.suffix!r}" if output.suffix else "no extension"
    return CommandError(f"{display_path(output)} has {what}: dipgen render writes .svg (SVG) or .png (a PNG "
                        f"picture); name the map e.g. -o {output.stem or 'map'}.png", code="bad-option")


def _game_folder(path: Path) -> Path:
    return next(folder for folder in path.parents if (folder / "game.yml").is_file())


def run(args) -> int:
    from dipgen.usecases.games import load_checked
    from dipgen.present.mapview import map_view
    from dipgen.view import game_view
    from dipgen.core.phase import Phase
    from dipgen.present.svg import raster, render_standalone

    if args.output:
        problem = output_problem(Path(args.output), args.force)
        if problem:
            return refused(problem)
    picture = bool(args.output) and Path(args.output).suffix.lower() == ".png"
    if args.width is not None and not picture:
        return fail("--width is a PNG picture's width: write one with -o map.png", code="bad-option")
    if args.width is not None and not 16 <= args.width <= 8000:
        return fail(f"--width {args.width}: a picture 16 to 8000 pixels wide, e.g. --width 1600", code="bad-option")
    try:
        history = load_checked(Path(args.game)).history
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    phase = None
    if args.phase:
        try:
            phase = Phase.from_slug(args.phase)
        except ValueError as e:
            return fail(str(e), code="unknown-phase")
    try:
        view = game_view(history, args.view)
    except ValueError as e:
        return fail(str(e), code="bad-option")
    try:
        svg = render_standalone(map_view(view, phase, args.when))
    except ValueError as e:
        return fail(str(e), code="unknown-phase")
    if args.output:
        try:
            data = raster.png(svg, args.width) if picture else svg.encode("utf-8")
        except ValueError as e:  # resvg refused the SVG: a bug of dipgen's drawing, said plainly
            return fail(f"cannot draw the map as a picture: {e}", code="draw-failed")
        try:
            Path(args.output).write_bytes(data)
        except OSError as e:
            return fail(f"cannot write {args.output}: {e.strerror}", code="write-failed")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(svg)
    return 0

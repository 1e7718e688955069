"""`dipgen render`: one SVG map of one phase at one visibility level."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.core.errors import GameError, display_path


def add_render_command(sub) -> None:
    p = sub.add_parser(
        "render", help="draw one phase's map as a standalone SVG",
        description="Draw the map of one phase as one self-contained SVG file: the orders and their "
                    "results on the position before the phase (--when orders, the default), or the position "
                    "after it (--when after). Phases not yet played draw the current position.")
    p.add_argument("game", help="the game folder, e.g. games/my-game")
    p.add_argument("--phase", help="e.g. 1901-spring, 1901-fall-retreats, 1901-winter (default: the latest)")
    p.add_argument("--view", default="public", help="gm, public, or a power's name (default: public)")
    p.add_argument("--when", choices=("orders", "after"), default="orders", help="which map of the phase")
    p.add_argument("-o", "--output", help="the SVG file to write (default: standard output); never a game's "
                                          "file or a YAML file, and an existing file only with --force")
    p.add_argument("--force", action="store_true", help="replace the output file if it exists")
    p.set_defaults(func=cmd_render)


def output_problem(output: Path, force: bool) -> str:
    """Why the map may not be written to `output`, or "" if it may. A game's files (anything in
    a game folder) and YAML files are never written over; another existing file only with force."""
    resolved = output.resolve()
    shown = display_path(output)
    if any(p.suffix.lower() in (".yml", ".yaml") for p in (output, resolved)):
        return (f"{shown} is a YAML file, such as a game's orders: dipgen render writes SVG maps and never "
                f"over a game file; name the map with .svg, e.g. -o {output.stem or 'map'}.svg")
    if resolved.is_dir():
        return f"{shown} is a folder; name the map's file, e.g. -o {display_path(output / 'map.svg')}"
    if not output.exists() and not resolved.exists():
        return "" if resolved.parent.is_dir() else f"no folder {display_path(output.parent)} to write {shown} in"
    if any((folder / "game.yml").is_file() for folder in resolved.parents):
        return (f"{shown} is a file of the game folder {display_path(_game_folder(resolved))}: dipgen render never "
                "writes over a game's files, even with --force; write the map under another name or elsewhere")
    if not force:
        return f"{shown} exists; add --force to replace it, or write the map under another name"
    return ""


def _game_folder(path: Path) -> Path:
    return next(folder for folder in path.parents if (folder / "game.yml").is_file())


def cmd_render(args) -> int:
    from dipgen.adapters.games import load_checked
    from dipgen.present.mapview import map_view
    from dipgen.view import game_view
    from dipgen.core.phase import Phase
    from dipgen.present.svg import render_standalone

    if args.output:
        problem = output_problem(Path(args.output), args.force)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 1
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
            print(f"error: {e}", file=sys.stderr)
            return 1
    try:
        svg = render_standalone(map_view(game_view(history, args.view), phase, args.when))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.output:
        try:
            Path(args.output).write_text(svg, encoding="utf-8")
        except OSError as e:
            print(f"error: cannot write {args.output}: {e.strerror}", file=sys.stderr)
            return 1
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(svg)
    return 0

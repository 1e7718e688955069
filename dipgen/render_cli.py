"""`dipgen render`: one SVG map of one phase at one visibility level."""

from __future__ import annotations

import sys
from pathlib import Path

from .errors import GameError


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
    p.add_argument("-o", "--output", help="the SVG file to write (default: standard output)")
    p.set_defaults(func=cmd_render)


def cmd_render(args) -> int:
    from .game import load_game
    from .history import replay
    from .phase import Phase
    from .render import render_standalone

    try:
        history = replay(load_game(Path(args.game)))
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
        svg = render_standalone(history, phase, args.view, args.when)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.output:
        Path(args.output).write_text(svg, encoding="utf-8")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(svg)
    return 0

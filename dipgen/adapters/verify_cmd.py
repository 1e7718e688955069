"""`dipgen verify`: check every published draw of a game against its commitment."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.core.errors import GameError, display_path

DESCRIPTION = (
    "Check a game's random draws against the commitment in its game.yml (seed_sha256): each phase's key "
    "must hash to the commitment, and each draw must be what the key gives. With a game folder alone, "
    "the draws its build publishes (this needs the game's seed when it has drawn anything); with --site, "
    "the draws.json of that built site or web address, checked against the game folder's commitment "
    "(no seed needed). A built site's folder, a draws.json file or a game page's address may be given "
    "instead of a game folder: each draws.json found is checked against the commitment it names. "
    "Names every draw that fails; exit status 1 if any does.")
MAX_BYTES = 32 << 20


def add_verify_command(sub) -> None:
    p = sub.add_parser("verify", help="check a game's published random draws against its commitment",
                       description=DESCRIPTION)
    p.add_argument("target", help="a game folder (games/my-game), a built site's folder, a draws.json, or an "
                                  "https:// address of a game page or its draws.json")
    p.add_argument("--site", help="with a game folder: the built site (folder or address) whose draws.json to check")
    p.add_argument("--prefix", default="games", help="the site folder of the game pages (default: games)")
    p.set_defaults(func=cmd_verify)


def _fetch(where: str) -> dict:
    """A draws.json from a path or an http(s) address, parsed; GameError-free: raises OSError/ValueError."""
    if where.startswith(("http://", "https://")):
        from urllib.request import urlopen

        if not where.endswith(".json"):
            where = where.rstrip("/") + "/draws.json"
        with urlopen(where, timeout=30) as response:  # noqa: S310 (the user's own address)
            data = response.read(MAX_BYTES + 1)
    else:
        path = Path(where)
        if path.is_dir():
            path = path / "draws.json"
        data = path.read_bytes()[:MAX_BYTES + 1]
    if len(data) > MAX_BYTES:
        raise ValueError("too big for a draws file")
    import json  # here: every dipgen command builds this one's parser, few run it

    return json.loads(data.decode("utf-8"))


def _report(name: str, doc, expected: str | None) -> bool:
    from dipgen.present.drawfile import check

    failures, checked = check(doc, expected)
    for f in failures:
        print(f"FAIL {f}")
    anchor = doc.get("commitment") if isinstance(doc, dict) else None
    if failures:
        print(f"{name}: {len(failures)} failure(s); {checked} draw(s) recomputed", file=sys.stderr)
        return False
    print(f"{name}: ok, {checked} draw(s) match the commitment {anchor}"
          + ("" if expected else " (compare it with the game's seed_sha256 in its game.yml)"))
    return True


def cmd_verify(args) -> int:
    from dipgen.present.drawfile import document

    target = args.target
    if not target.startswith(("http://", "https://")) and (Path(target) / "game.yml").exists():
        from dipgen.io.gamefiles import load_game

        try:
            if args.site:
                game = load_game(Path(target))
                site = args.site.rstrip("/")
                where = f"{site}/{args.prefix}/{game.slug}/draws.json"
                try:
                    doc = _fetch(where)
                except (OSError, ValueError) as e:
                    print(f"error: cannot read {where}: {e}", file=sys.stderr)
                    return 1
                return 0 if _report(where, doc, game.seed_sha256) else 1
            from dipgen.adapters.games import load_checked
            from dipgen.adapters.publish import editions

            loaded = load_checked(Path(target))
        except GameError as e:
            print(e, file=sys.stderr)
            return 1
        public, full = editions(loaded)
        published = document(full or public)  # what the build publishes
        if published is None:
            print(f"{display_path(target)}: no draws published; nothing to check")
            return 0
        return 0 if _report(display_path(target), published, public.draws.commitment if public.draws else None) else 1
    if args.site:
        print("error: --site goes with a game folder (one with game.yml)", file=sys.stderr)
        return 1
    path = Path(target)
    files = [target] if target.startswith(("http://", "https://")) or path.is_file() or (path / "draws.json").exists() \
        else [str(p) for p in sorted(path.rglob("draws.json"))] if path.is_dir() else []
    if not files:
        print(f"error: no draws.json at {target} (a game folder holds game.yml; a built site, draws.json files)",
              file=sys.stderr)
        return 1
    ok = True
    for where in files:
        try:
            doc = _fetch(where)
        except (OSError, ValueError) as e:
            print(f"error: cannot read {where}: {e}", file=sys.stderr)
            ok = False
            continue
        ok = _report(where, doc, None) and ok
    return 0 if ok else 1

"""`dipgen verify`: check every published draw of a game against its commitment, and the game's
record (the chain of its phase files: `dipgen.usecases.verify_record`)."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.usecases.verify_record import Published, add_record_options, check_published, check_record, kept_links
from dipgen.cli.say import fail, refused
from dipgen.core.errors import CommandError, GameError
from dipgen.io.paths import display_path
from dipgen.present.layout import PREFIX

DESCRIPTION = (
    "Check a game's random draws against the commitment in its game.yml (seed_sha256): each phase's key "
    "must hash to the commitment, and each draw must be what the key gives. With a game folder alone, "
    "the draws its build publishes (this needs the game's seed when it has drawn anything); with --site, "
    "the draws.json of that built site or web address, checked against the game folder's commitment "
    "(no seed needed). A built site's folder, a draws.json file or a game page's address may be given "
    "instead of a game folder: each draws.json found is checked against the commitment it names. "
    "The game's record too: every link of its chain.json is recomputed from the phase files published beside "
    "it (once the game is open or revealed), the game page's link must be one of them, and each link you kept "
    "(--link, --links) must still be the chain's. "
    "Names every draw and link that fails; exit status 1 if any does.")


def add_parser(sub) -> None:
    p = sub.add_parser("verify", help="check a game's published random draws against its commitment",
                       description=DESCRIPTION)
    p.add_argument("target", help="a game folder (games/my-game), a built site's folder, a draws.json, or an "
                                  "https:// address of a game page or its draws.json")
    p.add_argument("--site", help="with a game folder: the built site (folder or address) whose draws.json to check")
    p.add_argument("--prefix", default=PREFIX, help=f"the site folder of the game pages (default: {PREFIX})")
    add_record_options(p)
    p.set_defaults(func=run)


def _parse(data: bytes) -> dict:
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


def run(args) -> int:
    try:
        kept = kept_links(args)
    except CommandError as e:
        return refused(e)
    except ValueError as e:  # a phase that is none
        return fail(str(e), code="bad-option")
    target = args.target
    if not target.startswith(("http://", "https://")) and (Path(target) / "game.yml").exists():
        return _verify_game(args, Path(target), kept)
    if args.site:
        return fail("--site goes with a game folder (one with game.yml)", code="bad-option")
    remote = target.startswith(("http://", "https://"))
    path = Path(target)
    if (remote and target.endswith(".json")) or (not remote and path.is_file()):
        base, name = target.rstrip("/").rsplit("/", 1) if remote else (str(path.parent), path.name)
        chain = name == "chain.json"
        return _verify_folders([Published(base)], kept, None, chain=chain, draws=None if chain else name)
    if remote or any((path / name).is_file() for name in ("draws.json", "chain.json")):
        folders = [Published(target)]
    else:
        found = sorted({p.parent for name in ("draws.json", "chain.json") for p in path.rglob(name)}) \
            if path.is_dir() else []
        folders = [Published(str(p)) for p in found]
    return _verify_folders(folders, kept, None)


def _verify_game(args, folder: Path, kept: list) -> int:
    """A game folder: what its build publishes, or (--site) what a built site publishes of it."""
    from dipgen.usecases.games import load_checked
    from dipgen.usecases.publish import editions
    from dipgen.io.gamefiles import load_game
    from dipgen.present import chainfile, drawfile

    try:
        if args.site:
            game = load_game(folder)
            site = args.site.rstrip("/")
            return _verify_folders([Published(f"{site}/{args.prefix}/{game.slug}")], kept, game.seed_sha256)
        loaded = load_checked(folder)
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    public, full = editions(loaded)
    view, name = full or public, display_path(folder)
    doc, ok = drawfile.document(view), True  # what the build publishes
    if doc is None:
        print(f"{name}: no draws published; nothing to check")
    else:
        ok = _report(name, doc, public.draws.commitment if public.draws else None)
    record = chainfile.document(view)
    if record is None:
        print(f"{name}: no record published (a hidden game's record is salted with its seed, which this build lacks)")
        return 0 if ok and not kept else 1
    return 0 if check_record(record, chainfile.published_files(view), kept, name) and ok else 1


def _verify_folders(folders: list[Published], kept: list, expected: str | None, chain: bool = True,
                    draws: str | None = "draws.json") -> int:
    """Published game folders: the draws.json (`draws`: its name) and chain.json of each (those it has)."""
    if not folders:
        return fail("no draws.json or chain.json found there (a game folder holds game.yml; a built site, "
                    "a folder per game with its draws.json and chain.json)", code="no-record")
    if kept and len(folders) > 1:
        return fail(f"--link and --links are the links of one game; name its folder (one of "
                    f"{', '.join(str(f) for f in folders[:5])})", code="bad-option")
    ok = True
    for folder in folders:
        seen = _draws(folder, draws, expected) if draws else None
        ok = seen is not False and ok
        checked = check_published(folder, kept) if chain else None
        ok = checked is not False and ok
        if checked is None and (kept or seen is None):
            what = "chain.json (the game's record)" if kept or not draws else "draws.json or chain.json"
            fail(f"no {what} at {folder}", code="no-record")
            ok = False
    return 0 if ok else 1


def _draws(folder: Published, name: str, expected: str | None) -> bool | None:
    """The draws.json (`name`) of a published game folder, checked; None when it has none."""
    where = f"{folder}/{name}"
    try:
        doc = _parse(folder.read(name))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        fail(f"cannot read {where}: {e}", code="no-record")
        return False
    return _report(where, doc, expected)

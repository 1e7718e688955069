"""`dipgen verify`'s check of a game's record (`dipgen.rules.chain`): from a published game folder
alone (a built site's ``games/<slug>/``, or its address), recompute every link of chain.json from
the phase files published beside it, compare the game page's link, and check the links a player
kept (``--link PHASE=HEX``, ``--links FILE``)."""

from __future__ import annotations

import sys
from pathlib import Path

from dipgen.core.errors import CommandError

from dipgen.io.paths import display_path

MAX_BYTES = 32 << 20
KEPT_HELP = ("a link of the game's record you kept, as PHASE=HEX (e.g. 1901-fall=3fa9...; repeatable): it must "
             "still be the chain's link after that phase's file")
LINKS_HELP = ("a file of kept links: PHASE=HEX lines, or the reports 'dipgen adjudicate' printed (their "
              "'Record after PHASE: HEX' lines)")


def add_record_options(p) -> None:
    p.add_argument("--link", action="append", default=[], metavar="PHASE=HEX", help=KEPT_HELP)
    p.add_argument("--links", metavar="FILE", help=LINKS_HELP)


class Published:
    """A game's folder on a built site (a path) or at an address: the files published in it."""

    def __init__(self, where: str):
        self.where = where.rstrip("/")
        self.remote = where.startswith(("http://", "https://"))

    def __str__(self) -> str:
        return self.where if self.remote else display_path(self.where)

    def read(self, name: str) -> bytes:
        """A file of the folder ('' for its page); FileNotFoundError if it has none of that name."""
        if self.remote:
            from urllib.error import HTTPError
            from urllib.request import urlopen

            try:
                with urlopen(f"{self.where}/{name}", timeout=30) as response:  # noqa: S310 (the user's address)
                    data = response.read(MAX_BYTES + 1)
            except HTTPError as e:
                if e.code == 404:
                    raise FileNotFoundError(f"{self.where}/{name}: not found") from None
                raise
        else:
            path = Path(self.where) / (name or "index.html")
            if not path.is_file():
                raise FileNotFoundError(f"{display_path(path)}: no such file")
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ValueError(f"{name or 'the page'} is larger than {MAX_BYTES >> 20} MiB")
        return data


def kept_links(args) -> list[tuple[str, str]]:
    """The links the player kept (--link, --links); CommandError naming what cannot be read, ValueError
    for a phase that is none."""
    from dipgen.core.phase import Phase
    from dipgen.present.chainfile import kept_links as found

    out = []
    for item in args.link or ():
        pairs = found(item.replace("=", " = ", 1))
        if len(pairs) != 1:
            raise CommandError(f"--link {item!r}: give PHASE=HEX, a phase such as 1901-fall and the 64 hex "
                               "digits of its link", code="bad-option")
        out += pairs
    if args.links:
        try:
            text = Path(args.links).read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise CommandError(f"--links: cannot read {args.links}: {e.strerror or e}", code="bad-option") from None
        pairs = found(text)
        if not pairs:
            raise CommandError(f"--links {args.links}: no link in it (lines PHASE=HEX, or a report's "
                               "'Record after PHASE: HEX')", code="bad-option")
        out += pairs
    for phase, _ in out:
        Phase.from_slug(phase)  # ValueError for a phase that is none
    return out


def check_published(folder: Published, kept: list[tuple[str, str]]) -> bool | None:
    """Check the chain.json of a published game folder; None when it has none. Prints each failure."""
    import json

    from dipgen.present.chainfile import check, page_link

    try:
        raw = folder.read("chain.json")
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        print(f"error: {CommandError(f'cannot read {folder}/chain.json: {e}', code='no-record')}", file=sys.stderr)
        return False
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        print(f"FAIL chain.json: not JSON: {e}")
        return _said(folder, 1, 0, kept)
    try:
        page = page_link(folder.read("").decode("utf-8", errors="replace"))
    except (OSError, ValueError):
        page = None
    failures, checked = check(doc, folder.read, page, kept)
    for f in failures:
        print(f"FAIL {f}")
    return _said(folder, len(failures), checked, kept, page is not None)


def check_record(doc: dict, files: dict[str, bytes], kept: list[tuple[str, str]], name: str) -> bool:
    """Check a record a build would publish (chain.json as a value, and its files)."""
    from dipgen.present.chainfile import check

    def read(file: str) -> bytes:
        if file not in files:
            raise FileNotFoundError(file)
        return files[file]

    failures, checked = check(doc, read, None, kept)
    for f in failures:
        print(f"FAIL {f}")
    return _said(name, len(failures), checked, kept)


def _said(where, failed: int, checked: int, kept: list, page: bool = False) -> bool:
    if failed:
        print(f"{where}: the record: {failed} failure(s)", file=sys.stderr)
        return False
    parts = [f"{checked} link(s) recomputed from the published files" if checked else "no link recomputed (the "
             "phase files are published when the game is open or revealed)"]
    if page:
        parts.append("the game page's link is the chain's")
    if kept:
        parts.append(f"the {len(kept)} link(s) you kept are in it")
    print(f"{where}: the record is ok: {', '.join(parts)}")
    return True

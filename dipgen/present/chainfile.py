"""What a game publishes of its record (`dipgen.rules.chain`), and the check of a published record
(what `dipgen verify` and a player's own script do). Pure: no I/O.

``chain.json``, next to the game's page::

    {"format": "dipgen-chain/1", "game": "slug", "genesis": "<hex>", "salted": false, "salt": null,
     "links": [{"phase": "1901-spring", "after": "1901-spring", "link": "<hex>",
                "file": "files/1901-spring.yml"}]}

One entry per record the site shows, with the link after the phase file that opens it
(``after``: a hidden game's public Winter carries its Fall's); ``file`` and the files themselves
(``files/<phase>.yml``, the exact bytes) only where the game is open or revealed, and a hidden
game's ``salt`` only once it is revealed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable

from dipgen.core.phase import Phase
from dipgen.present.drawfile import Failure
from dipgen.rules.chain import genesis, link
from dipgen.view import GameView

FORMAT = "dipgen-chain/1"
FILES = "files"
#: the game page's latest link, as `dipgen.present.site` writes it and `dipgen verify` reads it back
PAGE_LINK = re.compile(r'<code class="dg-link" data-after="([a-z0-9-]+)">([0-9a-f]{64})</code>')
#: a kept link in a player's file (a report's "Record after 1901-fall: <hex>", or "1901-fall=<hex>")
KEPT_LINK = re.compile(r"\b(\d{3,4}-(?:spring|fall|winter)(?:-retreats)?)\b\W{1,3}([0-9a-fA-F]{64})\b")


def file_name(phase: Phase) -> str:
    """Where a phase file is published, beside chain.json."""
    return f"{FILES}/{phase.slug}.yml"


def document(view: GameView) -> dict | None:
    """The game's chain.json as a value, from the view a site publishes (the public's, or once a
    hidden game is revealed its full edition's); None where its record cannot be published."""
    chain = view.chain
    if chain is None:
        return None
    files = {phase for phase, _ in chain.files}
    links = []
    for r in view.records:
        if r.link is not None:
            entry = {"phase": r.phase.slug, "after": r.link.after.slug, "link": r.link.value}
            if r.link.after in files:
                entry["file"] = file_name(r.link.after)
            links.append(entry)
    return {"format": FORMAT, "game": view.slug, "genesis": chain.genesis, "salted": chain.salted,
            "salt": chain.salt or None, "links": links}


def published_files(view: GameView) -> dict[str, bytes]:
    """The phase files the view publishes beside chain.json (name -> exact bytes)."""
    return {file_name(phase): data for phase, data in view.chain.files} if view.chain is not None else {}


def dumps(doc: dict) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def page_link(html: str) -> tuple[str, str] | None:
    """The latest link a game page shows: (after, hex), or None."""
    m = PAGE_LINK.search(html)
    return (m.group(1), m.group(2)) if m else None


def kept_links(text: str) -> list[tuple[str, str]]:
    """Every (phase, link) a text holds: a file of links a player kept, or the reports she was sent."""
    return [(phase, value.lower()) for phase, value in KEPT_LINK.findall(text)]


# ----------------------------------------------------------------------------- checking

def check(doc, read: Callable[[str], bytes] | None = None, page: tuple[str, str] | None = None,
          kept: Iterable[tuple[str, str]] = ()) -> tuple[list[Failure], int]:
    """Every failure of a published chain.json, and how many links were recomputed: its start is the
    game's; where it lists files, each link is recomputed from them (`read`: a listed file's
    bytes); the game page's latest link (`page`: (after, hex)) is one of its links; and each link a player
    `kept` ((phase, hex)) is still the link after that phase's file."""
    failures: list[Failure] = []
    try:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            return [Failure("chain.json", f"not a dipgen record (format {FORMAT})")], 0
        start = genesis(doc["game"])
        if doc["genesis"] != start:
            failures.append(Failure("genesis", "not the start of this game's chain", start, str(doc["genesis"])))
        entries = doc["links"]
        _in_order(entries, failures)
        truth, checked = _recompute(doc, start, entries, read, failures)
        if page is not None and page not in {(e["after"], e["link"]) for e in entries}:
            failures.append(Failure("game page", "its link is not chain.json's link after that phase's file",
                                    truth.get(page[0], "none"), "=".join(page)))
        _kept(kept, truth, failures)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        failures.append(Failure("chain.json", f"malformed: {type(e).__name__}: {e}"))
        checked = 0
    return failures, checked


def _in_order(entries: list, failures: list[Failure]) -> None:
    """The entries follow the order of play, each after a file no later than its own phase."""
    last = None
    for e in entries:
        phase, after = Phase.from_slug(e["phase"]), Phase.from_slug(e["after"])
        if after > phase or (last is not None and after < last):
            failures.append(Failure(e["phase"], "a link out of the order of play"))
        last = after


def _recompute(doc: dict, start: str, entries: list, read, failures: list[Failure]) -> tuple[dict[str, str], int]:
    """The link after each phase file, as the site says it or, where it publishes the files, as they
    give it; and how many links were recomputed."""
    listed = [e for e in entries if "file" in e]
    if not listed or read is None:
        return {e["after"]: e["link"] for e in entries}, 0
    if len(listed) != len(entries):
        failures.append(Failure("chain.json", "some links have their file and others not"))
    if doc["salted"] and not doc.get("salt"):
        failures.append(Failure("salt", "the files are published, but not the salt their links were made with"))
        return {e["after"]: e["link"] for e in entries}, 0
    salt = bytes.fromhex(doc["salt"]) if doc.get("salt") else b""
    truth: dict[str, str] = {}
    previous, checked = start, 0
    for e in listed:
        name, after = e["file"], e["after"]
        if name != f"{FILES}/{after}.yml":
            failures.append(Failure(after, f"its file is listed as {name!r}, not {FILES}/{after}.yml"))
            continue
        if after in truth:
            continue  # a Winter of a public calendar carries its Fall's link again
        try:
            data = read(name)
        except (OSError, ValueError) as err:
            failures.append(Failure(after, f"cannot read its file {name}: {err}"))
            return truth, checked
        previous = link(previous, salt, after, data)
        truth[after] = previous
        checked += 1
        if previous != e["link"]:
            failures.append(Failure(after, "the published link is not the chain of the published files", previous,
                                    str(e["link"])))
    return truth, checked


def _kept(kept: Iterable[tuple[str, str]], truth: dict[str, str], failures: list[Failure]) -> None:
    """Each kept link against the chain; the first that differs tells from which phase on the
    published files are not the ones the player was shown."""
    matched = None
    for phase, value in sorted(set(kept), key=lambda k: Phase.from_slug(k[0])):
        now = truth.get(phase)
        if now is None:
            failures.append(Failure(phase, "no link after this phase's file is published (a hidden game publishes "
                                    "the links of its retreat and winter files when it is revealed)"))
            continue
        if now != value.lower():
            since = f" (the files up to {matched} are unchanged)" if matched else ""
            failures.append(Failure(phase, f"the link you kept is not the chain's: a phase file up to {phase} was "
                                    f"changed after you kept it{since}", value.lower(), now))
            return
        matched = phase

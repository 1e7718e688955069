"""Non-interference: two running hidden games that differ only in a hidden fact publish
byte-identical public sites, the same public report, private pages of one name and size, and,
to every player who may not know the fact, the same private page.

The pairs come from `support.pairs` (a seeded player, then one hidden fact changed: a hold or
a move that meets nobody, a support that decides a dislodgement, a retreat or a disband, a
build or a waive, a spy's move, a unit that stays in or leaves the last place a dislodged unit
could go to, a misorder, an unlawful retreat, notes in a retreat or winter file, a winter NMR).
A pair counts only when the variant's rulings give the public the same facts of both games
(`support.pairs.public_facts`); then everything `support.pairs.published` lists must be the same,
byte for byte (pages, maps, status lines, file names, the feeds and the deadline's calendar with
the commit times of the phase files, the report the GM e-mails everyone, the private pages' names
and sizes), and so must the decrypted private page of every player not
`support.pairs.involved` (drawn from the board: the powers near where the games differ).

The sample below is fixed: each of its pairs made some output differ in an earlier dipgen (the
first eight before the public calendar, the others before the one door of `dipgen.view`); the
property explores more (``HYPOTHESIS_PROFILE=long`` for many more examples).
"""

from __future__ import annotations

import filecmp
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from support import build, load, make_project
from support.pairs import (KINDS, PAGE_KEY, PASSPHRASES, SLUG, constant_links, differences, involved, pair,
                           pair_points, public_facts, published)
from support.private import opened

pytestmark = pytest.mark.slow  # pairs of games played and whole sites built

settings.register_profile("ci", max_examples=10, deadline=None, derandomize=True,  # CI: the same pairs every run
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                 HealthCheck.function_scoped_fixture])
settings.register_profile("long", max_examples=int(os.environ.get("PAIRS", 400)), deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                                 HealthCheck.function_scoped_fixture])
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "ci")

#: (variant, kind, seed, phases, after, activity): pairs whose public sites once differed (the
#: prefixes of six of them one phase or more longer since every hidden Fall is closed by a file of its
#: own, a phase that the count includes)
SAMPLE = [
    ("stab", "build", 0, 4, 2, 0.1),
    ("stab", "build", 1, 4, 3, 0.25),
    ("stab", "build", 10, 6, 2, 0.25),
    ("blind", "retreat", 3, 6, 5, 0.1),
    ("blind", "retreat", 6, 9, 3, 0.1),
    ("blind", "build", 11, 7, 3, 0.55),
    ("stab", "vacate", 19, 10, 6, 0.25),
    ("blind", "quiet", 38, 6, 5, 0.55),
    # the one door: the report said "(no order)" of a misordered unit under attack
    ("stab", "misorder", 2, 3, 0, 0.55),
    # the season page and the report said an unlawfully retreating unit was disbanded
    ("stab", "unlawful", 0, 4, 0, 0.55),
    # every private page grew with a winter file's notes
    ("stab", "notes", 1, 6, 0, 0.55),
    ("blind", "notes", 0, 5, 0, 0.55),
    # every player's page told of another's winter NMR
    ("blind", "silent", 1, 3, 0, 0.25),
    # a player who builds in a Winter the public was not yet told of saw every power's new count,
    # which a retreat she took no part in had changed
    ("blind", "retreat", 240, 2, 2, 0.55),
    # the pair's own player, not the site: with one generator for every power's builds, a build only
    # one game had shifted an uninvolved power's draws, so her own winter file differed between the
    # games (each power now orders from a generator of its own)
    ("blind", "build", 93413, 8, 4, 0.55),
    # a spy's owner read a void support as "void" in one game and, where the unit it named was not
    # there, the hold the rules put in its place in the other: a support is shown as written
    ("blind", "vacate", 124396, 7, 2, 0.25),
    # the same for a Fall retreat a player took part in (she dislodged the unit): her page showed every
    # power's new count after it, before the public's Winter page
    ("blind", "retreat", 0, 5, 4, 0.55),
    # one game owed the Fall's retreats after the fact, the other not: before they were played, every
    # uninvolved player's report, page and `adjudicate --power all --out` file lacked her centres in
    # one game only, and an adjusting player's Winter was due in the other (issue 32, 3.1: each Fall is
    # now closed by its retreats file, empty where nobody retreats, and the pair compared before it too)
    ("blind", "support", 0, 3, 0, 0.55),
    ("blind", "support", 0, 4, 0, 0.55),
    # a Spring's retreats owed in one game only: compared while they are owed, and once played
    ("blind", "support", 6, 3, 0, 0.55),
]


@pytest.mark.parametrize("variant,kind,seed,phases,after,activity", SAMPLE,
                         ids=[f"{v}-{k}-{s}" for v, k, s, *_ in SAMPLE])
def test_a_hidden_fact_changes_nothing_public(tmp_path, variant, kind, seed, phases, after, activity):
    points = pair_points(variant, kind, seed, tmp_path, phases=phases, after=after, activity=activity)
    assert points is not None, "the sample pair could not be made"
    for a, b in points:  # at every point of the GM's pace
        assert not a.finished
        assert not b.finished
        assert public_facts(a) == public_facts(b), "not a pair that differs in a hidden fact only"
        assert [r.phase for r in a.records] != [r.phase for r in b.records] or a.position != b.position or \
            [(r.orders, r.notes) for r in a.records] != [(r.orders, r.notes) for r in b.records]
        assert a.chain is not None
        assert a.chain.salt
        assert b.chain.salt == a.chain.salt  # both publish a record
        assert differences(a, b) == []
        files = published(a)
        assert {"site/feed.xml", f"site/games/{SLUG}/feed.xml", f"site/games/{SLUG}/deadline.ics",
                "private/England/report", f"site/games/{SLUG}/maps/now.png"} <= set(files)  # link previews too
        # the order sheets are inside the private pages compared (and on no public page)
        assert any("dg-sheet-data" in text for key, text in files.items() if key.startswith("private/"))
        assert not any("dg-sheet" in text for key, text in files.items()
                       if key.startswith(f"site/games/{SLUG}/") and isinstance(text, str))  # (not the PNG maps)
        hidden = {r.phase: r.time for r in a.records} | {r.phase: r.time for r in b.records}
        assert len(set(hidden.values())) == len(hidden)  # every phase file has a time of its own


@settings(settings.get_profile(PROFILE))
@given(variant=st.sampled_from(["stab", "blind"]), kind=st.sampled_from(KINDS),
       seed=st.integers(0, 10**6), phases=st.integers(1, 10), after=st.integers(0, 6),
       activity=st.sampled_from([0.1, 0.25, 0.55]))
def test_non_interference_property(tmp_path_factory, variant, kind, seed, phases, after, activity):
    points = pair_points(variant, kind, seed, tmp_path_factory.mktemp("pair"), phases, after, activity)
    assume(points is not None)
    for a, b in points:  # at every point of the GM's pace
        assume(not a.finished and not b.finished and public_facts(a) == public_facts(b))
        assert differences(a, b) == []


@pytest.fixture(autouse=True, scope="module")
def _links_constant():
    """The records' links made constant (`support.pairs.constant_links`: why); module-scoped, as
    Hypothesis wants no function-scoped fixture."""
    with constant_links():
        yield


def _project(root: Path, game: Path) -> Path:
    """A site project of the one game, with its players' passphrases (the same for both games of a
    pair), so that the build publishes their private pages too."""
    import yaml

    from support.pairs import PAGE_KEY, PASSPHRASES, SEED, SITE_URL

    files = {p.name: p.read_text(encoding="utf-8") for p in sorted(game.iterdir())}
    secrets = yaml.safe_dump({"page_key": PAGE_KEY.hex(), "passphrases": PASSPHRASES, "seed": SEED.hex()})
    project = make_project(root, games={SLUG: {**files, "secrets.yml": secrets}})
    config = project / "mkdocs.yml"  # with an address, so that the pages' PNG maps (og:image) are built
    config.write_text(config.read_text(encoding="utf-8").replace("# site_url:", f"site_url: {SITE_URL}\n#"),
                      encoding="utf-8")
    return project


def _same_tree(a: Path, b: Path) -> list[str]:
    out = []
    cmp = filecmp.dircmp(a, b)
    stack = [("", cmp)]
    while stack:
        prefix, c = stack.pop()
        out += [prefix + n for n in c.left_only + c.right_only + c.funny_files]
        _, mismatch, errors = filecmp.cmpfiles(a / prefix, b / prefix, c.common_files, shallow=False)
        # a private page is encrypted with a fresh nonce: its name and size are compared here, its
        # salt and what it opens to by the caller (support.private.opened)
        out += [prefix + n for n in mismatch + errors
                if prefix != "private/" or (a / prefix / n).stat().st_size != (b / prefix / n).stat().st_size]
        stack += [(f"{prefix}{n}/", sub) for n, sub in c.subdirs.items()]
    return sorted(out)


@pytest.mark.parametrize("variant,kind,seed,phases,after,activity", [SAMPLE[0], SAMPLE[3]],
                         ids=["stab-build", "blind-retreat"])
def test_whole_built_sites_are_byte_identical(tmp_path, variant, kind, seed, phases, after, activity):
    """The whole MkDocs build, search index, sitemap and the players' private pages (their names
    and sizes) included, and the leak scanner finds nothing in either. Each private page has one
    salt in both (the seat's), and decrypts to the same page for every player not involved. What
    `dipgen publish-site` pushes to the public site repository, its tree and its one commit, is the
    same for both."""
    from dipgen.usecases.leaks import scan_site
    from support.pairs import SITE_URL

    made = pair(variant, kind, seed, tmp_path / "pair", phases=phases, after=after, activity=activity)
    assert made is not None
    sites = []
    for name, h in zip("ab", made, strict=True):
        project = _project(tmp_path / name, Path(h.info.folder))
        sites.append(build(project))
        assert scan_site(sites[-1], [load(project / "games" / SLUG)],
                         docs_dir=project / "site_src") == []
    assert len(list((sites[0] / "private").glob("*.html"))) == 7
    assert '"links": [' in (sites[0] / "games" / SLUG / "chain.json").read_text()
    pictures = {m for page in (sites[0] / "games" / SLUG).rglob("index.html")
                for m in re.findall(r'og:image" content="' + SITE_URL + r'([^"]+)"', page.read_text(encoding="utf-8"))}
    assert len(pictures) >= 2
    assert all((sites[0] / p).read_bytes().startswith(b"\x89PNG") for p in pictures)
    assert _same_tree(*sites) == []
    pages = [opened(site, PAGE_KEY, SLUG, PASSPHRASES) for site in sites]
    assert len(pages[0]) == 7
    assert pages[0].keys() == pages[1].keys()
    may = involved(*made)
    for seat, (size, salt, text) in pages[0].items():
        assert (size, salt) == pages[1][seat][:2], seat
        assert seat in may or text == pages[1][seat][2], f"{seat}'s private page differs"
    assert _pushed(sites[0], tmp_path / "a.git") == _pushed(sites[1], tmp_path / "b.git")


def _pushed(site: Path, remote: Path) -> tuple[str, list[str]]:
    """What `dipgen publish-site` puts in the public site repository (a local bare one here): its
    one commit's author, date, message and parents, and every entry of its tree with its size (and
    its blob, but for the private pages, which differ inside their encryption only)."""
    import subprocess

    from dipgen.usecases.sitepush import publish_site

    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    commit, _ = publish_site(site, str(remote), "gh-pages")

    def git(*args: str) -> str:
        return subprocess.run(["git", "--git-dir", str(remote), *args], check=True, capture_output=True,
                              text=True).stdout

    assert git("rev-list", "--all").split() == [commit]
    entries = []
    for line in git("ls-tree", "-r", "-l", "--full-tree", commit).splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, blob, size = meta.split()
        entries.append(f"{mode} {kind} {size} {path}" + ("" if path.startswith("private/") else f" {blob}"))
    return git("show", "-s", "--format=%an %ae %ad %cn %ce %cd %P %B", commit), entries

"""Private pages benchmark: the build with a stable salt per seat against a fresh salt per page.

    python bench/private_pages.py [--copies 3] [--repeat 5] [--only lamps-out,...]

The archive is the example games (games/), `--copies` times over (each copy its own folder and
slug), with a passphrase for every seat of every running hidden game (`dipgen secrets`), as a GM's
archive of several hidden games is. The named baseline, measured in the same run: **the same
build with a fresh random salt for every page** (dipgen before the stable salt: the child replaces
`dipgen.present.site.crypt.page_salt` by 16 random bytes, so that no key can be derived once and used
again). Each figure is CPU time (user + system) of a child process, runs interleaved (stable,
fresh, stable, ...), the median of `--repeat`:

- full build: `mkdocs build` with no cache folder, in a new process, as a CI build makes it;
- one edit under `mkdocs serve`: the rebuild the server calls after a line was added to the last
  phase file of a running hidden game (the plugin kept across rebuilds, as serve keeps it; timed in
  the child, around MkDocs's build function): the game's pages, private ones included, are made
  and encrypted again.

Each child also counts the PBKDF2 derivations it ran (in the full build, and in the edit alone),
and the private pages the build published.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # as bench/archive.py: why
EDIT = "# a line the GM added while the server runs\n"


def archive_project(folder: Path, copies: int, only: list[str]) -> tuple[Path, str]:
    """A site project of the example games (those named in `only`, if any), `copies` times over,
    with passphrases for every seat of its running hidden games; and the folder name of one of
    those games (the one the edit changes)."""
    from dipgen.cli import main as dipgen
    from dipgen.usecases.games import load_checked
    from dipgen.view import revealed

    folder.mkdir(parents=True)
    shutil.copy(REPO / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(REPO / "site_src", folder / "site_src")
    hidden = []
    for game in sorted(p for p in (REPO / "games").iterdir() if (p / "game.yml").exists()
                       and (not only or p.name in only)):
        for n in range(copies):
            copy = folder / "games" / (game.name if n == 0 else f"{game.name}-{n + 1}")
            shutil.copytree(game, copy)
            h = load_checked(copy).history
            if h.variant.policy.hidden and not revealed(h):  # a running hidden game: private pages
                with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):
                    assert dipgen(["secrets", str(copy)]) == 0  # passphrases for seats without one
                hidden.append(copy.name)
    if not hidden:
        raise SystemExit("bench/private_pages.py: no running hidden game among the games chosen")
    return folder, hidden[0]


def child(mode: str, salt: str, project: Path, game: str) -> dict:
    """Run in the child process: one measurement (see the module); `salt`: "stable" or "fresh"."""
    import dipgen.present.site.crypt as crypt
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    if salt == "fresh":  # the baseline: a new salt for every page, as before
        crypt.page_salt = lambda page_key, slug, seat: os.urandom(crypt.SALT_BYTES)
    derived = [0]
    real = crypt.PBKDF2HMAC

    def counted(**kw):
        derived[0] += 1
        return real(**kw)

    crypt.PBKDF2HMAC = counted
    out: dict = {}
    if mode == "edit":
        config = load_config(str(project / "mkdocs.yml"))
        config.plugins.on_startup(command="serve", dirty=False)
        build(config, serve_url="http://127.0.0.1:8000/")
        phases = sorted(p for p in (project / "games" / game).glob("1*.yml"))
        with phases[-1].open("a", encoding="utf-8") as f:
            f.write(EDIT)
        config = load_config(str(project / "mkdocs.yml"))  # as serve reads it again
        before, t0 = derived[0], time.process_time()
        build(config, serve_url="http://127.0.0.1:8000/")
        out["edit"] = time.process_time() - t0
        out["derived"] = derived[0] - before
        config.plugins.on_shutdown()
    else:
        build(load_config(str(project / "mkdocs.yml")))
        out["derived"] = derived[0]
    out["private"] = len(list((project / "site" / crypt.PRIVATE_DIR).glob("*.html")))
    return out


def run(mode: str, salt: str, project: Path, game: str) -> dict:
    """A child process measuring `mode` with `salt`: its CPU time and report."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, __file__, "--child", mode, salt, str(project), game],
                          capture_output=True, text=True, cwd=project, timeout=3600, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"bench/private_pages.py: the {mode} build ({salt} salt) failed:\n{proc.stderr[-3000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out


def measure(copies: int, repeat: int, only: list[str], work: Path) -> dict:
    project, game = archive_project(work / "archive", copies, only)
    games = len(list((project / "games").iterdir()))
    print(f"== the example games x{copies}: {games} games; the edit changes {game}", flush=True)
    runs: dict[str, list[dict]] = {k: [] for k in ("full stable", "full fresh", "edit stable", "edit fresh")}
    for _ in range(repeat):  # interleaved: stable, fresh, stable, fresh
        for salt in ("stable", "fresh"):
            shutil.rmtree(project / ".dipgen-cache", ignore_errors=True)
            shutil.rmtree(project / "site", ignore_errors=True)
            runs[f"full {salt}"].append(run("build", salt, project, game))
        for salt in ("stable", "fresh"):
            copy = work / "serve"
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(project, copy, ignore=shutil.ignore_patterns("site", ".site.*", ".dipgen-cache"))
            runs[f"edit {salt}"].append(run("edit", salt, copy, game))
    cpu = {k: statistics.median(r["cpu"] if k.startswith("full") else r["edit"] for r in v) for k, v in runs.items()}
    count = {k: sorted({r["derived"] for r in v}) for k, v in runs.items()}
    pages = sorted({r["private"] for v in runs.values() for r in v})
    print(f"   {pages} private pages; baseline: the same build with a fresh salt for every page")
    for what, label in (("full", "full build (no cache)"), ("edit", "one edit under serve")):
        stable, fresh = cpu[f"{what} stable"], cpu[f"{what} fresh"]
        print(f"   {label + ':':24} {stable:6.2f}s CPU = {stable / fresh:.2f}x the baseline's {fresh:.2f}s; "
              f"PBKDF2 runs {count[f'{what} stable']} against {count[f'{what} fresh']}")
    for k, v in runs.items():
        print(f"   runs, {k}: " + ", ".join(f"{r['cpu' if k.startswith('full') else 'edit']:.2f}" for r in v))
    return dict(cpu=cpu, derived=count, pages=pages)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--copies", type=int, default=3, help="how many times the example games are copied")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--only", default="", help="the example games to copy, comma-separated (default: all)")
    ap.add_argument("--child", nargs=4, metavar=("MODE", "SALT", "PROJECT", "GAME"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        mode, salt, project, game = args.child
        print(json.dumps(child(mode, salt, Path(project), game)))
        return 0
    with tempfile.TemporaryDirectory(prefix="dipgen-bench-") as tmp:
        measure(args.copies, args.repeat, [g for g in args.only.split(",") if g.strip()], Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())

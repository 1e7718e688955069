"""`dipgen export` built by ProperDocs and Zensical, against the plugin's own build in the same run.

    python bench/export.py [--repeat 3] [--only GAME,...]

A copy of the example archive's project (games/, site_src/, mkdocs.yml, committed to a git
repository as a GM's archive is: the feeds' times come from the commits) is built, each build a
process of its own, its CPU time (user + system of the child and its children) measured:

- plugin (the baseline): `mkdocs build` with the dipgen plugin, no cache folder (.dipgen-cache/
  removed first): the site as the archive publishes it;
- export: `dipgen export out` (reading, adjudicating and writing every page; a GM runs it once
  before each build of the export, and it is shown apart from the builds);
- properdocs: `properdocs build -f mkdocs.yml` in the exported folder;
- properdocs, whole: the same build with the export's hook taken out of its mkdocs.yml, so that every
  generated page goes through Markdown whole (the export before it had the hook);
- zensical: `zensical build` in the exported folder (its own cache removed first, so that it
  converts every page, as on a CI runner).

The runs are interleaved (one of each in turn, `--repeat` times) and each figure is the median; the
ratios are against the plugin's build measured in the same run. The generators are those of
requirements-export.txt; one that is not installed is left out and said so.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import seam  # bench/, beside this script
from seam import ratios

REPO = Path(__file__).resolve().parent.parent
HOOK = "hooks/dipgen_pages.py"  # dipgen.usecases.export.HOOK (this script imports nothing of dipgen's)
BIN = Path(sys.executable).parent
ENV = dict(os.environ, NO_MKDOCS_2_WARNING="1")


def project(folder: Path, only: list[str]) -> Path:
    """A copy of the example archive's project in `folder` (`seam.project`: the games `only` names, else
    all), committed."""
    seam.project(folder, only=only)
    when = dict(ENV, GIT_COMMITTER_DATE="2026-01-01T00:00:00")
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    subprocess.run(["git", "add", "-A"], cwd=folder, check=True)
    subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "games", "--date",
                    "2026-01-01T00:00:00"], cwd=folder, check=True, env=when)
    return folder


def cpu(command: list[str], cwd: Path) -> float:
    """The CPU seconds of `command`, run to its end in `cwd` (`seam.cpu`)."""
    return seam.cpu(command, cwd, ENV)


def tool(name: str) -> str | None:
    path = BIN / name
    return str(path) if path.exists() else shutil.which(name)


def one_round(folder: Path, generators: dict[str, str]) -> dict[str, float]:
    """One of each run, in turn, on the project in `folder`."""
    shutil.rmtree(folder / ".dipgen-cache", ignore_errors=True)
    times = {"plugin": cpu([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(folder / "site")], folder)}
    out = folder / "out"
    times["export"] = cpu([tool("dipgen") or "dipgen", "export", str(out)], folder)
    for name, exe in generators.items():
        if name == "properdocs":
            times[name] = cpu([exe, "build", "-q", "-f", "mkdocs.yml", "-d", "site-properdocs"], out)
            whole = (out / "mkdocs.yml").read_text(encoding="utf-8").replace(f"hooks:\n  - {HOOK}\n", "")
            assert HOOK not in whole, "the export's mkdocs.yml names its hook as this script expects"
            (out / "mkdocs-whole.yml").write_text(whole, encoding="utf-8")
            times["properdocs, whole"] = cpu([exe, "build", "-q", "-f", "mkdocs-whole.yml", "-d", "site-whole"], out)
        else:
            shutil.rmtree(out / ".cache", ignore_errors=True)
            shutil.rmtree(out / "site", ignore_errors=True)
            times[name] = cpu([exe, "build", "--clean"], out)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="the example games to build, by folder, with commas (all)")
    args = parser.parse_args()
    generators = {name: exe for name in ("properdocs", "zensical") if (exe := tool(name))}
    for name in ("properdocs", "zensical"):
        if name not in generators:
            print(f"{name}: not installed (pip install -r requirements-export.txt), left out")
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = project(Path(tmp) / "archive", [slug for slug in args.only.split(",") if slug])
        for _ in range(args.repeat):
            for name, value in one_round(folder, generators).items():
                times.setdefault(name, []).append(value)
    load = os.getloadavg()[0]
    print(f"example archive, CPU seconds (median of {args.repeat}, interleaved; load average {load:.1f})")
    print(ratios(times, "plugin", "the plugin's build", 17))


if __name__ == "__main__":
    main()

"""The example site's build with the plugin behind its seam: CPU time against a baseline checkout.

    python bench/seam.py --baseline /path/to/a/checkout/of/main [--repeat 3] [--only GAME,...]

Builds a copy of the example archive (games/, site_src/, mkdocs.yml) with `mkdocs build`, each build a
process of its own, its CPU time (user + system, the process and its children) measured:

- baseline: the plugin of the checkout `--baseline` names (its dipgen on PYTHONPATH), cold cache;
- layers: this checkout's plugin with its speed layers (the default), cold cache;
- layers, warm: the same again over the cache the build before it left (what a GM's second build costs);
- plain: this checkout's plugin with ``speed: false`` (every layer off).

The runs are interleaved (one of each in turn, `--repeat` times) and each figure is the median;
the ratios are against the baseline measured in the same run. A checkout of main before issue 36
has no ``speed`` setting, nor dipgen/mkdocs/: the baseline is given a dipgen/mkdocs/plugin.py that
names its own plugin class, in a copy of it.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def project(folder: Path, speed: bool = True, only: list[str] | None = None) -> Path:
    """A copy of the example archive's project in `folder` (the games `only` names, else all)."""
    if only:
        for slug in only:
            shutil.copytree(REPO / "games" / slug, folder / "games" / slug)
    else:
        shutil.copytree(REPO / "games", folder / "games")
    shutil.copytree(REPO / "site_src", folder / "site_src")
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    if not speed:
        text = text.replace("  - dipgen:\n", "  - dipgen:\n      speed: false\n")
    (folder / "mkdocs.yml").write_text(text, encoding="utf-8")
    return folder


def baseline_code(checkout: Path, into: Path) -> Path:
    """`checkout`'s dipgen, where the entry point of this one (dipgen.mkdocs.plugin) finds its plugin."""
    shutil.copytree(checkout / "dipgen", into / "dipgen", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("svg_templates", "site_src"):
        if (checkout / name).is_dir():
            shutil.copytree(checkout / name, into / name)
    room = into / "dipgen" / "mkdocs"
    if not (room / "plugin.py").is_file():
        room.mkdir(exist_ok=True)
        (room / "__init__.py").write_text("")
        (room / "plugin.py").write_text("from dipgen.adapters.mkdocs import DipgenPlugin  # noqa: F401\n")
    return into


def cpu(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    """The CPU seconds of `command`, run to its end in `cwd` (with `env`, else this process's and
    NO_MKDOCS_2_WARNING); it failing ends the benchmark with its output."""
    env = env if env is not None else dict(os.environ, NO_MKDOCS_2_WARNING="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_of_build(folder: Path, pythonpath: str | None = None) -> float:
    """The CPU seconds of one `mkdocs build` of the project in `folder`."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    return cpu([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(folder / "site")], folder, env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="a checkout of the code to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="the example games to build, by folder, with commas (all)")
    args = parser.parse_args()
    times: dict[str, list[float]] = {"baseline": [], "layers": [], "layers, warm": [], "plain": []}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        code = baseline_code(args.baseline.resolve(), root / "baseline-code")
        for i in range(args.repeat):
            only = [slug for slug in args.only.split(",") if slug]
            runs = {name: project(root / f"{i}-{name}", name != "plain", only)
                    for name in ("baseline", "layers", "plain")}
            for folder in runs.values():  # a git repository: the feeds' times come from the games' commits
                subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
                subprocess.run(["git", "add", "-A"], cwd=folder, check=True)
                subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "games",
                                "--date", "2026-01-01T00:00:00"], cwd=folder, check=True,
                               env=dict(os.environ, GIT_COMMITTER_DATE="2026-01-01T00:00:00"))
            times["baseline"].append(cpu_of_build(runs["baseline"], str(code)))
            times["layers"].append(cpu_of_build(runs["layers"]))
            times["plain"].append(cpu_of_build(runs["plain"]))
            times["layers, warm"].append(cpu_of_build(runs["layers"]))
    print(f"example archive, mkdocs build, CPU seconds (median of {args.repeat}, interleaved)")
    print(ratios(times, "baseline", "the baseline", 14))


def ratios(times: dict[str, list[float]], base: str, against: str, width: int) -> str:
    """A line for each run's CPU seconds: its median, that median over `base`'s (`against`: what the
    ratio is read as) and every run's figure; names padded to `width`. bench/export.py prints its
    table with it too."""
    baseline = statistics.median(times[base])
    return "\n".join(f"  {name:{width}} {statistics.median(values):6.2f} s   "
                     f"x{statistics.median(values) / baseline:.2f} of {against}   "
                     f"({', '.join(f'{v:.2f}' for v in values)})" for name, values in times.items())


if __name__ == "__main__":
    main()

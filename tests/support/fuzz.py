"""Hostile game folders for fuzz tests: Hypothesis strategies shared by every test that feeds
games to dipgen (the command line in test_fuzz_inputs.py, the site build in test_build_fuzz.py).

A folder is described by a *spec*, ``{file name: content}``, where content is ``bytes`` or one
of the `Special` markers (a FIFO, a directory, a symlink out of the folder, a file over the
size limit); support's one writer, `write_game`, makes it on disk. The specs are

- the example games' real files, cut to their first few phases and mutated: lines deleted,
  duplicated or swapped, values replaced by values of other YAML types, indentation broken,
  deep nesting, anchors and alias bombs, truncation, random bytes, files renamed or replaced
  by things that are not regular files;
- random YAML documents (generated structures, dumped) and random bytes as game.yml, as
  phase files and as secrets.yml; links that loop, lead nowhere or to /dev/zero.

`games_trees` adds the level above: a games/ folder of such games under good and bad folder
names (a dot, a space, capitals, a game.yaml instead of game.yml, a folder with no game.yml,
a link to the games folder itself).

    from support import write_game
    from support.fuzz import FUZZ, game_folders

    @FUZZ
    @given(spec=game_folders())
    def test_something(tmp_path_factory, spec):
        folder = write_game(tmp_path_factory.mktemp("fuzz") / "game", spec)

`FUZZ` runs a few dozen examples (seconds in CI); ``HYPOTHESIS_PROFILE=long`` runs thousands
(``FUZZ_EXAMPLES=400`` sets how many).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import signal
from pathlib import Path

import yaml
from hypothesis import HealthCheck, settings, strategies as st

from .folders import Special, write_game

REPO = Path(__file__).resolve().parent.parent.parent
GAMES = REPO / "games"

settings.register_profile("fuzz-ci", max_examples=25, deadline=None, derandomize=False,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.function_scoped_fixture])
settings.register_profile("fuzz-long", parent=settings.get_profile("fuzz-ci"),
                          max_examples=int(os.environ.get("FUZZ_EXAMPLES", 3000)))
#: the settings of a fuzz test: a few dozen examples, or thousands with HYPOTHESIS_PROFILE=long
FUZZ = settings.get_profile("fuzz-long" if os.environ.get("HYPOTHESIS_PROFILE") == "long" else "fuzz-ci")


def _example_games() -> dict[str, dict[str, str]]:
    out = {}
    for folder in sorted(p for p in GAMES.iterdir() if (p / "game.yml").is_file()):
        out[folder.name] = {f.name: f.read_text(encoding="utf-8") for f in sorted(folder.glob("*.yml"))}
    return out


EXAMPLES = _example_games()

#: values of every YAML type, and texts that YAML reads as something unexpected
ODD_VALUES = [
    "[a, b]", "{F Lon: NTH}", "F Lon: NTH", "1901-01-01", "2001-13-45", "yes", "no", "~", "null", "3.5", ".nan",
    "-.inf", "0x1F", "0o17", "1_000", "9" * 5000, "''", '""', "!!binary aGVsbG8=", "!!set {a, b}", "!!omap [a: 1]",
    "!!str", "!custom x", "&anchor x", "*nowhere", "'unterminated", '"\\ud800"', "|", ">-", "[", "{", "]", "-",
    "- - -", "? a", "<<: {a: 1}", "%TAG", "@at", "`tick", "\t", "\u00a0", "\u202e", "🙂", "\x85",
    "[" * 60 + "]" * 60, "{a: " * 60 + "1" + "}" * 60,
]

ALIAS_BOMB = ('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
              + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n"
                        for i in range(8)))


def deep(n: int, style: str = "flow") -> str:
    """A value nested `n` levels deep."""
    if style == "flow":
        return "[" * n + "]" * n
    if style == "map":
        return "{a: " * n + "1" + "}" * n
    n = min(n, 400)  # block nesting costs n² bytes: 400 levels make 160 kB
    return "".join("  " * i + "- \n" for i in range(n)) + "  " * n + "- x\n"  # block sequences


def _random_scalars():
    return st.one_of(
        st.text(max_size=30), st.integers(), st.floats(allow_nan=True), st.booleans(), st.none(),
        st.dates(min_value=datetime.date(1, 1, 1)), st.sampled_from(["England", "F Lon - NTH", "A Par - Bur",
                                                                     "1901-spring", "draw", "standard", "stab"]))


KEYS = ["title", "gm", "players", "variant", "start", "end", "reveal", "map", "seed_sha256", "description",
        "orders", "press", "notes", "placement", "spies", "draw", "concession", "abandoned", "phase", "note",
        "England", "France", "Russia", "name", "from"]

yaml_values = st.recursive(
    _random_scalars(),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=8)), inner, max_size=5)),
    max_leaves=20)


@st.composite
def yaml_documents(draw) -> bytes:
    """A random YAML document: a generated structure dumped as YAML, or crafted text."""
    choice = draw(st.integers(0, 5))
    if choice == 0:
        return draw(st.binary(max_size=200))
    if choice == 1:
        text = draw(st.text(max_size=200))
    elif choice == 2:
        text = ALIAS_BOMB + "orders: *i\npress: *i\n"
    elif choice == 3:
        text = "press: " + deep(draw(st.sampled_from([40, 1000, 20000])),
                                draw(st.sampled_from(["flow", "map", "block"])))
    else:
        value = draw(st.one_of(yaml_values, st.dictionaries(st.sampled_from(KEYS), yaml_values, max_size=6)))
        text = yaml.safe_dump(value, allow_unicode=draw(st.booleans()),
                              default_flow_style=draw(st.sampled_from([None, True, False])))
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_text(draw, text: str) -> bytes:
    """A real file with a few mutations, each of a kind a hurried GM or a hostile one might make."""
    lines = text.splitlines(keepends=True) or ["\n"]
    for _ in range(draw(st.integers(1, 3))):
        lines = lines or ["\n"]  # a mutation may have emptied the file
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        how = draw(st.integers(0, 11))
        line = lines[i] if lines else "\n"
        indent = line[: len(line) - len(line.lstrip(" "))]
        if how == 0 and lines:
            del lines[i]
        elif how == 1:
            lines.insert(i, line)
        elif how == 2 and lines:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == 3 and ":" in line:
            key = line.split(":", 1)[0]
            lines[i] = f"{key}: {draw(st.sampled_from(ODD_VALUES))}\n"
        elif how == 4 and line.lstrip().startswith("- "):
            lines[i] = (indent + "- " + draw(st.sampled_from(ODD_VALUES + ["F Lon: NTH", "{F Lon: NTH}", "42", ""]))
                        + "\n")
        elif how == 5:
            lines[i] = draw(st.sampled_from(["", " ", "  ", "\t", "   "])) + line.lstrip(" ")
        elif how == 6:
            lines.insert(i, f"press: {deep(draw(st.sampled_from([40, 1000, 20000])))}\n")
        elif how == 7:
            lines = [ALIAS_BOMB] + lines + [draw(st.sampled_from(["press: *i\n", "notes: *h\n", "bomb: *i\n"]))]
        elif how == 8:
            joined = "".join(lines)
            cut = draw(st.integers(0, len(joined)))
            lines = [joined[:cut]]
        elif how == 9:
            lines.insert(i, draw(st.sampled_from([
                "orders: {}\n", "orders:\n", "press: [a, b]\n", "notes: {a: 1}\n", "placement:\n  England: [F Lon]\n",
                "spies:\n  England: [Lon, Edi]\n", "end: {draw: [England, England]}\n", "start: 1901-01-01\n",
                "start: 2050\n", "reveal: yes\n", "title: [x]\n", "players: [a]\n", "variant: {a: 1}\n",
                "seed_sha256: 12\n", "map: 3\n", "  England: []\n", "  England:\n", "  England: 5\n",
                "  - F Lon R ENG\n", "  - S Par - Bur\n", "  - A Par R Bur\n", "  ? [a, b]\n  : c\n",
                "  ? {a: 1}\n  : c\n"])))
        elif how == 10:
            data = "".join(lines).encode("utf-8")
            pos = draw(st.integers(0, len(data)))
            blob = draw(st.one_of(st.binary(min_size=1, max_size=8),
                                  st.sampled_from([b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\xc3", b"\r", b"\x1b"])))
            return data[:pos] + blob + data[pos:]
        else:
            lines.insert(i, indent + draw(st.sampled_from(ODD_VALUES)) + "\n")
    return "".join(lines).encode("utf-8", "surrogatepass")


PHASE_NAMES = ["1901-spring.yml", "1901-spring-retreats.yml", "1901-fall.yml", "1901-winter.yml", "1902-spring.yml",
               "1900-spring.yml", "2050-spring.yml", "1901-sprng.yml", "1901-Spring.yml", "1901-spring.yaml",
               "game.yaml", "Game.yml", "GAME.YML", "notes.md", "x.yaml", "secrets.yml.bak", ".hidden.yml",
               "0000-fall.yml", "secrets.yml"]


@st.composite
def game_folders(draw, max_phases: int = 6) -> dict[str, bytes | Special]:
    """A hostile game folder: an example game cut to its first phases and mutated, or random files."""
    if draw(st.integers(0, 4)) == 0:  # made up from nothing
        names = draw(st.lists(st.sampled_from(["game.yml"] + PHASE_NAMES), min_size=0, max_size=4, unique=True))
        return {name: draw(yaml_documents()) for name in names}
    slug = draw(st.sampled_from(sorted(EXAMPLES)))
    files = EXAMPLES[slug]
    phases = sorted((n for n in files if n != "game.yml"), key=_phase_order)
    keep = phases[: draw(st.integers(0, max_phases))]
    spec: dict[str, bytes | Special] = {n: files[n].encode("utf-8") for n in ["game.yml", *keep]}
    names = list(spec)
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.integers(0, 9))
        name = draw(st.sampled_from(names))
        content = spec.get(name)
        if how <= 4 and isinstance(content, bytes):
            spec[name] = draw(mutated_text(content.decode("utf-8", "replace")))
        elif how == 5:
            spec[name] = draw(yaml_documents())
        elif how == 6:
            spec[name] = draw(st.sampled_from(list(Special)))
        elif how == 7:  # renamed
            new = draw(st.sampled_from(PHASE_NAMES))
            if content is not None and new not in spec:
                spec[new] = spec.pop(name)
                names = list(spec)
        elif how == 8:
            spec.pop(name, None)
            names = list(spec) or ["game.yml"]
        else:
            spec[draw(st.sampled_from(PHASE_NAMES))] = draw(st.one_of(yaml_documents(), st.sampled_from(list(Special))))
            names = list(spec)
    return spec


def _phase_order(name: str):
    year, _, rest = name.partition("-")
    season = rest.removesuffix(".yml")
    return (year, ["spring", "spring-retreats", "fall", "fall-retreats", "winter"].index(season)
            if season in ("spring", "spring-retreats", "fall", "fall-retreats", "winter") else 9)


FOLDER_NAMES = ["good-game", "another", ".hidden", "With Space", "UPPER", "under_score", "x" * 80, "émigré", "-dash",
                "loop"]


@st.composite
def games_trees(draw, max_games: int = 3) -> dict[str, dict[str, bytes | Special]]:
    """A games/ folder: {folder name: game spec}, under good and bad folder names."""
    names = draw(st.lists(st.sampled_from(FOLDER_NAMES), min_size=1, max_size=max_games, unique=True))
    return {name: draw(game_folders(max_phases=3)) for name in names}


def write_games(root: Path, tree: dict[str, dict[str, bytes | Special]]) -> Path:
    """Make a games/ folder from `games_trees`; returns it."""
    root.mkdir(parents=True, exist_ok=True)
    for name, spec in tree.items():
        if name == "loop":  # a game folder that is a link to the games folder
            (root / name).symlink_to(".")
            continue
        write_game(root / name, spec, outside=root.parent)
    return root


class Hung(BaseException):
    """What `time_limit` raises: not an Exception, and above all not an OSError (as TimeoutError
    is), so that no `except OSError` in the code under test takes it for a failed read and
    carries on, hiding the hang."""


@contextlib.contextmanager
def time_limit(seconds: int, error: type[BaseException] = Hung):
    """Fail with `error` instead of hanging (a FIFO read, an alias bomb): SIGALRM, so only in
    the main thread, where pytest runs tests."""
    def hung(signum, frame):
        raise error(f"did not finish within {seconds}s")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)

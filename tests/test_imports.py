"""The house: dipgen's rooms import one another in the allowed directions only, and nothing
imports in a circle.

The import graph is read from the source with `ast`, every import counted: those inside
functions and those under ``if TYPE_CHECKING:`` too (a lazy import is still a dependency, and
so is one only the type checker follows). A package's ``__init__`` re-exporting its
submodules is not an edge from those submodules back to it.

The rooms (README, "For developers") and what each may import:

    core      values: board, phases, units, positions, orders, results, errors, names
    resources what dipgen ships, read: the boards, the base maps' and pages' folders
                                                         -> core
    engine    pure adjudication                          -> core
    rules     a variant's rules: the Variant hooks, calendar, intake, seats, draws, visibility
              policy as data                             -> engine, resources, core
    variants  each variant's rules (its files, visibility and words beside them, each reading
              only the room it serves)                   -> rules, engine, core
    io        files read: YAML with lines, game folders, secrets, the seed
                                                         -> play's game type, variants, rules, core
    play      the replay into a History                  -> rules, engine, core
    view      what one level may know                    -> play, rules, core
    present   words, reports, maps, pages, the private pages' encryption
                                                         -> view, rules, resources, core
    usecases  the work the commands and the plugin share: load a game and check it, the site's
              files and layout, export, leaks, mail, the archive's files
                                                         -> the inner rooms
    cli       the `dipgen` command, a module per command -> usecases, the inner rooms
    mkdocs    the MkDocs plugin (its speed layers in mkdocs.speed)
                                                         -> usecases, the inner rooms

The rule is checked on every edge of the whole graph, so that a forbidden dependency cannot hide
behind a lazy or a type-checking import; a path through a room that may import another is
allowed (present reads play's records only as view hands them over).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dipgen"

#: room -> the rooms it may import (besides itself and the package's root, which holds the version)
ALLOWED = {
    "core": set(),
    "resources": {"core"},
    "engine": {"core"},
    "rules": {"engine", "resources", "core"},
    "variants": {"rules", "engine", "core"},
    "io": {"play", "variants", "rules", "core"},
    "play": {"rules", "engine", "core"},
    "view": {"play", "rules", "core"},
    "present": {"view", "rules", "resources", "core"},
    "usecases": {"core", "resources", "engine", "rules", "variants", "io", "play", "view", "present"},
    "cli": {"usecases", "core", "resources", "engine", "rules", "variants", "io", "play", "view", "present"},
    "mkdocs": {"usecases", "core", "resources", "engine", "rules", "variants", "io", "play", "view", "present"},
}
#: a variant's own modules serve one room each, and may import what that room may, and the rules
SERVES = {"files": "io", "visibility": "view", "words": "present"}


def _module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the package's modules it imports, anywhere in its body."""
    files = {_module_name(p, package): p for p in package.rglob("*.py")}
    root = package.name
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[:len(here.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for a in node.names:  # `from . import maps` imports the module <pkg>.maps
                    deps.add(f"{target}.{a.name}" if f"{target}.{a.name}" in files else target)
        graph[name] = {d for d in deps if d in files and d != name and (d == root or d.startswith(root + "."))}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path that returns to its start) per strongly connected group of modules."""
    found, done = [], set()
    for start in sorted(graph):
        if start in done:
            continue
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in sorted(graph[node]):
                if nxt == start:
                    found.append(path + [start])
                    done.update(path)
                    stack = []
                    break
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
    return found


def room(module: str) -> str:
    """The room of a module: the package's first level (``dipgen.view.seen`` -> ``view``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def serves(module: str) -> str | None:
    """The room a variant's own module serves (``dipgen.variants.stab.files`` -> ``io``), if it is one."""
    parts = module.split(".")
    return SERVES.get(parts[3]) if room(module) == "variants" and len(parts) > 3 else None


def allowed(module: str) -> set[str]:
    """The rooms `module` may import."""
    r = room(module)
    served = serves(module)
    if served is not None:  # beside its rules, which it reads
        return ALLOWED["variants"] | ALLOWED[served] | {served, "variants"}
    return ALLOWED.get(r, set()) | {r, ""}


def may_import(module: str, dep: str) -> bool:
    """Whether `module` may import `dep`: by their rooms, and a variant's module that serves a room
    (its files, visibility, words) only from that room, from what may import that room, and from its
    own variant's package, which makes the variant of its parts."""
    if room(dep) not in allowed(module):
        return False
    served = serves(dep)
    return served is None or served in allowed(module) or module == dep.rpartition(".")[0]


def wrong_way(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((m, d) for m, deps in graph.items() for d in deps if not may_import(m, d))


def test_cycles_are_found_also_inside_functions_and_type_checking(tmp_path):
    pkg = tmp_path / "dipgen"
    (pkg / "site").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "site" / "__init__.py").write_text("")
    (pkg / "site" / "a.py").write_text("from . import b\n")
    (pkg / "site" / "b.py").write_text("def f():\n    from .a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .site.a import y\n")
    graph = import_graph(pkg)
    assert graph["dipgen.site.a"] == {"dipgen.site.b"}
    assert graph["dipgen.c"] == {"dipgen.site.a"}
    assert cycles(graph) == [["dipgen.site.a", "dipgen.site.b", "dipgen.site.a"]]


def test_no_import_cycles():
    graph = import_graph()
    assert "dipgen.play.replay" in graph["dipgen.usecases.games"]  # the graph is read at all
    assert cycles(graph) == []


def test_every_import_goes_the_allowed_way():
    assert wrong_way(import_graph()) == []


def test_nothing_outside_the_plugin_imports_it():
    """Not even `dipgen check`, which reports a build cache that git tracks: the cache's names and
    that check are a use case (dipgen.usecases.cachefiles), which the plugin's cache reads too."""
    graph = import_graph()
    into = {(m, d) for m, deps in graph.items() for d in deps if room(d) == "mkdocs" and room(m) != "mkdocs"}
    assert into == set()


def _third_party(path: Path) -> set[str]:
    """The top-level packages outside dipgen that a module imports, anywhere in its body."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.partition(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add((node.module or "").partition(".")[0])
    return names


def test_only_the_plugin_imports_mkdocs():
    """MkDocs and Material are the plugin's room's alone: the commands and the use cases run without them."""
    readers = sorted(_module_name(p, PACKAGE) for p in PACKAGE.rglob("*.py")
                     if _third_party(p) & {"mkdocs", "material"})
    assert readers
    assert [m for m in readers if room(m) != "mkdocs"] == []


def test_a_wrong_way_import_is_found_even_lazy_or_for_the_type_checker(tmp_path):
    pkg = tmp_path / "dipgen"
    for folder in ("core", "play", "present", "variants/stab"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "play" / "records.py").write_text("")
    (pkg / "core" / "board.py").write_text("def f():\n    from ..play import records\n")
    (pkg / "present" / "pages.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                              "    from ..play.records import History\n")
    (pkg / "variants" / "stab" / "words.py").write_text("from ...present import pages\n")
    (pkg / "variants" / "stab" / "rules.py").write_text("from ...present import pages\n")
    assert wrong_way(import_graph(pkg)) == [("dipgen.core.board", "dipgen.play.records"),
                                            ("dipgen.present.pages", "dipgen.play.records"),
                                            ("dipgen.variants.stab.rules", "dipgen.present.pages")]


def test_the_renderer_draws_a_view_and_reads_no_history():
    """dipgen.present.svg takes a `MapView` (dipgen.present.mapview) and never the records, the
    replay, the timeline or the visibility rules: what a level may see is decided before it draws."""
    graph = import_graph()
    for module in (m for m in graph if m.startswith("dipgen.present.svg")):
        assert not {room(d) for d in graph[module]} & {"play", "io", "engine"}, module


#: what the view is made of: the History, the loaded game and its files, the secrets, the replay
UPSTREAM = ("play", "io", "engine", "usecases", "cli", "mkdocs")


def _names_from_view(path: Path) -> set[str]:
    """The names a module imports from the `dipgen.view` package."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.ImportFrom) and (node.module or "").endswith("view")
                and "seen" not in (node.module or "")):
            names.update(a.name for a in node.names)
    return names


def test_every_output_is_made_from_a_view_and_from_nothing_else():
    """A presentation module imports neither the History, the loaded game, its files nor its
    secrets, nor what makes views: it takes a `dipgen.view.GameView` and reads nothing else."""
    graph = import_graph()
    checked = 0
    for module, deps in graph.items():
        if room(module) != "present":
            continue
        checked += 1
        assert not {room(d) for d in deps} & set(UPSTREAM), (module, sorted(deps))
        assert not {d for d in deps if d.startswith("dipgen.view.") and d != "dipgen.view.types"}, module
        path = PACKAGE.parent / (module.replace(".", "/") + ".py")
        if not path.exists():
            path = PACKAGE.parent / module.replace(".", "/") / "__init__.py"
        assert not _names_from_view(path) & {"game_view", "levels", "DemoSecrets"}, module
    assert checked >= 15


def test_no_module_over_600_lines_and_no_function_over_80():
    long_modules, long_functions = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 600:
            long_modules.append((path.relative_to(PACKAGE).as_posix(), text.count("\n")))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > 80:
                    long_functions.append((f"{path.relative_to(PACKAGE).as_posix()}:{node.name}", length))
    assert not long_modules, (long_modules, long_functions)
    assert not long_functions, (long_modules, long_functions)

"""The house: dipgen's modules import one another in one direction only.

The import graph is read from the source with `ast`, imports inside functions and under ``if
TYPE_CHECKING:`` included: a lazy import that closes a cycle is still a cycle, and so is one that
only the type checker follows (the two modules still depend on each other). A package's
``__init__`` re-exporting its submodules is not an edge from those submodules back to it.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dipgen"


def _module_name(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """module -> the dipgen modules it imports, anywhere in its body."""
    files = {_module_name(p, package): p for p in package.rglob("*.py")}
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
                for a in node.names:  # `from . import maps` imports the module dipgen.site.maps
                    deps.add(f"{target}.{a.name}" if f"{target}.{a.name}" in files else target)
        graph[name] = {d for d in deps if d in files and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path that returns to its start) per strongly connected group of modules."""
    found, done = [], set()
    for start in sorted(graph):
        if start in done:
            continue
        # depth-first search for a path from start back to start
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


def test_cycles_are_found_also_inside_functions(tmp_path):
    pkg = tmp_path / "dipgen"
    (pkg / "site").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "site" / "__init__.py").write_text("")
    (pkg / "site" / "a.py").write_text("from . import b\n")
    (pkg / "site" / "b.py").write_text("def f():\n    from .a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .site.a import y\n")
    graph = import_graph(pkg)
    assert graph["dipgen.site.a"] == {"dipgen.site.b"} and graph["dipgen.c"] == {"dipgen.site.a"}
    assert cycles(graph) == [["dipgen.site.a", "dipgen.site.b", "dipgen.site.a"]]


def test_no_import_cycles():
    graph = import_graph()
    assert "dipgen.history" in graph["dipgen.load"]  # the graph is read at all, imports in functions too
    assert cycles(graph) == []


def test_the_renderer_draws_a_view_and_reads_no_history():
    """dipgen.render takes a `MapView` (dipgen.mapview) and never the records, the replay, the
    timeline or the visibility rules: what a level may see is decided before it draws."""
    graph = import_graph()
    upstream = {"dipgen.records", "dipgen.history", "dipgen.timeline", "dipgen.visibility", "dipgen.game"}
    for module in (m for m in graph if m == "dipgen.render" or m.startswith("dipgen.render.")):
        assert not graph[module] & upstream, module


#: the modules that make what a reader sees (pages, maps, reports, private pages, draws files):
#: each is made from one level's view, and never from what the view is made of
PRESENTATION = ("dipgen.report", "dipgen.written", "dipgen.mapview", "dipgen.drawfile", "dipgen.site",
                "dipgen.render")
#: what the view is made of: the History, the loaded game and its files, the secrets, the replay
UPSTREAM = {"dipgen.records", "dipgen.history", "dipgen.game", "dipgen.secrets", "dipgen.load", "dipgen.gameseed",
            "dipgen.yamlio", "dipgen.publish", "dipgen.leaks", "dipgen.view.seen", "dipgen.view.timeline",
            "dipgen.view.game"}


def _presentation(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PRESENTATION)


def _names_from_view(path: Path) -> set[str]:
    """The names a module imports from the `dipgen.view` package."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "view" and node.level:
            names.update(a.name for a in node.names)
    return names


def test_every_output_is_made_from_a_view_and_from_nothing_else():
    """A presentation module imports neither the History, the loaded game, its files nor its
    secrets, nor what makes views: it takes a `dipgen.view.GameView` and reads nothing else."""
    graph = import_graph()
    checked = 0
    for module, deps in graph.items():
        if not _presentation(module):
            continue
        checked += 1
        assert not deps & UPSTREAM, (module, sorted(deps & UPSTREAM))
        path = PACKAGE.parent / (module.replace(".", "/") + ".py")
        if not path.exists():
            path = PACKAGE.parent / module.replace(".", "/") / "__init__.py"
        assert not _names_from_view(path) & {"game_view", "levels", "DemoSecrets"}, module
    assert checked >= 15


def test_the_presentation_test_can_fail(tmp_path):
    pkg = tmp_path / "dipgen"
    (pkg / "site").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "records.py").write_text("")
    (pkg / "site" / "__init__.py").write_text("")
    (pkg / "site" / "pages.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                           "    from ..records import History\n")
    assert import_graph(pkg)["dipgen.site.pages"] & UPSTREAM == {"dipgen.records"}

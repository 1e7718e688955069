"""Every reach of the speed layers into MkDocs's, Material's and Jinja's internals is listed in one
module (dipgen/mkdocs/speed/internals.py) and holds for the installed versions: a release that
moved one fails here, by its name, rather than as a wrong site. The plugin proper reaches none."""

from __future__ import annotations

import ast
from importlib.metadata import version
from pathlib import Path

import pytest

from dipgen.mkdocs.speed.internals import REACHES

ROOM = Path(__file__).resolve().parent.parent / "dipgen" / "mkdocs"
VERSIONS = f"mkdocs {version('mkdocs')}, mkdocs-material {version('mkdocs-material')}"


@pytest.mark.parametrize("reach", REACHES, ids=[r.internal for r in REACHES])
def test_each_internal_is_where_the_layer_expects_it(reach):
    assert reach.check(), f"{reach.internal} moved in {VERSIONS}; it is needed by {reach.layer}"


#: names with a leading underscore that are public, documented API: `os._exit` (a worker process
#: leaving without running its parent's clean-up, dipgen/mkdocs/parallel.py)
DOCUMENTED = {("os", "_exit")}


def _attributes(path: Path) -> set[str]:
    """The private attributes (names with a leading underscore) a module reads or sets on anything but itself."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")) \
                and not (isinstance(node.value, ast.Name) and (node.value.id, node.attr) in DOCUMENTED):
            names.add(node.attr)
    return names


def test_the_plugin_reaches_no_internal():
    """The plugin, its seam and its other modules outside speed/ import nothing of MkDocs but its plugin
    API (config, events, files, exceptions) and touch no private attribute of anything."""
    public = {"mkdocs.config", "mkdocs.config.base", "mkdocs.config.config_options", "mkdocs.exceptions",
              "mkdocs.plugins", "mkdocs.structure.files"}
    for path in ROOM.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module} | \
            {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert {m for m in imported if m.split(".")[0] in ("mkdocs", "material", "jinja2")} <= public, path.name
        assert _attributes(path) == set(), path.name


def test_the_small_reaches_are_made_in_internals_alone():
    """The private attributes and the plugins' events the layers reach go through internals.py."""
    for path in (ROOM / "speed").glob("*.py"):
        if path.name == "internals.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "_title_from_render" not in text, path.name
        assert "plugins.events" not in text, path.name
        assert "on_page_read_source(" not in text, path.name
        assert "Page skipped" not in text, path.name

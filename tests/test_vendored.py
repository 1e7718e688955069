"""Other people's code we carry: Panzoom (the maps' full-screen view) goes into every site with its
licence and runs under the site's CSP; axe-core (the accessibility test) stays under tests/."""

from __future__ import annotations

import re
from pathlib import Path

from dipgen.present.site.pages import ASSETS, JS_URI, OVERRIDES, VENDORED, shared_files
from support import GAME_YML, load, view, write_game

TESTS = Path(__file__).parent


def test_panzoom_goes_into_the_site_beside_dipgen_js_with_its_licence(tmp_path):
    game = write_game(tmp_path / "g", {"game.yml": GAME_YML})
    files = shared_files([view(load(game))])
    folder = JS_URI.rsplit("/", 1)[0]
    assert files["assets/dipgen/panzoom.min.js"] == (ASSETS / "panzoom.min.js").read_text(encoding="utf-8")
    assert files["assets/dipgen/panzoom.min.js"].startswith("/**\n* Panzoom 4.6.2 ")
    licence = files["assets/dipgen/panzoom.LICENSE.txt"]
    assert "Timmy Willison" in licence
    assert "Permission is hereby granted, free of charge" in licence
    assert all(uri.startswith(folder + "/") for uri in VENDORED)
    # dipgen.js fetches it from beside itself, and only where a page has a map
    script = files[JS_URI]
    assert 'new URL("panzoom.min.js", HERE)' in script
    assert 'querySelectorAll("figure.dg-map")' in script


def test_panzoom_needs_nothing_the_csp_refuses():
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"',
                    (OVERRIDES / "main.html").read_text(encoding="utf-8")).group(1)
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert script_src.split() == ["script-src", "'self'"]  # no inline script, no eval
    code = (ASSETS / "panzoom.min.js").read_text(encoding="utf-8")
    assert not re.search(r"\beval\s*\(|\bnew Function\b|setTimeout\(\s*['\"]", code)


def test_axe_core_is_a_test_tool_and_never_in_the_site():
    assert (TESTS / "vendor" / "axe.min.js").read_text(encoding="utf-8").startswith("/*! axe v4.14.1")
    assert (TESTS / "vendor" / "axe-core.LICENSE.txt").read_text(encoding="utf-8").startswith(
        "Mozilla Public License, version 2.0")
    assert not [p for p in ASSETS.iterdir() if "axe" in p.name]

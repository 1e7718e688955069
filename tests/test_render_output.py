"""`dipgen render -o`: never over a game's own files or a YAML file, over another existing file
only with --force."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dipgen.cli import main
from support.codes import codes

REPO = Path(__file__).resolve().parent.parent
GAME = "winter-palace"


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    shutil.copytree(REPO / "games" / GAME, tmp_path / "games" / GAME)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def render(*args: str) -> int:
    return main(["render", f"games/{GAME}", "--phase", "1901-spring", *args])


@pytest.mark.parametrize("target", ["games/{game}/1901-fall.yml", "games/{game}/game.yml", "games/{game}/notes.md",
                                    "games/{game}/1905-spring.yml", "other.yml", "other.YAML"])
def test_never_over_a_game_file_or_a_yaml_file_even_with_force(project, capsys, target):
    target = target.format(game=GAME)
    path = project / target
    if target.endswith("notes.md") or target.startswith("other"):
        path.write_text("keep me\n", encoding="utf-8")
    before = path.read_bytes() if path.exists() else None
    for force in ([], ["--force"]):
        assert render("-o", target, *force) == 1
        err = capsys.readouterr().err
        assert codes(err) == ["out-taken"]
        assert err.startswith(f"error: {target} is a ")
        assert "Traceback" not in err
        assert (path.read_bytes() if path.exists() else None) == before
    # nor through a link to one
    (project / "link.svg").symlink_to(project / "games" / GAME / "game.yml")
    assert render("-o", "link.svg", "--force") == 1
    assert (project / "games" / GAME / "game.yml").read_text(encoding="utf-8").startswith("title:")


def test_an_existing_file_only_with_force(project, capsys):
    out = project / "map.svg"
    assert render("-o", "map.svg") == 0
    assert out.read_text(encoding="utf-8").startswith("<svg")
    out.write_text("my own drawing\n", encoding="utf-8")
    assert render("-o", "map.svg") == 1
    err = capsys.readouterr().err
    assert codes(err) == ["out-taken"]
    assert "error: map.svg exists; add --force to replace it" in err
    assert out.read_text(encoding="utf-8") == "my own drawing\n"
    assert render("-o", "map.svg", "--force") == 0
    assert out.read_text(encoding="utf-8").startswith("<svg")
    # a new map may go into the game folder (the GM's pictures live there), but never over one
    assert render("-o", f"games/{GAME}/spring.svg") == 0
    assert render("-o", f"games/{GAME}/spring.svg", "--force") == 1
    assert codes(capsys.readouterr().err) == ["out-taken"]
    # a folder, or a folder that does not exist: said plainly
    assert render("-o", "games") == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]
    assert render("-o", "nowhere/map.svg") == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]


def test_a_png_picture_by_its_extension(project, capsys):
    """-o map.png draws the map as a PNG picture (the labels with it), --width scales it; an unknown
    extension is refused by name, and nothing is written."""
    from support.pictures import size

    assert render("-o", "map.png") == 0
    assert size((project / "map.png").read_bytes()) == (1100, 1022)
    assert render("-o", "small.PNG", "--width", "550") == 0
    assert size((project / "small.PNG").read_bytes()) == (550, 511)
    for name, shown in (("map.jpg", "the extension '.jpg'"), ("map", "no extension"),
                        ("map.svg.gz", "the extension '.gz'")):
        assert render("-o", name) == 1
        err = capsys.readouterr().err
        assert codes(err) == ["bad-option"]
        assert f"error: {name} has {shown}" in err
        assert not (project / name).exists()
    assert render("-o", "map.svg", "--width", "300") == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]
    assert render("-o", "tiny.png", "--width", "3") == 1
    assert codes(capsys.readouterr().err) == ["bad-option"]
    assert not (project / "map.svg").exists()
    assert not (project / "tiny.png").exists()

"""The theme's environments share this process's compiled templates and a listing of the theme's
folders made again only where a folder changed (dipgen/mkdocs/speed/themes.py)."""

from __future__ import annotations

import os

import jinja2
import pytest
from mkdocs.theme import Theme

from dipgen.mkdocs.speed.themes import Themes


@pytest.fixture
def theme(tmp_path):
    custom = tmp_path / "overrides"
    (custom / "partials").mkdir(parents=True)
    (custom / "partials" / "mine.html").write_text("{{ 1 + 1 }}", encoding="utf-8")
    (custom / "main.html").write_text("{% extends 'base.html' %}", encoding="utf-8")
    t = Theme(name="mkdocs", custom_dir=str(custom))
    Themes().hook(t)
    return t


def test_a_template_is_compiled_once_for_every_environment_of_the_theme(theme, monkeypatch):
    compiled = []
    compile_ = jinja2.Environment.compile
    monkeypatch.setattr(jinja2.Environment, "compile",
                        lambda self, source, name=None, *a, **k: compiled.append(name) or compile_(self, source, name,
                                                                                                    *a, **k))
    assert theme.get_env().get_template("partials/mine.html").render() == "2"
    assert compiled == ["partials/mine.html"]
    assert theme.get_env().get_template("partials/mine.html").render() == "2"
    assert compiled == ["partials/mine.html"]  # the second environment compiled nothing


def test_a_changed_template_is_compiled_again(theme, tmp_path):
    assert theme.get_env().get_template("partials/mine.html").render() == "2"
    (tmp_path / "overrides" / "partials" / "mine.html").write_text("{{ 2 + 2 }}", encoding="utf-8")
    assert theme.get_env().get_template("partials/mine.html").render() == "4"


def test_the_listing_is_the_loaders_and_follows_every_change_of_a_folder(theme, tmp_path, monkeypatch):
    plain = jinja2.FileSystemLoader(theme.dirs)
    walks = []
    listing = jinja2.FileSystemLoader.list_templates
    monkeypatch.setattr(jinja2.FileSystemLoader, "list_templates", lambda self: walks.append(1) or listing(self))
    first = theme.get_env().list_templates()
    assert first == listing(plain)
    assert "partials/mine.html" in first
    assert len(walks) == 1
    assert theme.get_env().list_templates() == first
    assert len(walks) == 1  # nothing changed: not listed again

    new = tmp_path / "overrides" / "partials" / "deep" / "new.css"
    new.parent.mkdir()
    new.write_text("a {}", encoding="utf-8")
    assert "partials/deep/new.css" in theme.get_env().list_templates()
    (tmp_path / "overrides" / "partials" / "mine.html").rename(tmp_path / "overrides" / "partials" / "yours.html")
    again = theme.get_env().list_templates()
    assert "partials/mine.html" not in again
    assert "partials/yours.html" in again
    new.unlink()
    os.rmdir(new.parent)
    assert theme.get_env().list_templates() == listing(plain)


def test_hooking_a_theme_twice_wraps_it_once(theme):
    themes = Themes()
    themes.hook(theme)
    hooked = theme.get_env
    themes.hook(theme)
    assert theme.get_env is hooked
    assert isinstance(theme.get_env().loader, jinja2.FileSystemLoader)

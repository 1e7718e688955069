"""Every reach of the speed layers into MkDocs's, Material's and Jinja's internals: what no public
API gives, and a release may move. The plugin proper reaches none (it uses MkDocs's plugin events,
`File.generated` and the typed config only, as mkdocs-gen-files does).

The small reaches are made here (the layers call these functions); the large ones (a subclass, a
method replaced) stay in their layer, and `REACHES` lists them all, each with the layer that needs
it and a check against the installed MkDocs and Material: tests/test_internals.py runs every check,
so that a release that moved one fails by its name, not by a wrong site. With ``speed: false`` none
is reached.
"""

from __future__ import annotations

import importlib
import inspect
import json
import logging
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: the logger of MkDocs's build, and its note of a page it was given nothing to write (`reuse` links
#: the page's file from the last site instead, and hushes the note)
BUILD_LOGGER = "mkdocs.commands.build"
_SKIPPED = "Page skipped: '{}'. Generated empty output."


def skipped_note(src_uri: str) -> str:
    return _SKIPPED.format(src_uri)


def listeners(config, event: str) -> list[Callable]:
    """Every handler of MkDocs's `event` in this build, from every plugin (`partials.only_listeners`)."""
    return config.plugins.events[event]


def plugins_source(page, config) -> str | None:
    """A page's source as another plugin gives it (``on_page_read_source``), else None: what
    `Page.read_source` asks first, asked by `pages.GeneratedPage`, which reads its source itself."""
    return config.plugins.on_page_read_source(page=page, config=config)


def rendered_title(page) -> str | None:
    """The title MkDocs took from a page's first heading when it rendered it."""
    return page._title_from_render


def set_rendered_title(page, title: str | None) -> None:
    page._title_from_render = title


#: what MkDocs's sitemap template reads of each page (`settled`: a withheld page stands in with these)
SITEMAP_READS = frozenset({"is_link", "abs_url", "canonical_url", "update_date"})


def mkdocs_sitemap(config) -> bool:
    """Whether the site's sitemap is drawn by MkDocs's own template (no theme folder has its own)."""
    import mkdocs

    own = Path(str(mkdocs.__file__)).parent / "templates"
    for folder in config.theme.dirs:
        if (Path(folder) / "sitemap.xml").is_file():
            return Path(folder).resolve() == own.resolve()
    return False


def search_index(config):
    """Material's search index, if the site uses Material's search plugin (enabled), else None:
    another search plugin indexes every page itself."""
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if type(plugin).__module__.startswith("material.") and hasattr(index, "create_entry_for_section") \
                and getattr(plugin, "config", {}).get("enabled", True):
            return index
    return None


def entries_json(entries: list) -> str:
    """Search entries as Material's index writes them in its JSON, comma-separated."""
    return ",".join(json.dumps(entry, separators=(",", ":"), default=str) for entry in entries)


_NO_DOCS = '"docs":[]}'


def spliced_index(index, write: Callable[[str, list], str | None]) -> None:
    """Have Material's search `index` written by `write` (`docsfile`): given the head of the JSON
    Material writes (its configuration, up to the opening of its list of documents) and the entries,
    it writes what Material would (checked) and returns what Material is to write in its own file
    instead, or None where Material writes as it does."""
    generate = index.generate_search_index

    def generated(prev):
        if prev:
            return generate(prev)
        entries = index.entries
        index.entries = []
        try:
            shell = generate(prev)  # its configuration, as it writes it
        finally:
            index.entries = entries
        written = write(shell[:-len(_NO_DOCS)] + '"docs":[', entries) if shell.endswith(_NO_DOCS) else None
        return generate(prev) if written is None else written

    index.generate_search_index = generated


def unspliced(index) -> None:
    """Material's search `index` written by Material's own method again (`spliced_index` undone, once
    it has written: Material keeps its search plugin, and so the index, for the whole process)."""
    index.__dict__.pop("generate_search_index", None)


def server_observer(server):
    """MkDocs's `server`'s own watcher: a watchdog observer, which polls what `server.watch` is given."""
    return server.observer


def request_rebuild(server) -> None:
    """Have MkDocs's `server` rebuild, as when its own watcher sees a change (`notify`)."""
    with server._rebuild_cond:
        server._want_rebuild = True
        server._rebuild_cond.notify_all()


def observe(observer, folder: str, heard: Callable[[str, str | None], None]) -> None:
    """Have `heard` called with the path (and, for a move, the new path) of every file and folder that
    changes, comes or goes under `folder`, by the watchdog `observer` that watches it for the server's
    rebuilds (`notify.watch`), given one more handler."""
    from watchdog.events import FileSystemEventHandler

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event) -> None:
            heard(os.fsdecode(event.src_path), os.fsdecode(event.dest_path) if event.dest_path else None)

    observer.schedule(Handler(), os.path.abspath(folder), recursive=True)


def watching(observer, folder: str) -> bool:
    """Whether the watchdog `observer` is running and watching `folder` (a deleted folder ends its watch)."""
    return observer.is_alive() and any(e.is_alive() and e.watch.path == os.path.abspath(folder)
                                       for e in list(observer.emitters))


def caught_up(observer, timeout: float) -> bool:
    """Wait until the watchdog `observer` has given its handlers every event it has queued (at most
    `timeout` seconds): False where it has not."""
    queue = observer.event_queue
    with queue.all_tasks_done:
        return queue.all_tasks_done.wait_for(lambda: not queue.unfinished_tasks, timeout)


def warning_counter() -> logging.Handler:
    """A handler counting warnings as MkDocs counts them for ``--strict`` (`staging`: a build that
    fails under --strict leaves the old site)."""
    from mkdocs.utils import CountHandler

    handler = CountHandler()
    handler.setLevel(logging.WARNING)
    return handler


def counted(handler: logging.Handler) -> bool:
    """Whether a `warning_counter` counted any warning."""
    return bool(handler.get_counts())  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- the list, checked

@dataclass(frozen=True)
class Reach:
    internal: str  # what is reached, as the installed package spells it
    layer: str     # the module of dipgen.mkdocs.speed that reaches it, and why
    check: Callable[[], bool]


def _source(obj) -> str:
    return inspect.getsource(obj)


def _has(path: str, *names: str) -> bool:
    module, _, attr = path.partition(":")
    obj = __import__(module, fromlist=["_"])
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return all(hasattr(obj, n) for n in names)


def _page_source() -> str:
    from mkdocs.structure.pages import Page
    return _source(Page)


def _events() -> bool:
    from mkdocs.plugins import PluginCollection
    events = getattr(PluginCollection(), "events", None)
    return isinstance(events, dict) and {"page_markdown", "page_context", "pre_page"} <= set(events)


def _material_partials() -> bool:
    material = importlib.import_module("material")
    root = Path(str(material.__file__)).parent / "templates" / "partials"
    return all((root / name).is_file() for name in ("nav.html", "tabs.html", "search.html", "palette.html"))


def _url_filter() -> bool:
    from mkdocs.utils.templates import url_filter
    return bool(getattr(url_filter, "jinja_pass_arg", None))


def _render_func() -> bool:
    import jinja2
    return callable(getattr(jinja2.Environment().from_string("x"), "root_render_func", None))


def _skipped_note() -> bool:
    import mkdocs.commands.build as build
    text = _source(build)
    return "Page skipped: '" in text and "'. Generated empty output." in text and \
        logging.getLogger(build.__name__).name == BUILD_LOGGER


def _sitemap_template() -> bool:
    import re

    import mkdocs

    text = (Path(str(mkdocs.__file__)).parent / "templates" / "sitemap.xml").read_text(encoding="utf-8")
    return "for file in pages" in text and set(re.findall(r"file\.page\.(\w+)", text)) == SITEMAP_READS \
        and not re.search(r"file\.(?!page\b)\w+", text)


def _spliced() -> bool:
    """`spliced_index` hands its writer the head and the entries of what Material's index writes, on
    an index of three entries, and Material writes what the writer returns."""
    SearchIndex = importlib.import_module("material.plugins.search.plugin").SearchIndex
    entries = [{"location": "a/", "title": "A é", "text": "<b>x</b>"}, {"location": "b/#s", "title": "S", "text": ""},
               {"location": "c/", "title": "C", "text": "y", "boost": 2}]
    plain, spliced = SearchIndex(lang=["en"], separator=" ", pipeline=[], fields={}), \
        SearchIndex(lang=["en"], separator=" ", pipeline=[], fields={})
    plain.entries, spliced.entries = list(entries), list(entries)
    seen: list[str] = []

    def write(head: str, given: list) -> str:
        seen.append(head + entries_json(given) + "]}")
        return "split"

    spliced_index(spliced, write)
    written = spliced.generate_search_index(None) == "split" and seen == [plain.generate_search_index(None)]
    unspliced(spliced)
    return written and spliced.generate_search_index(None) == plain.generate_search_index(None)


def _material_writes() -> bool:
    text = _source(importlib.import_module("material.plugins.search.plugin").SearchPlugin.on_post_build)
    return "self.search_index.generate_search_index(" in text and "utils.write_file(data.encode(" in text


def _server_watches() -> bool:
    """MkDocs's server watches with a watchdog observer of its own (`observer`), on which `watch`
    schedules each folder, and rebuilds when a watch sets `_want_rebuild` under `_rebuild_cond`;
    watchdog's observer dispatches an event to every handler of its watch before it marks the event
    done in its queue (`caught_up` waits for that)."""
    import queue

    from mkdocs.livereload import LiveReloadServer
    from watchdog.observers.api import BaseObserver, EventEmitter, EventQueue

    server = _source(LiveReloadServer)
    dispatch = _source(BaseObserver.dispatch_events)
    return "self.observer = " in server and "self.observer.schedule(" in server \
        and all(hasattr(BaseObserver, n) for n in ("schedule", "emitters", "event_queue", "is_alive")) \
        and hasattr(EventEmitter, "watch") and issubclass(EventQueue, queue.Queue) \
        and dispatch.find("handler.dispatch(event)") < dispatch.rfind("event_queue.task_done()") \
        and all(hasattr(queue.Queue(), n) for n in ("all_tasks_done", "unfinished_tasks"))


def _server_rebuilds() -> bool:
    from mkdocs.livereload import LiveReloadServer

    watch, loop = _source(LiveReloadServer.watch), _source(LiveReloadServer._build_loop)
    return "with self._rebuild_cond:" in watch and "self._want_rebuild = True" in watch \
        and "self._rebuild_cond.notify_all()" in watch and "self._want_rebuild" in loop \
        and "self._rebuild_cond.wait" in loop


def _inotify_filter() -> bool:
    """watchdog's inotify observer takes a filter of event kinds per watch (`notify.changes`), and
    reports a file opened or read only as kinds outside it."""
    if not sys.platform.startswith("linux"):
        return True
    from watchdog import events
    from watchdog.observers.inotify import InotifyObserver

    return "event_filter" in inspect.signature(InotifyObserver.schedule).parameters \
        and not issubclass(events.FileClosedNoWriteEvent, events.FileClosedEvent) \
        and not issubclass(events.FileOpenedEvent, (events.FileModifiedEvent, events.FileClosedEvent))


def _copy_file() -> bool:
    from mkdocs.structure.files import File
    return list(inspect.signature(File.copy_file).parameters) == ["self", "dirty"]


REACHES: tuple[Reach, ...] = (
    Reach("mkdocs.structure.pages.Page (subclassed: read_source, render)", "pages: a page handed over as HTML",
          lambda: _has("mkdocs.structure.pages:Page", "read_source", "render")
          and all(f"self.{a} = " in _page_source() for a in ("markdown", "meta", "content", "toc"))),
    Reach("mkdocs.structure.pages.Page._title_from_render", "pages, remembered: a page's title as rendered",
          lambda: "self._title_from_render" in _page_source()),
    Reach("mkdocs.structure.pages.Page.present_anchor_ids, links_to_anchors", "pages, remembered: anchors checked",
          lambda: "self.present_anchor_ids" in _page_source() and "self.links_to_anchors" in _page_source()),
    Reach("mkdocs.plugins.PluginCollection.on_page_read_source", "pages: another plugin's source of a page",
          lambda: _has("mkdocs.plugins:PluginCollection", "on_page_read_source")),
    Reach("mkdocs.plugins.PluginCollection.events", "partials, reuse, settled: which plugins listen to pages",
          _events),
    Reach("material.plugins.search.plugin.SearchIndex.generate_search_index (replaced on the instance)",
          "docsfile: the index written by the layer, the withheld pages' entries copied as they were", _spliced),
    Reach("material.plugins.search.plugin.SearchPlugin.on_post_build: the index written as generated",
          "docsfile: the index written by the layer", _material_writes),
    Reach("mkdocs/templates/sitemap.xml: file.page.{is_link,abs_url,canonical_url,update_date} of `pages`",
          "settled: a withheld page stands in the sitemap", _sitemap_template),
    Reach("mkdocs.livereload.LiveReloadServer.observer (watchdog: schedule, emitters, event_queue)",
          "watched: the games the server's watcher saw change", _server_watches),
    Reach("mkdocs.livereload.LiveReloadServer._rebuild_cond, _want_rebuild",
          "notify: a change the kernel reported sets off a rebuild", _server_rebuilds),
    Reach("watchdog.observers.inotify.InotifyObserver.schedule(event_filter=...)",
          "notify: the kinds of change reported, not a file read", _inotify_filter),
    Reach("mkdocs.structure.files.File.copy_file(dirty)", "reuse: a map linked from the last site", _copy_file),
    Reach("mkdocs.utils.CountHandler", "staging: warnings counted as --strict counts them",
          lambda: _has("mkdocs.utils:CountHandler", "get_counts")),
    Reach("mkdocs.utils.meta.get_data, mkdocs.structure.toc.get_toc", "pages: front matter and toc",
          lambda: _has("mkdocs.utils.meta", "get_data") and _has("mkdocs.structure.toc", "get_toc")),
    Reach("mkdocs.commands.build's note 'Page skipped: ... Generated empty output.'", "reuse: hushed", _skipped_note),
    Reach("mkdocs.theme.Theme.get_env (replaced)", "themes: templates compiled once a process",
          lambda: _has("mkdocs.theme:Theme", "get_env")),
    Reach("mkdocs.utils.templates.url_filter (a context filter)", "partials: links recorded", _url_filter),
    Reach("jinja2.Template.root_render_func (replaced)", "partials: a partial drawn once", _render_func),
    Reach("material/templates/partials/{nav,tabs,search,palette}.html", "partials: what is drawn once",
          _material_partials),
    Reach("material.plugins.search.plugin.SearchPlugin.search_index", "pages, remembered: the index",
          lambda: "self.search_index = SearchIndex(" in _source(__import__(
              "material.plugins.search.plugin", fromlist=["_"]).SearchPlugin)),
    Reach("material.plugins.search.plugin.SearchIndex.entries, create_entry_for_section, add_entry_from_context",
          "pages, remembered: entries given, not parsed",
          lambda: _has("material.plugins.search.plugin:SearchIndex", "create_entry_for_section",
                       "add_entry_from_context") and "self.entries = []" in _source(__import__(
                           "material.plugins.search.plugin", fromlist=["_"]).SearchIndex)),
    Reach("material.plugins.search.plugin.Section (id, title, text, is_excluded)", "pages: a section given",
          lambda: all(f"self.{a}" in _source(__import__("material.plugins.search.plugin", fromlist=["_"]).Section)
                      for a in ("id", "title", "text")) and _has("material.plugins.search.plugin:Section",
                                                                 "is_excluded")),
)

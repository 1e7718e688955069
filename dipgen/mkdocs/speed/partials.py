"""The theme's partials that come out the same on many pages, drawn once a build.

Material draws the site's navigation, its tabs, the search box and the colour toggles afresh
for every page. On a page outside the nav (every page dipgen generates: the games' pages are
not in it) they come out the same but for their links, which MkDocs writes relative to the
page (the ``url`` filter): a sixth of a big archive's build went on drawing them again.

`memoize` keeps, for each of those partials, what it drew for a page and the links it wrote
there; another page outside the nav whose same links come out the same (the ``url`` filter
asked again for this page) takes that HTML as it was. Nothing else in them depends on the
page: they read the configuration, the nav and the language, all fixed for a build (a new
build has a new environment, and so new memos). A page in the nav is always drawn afresh (its
own entry is marked active), and so is every page while any item of the nav is marked active.
The HTML is the same, byte for byte, as the theme draws it (tests build the example archive
both ways).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import jinja2

from dipgen.mkdocs.speed.internals import listeners

#: the partials drawn once per set of links (each reads no more of the page than its links)
PARTIALS = ("partials/nav.html", "partials/tabs.html", "partials/search.html", "partials/palette.html")


class _Recorder:
    """The ``url`` filter, noting what it was asked while a partial is drawn for the memo."""

    def __init__(self, url: Callable) -> None:
        self.url = url
        self.asked: list[tuple[object, object]] | None = None  # (value, link made of it)

    def __call__(self, context, value):
        out = self.url(context, value)
        if self.asked is not None:
            self.asked.append((value, out))
        return out


#: plugins that read pages but change nothing the theme draws around them
_SEARCH = ("material.plugins.search", "mkdocs.contrib.search")


def only_listeners(config, events: tuple[str, ...], plugin, also: tuple[str, ...] = ()) -> bool:
    """Whether nothing but `plugin` (and plugins from the modules `also` names, by their start)
    listens to any of MkDocs's `events` in this build."""
    return all(getattr(handler, "__self__", None) is plugin
               or (also and type(getattr(handler, "__self__", None)).__module__.startswith(also))
               for name in events for handler in listeners(config, name))


def pages_alike(config, plugin) -> bool:
    """Whether the theme's context is the same for every page but the page itself: no plugin but
    `plugin` (dipgen) and a search plugin changes a page's context before it is drawn."""
    return only_listeners(config, ("pre_page", "page_context"), plugin, _SEARCH)


def memoize(env: jinja2.Environment, nav, alike: bool = True,
            names: tuple[str, ...] = PARTIALS) -> jinja2.Environment:
    """Draw each of `names` (where the theme has it) once per set of links, on pages outside
    `nav` (see the module), where the pages are `alike` (`pages_alike`); returns `env`. Leaves it
    as it was where there is no nav, or where the theme has no ``url`` filter to record."""
    url = env.filters.get("url")
    if nav is None or not alike or url is None or not getattr(url, "jinja_pass_arg", None):
        return env
    recorder = _Recorder(url)
    recorder.jinja_pass_arg = url.jinja_pass_arg  # type: ignore[attr-defined]  # a context filter, as url is
    env.filters["url"] = recorder
    in_nav = {id(p) for p in getattr(nav, "pages", ())}
    items = list(_items(getattr(nav, "items", ())))
    for name in names:
        try:
            template = env.get_template(name)
        except jinja2.TemplateNotFound:
            continue
        template.root_render_func = _Memo(template.root_render_func, recorder, in_nav, items)
    return env


def _items(items) -> Iterator:
    for item in items:
        yield item
        yield from _items(getattr(item, "children", None) or ())


class _Memo:
    """One partial's drawing function, memoized (see the module)."""

    def __init__(self, render: Callable, recorder: _Recorder, in_nav: set[int], items: list) -> None:
        self._render, self._recorder, self._in_nav, self._items = render, recorder, in_nav, items
        self._drawn: list[tuple[object, list[tuple[object, object]], str]] = []  # (base_url, links, HTML)

    def __call__(self, context) -> Iterator[str]:
        page = context.get("page")
        if page is None or id(page) in self._in_nav or any(getattr(i, "active", False) for i in self._items) \
                or self._recorder.asked is not None:
            yield from self._render(context)
            return
        base = context.get("base_url")
        url = self._recorder.url
        for drawn_base, links, html in self._drawn:
            if drawn_base == base and all(url(context, value) == out for value, out in links):
                yield html
                return
        self._recorder.asked = links = []
        try:
            html = "".join(self._render(context))
        finally:
            self._recorder.asked = None
        self._drawn.append((base, links, html))
        yield html

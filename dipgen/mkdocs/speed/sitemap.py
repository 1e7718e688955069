"""Under plain `mkdocs serve`: the withheld pages' lines of the sitemap as text, not drawn again.

MkDocs's sitemap template draws one ``<url>`` a page, from the page's address and the build's date
alone; at 1,280 games that is 38,000 pages drawn on every edit, most of them withheld (`settled`).
`Form` learns, once a build, how the template draws one page (it draws the template with no page
and with one stand-in page, and keeps the difference, the stand-in's address a mark to replace);
each page's text is then made once, when its game is made (`Form.line`), and kept. A build gives
the template one stand-in per run of withheld pages (`Form.run`) and replaces its text, in the
template's output, with the run's kept lines (`Form.fill`). Where the template does not draw a page
as a text with its address in one place (another template), there is no form and every withheld
page stands in as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import escape

from dipgen.mkdocs.speed.internals import SITEMAP_READS

_MARK = "dipgenaddress"  # a stand-in's address: the template escapes it as itself


class StandIn:
    """A page as MkDocs's sitemap template reads a file of the build (`file.page.*`:
    `internals.SITEMAP_READS`, checked)."""

    __slots__ = tuple(SITEMAP_READS) + ("page",)

    def __init__(self, canonical_url: str | None, abs_url: str | None, update_date: str) -> None:
        self.is_link = False
        self.canonical_url, self.abs_url, self.update_date = canonical_url, abs_url, update_date
        self.page = self


@dataclass(frozen=True)
class Form:
    """How the sitemap template draws one page on `date`: `text`, the page's address at `_MARK`."""

    date: str
    text: str

    @classmethod
    def of(cls, template, date: str) -> Form | None:
        """The form of `template` (MkDocs's sitemap.xml) on `date`, if it draws a page so."""
        empty = template.render(pages=[])
        one = template.render(pages=[StandIn(_MARK, _MARK, date)])
        at = 0
        while at < len(empty) and empty[at] == one[at]:
            at += 1
        text = one[at:len(one) - len(empty) + at]
        if one != empty[:at] + text + empty[at:] or text.count(_MARK) != 1:
            return None
        twice = template.render(pages=[StandIn(_MARK, _MARK, date)] * 2)
        return cls(date, text) if twice == empty[:at] + text + text + empty[at:] else None

    def line(self, canonical_url: str | None, abs_url: str | None) -> str:
        """A page's text in the sitemap ("" for a page the template leaves out: no address)."""
        address = canonical_url or abs_url
        return self.text.replace(_MARK, str(escape(address))) if address else ""

    def run(self, number: int) -> tuple[StandIn, str]:
        """The stand-in of a run of pages, and its text in the template's output."""
        mark = f"dipgenrun{number}x"
        return StandIn(mark, mark, self.date), self.text.replace(_MARK, mark)

    @staticmethod
    def fill(output: str, runs: Iterable[tuple[str, str]]) -> str | None:
        """`output` with each run's text (in order) replaced by its pages' lines; None where one is
        not found."""
        parts: list[str] = []
        at = 0
        for drawn, lines in runs:
            found = output.find(drawn, at)
            if found < 0:
                return None
            parts.extend((output[at:found], lines))
            at = found + len(drawn)
        parts.append(output[at:])
        return "".join(parts)

"""The Markdown of game files (dipgen/present/site/markup.py): what the sanitiser keeps and drops, the
limits that keep hostile Markdown from hanging or crashing the build, relative links, and
that `dipgen check` and the build report the same problems with file and line."""

from __future__ import annotations

import re

import pytest

from dipgen.cli import main
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.play.replay import replay
from dipgen.present.site import SiteOptions, game_pages
from dipgen.view import game_view
from dipgen.present.site.markup import MAX_DEPTH, Links, removed, render
from dipgen.io.yamlfile import Text
from support import PLAYERS, make_project, mkdocs_command, write_game

LINKS = Links(page="games/g/1901-fall/index.md", folder="games/g/", edition="games/g/",
              pages=frozenset({"index.md", "1901-spring.md", "1901-fall.md"}), archive="games/index.md")


def html(text: str, links: Links | None = LINKS) -> str:
    return str(render(text, "press", "games/g/1901-fall.yml", links))


def at(text: str, line: int) -> Text:
    out = Text(text)
    out.line = line
    return out


def problems(text: str, links: Links | None = LINKS) -> list:
    with pytest.raises(GameError) as e:
        render(text, "press", "games/g/1901-fall.yml", links)
    return e.value.problems


# ----------------------------------------------------------------------------- what is kept

def test_what_a_gm_writes_is_kept():
    out = html("""
# Heading

**bold**, *em*, `code`, ~~not a strike~~, <sub>2</sub>

> a quote

- one
- two

1. first

[club](https://example.org/club?a=1&b=2) [old](http://example.org) [mail](mailto:gm@example.org)
<https://example.org/auto>

![board](https://example.org/map.png "the board")

| Power | Centres |
|:------|--------:|
| England | 5 |

```
A Par - Bur
```

!!! note "Deadline"
    Friday noon.
""")
    for piece in ["<h1>Heading</h1>", "<strong>bold</strong>", "<em>em</em>", "<code>code</code>", "<sub>2</sub>",
                  "<blockquote>", "<li>one</li>", "<ol>", '<a href="https://example.org/club?a=1&amp;b=2"',
                  '<a href="http://example.org"', '<a href="mailto:gm@example.org"',
                  '<a href="https://example.org/auto"',
                  '<img src="https://example.org/map.png" alt="board" title="the board">',
                  '<th style="text-align:left">Power</th>', '<td style="text-align:right">5</td>',
                  "<pre><code>A Par - Bur\n</code></pre>", '<div class="admonition note">',
                  '<p class="admonition-title">Deadline</p>']:
        assert piece in out.replace('alt="board" src="https://example.org/map.png"',
                                    'src="https://example.org/map.png" alt="board"'), piece
    assert 'rel="noopener noreferrer nofollow ugc"' in out


def test_relative_links_lead_to_the_games_pages_in_each_edition():
    assert 'href="../1901-spring/#orders"' in html("[spring](1901-spring.md#orders)")
    assert 'href="../"' in html("[the game](index.md)")
    assert 'href="../../"' in html("[all games](../index.md)")
    assert 'href="#press"' in html("[here](#press)")
    full = Links(page="games/g/full/1901-fall/index.md", folder="games/g/", edition="games/g/full/",
                 pages=LINKS.pages, archive="games/index.md")
    assert 'href="../1901-spring/"' in html("[spring](1901-spring.md)", full)  # the full edition's own page
    assert 'href="../../../"' in html("[all games](../index.md)", full)
    flat = Links(page="games/g/1901-fall/index.md", folder="games/g/", edition="games/g/", pages=LINKS.pages,
                 archive="games/index.md", directory_urls=False)
    assert 'href="../1901-spring/index.html"' in html("[spring](1901-spring.md)", flat)


def test_relative_links_to_the_hand_written_pages(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "stab.md").write_text("# Stab!\n")
    (tmp_path / "img.png").write_bytes(b"\x89PNG")
    links = Links(page="games/g/1901-fall/index.md", folder="games/g/", edition="games/g/", pages=LINKS.pages,
                  archive="games/index.md", docs_dir=str(tmp_path))
    out = html("[rules](../../rules/stab.md) ![map](../../img.png)", links)
    assert 'href="../../../rules/stab/"' in out
    assert 'src="../../../img.png"' in out
    text = at("fine\n\n[rules](../../rules/blind.md)\n\n![x](nowhere.png)", 7)
    found = problems(text, links)
    assert [(p.line, "rules/blind.md" in p.message, "nowhere.png" in p.message) for p in found] == [
        (9, True, False), (11, False, True)]
    assert all(p.file == "games/g/1901-fall.yml" for p in found)
    [p] = problems(at("[x](1902-spring.md)", 3), links)
    assert p.code == "bad-link"
    assert "names no page of this game" in p.message
    assert p.line == 3
    [p] = problems("[x](/about/)", links)
    assert "leaves the site" in p.message


# ----------------------------------------------------------------------------- what is dropped

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)><circle r=1 /></svg>",
    '<iframe src="javascript:alert(1)"></iframe>',
    '<a href="javascript:alert(1)">x</a>',
    '<a href="JaVaScRiPt:alert(1)">x</a>',
    '<a href=" &#106;&#97;&#118;&#97;script:alert(1)">x</a>',
    '<a href="java&#x09;script:alert(1)">x</a>',
    "[x](javascript:alert(1))",
    "[x](JAVASCRIPT:alert(1))",
    "<javascript:alert(1)>",
    '<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">x</a>',
    "![x](data:image/svg+xml,%3Csvg%20onload%3Dalert(1)%3E)",
    "<style>body { display: none }</style>",
    '<p style="position:fixed;inset:0">cover</p>',
    '<meta http-equiv="refresh" content="0;url=https://example.org/">',
    '<object data="https://example.org/x.swf"></object><embed src="https://example.org/x.swf">',
    '<form action="https://example.org/"><input name="passphrase"><button>Send</button></form>',
    '<details open ontoggle="alert(1)">x</details>',
    '<base href="https://example.org/"><link rel="stylesheet" href="https://example.org/x.css">',
    '<math><mtext><img src=x onerror=alert(1)></mtext></math>',
    '<div markdown="1" id="__md_scope" class="md-header">*x*</div>',
    "</div><script>alert(1)</script><div>",
    "<!-- a comment --><![CDATA[x]]>",
    '<img src="http://example.org/plain-http.png">',
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_script_and_its_vehicles_are_dropped(payload):
    out = html(f"before\n\n{payload}\n\nafter")
    low = out.lower()
    for bad in ["<script", "<svg", "<iframe", "<object", "<embed", "<style", "<form", "<input", "<meta", "<base",
                "<link", "<math", "<!--", "javascript:", "data:", "http://example.org/plain-http", "style=\"pos",
                "id=", "markdown=", "md-header", "onerror", "onload", "ontoggle"]:
        assert bad not in low, (payload, out)
    assert re.search(r"\son\w+\s*=", low) is None
    assert out.startswith("<p>before</p>")
    assert "<p>after</p>" in out
    assert out.count("<div") == out.count("</div>")  # nothing can close the block the page puts it in


#: payloads whose loss changes nothing a reader reads (presentation, a comment): the GM is not told
UNSEEN = {'<p style="position:fixed;inset:0">cover</p>',
          '<div markdown="1" id="__md_scope" class="md-header">*x*</div>', "<!-- a comment --><![CDATA[x]]>"}


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_the_gm_is_told_what_the_sanitiser_leaves_out(payload):
    """Each script, handler or refused address the site drops is named, with its line."""
    found = removed(at(f"before\n\n{payload}\n\nafter", 7))
    assert bool(found) == (payload not in UNSEEN), (payload, found)
    assert all(line == 9 for line, _ in found)


def test_press_changed_is_a_warning_of_dipgen_check(tmp_path, capsys):
    game = write_game(tmp_path / "g", {"game.yml": "title: G\ngm: H\n" + PLAYERS,
                                       "1901-spring.yml": "orders:\n  France: [A Par - Bur]\npress: |\n  Hello.\n"
                                       "  <script>alert(1)</script>\n  [the rules](javascript:alert(1)) `<script>`\n"
                                       "  [club](https://example.org) ![m](https://example.org/m.png)\n"})
    assert main(["check", str(game)]) == 0
    err = capsys.readouterr().err
    said = re.findall(r"1901-spring\.yml:(\d+): warning: .*\[(\S+)\]", err)
    assert said == [("5", "press-changed"), ("6", "press-changed")], err
    assert removed(at("**b** `<script>` [x](https://a.example) <sub>2</sub> 1 < 2", 1)) == []


def test_text_that_looks_like_html_is_shown_as_text():
    out = html("Tell me what `<script>` does: 1 < 2 & 3 > 2")
    assert "<code>&lt;script&gt;</code>" in out
    assert "1 &lt; 2 &amp; 3 &gt; 2" in out


# ----------------------------------------------------------------------------- hostile Markdown

@pytest.mark.parametrize("deep", [">" * 400 + " x", "> " * 300 + "x", "- " * 300 + "x", "1. " * 300 + "x",
                                  "\n".join("    " * i + "- x" for i in range(60)),
                                  "\n".join("    " * i + "!!! note" for i in range(40))],
                         ids=["quotes", "spaced-quotes", "lists", "numbered", "indented-lists", "admonitions"])
def test_too_deep_nesting_is_an_error_with_its_line(deep):
    text = at("A calm first paragraph.\n\n" + deep, 12)
    [p] = problems(text)
    assert p.file == "games/g/1901-fall.yml"
    assert p.code == "press-too-deep"
    assert str(MAX_DEPTH) in p.message
    assert 14 <= p.line <= 14 + deep.count("\n")


def test_nesting_within_the_limit_and_deep_indentation_in_code_are_fine():
    assert html("> " * MAX_DEPTH + "x").count("<blockquote>") == MAX_DEPTH
    assert "- - - - - - - - - - - - - - - - - - - - x" in html("```\n" + "    " * 30 + "- - - - - - - - - - - - - - "
                                                              "- - - - - - - x\n```")


@pytest.mark.parametrize("text, word", [("word " * 12_000, "characters"), ("line\n" * 2_500, "lines"),
                                        ("[^" * 5_000, "'['"), ("<http://x" * 1_000, "'<'"),
                                        ("![" * 2_000, "'['"), ("<!--" * 1_000, "'<'")],
                         ids=["long", "lines", "footnotes", "autolinks", "images", "comments"])
def test_too_long_or_too_full_of_links_is_refused(text, word):
    [p] = problems(at(text, 4))
    assert word in p.message
    assert p.line == 4
    assert p.hint


def test_a_recursion_error_becomes_a_problem(monkeypatch):
    import markdown

    def boom(self, text):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(markdown.Markdown, "convert", boom)
    [p] = problems(at("x", 5))
    assert p.code == "press-too-deep"
    assert p.line == 5


# ----------------------------------------------------------------------------- pages, check and build

GAME = "title: Hostile\ngm: Mallory\n" + PLAYERS
SPRING = """orders:
  England: [F Lon - NTH]
press: |
  All quiet.

  {deep}

  [bad link](1905-fall.md) and [good](index.md)
notes: See [the rules](../../rules/standard.md).
"""


def write(folder, deep=">" * 300 + " x"):
    return write_game(folder, {"game.yml": GAME, "1901-spring.yml": SPRING.format(deep=deep)})


def test_the_pages_embed_sanitised_html_that_mkdocs_leaves_alone(tmp_path):
    folder = write(tmp_path / "hostile", deep="<script>alert(1)</script> <img src=x onerror=alert(1)>")
    write_game(folder, {"1901-spring.yml": SPRING.format(deep="<script>alert(1)</script>").replace(
        "[bad link](1905-fall.md) and ", "")})
    history = replay(load_game(folder))
    page = game_pages(game_view(history, "public"), SiteOptions())["games/hostile/1901-spring/index.md"]
    block = page[page.index('<div class="dg-press">'):]
    block = block[:block.index("</div>") + 6]
    assert "<script" not in block
    assert "markdown" not in block
    assert '<a href="../" rel=' in block


def test_check_reports_every_problem_with_file_and_line(tmp_path, capsys):
    project = make_project(tmp_path / "p")
    folder = write(project / "games" / "hostile")
    assert main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"1901-spring\.yml:6: error: in the press: nested 300 levels deep.*\[press-too-deep\]", err), err
    write(folder, deep="fine")
    assert main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert re.search(r"1901-spring\.yml:8: error: in the press, the link '1905-fall\.md' names no page.*"
                     r"\[bad-link\]", err), err
    assert "rules/standard.md" not in err  # site_src/rules/standard.md exists beside mkdocs.yml


@pytest.mark.slow
def test_the_build_stops_with_the_same_message_before_writing_anything(tmp_path):
    project = make_project(tmp_path / "p")
    write(project / "games" / "hostile")
    result = mkdocs_command(project)
    assert result.returncode == 1
    assert re.search(r"1901-spring\.yml:6: error: in the press: nested 300 levels deep", result.stderr)
    assert "Traceback" not in result.stderr
    assert not (project / "site").exists()


def test_one_converter_a_process_converts_each_text_as_a_new_one_would():
    """`render` reuses one Markdown converter, reset before each text: nothing of one text (a
    table, a definition list, an admonition, a fenced block) carries over into the next."""
    import markdown

    from dipgen.present.site.markup import EXTENSIONS, _converter

    texts = ["| a | b |\n|---|---|\n| 1 | 2 |", "Term\n: its definition", "!!! note\n    careful", "```\ncode\n```",
             "1. one\n2. two\n\n* a\n* b", "plain *words* [link](https://example.org)", ""]
    for first in texts:
        for second in texts:
            _converter().reset().convert(first)
            again = _converter().reset().convert(second)
            assert again == markdown.Markdown(extensions=EXTENSIONS, output_format="html").convert(second)

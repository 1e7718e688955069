"""Live reload under `mkdocs serve`, within the pages' Content-Security-Policy.

MkDocs's server adds an inline script to every page it serves, which the pages' policy
(`script-src 'self'`, dipgen/present/site/overrides/main.html) does not let run: the page would
never reload itself after an edit. Under serve only, the plugin adds a script file that does the
same from the inline script's numbers (assets/livereload.js); a built site has neither the file nor
any weaker policy.
"""

from __future__ import annotations

from mkdocs.structure.files import File, Files

from dipgen.present.site.pages import ASSETS

URI = "assets/dipgen/livereload.js"


def add_script(config) -> None:
    """The script on every page of this build (`on_config`, under serve)."""
    if URI not in [str(x) for x in config.extra_javascript]:
        config.extra_javascript.append(URI)


def add_file(config, files: Files) -> None:
    """The script's file in this build's site (`on_files`, under serve)."""
    if files.get_file_from_path(URI) is None:
        files.append(File.generated(config, URI, content=(ASSETS / "livereload.js").read_text(encoding="utf-8")))

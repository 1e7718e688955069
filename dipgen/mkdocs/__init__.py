"""The MkDocs plugin's room: what adds the results site to a `mkdocs build` or `mkdocs serve`.

`plugin` is the plugin MkDocs loads (pyproject's entry point ``mkdocs.plugins``: ``dipgen``);
`livereload` the reload script under serve. `speed` holds what makes a build fast (the build
cache, pages handed over as HTML, reuse under serve, the theme's memos, staging).
"""

"""`dipgen init DIR`: a GM's own archive, ready for `dipgen new`, `dipgen check` and `mkdocs serve`.

    DIR/mkdocs.yml                     Material and the dipgen plugin (archive/mkdocs.yml)
    DIR/site_src/index.md, about.md    a home and an about page of her own
    DIR/games/                         empty (a .gitkeep keeps it in git)
    DIR/requirements.txt               dipgen as it made the archive, and the versions of its
                                       dependencies it was made with
    DIR/.gitignore                     every secrets.yml and the built site stay out of git
    DIR/.pre-commit-config.yaml        `dipgen check` on the games a commit touches
    DIR/.github/workflows/pages.yml    check, build strictly, scan for leaks, deploy to Pages; with
                                       --site-repo OWNER/NAME, push the site to that public
                                       repository instead (`dipgen.usecases.workflows`), with a
                                       deploy key made for it outside the archive

The rules pages come from the package (the plugin adds them) unless she writes her own in
site_src/rules/. Where CI gets dipgen from is read from how this copy was installed (its
``direct_url.json``, PEP 610): a git URL at the same commit, a wheel file copied into the archive
(``wheels/``), a web address; from a package index, the same version. ``--dipgen SPEC`` says it
instead. The files are `dipgen.usecases.newarchive`'s. Nothing is ever written over, and nothing
through a link: every path is checked before any is written (`dipgen.usecases.newfiles`), and a
file, a link or a file where a folder must be stops the command before it writes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from dipgen.cli.say import fail, refused
from dipgen.core.errors import CommandError
from dipgen.io.paths import display_path
from dipgen.usecases import workflows


def add_parser(sub) -> None:
    p = sub.add_parser("init", help="make a GM's own archive: mkdocs.yml, site_src/, games/, Pages workflow",
                       description="Make a new archive of games in DIR: mkdocs.yml (Material and the dipgen plugin), "
                                   "site_src/ with a home and an about page, an empty games/, requirements.txt "
                                   "(dipgen as this copy was installed, and its dependencies' versions), "
                                   ".gitignore, .pre-commit-config.yaml and .github/workflows/pages.yml. Writes "
                                   "over nothing, and nothing through a link.")
    p.add_argument("dir", help="the archive's folder (new, or empty)")
    p.add_argument("--name", help="the site's name (default: from the folder's name)")
    p.add_argument("--dipgen", metavar="SPEC",
                   help="what CI installs dipgen from, as pip takes it (e.g. 'dipgen @ git+https://github.com/"
                        "you/dipgen@v0.1.0'); default: where this copy was installed from")
    p.add_argument("--site-repo", metavar="OWNER/NAME",
                   help="for hidden games on GitHub Free: the games stay in this (private) repository and the "
                        "workflow pushes the built site to the public repository OWNER/NAME, whose Pages serve "
                        "it; makes the deploy key for it")
    p.add_argument("--key-file", metavar="PATH",
                   help="with --site-repo: where to write the deploy key's private half, outside the archive "
                        "(default: ~/.ssh/dipgen-deploy-OWNER-NAME)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases import deploykey, newarchive  # here: every dipgen command builds this one's parser
    from dipgen.usecases.newfiles import obstacles, write_new

    root = Path(args.dir)
    folder = Path(os.path.abspath(root)).name  # as written: a link (even one in a loop) is not followed
    name = args.name or folder.replace("-", " ").replace("_", " ").strip().title() or "Diplomacy"
    site_repo = args.site_repo or ""
    try:
        if args.key_file and not site_repo:
            raise CommandError("--key-file is the deploy key's, which only --site-repo makes", code="bad-option")
        source = newarchive.Source(args.dipgen.strip()) if args.dipgen else newarchive.install_source()
        files: dict[str, str | bytes] = dict(newarchive.archive_files(name, source, site_repo=site_repo))
    except CommandError as e:
        return refused(e)
    if source.wheel is not None:
        files[f"wheels/{source.wheel.name}"] = source.wheel.read_bytes()
    key_file = (Path(args.key_file) if args.key_file else deploykey.default_key_file(site_repo)) \
        if site_repo else None
    problems = obstacles(root, list(files))
    key_problem = deploykey.key_file_problem(key_file, root) if key_file is not None else None
    if problems or key_problem:
        for p in problems:
            print(p, file=sys.stderr)
        if key_problem:
            refused(key_problem)
        return fail(f"nothing was written to {display_path(root)}", code="out-taken")
    private, public = deploykey.make_pair(f"dipgen deploy key for {site_repo}") if key_file else (b"", "")
    try:
        if key_file is not None:
            deploykey.write_pair(key_file, private, public)
        try:
            write_new(root, files)
        except OSError:
            if key_file is not None:  # the key of an archive that was not made is of no use
                for path in (key_file, key_file.with_name(key_file.name + ".pub")):
                    path.unlink()
            raise
    except OSError as e:
        return fail(f"{e.strerror}: {e.filename}; nothing was written to {display_path(root)}", code="write-failed")
    print(f"made the archive {display_path(root)} ({name}); CI installs {source.requirement}")
    if source.note:
        print(f"note: {source.note}")
    if key_file is not None:
        print(f"its workflow publishes the site to {site_repo}, at {workflows.site_url(site_repo)}")
        print(deploykey.instructions(site_repo, key_file, public))
    print(f"next: cd {display_path(root)}; dipgen new my-game --gm \"Your Name\"; mkdocs serve")
    print("and: git init; pipx install pre-commit (or pip install pre-commit); pre-commit install")
    return 0

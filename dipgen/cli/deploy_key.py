"""`dipgen deploy-key OWNER/NAME`: a new deploy key for the site's repository, written outside the
archive (`dipgen.usecases.deploykey`)."""

from __future__ import annotations

from pathlib import Path

from dipgen.cli.say import fail, refused
from dipgen.io.paths import display_path
from dipgen.present.layout import GAMES_DIR
from dipgen.usecases.workflows import SITE_REPO


def add_parser(sub) -> None:
    p = sub.add_parser("deploy-key", help="make a new deploy key for the site's repository (--site-repo archives)",
                       description="Make an Ed25519 key pair for pushing the site to OWNER/NAME, write it outside "
                                   "the archive (0600) and say where each half goes.")
    p.add_argument("site_repo", metavar="OWNER/NAME", help="the site's public repository")
    p.add_argument("--key-file", help="where to write the private half (default: ~/.ssh/dipgen-deploy-OWNER-NAME)")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases.deploykey import default_key_file, instructions, key_file_problem, make_pair, write_pair

    if not SITE_REPO.fullmatch(args.site_repo):
        return fail(f"{args.site_repo!r} is not a GitHub repository; write it as OWNER/NAME", code="bad-option")
    path = Path(args.key_file) if args.key_file else default_key_file(args.site_repo)
    problem = key_file_problem(path, Path.cwd() if (Path.cwd() / GAMES_DIR).is_dir() else None)
    if problem:
        return refused(problem)
    private, public = make_pair(f"dipgen deploy key for {args.site_repo}")
    try:
        write_pair(path, private, public)
    except OSError as e:
        return fail(f"cannot write the deploy key to {display_path(path)}: {e.strerror}", code="write-failed")
    print(instructions(args.site_repo, path, public))
    return 0

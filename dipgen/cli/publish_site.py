"""`dipgen publish-site SITE --to OWNER/NAME`: push a built site to the public repository whose GitHub Pages
serve it (`dipgen.usecases.sitepush`)."""

from __future__ import annotations

import os
from pathlib import Path

from dipgen.cli.say import refused
from dipgen.io.paths import display_path
from dipgen.usecases.workflows import DEPLOY_SECRET, SITE_BRANCH


def add_parser(sub) -> None:
    p = sub.add_parser("publish-site", help="push a built site to the public repository that serves it (Pages)",
                       description="Replace the publishing branch of the site's repository with one commit holding "
                                   "exactly the built site (a fixed author, date and message; no parent). Run by "
                                   "the workflow 'dipgen init --site-repo' writes, after check, build and leaks.")
    p.add_argument("site", nargs="?", default="site", help="the built site (default: site)")
    p.add_argument("--to", required=True, metavar="OWNER/NAME",
                   help="the site's GitHub repository (pushed to over SSH with the deploy key), or any git "
                        "URL or path")
    p.add_argument("--branch", default=SITE_BRANCH, help=f"the branch its Pages serve (default: {SITE_BRANCH})")
    p.add_argument("--key-env", default=DEPLOY_SECRET, metavar="NAME",
                   help=f"the environment variable holding the deploy key's private half (default: {DEPLOY_SECRET})")
    p.set_defaults(func=run)


def run(args) -> int:
    from dipgen.usecases.sitepush import PublishError, publish_site  # here: every dipgen command builds this parser

    try:
        commit, count = publish_site(Path(args.site), args.to, args.branch, os.environ.get(args.key_env, ""),
                                     args.key_env)
    except PublishError as e:
        return refused(e)
    print(f"published {display_path(args.site)} ({count} files) to {args.to}, branch {args.branch}: "
          f"commit {commit[:12]}")
    return 0

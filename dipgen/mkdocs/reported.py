"""What a build says of the games' problems (the plugin's `on_pre_build`): every error, warning
and note at its own level, so that under `mkdocs serve` a player's misorder is not logged as an
error beside the error that stopped its game."""

from __future__ import annotations

import logging

from mkdocs.exceptions import PluginError

from dipgen.core.errors import Problem, visible

log = logging.getLogger("mkdocs.plugins.dipgen")


def report_problems(problems: list, stop: bool) -> None:
    """The games' problems: a PluginError where a broken game has no good build to show (`stop`:
    nothing is built); else (under serve) the errors logged as errors, each warning as a warning
    and each note as a note, while the last good build of those games is shown."""
    errors = sum(1 for p in problems if not isinstance(p, Problem) or p.severity == "error")
    if stop:
        raise PluginError(visible("\n".join(str(p) for p in problems)) + f"\n{errors} error(s) in the games; nothing "
                          "was built (run 'dipgen check' for the same list)")
    warned = [p for p in problems if isinstance(p, Problem) and p.severity != "error"]
    for said in warned:  # a note: not adjudicated till the error is fixed
        (log.warning if said.severity == "warning" else log.info)("%s", visible(str(said)))
    wrong = visible("\n".join(str(p) for p in problems if p not in warned))
    log.error("%s\n%d error(s) in the games; until they are fixed, the server shows the last good build of "
              "those games", wrong, errors)

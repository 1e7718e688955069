"""Errors a GM can fix: each names the file and line, says what is wrong, and how to fix it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from dipgen.core.phase import Phase


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    message: str
    hint: str = ""
    #: "error"; "warning" (a player's misorder: reported, not refused); "note" (what could not be
    #: checked because of an error elsewhere, said once rather than as errors that follow from it)
    severity: str = "error"
    #: a warning's stable name (kebab-case, listed in `dipgen.io.acknowledge.WARNING_CODES`), by which
    #: a phase file's ``acknowledged:`` silences it; and the order it is about, as written ('' for none)
    code: str = ""
    subject: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = f"{where}: {self.severity}: {self.message}" + (f" [{self.code}]" if self.code else "")
        return text + (f"\n    hint: {self.hint}" if self.hint else "")


#: every error's code (printed after it in brackets, so that a GM can search for it and a test can
#: say what went wrong without quoting the words), and what it is about; warnings have their own
#: codes, which a phase file can acknowledge (`dipgen.io.acknowledge.WARNING_CODES`)
ERROR_CODES = {
    # files and folders
    "no-game-folder": "the folder named is not there",
    "no-game": "a folder without a game.yml",
    "bad-folder-name": "a game folder's name cannot be a web address",
    "not-a-file": "a folder, a device or a pipe where a file should be",
    "folder-not-file": "a folder named like a phase file",
    "not-yaml": "a file in a game folder that is not YAML, a picture or notes",
    "misnamed-file": "game.yaml, secrets.yaml or another spelling dipgen does not read",
    "bad-phase-name": "a YAML file not named like a phase (1901-spring.yml)",
    "duplicate-phase": "two files for one phase",
    "before-start": "a phase file before the game's start",
    "link-loop": "a link that leads back to itself or to the folder that holds it",
    "broken-link": "a link that leads nowhere",
    "link-outside": "a link out of the game folder",
    "unreadable": "a file the system will not read",
    "too-large": "a file over the size limit",
    "not-utf8": "a file that is not UTF-8 text",
    "empty-file": "an empty phase file",
    # dipgen init's new archive (it writes over nothing, and nothing through a link)
    "path-taken": "a file already where dipgen init would write one",
    "file-in-the-way": "a file where dipgen init must make a folder",
    "link-in-the-way": "a link where dipgen init would write, or on the way down to it",
    # YAML and keys
    "broken-yaml": "YAML that does not parse, or holds what dipgen refuses (aliases, tags, a key twice)",
    "not-a-mapping": "a file that is not a mapping of keys",
    "unknown-key": "a key dipgen does not know (often a misspelling)",
    "missing-key": "a key the file needs",
    "bad-value": "a value of the wrong kind or out of range",
    "too-long": "a text over its length limit",
    "not-one-line": "a title or name with line breaks or control characters",
    # game.yml
    "unknown-variant": "a variant dipgen does not have",
    "wrong-map": "a map that is not the variant's",
    "bad-player": "a player entry dipgen cannot read",
    "no-player": "a power without a player",
    "unknown-power": "a name that is no power of the game",
    "duplicate-power": "a power named twice",
    "bad-end": "an end: that is not one draw, concession or abandonment",
    "bad-deadline": "a deadline that is not a date and time with its offset from UTC",
    "bad-orders-to": "orders_to in game.yml that is not one e-mail address",
    "demo-secrets": "demo_secrets and secrets.yml's demo disagree, or the game is not one",
    # phase files
    "no-orders": "a phase file or a power without orders",
    "bad-orders": "orders not laid out as the variant reads them",
    "bad-order": "an order dipgen cannot read",
    "binary-attachment": "a message with a picture or another binary file attached (dipgen orders reads text only)",
    "unknown-charset": "a message in a character set Python does not know",
    "not-a-message": "a file given to dipgen orders that is neither an e-mail nor text",
    "not-next-phase": "orders for a phase the game does not wait for",
    "game-over": "orders for a game that is over",
    "unknown-order-word": "a word where an order's verb should be that is no order word (often a slip: Buidl)",
    "unknown-unit-kind": "a unit letter this variant does not have",
    "unknown-writer": "orders under a name that is no player of the game",
    "duplicate-writer": "a player named twice",
    "bad-acknowledgement": "an entry of acknowledged: that is not a warning's code and the order it is about",
    "setup-key-misplaced": "a set-up key outside the game's first phase file",
    "not-adjudicated": "phase files not adjudicated because of errors before them",
    "not-her-power": "orders from a player for a power she does not play (or for one nobody may order)",
    # a variant's own keys
    "bad-placement": "Stab!'s placement of the starting units",
    "bad-spies": "Blind's placement of the spies",
    "bad-lots": "Taskdip's lots: the powers and task cards each player drew",
    "bad-resign": "Taskdip's resign: a player who is not one, or resigned already",
    "bad-points": "the TIR's diplomacy points",
    # press and notes
    "press-too-long": "press, notes or a description over its size, its lines or its marks",
    "press-too-deep": "press nested too deeply (quotes in lists in quotes...)",
    "bad-link": "a link in press or notes to a page of the site that is not there",
    # secrets and draws
    "secrets-committed": "secrets.yml committed to git",
    "shared-secrets": "one secrets.yml shared by two games",
    "weak-passphrase": "a passphrase too short or too plain",
    "same-passphrase": "two powers with one passphrase",
    "bad-address": "an e-mail address in secrets.yml that is not one",
    "duplicate-address": "one e-mail address given twice in secrets.yml (to two players, or to one)",
    "unknown-player": "a name in secrets.yml's addresses that is no player of the game",
    # dipgen mail
    "no-address": "a player with no address in secrets.yml, when her report is to be mailed",
    "not-played": "a phase to mail that the game has not played",
    "mail-refused": "a finished game's report other than its final one, to mail",
    "edit-failed": "dipgen could not edit a file in place; the file is left as it was",
    "no-seed": "a game that draws at random without its seed or commitment",
    "seed-mismatch": "a seed that is not the one game.yml commits to",
    "seed-without-commitment": "a seed without its commitment (seed_sha256)",
    "seed-published-early": "game.yml publishes the seed while the game runs",
    "seed-too-late": "a seed made after the first phase was played, when it can no longer be trusted",
    # the replay
    "not-this-phase": "an order of another kind of phase (a retreat in a movement phase)",
    "too-many-orders": "more orders than the power has units of that kind where they say",
    "second-order": "two orders for one unit",
    "after-the-end": "a phase file after the game's end",
    "skipped-phase": "a file for a phase that did not happen",
    "not-yet": "a file for a phase the game has not reached",
    "fall-not-closed": "a hidden game's Fall without the retreats file that closes it, though later files follow",
    "end-not-played": "end: names a phase that was never played",
    # the commands: what is wrong with a command line, an option, a folder or a server, not a game's line
    "bad-option": "an option's value a command cannot take, or options that do not go together",
    "unknown-phase": "a phase named on the command line that the game has not (or that this report does not tell)",
    "nothing-played": "a report asked of a game that has played nothing yet",
    "not-in-game": "a power or player named on the command line that is not in the game",
    "bad-game-name": "a new game's folder name that cannot be a web address",
    "out-taken": "an output a command would write over: a file, a folder not empty, a game's own file",
    "write-failed": "a file a command could not write; what it wrote is taken back",
    "draw-failed": "a map resvg cannot draw as a picture (a bug of dipgen's drawing)",
    "no-site": "no built site, or no mkdocs.yml, where a command needs one",
    "bad-site-config": "a site's mkdocs.yml a command cannot read, or one without the dipgen plugin",
    "not-publishable": "a built site holding what no site publishes: secrets, the cache, a link, a repository",
    "no-deploy-key": "the site repository's deploy key missing, or not an OpenSSH private key",
    "git-failed": "git refused to make or push the site's commit",
    "no-install-source": "nothing to tell CI how to install dipgen (the wheel it came from is gone)",
    "bad-mail-settings": "the mail server's settings (DIPGEN_SMTP_*) or the sender missing or wrong",
    "mail-failed": "the mail server refused or failed halfway; what was sent is recorded",
    "mail-ledger": "the record of what was mailed (.dipgen-mail/) cannot be read or written",
    "deadline-passed": "a report to mail whose deadline has passed",
    "bad-datc": "a DATC file the reader cannot read",
    "no-record": "no draws.json or chain.json where dipgen verify looked, or one it cannot read",
    # the site
    "build-failed": "a step of the build that failed as dipgen did not foresee (its hint says what to look for)",
    "cache-committed": "the build's cache folder (.dipgen-cache/) committed to git",
    "cache-key-committed": "the key that seals the build's cache (.dipgen-cache.key) committed to git",
    "private-page-too-large": "a private page over its fixed size (a bug in dipgen: its size would tell a secret)",
}


class CommandError(Exception):
    """A command's error that no line of a game file is at fault for (an option, a folder, a
    server): what is wrong, and its code (one of `ERROR_CODES`), printed after it as a `Problem`'s
    is. The use cases raise it (or a kind of it) and the command prints it after ``error:``."""

    def __init__(self, message: str, code: str) -> None:
        self.message, self.code = message, code
        super().__init__(message)

    def __str__(self) -> str:
        return f"{self.message} [{self.code}]"


class GameError(Exception):
    """One or more problems in a game's files (warnings found on the way included).
    `partial`: when only phase files are at fault, the game up to the first broken one.
    `stopped`: the phase whose errors stopped the adjudication (the phases after it are not
    adjudicated), if it was a phase's."""

    def __init__(self, problems: list[Problem], partial: Any = None, stopped: Phase | None = None) -> None:
        self.problems = problems
        #: a `dipgen.io` Game, a layer the core may not import: Any is as much as can be said here
        self.partial = partial
        self.stopped = stopped
        super().__init__("\n".join(str(p) for p in problems))


#: characters a terminal acts on rather than shows: C0 and C1 controls (escape sequences, carriage
#: return, backspace) but newline and tab; lone surrogates; the bidirectional overrides and
#: isolates, which reorder what is shown ("Trojan source")
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` safe to print on a terminal: each character a terminal would act on (an escape
    sequence, a carriage return, a bidirectional override) is shown as its escape (``\\x1b``,
    ``\\u202e``) instead. For dipgen's own output only; the game's files and site are unchanged."""
    return _UNSAFE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

"""`dipgen mail games/<slug>`: each player's report of a phase, by e-mail (`dipgen.usecases.letters`,
sent by `dipgen.usecases.mailsend`).

A dry run by default says who would get what (addresses masked); ``--send`` sends through SMTP
(the standard library's smtplib, set up by the environment: DIPGEN_SMTP_HOST, _PORT, _USER,
_PASSWORD, _SECURITY = starttls (the default), tls or none, the last for a loopback host only;
the sender DIPGEN_MAIL_FROM or --from); ``--drafts DIR`` writes one .eml per player for the GM's
own mail client. A phase is never sent twice unless the GM says ``--again``; a run cut short says
who was and was not sent, and the next run sends only the rest.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dipgen.cli.say import refused
from dipgen.core.errors import GameError
from dipgen.io.paths import display_path

if TYPE_CHECKING:
    import datetime as dt


def add_parser(sub) -> None:
    p = sub.add_parser("mail", help="e-mail each player her report of a phase",
                       description="E-mail each player her report of the latest phase (or --phase): the game "
                                   "report in an open game, each seat's private report in a hidden one, with the "
                                   "next deadline and the links to the site. Addresses come from secrets.yml "
                                   "(addresses:). A dry run unless --send or --drafts.")
    p.add_argument("game", help="the game folder, e.g. games/my-game")
    p.add_argument("--phase", help="a phase such as 1901-fall (default: the latest)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--send", action="store_true", help="send through the SMTP server of DIPGEN_SMTP_HOST etc.")
    how.add_argument("--drafts", metavar="DIR", help="write one .eml per player into DIR for your mail client")
    p.add_argument("--from", dest="sender", metavar="ADDR", help="the sender (default: DIPGEN_MAIL_FROM)")
    p.add_argument("--again", action="store_true", help="send a phase again to those who were sent it already")
    p.set_defaults(func=run)


def run(args) -> int:
    import datetime as dt  # here, as the mail's modules below: every dipgen command builds this one's parser

    from dipgen.usecases.mailsend import MailError

    try:
        return _mail(args, dict(os.environ), dt.datetime.now(dt.timezone.utc))
    except GameError as e:
        print(e, file=sys.stderr)
        return 1
    except MailError as e:
        return refused(e)


def _mail(args, env: dict[str, str], now: dt.datetime) -> int:
    from dipgen.usecases.games import load_checked
    from dipgen.usecases.letters import mail_phase, plan
    from dipgen.usecases.mailsend import Ledger, MailError, masked, send, sender_of, smtp_settings, who_of
    from dipgen.usecases.siteconfig import options_for_game

    folder = Path(args.game)
    sender = sender_of(args.sender, env)
    smtp = smtp_settings(env) if args.send else None
    if (args.send or args.drafts) and not sender:
        raise MailError("no sender: give --from ADDR, or set DIPGEN_MAIL_FROM", code="bad-mail-settings")
    loaded = load_checked(folder)
    history = loaded.history
    phase = mail_phase(history, args.phase, display_path(folder))
    stale = [w for w in history.warnings if w.code == "deadline-stale"]
    if stale:  # the players would read the last phase's deadline as the next one's
        raise MailError(f"{stale[0]}\n  nothing was sent: set the next deadline first, and the players get it",
                        code="deadline-passed")
    if args.again and history.finished:
        raise MailError("the game is over: its final report is sent once (--again is for a running game)",
                        code="mail-refused")
    made = plan(history, loaded.secrets, phase, options_for_game(folder), display_path(folder), sender)
    ledger = Ledger(folder)
    sent_before = {x.seat: ledger.when(phase.slug, x.seat) for x in made.letters}
    todo = [x for x in made.letters if args.again or not sent_before[x.seat]]
    what = "each seat's private report" if made.hidden else "the game report to every player"
    print(f"{display_path(folder)}: {made.title} ({phase.slug}), {what}")
    for x in made.letters:
        note = f"  [sent {sent_before[x.seat]}]" if sent_before[x.seat] else ""
        print(f"  {who_of(x)} <{', '.join(masked(a) for a in x.to)}>: {x.subject!r}, {len(x.body)} characters{note}")
    if made.untold:
        print(f"  no report for {', '.join(made.untold)}: their view has no such phase")
    if made.nobody:
        print(f"  nobody plays {', '.join(made.nobody)}: no message")
    if args.drafts:
        return _drafts(Path(args.drafts), made.letters, sender, now)
    if not args.send:
        print("Dry run: nothing was sent. --send sends, --drafts DIR writes them for your mail client.")
        return 0
    if not todo:
        print(f"{made.title} was sent to every player already: nothing to send (--again sends it again).")
        return 0
    assert smtp is not None
    ledger.prepare()
    done = send(smtp, todo, sender, ledger, phase.slug, now)
    print(f"Sent {len(done)} message(s) through {smtp.host}; recorded in {display_path(ledger.path)}.")
    return 0


def _drafts(out: Path, letters, sender: str, now: dt.datetime) -> int:
    from dipgen.usecases.letters import message
    from dipgen.usecases.mailout import OutError, write_folder
    from dipgen.usecases.mailsend import MailError, who_of

    files = {x.file: message(x, sender, now, draft=True).as_string() for x in letters}
    try:
        write_folder(out, files, force=False)
    except OutError as e:
        raise MailError(f"{e.message}; nothing was written", code=e.code) from None
    except OSError as e:
        raise MailError(f"{e}; nothing was written", code="write-failed") from None
    for x in letters:
        print(f"{display_path(out / x.file)}: for {who_of(x)}")
    return 0

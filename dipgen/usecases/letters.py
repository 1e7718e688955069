"""The messages `dipgen mail` sends after a phase: one per seat, to its player's addresses.

In an open game (or a hidden one revealed) each player receives the game report; in a hidden game
each seat its private report, made from that seat's view alone (`mailout.seat_report`, the one way
dipgen makes it), so that nothing one seat may not know can reach its message. A seat whose view
has no such phase (a hidden retreat it took no part in) receives nothing for it.

A message is plain text: the report (which ends with the next phase and its deadline, when the
phase is the seat's latest), then the links to the season's page and, in a hidden game, to the
player's private page (when mkdocs.yml gives the site's address). Its Message-ID is fixed by the
game, the phase and the seat, so that a message sent twice is recognisably the same one.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime

from dipgen.usecases.mailout import file_name, seat_report
from dipgen.present.site.crypt import page_uri
from dipgen.core.errors import GameError, Problem
from dipgen.io.paths import display_path
from dipgen.core.phase import Phase
from dipgen.io.secretsfile import GameSecrets
from dipgen.play.records import History
from dipgen.present.report import phase_report, report_level
from dipgen.present.site.feeds import NAMESPACE, address
from dipgen.present.site.links import game_uri, season_uri
from dipgen.present.site.pages import SiteOptions
from dipgen.view import game_view, revealed

#: the names `players:` gives a power nobody plays: no one to mail
NOBODY = {"", "civil disorder"}


@dataclass(frozen=True)
class Letter:
    """One seat's message of one phase."""

    seat: str
    player: str
    to: tuple[str, ...]
    subject: str
    body: str
    message_id: str       # '<...@...>'
    file: str             # its name as a draft: '1903-fall.England.Owen-Pritchard.eml'


@dataclass(frozen=True)
class Plan:
    """What `dipgen mail` would send for a phase: the letters, and the seats that get none."""

    phase: Phase
    title: str            # the phase's name
    hidden: bool          # each seat's private report (else the game report to everyone)
    letters: tuple[Letter, ...]
    untold: tuple[str, ...]    # seats whose view has no such phase
    nobody: tuple[str, ...]    # seats nobody plays (civil disorder)


def mail_phase(history: History, text: str | None, folder: str) -> Phase:
    """The phase to mail: `text` (a slug such as 1903-fall), else the game's latest; GameError when it
    is not one the game played, or the game is over and it is not the final one."""
    if not history.records:
        due = history.next_phase.name if history.next_phase else "its first phase"
        raise GameError([Problem(folder, None, f"nothing has been played yet: the game waits for {due}",
                                 "adjudicate a phase first (write its file, then run dipgen check)",
                                 code="not-played")])
    played = [r.phase for r in history.records]
    if text is None:
        phase = played[-1]
    else:
        try:
            phase = Phase.from_slug(text)
        except ValueError as e:
            raise GameError([Problem(folder, None, f"--phase {text!r}: {e}", "e.g. --phase 1901-fall",
                                     code="bad-value")]) from None
        if phase not in played:
            later = phase > played[-1]
            raise GameError([Problem(folder, None, f"{phase.name} has not been played yet" if later else
                                     f"{phase.name} is no phase of this game",
                                     f"the phases played: {', '.join(p.slug for p in played)}", code="not-played")])
    if history.finished and phase != played[-1]:
        raise GameError([Problem(folder, None, f"the game is over: only its final report ({played[-1].name}) may "
                                 "still be sent", f"--phase {played[-1].slug}, or leave --phase out",
                                 code="mail-refused")])
    return phase


def plan(history: History, secrets: GameSecrets | None, phase: Phase, options: SiteOptions, folder: str,
         sender: str = "") -> Plan:
    """The letters of `phase` for every seat that has a player and is told of it; GameError naming
    each player without an address (nothing is sent until every player has one)."""
    hidden = not revealed(history)
    everyone = None
    if not hidden:  # one report for all: an open game's, or a hidden one's once revealed (everything)
        view = game_view(history, report_level(True))
        record = view.record(phase)
        everyone = (view, record, phase_report(view, record))
    letters, untold, nobody, missing = [], [], [], []
    book = secrets.addresses if secrets is not None else {}
    for key in history.seating.keys():
        seat = history.seating.seat(key)
        player = seat.name() if seat is not None else ""
        if player.strip().lower() in NOBODY:
            nobody.append(key)
            continue
        made = everyone or told(history, key, phase)
        if made is None:
            untold.append(key)
            continue
        if player not in book:
            missing.append((key, player))
            continue
        view, record, report = made
        links = _links(history, secrets if hidden else None, key, phase, options)
        body = report + ("\n" + "\n".join(links) + "\n" if links else "")
        letters.append(Letter(key, player, tuple(book[player]), f"{view.title}: {record.title}", body,
                              message_id(history, phase, key, sender, options),
                              file_name(history, key, phase, ".eml")))
    if missing:
        file = display_path(secrets.path) if secrets is not None else f"{folder}/secrets.yml"
        raise GameError([Problem(file, None, f"no address for {player}"
                                 + (f" ({key})" if key != player else ""),
                                 f"add her under addresses: in secrets.yml, e.g.  {player}: her@example.org",
                                 code="no-address") for key, player in missing])
    return Plan(phase, phase.name, hidden, tuple(letters), tuple(untold), tuple(nobody))


def told(history: History, seat: str, phase: Phase) -> tuple | None:
    """The seat's report of `phase`; where her view has no such phase because it is the file that
    closes a hidden Fall (`Policy.closed_by_file`: nobody she knows of retreated), her report of that
    Fall, which from now on tells her centres (and in Stab! every power's total): the message that
    brings them. The same whether or not someone retreated, so it tells her nothing of that."""
    made = seat_report(history, seat, phase)
    if made is None and phase.retreats and history.variant.policy.closed_by_file(phase):
        before = [r.phase for r in history.records if r.phase < phase]
        made = seat_report(history, seat, before[-1]) if before else None
    return made


def _links(history: History, secrets: GameSecrets | None, seat: str, phase: Phase, options: SiteOptions) -> list[str]:
    """The message's links (none without the site's address): the phase's public page (the game
    page when the public has none, as for a hidden retreat), and the seat's private page."""
    if not options.site_url:
        return []
    public = game_view(history, "public")
    slug = history.info.slug
    target = season_uri(options.prefix, slug, phase) if phase in public.phases() else game_uri(options.prefix, slug)
    out = [f"On the site: {address(options, game_uri(options.prefix, slug), target)}"]
    if secrets is not None and secrets.page_key and seat in secrets.passphrases:
        out.append("Your private page (your passphrase opens it): "
                   f"{address(options, game_uri(options.prefix, slug), page_uri(secrets.page_key, slug, seat))}")
    return out


def message_id(history: History, phase: Phase, seat: str, sender: str, options: SiteOptions) -> str:
    """'<uuid@domain>': the same for a game, a phase and a seat, whenever it is made; the domain is
    the sender's (else the site's, else dipgen.invalid)."""
    token = uuid.uuid5(NAMESPACE, "\n".join(("mail", options.site_url, history.info.slug, phase.slug, seat)))
    host = sender.rpartition("@")[2] if "@" in sender else options.site_url.split("//")[-1].split("/")[0]
    return f"<{token}@{host.split(':')[0] or 'dipgen.invalid'}>"


def message(letter: Letter, sender: str, now: dt.datetime, draft: bool = False,
            eight_bit: bool = True) -> EmailMessage:
    """The letter as an e-mail (UTF-8 plain text). A draft says so (X-Unsent), for a mail client.
    `eight_bit` False: quoted-printable throughout, for a server that does not take 8-bit text."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = [_recipient(letter.player, a) for a in letter.to]
    msg["Subject"] = letter.subject
    msg["Date"] = format_datetime(now.astimezone(dt.timezone.utc))
    msg["Message-ID"] = letter.message_id
    if draft:
        msg["X-Unsent"] = "1"
    # 8bit: the report as it is, readable in any client's source view (its lines are short; a longer
    # one, from press, is quoted-printable, since SMTP lines end at 998 octets)
    long_line = any(len(line.encode()) > 900 for line in letter.body.splitlines())
    cte = "8bit" if eight_bit and not long_line else "quoted-printable"
    msg.set_content(letter.body, charset="utf-8", cte="7bit" if letter.body.isascii() and not long_line else cte)
    return msg


def _recipient(name: str, addr: str) -> Address:
    local, _, domain = addr.rpartition("@")
    try:
        return Address(display_name=name, username=local, domain=domain)
    except (ValueError, TypeError):  # a name the header cannot hold as it is: the bare address
        return Address(username=local, domain=domain)

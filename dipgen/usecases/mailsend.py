"""Sending each player her report of a phase through SMTP, for `dipgen mail` (`dipgen.cli.mail`):
the server from the environment (DIPGEN_SMTP_HOST, _PORT, _USER, _PASSWORD, _SECURITY = starttls
(the default), tls or none, the last for a loopback host only), the sender, and the ledger of what
was sent.

What was sent is recorded outside git, in ``.dipgen-mail/<slug>.json`` beside the games folder
(git-ignored), one entry a message as soon as the server took it: a phase is never sent twice
unless the GM says ``--again``, and a run cut short (a server that refuses, times out or hangs up)
says who was and was not sent, and the next run sends only the rest.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import os
import smtplib
import socket
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from dipgen.core.errors import CommandError

from dipgen.io.paths import display_path
from dipgen.io.addresses import address_problem

SECURITY = ("starttls", "tls", "none")
PORTS = {"starttls": 587, "tls": 465, "none": 25}
LEDGER = ".dipgen-mail"
TIMEOUT = 60  # seconds for the server to answer each step


class MailError(CommandError):
    """What stops `dipgen mail`, said to the GM as it is."""


@dataclass(frozen=True)
class Smtp:
    host: str
    port: int
    security: str
    user: str = ""
    password: str = ""

    def __repr__(self) -> str:  # never the password
        return f"Smtp({self.host}:{self.port}, {self.security}, user={self.user!r})"


def smtp_settings(env: dict[str, str]) -> Smtp:
    """The server from the environment; MailError saying what is missing or wrong."""
    host = env.get("DIPGEN_SMTP_HOST", "").strip()
    if not host:
        raise MailError("DIPGEN_SMTP_HOST is not set: the mail server to send through (e.g. smtp.example.org)",
                        code="bad-mail-settings")
    security = env.get("DIPGEN_SMTP_SECURITY", "starttls").strip().lower() or "starttls"
    if security not in SECURITY:
        raise MailError(f"DIPGEN_SMTP_SECURITY={security!r}: it is starttls (the default), tls or none",
                        code="bad-mail-settings")
    if security == "none" and not loopback(host):
        raise MailError(f"DIPGEN_SMTP_SECURITY=none sends the players' reports and your password in clear text: "
                        f"allowed only to a server on this machine (localhost), not {host}; use starttls or tls",
                        code="bad-mail-settings")
    text = env.get("DIPGEN_SMTP_PORT", "").strip()
    try:
        port = int(text) if text else PORTS[security]
    except ValueError:
        port = 0
    if not 0 < port < 65536:
        raise MailError(f"DIPGEN_SMTP_PORT={text!r} is not a port number (587 for starttls, 465 for tls)",
                        code="bad-mail-settings")
    user, password = env.get("DIPGEN_SMTP_USER", ""), env.get("DIPGEN_SMTP_PASSWORD", "")
    if bool(user) != bool(password):
        raise MailError("DIPGEN_SMTP_USER and DIPGEN_SMTP_PASSWORD go together: set both, or neither",
                        code="bad-mail-settings")
    return Smtp(host, port, security, user, password)


def loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def sender_of(given: str | None, env: dict[str, str]) -> str:
    """--from, else DIPGEN_MAIL_FROM, checked ('' when neither is given)."""
    sender = (given or env.get("DIPGEN_MAIL_FROM", "")).strip()
    wrong = address_problem(sender) if sender else ""
    if wrong:
        where = "--from" if given else "DIPGEN_MAIL_FROM"
        raise MailError(f"{where} {sender!r} {wrong}", code="bad-mail-settings")
    return sender


def masked(address: str) -> str:
    """'k***@e***.org': enough for the GM to tell addresses apart on her screen, not to read them."""
    local, _, domain = address.rpartition("@")
    name, dot, tld = domain.rpartition(".")
    return f"{local[:1]}***@{name[:1]}***{dot}{tld}"


# ----------------------------------------------------------------------------- what was sent

class Ledger:
    """``.dipgen-mail/<slug>.json``: the messages sent, by phase and seat, written again after each."""

    def __init__(self, game: Path) -> None:
        self.path = Path(os.path.abspath(game)).parent.parent / LEDGER / f"{Path(os.path.abspath(game)).name}.json"
        self.sent: dict[str, dict] = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.sent = {str(k): v for k, v in data.get("sent", {}).items() if isinstance(v, dict)}
        except FileNotFoundError:
            pass
        except (OSError, ValueError, AttributeError) as e:
            raise MailError(f"{display_path(self.path)} cannot be read ({type(e).__name__}): it records what "
                            "was sent; move it away to start afresh (then nothing counts as sent)",
                            code="mail-ledger") from None

    @staticmethod
    def key(phase: str, seat: str) -> str:
        return f"{phase}/{seat}"

    def when(self, phase: str, seat: str) -> str:
        entry = self.sent.get(self.key(phase, seat))
        return str(entry.get("at", "")) if entry else ""

    def prepare(self) -> None:
        """Make the folder (ignored by git) before anything is sent: a message sent that could not be
        recorded would be sent again."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            ignore = self.path.parent / ".gitignore"
            if not ignore.exists():
                ignore.write_text("# what dipgen mail sent: never committed\n*\n", encoding="utf-8")
            self._write()
        except OSError as e:
            raise MailError(f"cannot record what is sent in {display_path(self.path)} ({e.strerror or e}); "
                            "nothing was sent", code="mail-ledger") from None

    def record(self, phase: str, seat: str, message_id: str, now: dt.datetime) -> None:
        self.sent[self.key(phase, seat)] = {"at": now.astimezone(dt.timezone.utc).isoformat(timespec="seconds"),
                                            "message_id": message_id}
        self._write()

    def _write(self) -> None:
        fd, tmp = tempfile.mkstemp(prefix=".sent.", dir=self.path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"sent": self.sent}, f, indent=1, sort_keys=True)
        os.replace(tmp, self.path)


# ----------------------------------------------------------------------------- sending

def connect(smtp: Smtp, timeout: float) -> smtplib.SMTP:
    """A connection, secured and logged in as the settings say."""
    context = ssl.create_default_context()
    if smtp.security == "tls":
        conn: smtplib.SMTP = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=timeout, context=context)
    else:
        conn = smtplib.SMTP(smtp.host, smtp.port, timeout=timeout)
        if smtp.security == "starttls":
            conn.starttls(context=context)
    if smtp.user:
        conn.login(smtp.user, smtp.password)
    conn.ehlo_or_helo_if_needed()  # what the server takes (8BITMIME), known before the first message
    return conn


def send(smtp: Smtp, letters, sender: str, ledger: Ledger, phase: str, now: dt.datetime,
         timeout: float | None = None) -> list[str]:
    """Send each letter, recording each as soon as the server took it; MailError naming who was and
    was not sent when the server refused one, timed out or hung up (the next run sends the rest).
    The seats sent, in order."""
    from dipgen.usecases.letters import message

    done: list[str] = []
    failed: list[str] = []
    conn = None
    i = 0
    try:
        for i, letter in enumerate(letters):  # noqa: B007 (`i`: where it stopped)
            if conn is None:
                conn = connect(smtp, timeout or TIMEOUT)
            try:
                # 8-bit text (an accent in a name, in the press) only to a server that says it takes it
                eight_bit = conn.has_extn("8bitmime")
                refused = conn.send_message(message(letter, sender, now, eight_bit=eight_bit), sender,
                                            list(letter.to), mail_options=["BODY=8BITMIME"] if eight_bit else [])
            except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError, smtplib.SMTPSenderRefused) as e:
                failed.append(f"{who_of(letter)}: refused ({_reason(e)})")
                continue
            ledger.record(phase, letter.seat, letter.message_id, now)
            done.append(letter.seat)
            if refused:
                failed.append(f"{who_of(letter)}: sent, but refused for {len(refused)} of her addresses")
    except (smtplib.SMTPException, OSError) as e:
        rest = [who_of(x) for x in letters[i:] if x.seat not in done]
        raise MailError(_stopped(done, rest, failed, e, smtp), code="mail-failed") from None
    finally:
        if conn is not None:
            try:
                conn.quit()
            except (smtplib.SMTPException, OSError):
                pass
    if failed:
        raise MailError(_stopped(done, [], failed, None, smtp), code="mail-failed")
    return done


def who_of(letter) -> str:
    return letter.player if letter.player == letter.seat else f"{letter.player} ({letter.seat})"


def _reason(e: Exception) -> str:
    if isinstance(e, smtplib.SMTPRecipientsRefused):
        codes = {str(code) for code, _ in e.recipients.values()}
        return f"the server answered {', '.join(sorted(codes))}"
    if isinstance(e, smtplib.SMTPAuthenticationError):
        return "the server refused DIPGEN_SMTP_USER and DIPGEN_SMTP_PASSWORD"
    if isinstance(e, smtplib.SMTPResponseException):
        said = e.smtp_error.decode("utf-8", "replace") if isinstance(e.smtp_error, bytes) else str(e.smtp_error)
        return f"the server answered {e.smtp_code} {said[:80]}"
    if isinstance(e, ConnectionRefusedError):
        return "nothing answers at that address (are DIPGEN_SMTP_HOST and DIPGEN_SMTP_PORT right?)"
    if isinstance(e, socket.gaierror):
        return "no such host (is DIPGEN_SMTP_HOST right?)"
    if isinstance(e, (socket.timeout, TimeoutError)):
        return "the server did not answer in time"
    if isinstance(e, smtplib.SMTPServerDisconnected):  # smtplib's word for a read that timed out too
        return "the server did not answer in time" if "timed out" in str(e) else "the server closed the connection"
    if isinstance(e, ssl.SSLCertVerificationError):
        return f"the server's certificate cannot be trusted ({e.verify_message}): is DIPGEN_SMTP_HOST right?"
    if isinstance(e, ssl.SSLError):
        return f"the secure connection failed ({e.reason or e})"
    return f"{type(e).__name__}: {e}"[:200]


def _stopped(done: list[str], rest: list[str], failed: list[str], error: Exception | None, smtp: Smtp) -> str:
    lines = [f"sending stopped at {smtp.host}:{smtp.port}: {_reason(error)}" if error else "some messages were refused"]
    lines.append(f"  sent ({len(done)}): {', '.join(done) or 'none'}")
    lines += [f"  not sent: {f}" for f in failed]
    if rest:
        lines.append(f"  not sent ({len(rest)}): {', '.join(rest)}")
    lines.append("  run the same command again to send only those not sent")
    return "\n".join(lines)

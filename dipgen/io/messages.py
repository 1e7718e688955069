"""Players' messages as they arrive: a saved e-mail (``.eml``: headers, quoted-printable and
base64 bodies, multipart, HTML only, any character set Python knows), an mbox of several, or
text pasted into a file or standard input. Each becomes a `Message`: who sent it, when, and
its text; what cannot be read safely (too large, an unknown character set, a binary
attachment) is a `Problem` with its code, and the caller writes nothing."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import email.utils
import re
from dataclasses import dataclass
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path

from dipgen.core.errors import Problem

#: the largest message read (its raw bytes): orders are a few hundred bytes; ten megabytes are a
#: mistake (a mail folder saved whole, a picture) that reading would only make slow
MAX_MESSAGE = 1 << 20
#: the most lines a message may have (about the length of this module's longest neighbour)
MAX_LINES = 5000
#: the largest file read (an mbox of a week's mail)
MAX_FILE = 8 << 20
_HEADER = re.compile(rb"^(from|to|subject|date|received|return-path|message-id|mime-version|delivered-to|"
                     rb"content-type|reply-to|cc|x-[a-z0-9-]+|dkim-signature|arc-[a-z-]+|authentication-results)"
                     rb":", re.IGNORECASE)
#: an mbox's separator line: "From sender Fri Nov 27 10:00:00 2026" (not "From Paris, my orders")
_FROM_LINE = rb"From \S+ +[A-Z][a-z]{2} [^\n]*\d\d:\d\d[^\n]*\n"
_MBOX_SPLIT = re.compile(rb"(?:\A|\n)" + _FROM_LINE)


@dataclass(frozen=True)
class Message:
    """One message: `source` names it for the GM (the file, and its place in an mbox), without
    anything of its sender's; `sender` is the From: address in lower case ('' for pasted text)."""

    source: str
    text: str
    sender: str = ""
    date: dt.datetime | None = None
    subject: str = ""


def read_messages(paths: list[Path], stdin: bytes | None = None) -> tuple[list[Message], list[Problem]]:
    """The messages of the files named (an e-mail, an mbox or plain text each; a folder stands
    for its files, in name order), or of `stdin` when none is named; and the problems found."""
    messages: list[Message] = []
    problems: list[Problem] = []
    sources: list[tuple[str, bytes | None]] = []
    for path in paths:
        files = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith(".")) \
            if path.is_dir() else [path]
        for f in files:
            sources.append((_label(f), _read(f, problems)))
    if not paths:
        sources.append(("standard input", stdin or b""))
    for label, raw in sources:
        if raw is not None:
            messages.extend(_messages(label, raw, problems))
    return messages, problems


def _label(path: Path) -> str:
    """The name a message is known by in the file it goes into: the file's, unless that has an
    address in it (a phase file is published; addresses never are)."""
    return "a message" if "@" in path.name else path.name


def _read(path: Path, problems: list[Problem]) -> bytes | None:
    try:
        size = path.stat().st_size
        if size > MAX_FILE:
            problems.append(Problem(str(path), None, f"the file is {size >> 20} MB; a week's messages are far less",
                                    "save only the players' messages with their orders", code="too-large"))
            return None
        return path.read_bytes()
    except OSError as e:
        problems.append(Problem(str(path), None, f"cannot read the file: {e.strerror or e}", code="unreadable"))
        return None


def _messages(label: str, raw: bytes, problems: list[Problem]) -> list[Message]:
    """The messages in one file's bytes: an mbox's each, an e-mail, or plain text."""
    raw = raw.replace(b"\r\n", b"\n")
    if re.match(_FROM_LINE, raw):
        parts = [p for p in _MBOX_SPLIT.split(raw) if p.strip()]
        out = []
        for i, part in enumerate(parts, 1):
            part = re.sub(rb"(?m)^>(>*From )", rb"\1", part)  # mboxrd's escaped "From " lines
            message = _email(f"{label} #{i}", part, problems)
            if message is not None:
                out.append(message)
        return _counted(out, problems)
    first = raw.lstrip(b"\n").split(b"\n", 1)[0]
    if _HEADER.match(first):
        message = _email(label, raw, problems)
        return _counted([message] if message is not None else [], problems)
    if len(raw) > MAX_MESSAGE:
        problems.append(_too_large(label, len(raw)))
        return []
    if b"\x00" in raw[:4096]:
        problems.append(Problem(label, None, "the file is not text (a picture, a PDF, a word processor's file?)",
                                "save the message as an e-mail (.eml) or its text as a plain text file",
                                code="not-a-message"))
        return []
    return _counted([Message(label, _decode_plain(raw))], problems)


def _counted(messages: list[Message], problems: list[Problem]) -> list[Message]:
    """The messages of at most `MAX_LINES` lines; the others are problems."""
    for m in messages:
        n = m.text.count("\n")
        if n > MAX_LINES:
            problems.append(Problem(m.source, None, f"the message has {n} lines; one with orders has a few dozen",
                                    "paste its orders into a file of their own", code="too-large"))
    return [m for m in messages if m.text.count("\n") <= MAX_LINES]


def _too_large(label: str, size: int) -> Problem:
    return Problem(label, None, f"the message is {size / (1 << 20):.1f} MB, over the {MAX_MESSAGE >> 20} MB a "
                   "message with orders may have", "paste its orders into a file of their own", code="too-large")


def _decode_plain(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")  # pasted text from an old system: read what can be


def _email(label: str, raw: bytes, problems: list[Problem]) -> Message | None:
    if len(raw) > MAX_MESSAGE:
        problems.append(_too_large(label, len(raw)))
        return None
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    for part in msg.walk():
        if part.is_multipart():
            continue
        maintype = part.get_content_maintype()
        if maintype != "text" and (part.get_filename() or part.get_content_disposition() in ("attachment", "inline")
                                   or maintype in ("image", "audio", "video", "application")):
            name = part.get_filename() or part.get_content_type()
            problems.append(Problem(label, None, f"the message has a binary attachment ({name}); orders are read "
                                    "from its text only, and nothing is written while a message is in doubt",
                                    "save the message without the attachment (or paste its text into a file); if "
                                    "the orders are in the attachment, copy them into the text",
                                    code="binary-attachment"))
            return None
    body = msg.get_body(preferencelist=("plain", "html"))
    text = ""
    if body is not None:
        try:
            content = body.get_content()
        except LookupError:
            problems.append(Problem(label, None, f"the message is in a character set Python does not know "
                                    f"({body.get_content_charset()!r})", "ask the player to send it again as "
                                    "UTF-8, or paste its text into a file", code="unknown-charset"))
            return None
        text = content if isinstance(content, str) else ""
        if body.get_content_subtype() == "html":
            text = html_text(text)
    name, address = email.utils.parseaddr(str(msg.get("From", "")))
    return Message(label, text, address.strip().lower(), _date(msg), str(msg.get("Subject", "") or ""))


def _date(msg: EmailMessage) -> dt.datetime | None:
    try:
        value = msg.get("Date")
        when = email.utils.parsedate_to_datetime(str(value)) if value else None
    except (TypeError, ValueError, IndexError):
        return None
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return when


class _Text(HTMLParser):
    """An HTML body's text, a line per block; quoted mail (blockquote, Gmail's and Outlook's
    quote blocks) left out."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "ul", "ol", "table"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0  # depth inside a quote, a style or a script
        self.stack: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(v or "" for k, v in attrs if k in ("class", "id"))
        quoted = tag == "blockquote" or "quote" in classes or tag in ("style", "script", "head")
        if tag in self.BLOCKS:
            self.out.append("\n")
        if tag not in ("br", "img", "hr", "meta", "link", "input"):
            self.stack.append(quoted)
            self.skip += quoted

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "hr", "meta", "link", "input"):
            return
        if self.stack:
            self.skip -= self.stack.pop()
        if tag in self.BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.out.append(data)


def html_text(html: str) -> str:
    """The text of an HTML body, a line per paragraph, without quoted mail."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = [" ".join(line.split()) for line in "".join(parser.out).replace("\xa0", " ").splitlines()]
    return "\n".join(line for line in lines if line)

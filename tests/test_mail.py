"""`dipgen mail` against a real SMTP server on the loopback address (aiosmtpd, started by each test
and stopped after it): every player gets exactly her report, a phase is not sent twice unless the
GM says so, a server that refuses, times out or hangs up half-way is a clear error naming who was
and was not sent, and the next run sends only the rest. Bad input is a clear error with a code."""

from __future__ import annotations

import email
import email.policy
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from dipgen.usecases import mailsend
from dipgen.cli import main
from dipgen.usecases.mailout import seat_report
from dipgen.core.phase import Phase
from dipgen.view import game_view
from support import GAME_YML, REPO, load, write_game
from support.codes import codes

RUNNING = "lamps-out"  # a running Stab! game: each seat has its own private report
NAMES = {"Austria": "Katalin Szabo", "England": "Owen Pritchard", "France": "Lucien Fabre",
         "Germany": "Heike Sommer", "Italy": "Paolo Esposito", "Russia": "Irina Volkova", "Turkey": "Murat Demir"}


def addresses_of(name: str) -> list[str]:
    first = name.split()[0].lower()
    return [f"{first}@example.org"] + ([f"{first}.work@example.com"] if first == "owen" else [])


ADDRESSES = "addresses:\n" + "".join(f"  {n}: [{', '.join(addresses_of(n))}]\n" for n in NAMES.values())
KEY = 'page_key: "' + "ab" * 32 + '"\n'
PHRASES = "passphrases:\n" + "".join(f'  {p}: "pass-{p.lower()}-phrase-for-tests-x"\n' for p in NAMES)


class Server:
    """An SMTP server on 127.0.0.1 that keeps what it receives; `refuse` (addresses answered 550),
    `hang_up_after` (messages taken before it closes the connection) and `stall` (seconds it waits
    before answering DATA) make it misbehave."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], bytes]] = []
        self.refuse: set[str] = set()
        self.hang_up_after: int | None = None
        self.stall = 0.0
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.hang_up_after is not None and len(self.received) >= self.hang_up_after:
            server.transport.close()
            return "421 going away"
        if self.stall:
            time.sleep(self.stall)  # blocks the server's loop: no answer at all, as a stuck server
        self.received.append((list(envelope.rcpt_tos), envelope.content))
        return "250 Message accepted"

    def messages(self) -> dict[str, email.message.EmailMessage]:
        """The messages received, by each recipient's address."""
        out = {}
        for rcpts, content in self.received:
            msg = email.message_from_bytes(content, policy=email.policy.default)
            for r in rcpts:
                assert r not in out, f"{r} received two messages"
                out[r] = msg
        return out


@pytest.fixture
def server():
    s = Server()
    s.controller.start()
    try:
        yield s
    finally:
        s.controller.stop()


@pytest.fixture
def game(tmp_path, monkeypatch, server) -> Path:
    folder = tmp_path / "games" / RUNNING
    shutil.copytree(REPO / "games" / RUNNING, folder)
    write_game(folder, {"secrets.yml": KEY + PHRASES + ADDRESSES,
                        "game.yml": (folder / "game.yml").read_text(encoding="utf-8")
                        + "deadline: 2030-01-04T18:00:00+01:00\n"})
    (tmp_path / "mkdocs.yml").write_text("site_name: Club\nsite_url: https://club.example.org/dip/\n",
                                         encoding="utf-8")
    for key in ("DIPGEN_SMTP_USER", "DIPGEN_SMTP_PASSWORD", "DIPGEN_MAIL_FROM"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DIPGEN_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("DIPGEN_SMTP_PORT", str(server.port))
    monkeypatch.setenv("DIPGEN_SMTP_SECURITY", "none")
    monkeypatch.chdir(tmp_path)
    return Path("games") / RUNNING


def send(game: Path, *more: str) -> int:
    return main(["mail", str(game), "--send", "--from", "gm@example.org", *more])


def test_every_player_gets_exactly_her_report_once(game, server, capsys):
    assert send(game) == 0
    history = load(game)
    phase = history.records[-1].phase
    got = server.messages()
    assert len(server.received) == 7
    for seat, name in NAMES.items():
        view, record, report = seat_report(history, seat, phase)
        mine = {got[a]["Message-ID"] for a in addresses_of(name)}
        assert len(mine) == 1  # one message to all her addresses
        msg = got[addresses_of(name)[0]]
        body = msg.get_content().replace("\r\n", "\n")
        assert body.startswith(report)  # her report, from her seat's view alone
        assert "Orders for Fall 1904 are due Fri 4 Jan 2030, 17:00 UTC." in body
        assert "On the site: https://club.example.org/dip/games/lamps-out/1904-spring/" in body
        assert "Your private page (your passphrase opens it): https://club.example.org/dip/private/" in body
        assert msg["Subject"] == f"The Lamps Go Out: {record.title}"
        assert msg["From"] == "gm@example.org"
        assert [a.addr_spec for a in msg["To"].addresses] == addresses_of(name)
        for other in NAMES:  # nobody else's report
            if other != seat:
                assert f", for {other}\n" not in body
    out = capsys.readouterr().out
    assert "Sent 7 message(s)" in out
    assert "example.org" not in out.replace("gm@example.org", "")
    # again: nothing is sent twice
    assert send(game) == 0
    assert len(server.received) == 7
    assert "sent to every player already" in capsys.readouterr().out
    assert send(game, "--again") == 0
    assert len(server.received) == 14
    assert {m["Message-ID"] for _, m in _parsed(server)[:7]} == {m["Message-ID"] for _, m in _parsed(server)[7:]}


def _parsed(server):
    return [(r, email.message_from_bytes(c, policy=email.policy.default)) for r, c in server.received]


def test_the_dry_run_sends_nothing_and_masks_the_addresses(game, server, capsys):
    assert main(["mail", str(game)]) == 0
    out = capsys.readouterr().out
    assert not server.received
    assert "Katalin Szabo (Austria) <k***@e***.org>" in out
    assert "o***@e***.com" in out
    assert "katalin@" not in out
    assert "Dry run" in out


def test_drafts_are_one_eml_per_player(game, server, tmp_path):
    assert main(["mail", str(game), "--drafts", "drafts", "--from", "gm@example.org"]) == 0
    files = sorted((tmp_path / "drafts").iterdir())
    assert len(files) == 7
    assert not server.received
    msg = email.message_from_bytes(files[0].read_bytes(), policy=email.policy.default)
    assert msg["X-Unsent"] == "1"
    assert msg["To"].addresses[0].addr_spec == "katalin@example.org"


@pytest.mark.parametrize("trouble", ["refuse", "hang up", "time out"])
def test_a_server_that_fails_half_way_names_who_was_sent_and_a_rerun_sends_the_rest(game, server, capsys,
                                                                                      monkeypatch, trouble):
    if trouble == "refuse":
        server.refuse = {"lucien@example.org"}
    elif trouble == "hang up":
        server.hang_up_after = 3
    else:
        monkeypatch.setattr(mailsend, "TIMEOUT", 1)
        server.hang_up_after = None
        stalled, answered = threading.Event(), threading.Event()

        async def slow(srv, session, envelope):  # the fourth message is never answered in time
            if len(server.received) == 3 and not stalled.is_set():
                stalled.set()
                time.sleep(2.5)  # the server itself stalled, well past the client's second
                answered.set()
                return "451 too late"
            server.received.append((list(envelope.rcpt_tos), envelope.content))
            return "250 OK"
        monkeypatch.setattr(server, "handle_DATA", slow)
    assert send(game) == 1
    err = capsys.readouterr().err
    first = len(server.received)
    assert codes(err) == ["mail-failed"]
    assert "run the same command again" in err
    if trouble == "refuse":
        assert "Lucien Fabre (France): refused (the server answered 550)" in err
        assert first == 6
    else:
        assert first == 3
        assert ("closed the connection" if trouble == "hang up" else "did not answer in time") in err
        assert "sent (3): Austria, England, France" in err
        assert "not sent (4): Heike Sommer (Germany), Paolo Esposito (Italy), Irina Volkova (Russia), " \
               "Murat Demir (Turkey)" in err
    # the server mends; the rerun sends the rest only
    server.refuse, server.hang_up_after = set(), None
    if trouble == "time out":
        monkeypatch.setattr(server, "handle_DATA", Server.handle_DATA.__get__(server))
        assert answered.wait(10)  # the stalled answer comes and goes
    assert send(game) == 0
    got = {a for rcpts, _ in server.received for a in rcpts}
    assert got == {a for n in NAMES.values() for a in addresses_of(n)}
    assert sum(len(r) for r, _ in server.received) == 8  # each address once
    assert f"Sent {7 - first} message(s)" in capsys.readouterr().out


def test_bad_input_is_a_clear_error(game, server, capsys, tmp_path):
    def run(*args: str) -> str:
        capsys.readouterr()
        assert main(["mail", str(game), *args]) == 1
        return capsys.readouterr().err

    secrets = (game / "secrets.yml").read_text(encoding="utf-8")
    write_game(game, {"secrets.yml": secrets.replace("  Murat Demir: [murat@example.org]\n", "")})
    assert "secrets.yml: error: no address for Murat Demir (Turkey)" in run()
    assert "[no-address]" in run()
    write_game(game, {"secrets.yml": secrets.replace("murat@example.org", "murat at example.org")})
    assert "[bad-address]" in run()
    write_game(game, {"secrets.yml": secrets.replace("murat@example.org", "irina@example.org")})
    assert "[duplicate-address]" in run()
    write_game(game, {"secrets.yml": secrets})
    assert "[not-played]" in run("--phase", "1911-fall")
    assert "[bad-value]" in run("--phase", "next week")
    assert "not a bare address" in run("--send", "--from", "GM <gm@example.org>")
    assert "no sender" in run("--send")
    (tmp_path / ".dipgen-mail").write_text("a file where the record's folder goes", encoding="utf-8")
    assert ".dipgen-mail/lamps-out.json cannot be read" in run("--send", "--from", "gm@example.org")
    (tmp_path / ".dipgen-mail").unlink()
    ledger = tmp_path / ".dipgen-mail" / f"{RUNNING}.json"
    ledger.parent.mkdir()
    ledger.write_text("{not json", encoding="utf-8")
    assert ".dipgen-mail/lamps-out.json cannot be read" in run("--send", "--from", "gm@example.org")
    shutil.rmtree(ledger.parent)
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    os.environ["DIPGEN_SMTP_PORT"] = str(port)
    try:
        err = run("--send", "--from", "gm@example.org")
    finally:
        os.environ["DIPGEN_SMTP_PORT"] = str(server.port)
    assert "nothing answers at that address" in err
    assert "not sent (7)" in err
    assert not server.received


def test_smtp_settings_are_checked_before_anything_is_sent():
    env = {"DIPGEN_SMTP_HOST": "smtp.example.org"}
    assert mailsend.smtp_settings(env) == mailsend.Smtp("smtp.example.org", 587, "starttls")
    assert mailsend.smtp_settings({**env, "DIPGEN_SMTP_SECURITY": "tls"}).port == 465
    for bad, words in [({"DIPGEN_SMTP_SECURITY": "none"}, "clear text"), ({"DIPGEN_SMTP_SECURITY": "ssl"}, "starttls"),
                       ({"DIPGEN_SMTP_PORT": "smtp"}, "port"), ({"DIPGEN_SMTP_USER": "gm"}, "go together"),
                       ({"DIPGEN_SMTP_HOST": ""}, "not set")]:
        with pytest.raises(mailsend.MailError, match=words) as e:
            mailsend.smtp_settings({**env, **bad})
        assert e.value.code == "bad-mail-settings"
    assert mailsend.smtp_settings({"DIPGEN_SMTP_HOST": "::1", "DIPGEN_SMTP_SECURITY": "none"}).port == 25
    assert "secret" not in repr(mailsend.smtp_settings({**env, "DIPGEN_SMTP_USER": "gm",
                                                        "DIPGEN_SMTP_PASSWORD": "secret"}))


def test_an_open_game_mails_the_game_report_to_everyone(tmp_path, server, monkeypatch, capsys):
    names = dict(line.strip().split(": ") for line in GAME_YML.split("players:\n")[1].splitlines()
                 if line.startswith("  ") and ": " in line)
    folder = write_game(tmp_path / "games" / "g", {
        "game.yml": GAME_YML, "1901-spring.yml": "orders:\n  France: [A Par - Bur]\npress: Vive la République!\n",
        "secrets.yml": "addresses:\n" + "".join(f"  {n}: {n.split()[0].lower()}@example.org\n"
                                                for n in names.values())})
    monkeypatch.setenv("DIPGEN_SMTP_HOST", "localhost")
    monkeypatch.setenv("DIPGEN_SMTP_PORT", str(server.port))
    monkeypatch.setenv("DIPGEN_SMTP_SECURITY", "none")
    assert main(["mail", str(folder), "--send", "--from", "gm@example.org"]) == 0
    bodies = {m.get_content().replace("\r\n", "\n") for _, m in _parsed(server)}
    assert len(bodies) == 1
    assert len(server.received) == 7  # one report, the game's, to each
    assert "Vive la République!" in next(iter(bodies))  # 8-bit text, to a server that takes it
    assert all(m["Content-Transfer-Encoding"] == "8bit" for _, m in _parsed(server))
    history = load(folder)
    from dipgen.present.report import phase_report

    view = game_view(history, "gm")
    assert bodies == {phase_report(view, view.records[-1])}


def test_a_finished_game_sends_its_final_report_once(tmp_path, server, monkeypatch, capsys):
    folder = write_game(tmp_path / "games" / "g", {
        "game.yml": GAME_YML + "end: {abandoned: the players left}\n",
        "1901-spring.yml": "orders:\n  France: [A Par - Bur]\n", "1901-fall.yml": "orders:\n  France: [A Bur H]\n",
        "secrets.yml": "addresses:\n" + "".join(f"  {line.split(': ')[1]}: p{i}@example.org\n" for i, line in
                                                enumerate(GAME_YML.split("players:\n")[1].splitlines()[:7]))})
    monkeypatch.setenv("DIPGEN_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("DIPGEN_SMTP_PORT", str(server.port))
    monkeypatch.setenv("DIPGEN_SMTP_SECURITY", "none")
    args = ["mail", str(folder), "--send", "--from", "gm@example.org"]
    assert main(args + ["--phase", "1901-spring"]) == 1
    assert "[mail-refused]" in capsys.readouterr().err
    assert main(args) == 0
    assert len(server.received) == 7
    assert main(args) == 0
    assert len(server.received) == 7
    assert main(args + ["--again"]) == 1
    assert codes(capsys.readouterr().err) == ["mail-refused"]
    assert Phase.from_slug("1901-fall") == load(folder).records[-1].phase


@pytest.mark.slow  # two pairs of games played
def test_a_hidden_fact_reaches_no_uninvolved_player_s_message(tmp_path):
    """Non-interference over the messages: two games differing in one hidden fact (a retreat, a
    build) send every seat not `involved` byte-identical messages for every phase (the pairs'
    `published` holds every message, so tests/test_noninterference.py compares them too)."""
    from dipgen.io.secretsfile import GameSecrets
    from support.pairs import PAGE_KEY, PASSPHRASES, SLUG, constant_links, differences, mailed, pair, public_facts

    secrets = GameSecrets(Path(SLUG) / "secrets.yml", PAGE_KEY, dict(PASSPHRASES))
    with constant_links():
        for kind, seed, phases, after, activity in (("retreat", 3, 6, 5, 0.1), ("build", 11, 7, 3, 0.55)):
            made = pair("blind", kind, seed, tmp_path / kind, phases=phases, after=after, activity=activity)
            assert made is not None
            a, b = made
            assert public_facts(a) == public_facts(b)
            ma, mb = mailed(a, secrets), mailed(b, secrets)
            assert len({k.split("/")[1] for k in ma}) == 7  # every seat has its messages
            assert ma != mb  # the fact reaches someone: those involved
            assert differences(a, b) == []


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_deadline_not_moved_on_is_never_mailed(game, server, capsys):
    """The GM wrote the new phase file but not the next deadline: the players would read the last
    phase's deadline as the next one's. Nothing is sent until she moves it."""
    from support.gitrepo import commit, git

    yml = (game / "game.yml").read_text(encoding="utf-8").replace("2030-01-04T18:00:00+01:00", "2026-03-03T12:00Z")
    write_game(game, {"game.yml": yml})
    spring = game / "1904-spring.yml"
    text = spring.read_text(encoding="utf-8")
    spring.unlink()
    root = game.parent.parent
    (root / ".gitignore").write_text("games/*/secrets.yml\n.dipgen-mail/\n", encoding="utf-8")
    git(root, "init", "-q")
    commit(root, [str(game.relative_to(root))], dt_at(1))
    write_game(game, {"1904-spring.yml": text})  # written, not yet committed
    assert send(game) == 1
    err = capsys.readouterr().err
    assert "[deadline-stale]" in err
    assert "nothing was sent" in err
    assert not server.received


def dt_at(day: int):
    import datetime as dt

    return dt.datetime(2026, 3, day, 12, tzinfo=dt.timezone.utc)


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, and its key, made for the test."""
    import datetime as dt
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def _secure_server(cert: Path, key: Path, logins: list) -> Server:
    """A server that requires STARTTLS, then a login as gm with the password 'hunter2-but-longer'."""
    import ssl

    from aiosmtpd.smtp import AuthResult

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)

    def authenticate(server, session, envelope, mechanism, data):
        logins.append(data.login)
        ok = (data.login, data.password) == (b"gm", b"hunter2-but-longer")
        return AuthResult(success=ok, handled=False)  # (handled=False: the server answers 535 itself)

    secure = Server()
    secure.controller = Controller(secure, hostname="127.0.0.1", port=secure.port, tls_context=context,
                                   require_starttls=True, authenticator=authenticate, auth_require_tls=True)
    secure.controller.start()
    return secure


def test_starttls_and_login_as_a_mail_provider_wants_them(game, tmp_path, monkeypatch, capsys):
    """A server that requires STARTTLS and a login: a certificate this machine does not trust is a
    clear error and nothing is sent; a wrong password too; then everything goes through."""
    import ssl

    cert, key = _certificate(tmp_path)
    monkeypatch.setattr(mailsend, "TIMEOUT", 10)
    monkeypatch.delenv("DIPGEN_SMTP_SECURITY")  # starttls, the default
    monkeypatch.setenv("DIPGEN_SMTP_USER", "gm")
    monkeypatch.setenv("DIPGEN_SMTP_PASSWORD", "wrong-password-here")
    logins: list[bytes] = []
    untrusted = _secure_server(cert, key, logins)
    try:
        monkeypatch.setenv("DIPGEN_SMTP_PORT", str(untrusted.port))
        assert send(game) == 1
        err = capsys.readouterr().err
        assert codes(err) == ["mail-failed"]
        assert "the server's certificate cannot be trusted (self-signed certificate)" in err
        assert not untrusted.received
        assert not logins
    finally:
        untrusted.controller.stop()
    trusted = ssl.create_default_context(cafile=str(cert))
    monkeypatch.setattr(mailsend.ssl, "create_default_context", lambda: trusted)
    secure = _secure_server(cert, key, logins)
    try:
        monkeypatch.setenv("DIPGEN_SMTP_PORT", str(secure.port))
        assert send(game) == 1
        err = capsys.readouterr().err
        assert codes(err) == ["mail-failed"]
        assert "refused DIPGEN_SMTP_USER and DIPGEN_SMTP_PASSWORD" in err
        assert logins
        assert set(logins) == {b"gm"}
        assert not secure.received  # (smtplib tries each mechanism)
        monkeypatch.setenv("DIPGEN_SMTP_PASSWORD", "hunter2-but-longer")
        assert send(game) == 0
        assert len(secure.received) == 7
    finally:
        secure.controller.stop()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_gm_s_loop_every_player_has_her_report_and_the_next_deadline(tmp_path, server, monkeypatch, capsys):
    """README's loop, as a GM runs it after a deadline: the phase file, dipgen check (which says the
    deadline is the last phase's), the new deadline, dipgen adjudicate, dipgen mail --send, commit;
    every player has her report with the new deadline, and the site and the calendar say it too."""
    import datetime as dt

    import icalendar

    from support import loaded, public_site
    from support.gitrepo import commit, git

    names = [line.split(": ")[1] for line in GAME_YML.split("players:\n")[1].splitlines() if ": " in line]
    root = tmp_path / "archive"
    folder = write_game(root / "games" / "g", {
        "game.yml": GAME_YML + "deadline: 2026-03-06T18:00:00Z\n",
        "secrets.yml": "addresses:\n" + "".join(f"  {n}: {n.lower()}@example.org\n" for n in names)})
    (root / ".gitignore").write_text("games/*/secrets.yml\n", encoding="utf-8")  # (.dipgen-mail/ ignores itself)
    git(root, "init", "-q")
    commit(root, [".gitignore", "games/g/game.yml"], dt_at(1))
    monkeypatch.chdir(root)
    for key, value in (("DIPGEN_SMTP_HOST", "127.0.0.1"), ("DIPGEN_SMTP_PORT", str(server.port)),
                       ("DIPGEN_SMTP_SECURITY", "none"), ("DIPGEN_MAIL_FROM", "gm@example.org")):
        monkeypatch.setenv(key, value)
    write_game(folder, {"1901-spring.yml": "orders:\n  France: [A Par - Bur]\n  Germany: [A Mun - Ruh]\n"})
    assert main(["check", "games/g"]) == 0
    assert "[deadline-stale]" in capsys.readouterr().err  # 6 March was Spring's deadline
    assert main(["mail", "games/g", "--send"]) == 1
    assert not server.received
    yml = (folder / "game.yml").read_text(encoding="utf-8")
    write_game(folder, {"game.yml": yml.replace("2026-03-06T18:00:00Z", "2030-03-13T18:00:00Z")})
    capsys.readouterr()
    assert main(["check", "games/g"]) == 0
    assert "deadline" not in capsys.readouterr().err
    assert main(["adjudicate", "games/g"]) == 0
    assert "Orders for Fall 1901 are due Wed 13 Mar 2030, 18:00 UTC." in capsys.readouterr().out
    assert main(["mail", "games/g", "--send"]) == 0
    got = server.messages()
    assert sorted(got) == sorted(f"{n.lower()}@example.org" for n in names)
    assert all("Orders for Fall 1901 are due Wed 13 Mar 2030, 18:00 UTC." in m.get_content() for m in got.values())
    commit(root, ["games/g"], dt.datetime.now(dt.timezone.utc))
    files = public_site(loaded(folder).history)
    assert "Orders for Fall 1901 are due <time" in files["games/g/index.md"]
    [event] = icalendar.Calendar.from_ical(files["games/g/deadline.ics"]).walk("VEVENT")
    assert event.decoded("DTSTART") == dt.datetime(2030, 3, 13, 18, tzinfo=dt.timezone.utc)
    assert not list((root / "games" / "g").glob("*.json"))  # the record of what was sent is outside the game
    assert git(root, "status", "--porcelain") == ""  # and outside git


def test_a_message_is_plain_text_in_the_encoding_the_server_takes():
    from dipgen.usecases.letters import Letter, message

    now = dt_at(7)
    for body, eight_bit, cte in [("Plain report\n", True, "7bit"), ("Vive la République\n", True, "8bit"),
                                 ("Vive la République\n", False, "quoted-printable"),
                                 ("x" * 2000 + "\n", True, "quoted-printable")]:  # SMTP lines end at 998 octets
        letter = Letter("France", "Chloé Martin", ("chloe@example.org",), "Game: Spring 1901", body, "<1@example.org>",
                        "f.eml")
        msg = message(letter, "gm@example.org", now, eight_bit=eight_bit)
        assert msg["Content-Transfer-Encoding"] == cte
        again = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
        assert again.get_content() == body
        assert again["To"].addresses[0].display_name == "Chloé Martin"
        assert again["Message-ID"] == "<1@example.org>"
        assert "\r" not in again["Subject"]


def test_the_file_that_closes_a_hidden_fall_mails_each_player_her_centres(game, server, capsys):
    """Lamps Out's 1903 Fall was closed by an empty retreats file: nobody is shown that phase, yet
    it is when the players are told the year's centres, so each is mailed her Fall report as it now
    stands (with the totals Stab! tells before the Winter), under the closing phase's own Message-ID."""
    history = load(game)
    fall, closing = Phase.from_slug("1903-fall"), Phase.from_slug("1903-fall-retreats")
    assert all(seat_report(history, seat, closing) is None for seat in NAMES)  # a phase nobody is shown
    assert send(game, "--phase", "1903-fall-retreats") == 0
    got = server.messages()
    assert len(server.received) == 7
    ids = set()
    for seat, name in NAMES.items():
        body = got[addresses_of(name)[0]].get_content().replace("\r\n", "\n")
        assert body.startswith(seat_report(history, seat, fall)[2])
        assert "Your supply centres: " in body
        assert "\n  Turkey    1 centre" in body
        ids.add(got[addresses_of(name)[0]]["Message-ID"])
    assert send(game, "--phase", "1903-fall") == 0  # the Fall's own messages are others
    assert not ids & {m["Message-ID"] for _, m in _parsed(server)[7:]}

"""`dipgen orders`: the players' messages, as they arrive, into the phase file the game waits for.
The e-mails are made with the standard library, as a mail client saves them."""

from __future__ import annotations

import mailbox
import subprocess
from email.message import EmailMessage
from pathlib import Path

import pytest
import yaml

from dipgen.cli import main
from dipgen.io.messages import MAX_MESSAGE, html_text, read_messages
from support.folders import GAME_YML, write_game
from support.codes import codes


def eml(folder: Path, name: str, body: str, sender: str = "Fran <fran@example.org>",
        date: str | None = "Fri, 27 Nov 2026 10:00:00 +0000", subtype: str = "plain", cte: str | None = None,
        charset: str = "utf-8") -> Path:
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = sender, "grace@example.org", "Spring 1901"
    if date:
        m["Date"] = date
    m.set_content(body, subtype=subtype, cte=cte, charset=charset)
    path = folder / name
    path.write_bytes(bytes(m))
    return path


@pytest.fixture
def game(tmp_path):
    """A game in a git repository with nothing committed: a phase file not committed is being filled."""
    folder = write_game(tmp_path / "g", {"game.yml": GAME_YML})
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["orders", *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


def orders(game: Path, phase: str = "1901-spring") -> dict:
    return yaml.safe_load((game / f"{phase}.yml").read_text())["orders"]


# ---------------------------------------------------------------- messages as they arrive

def test_quoted_printable_base64_and_html_only_bodies_are_read(tmp_path):
    a = eml(tmp_path, "a.eml", "France:\nA Par - Bur — vite!\n", cte="quoted-printable")
    b = eml(tmp_path, "b.eml", "England:\nF Lon - Nth Sea\n", cte="base64")
    c = eml(tmp_path, "c.eml", "<p>Germany:</p><p>A Mun - Ruh</p><blockquote>A Ber - Kie</blockquote>",
            subtype="html")
    messages, problems = read_messages([a, b, c])
    assert problems == []
    assert [m.text.split("\n")[1] for m in messages[:2]] == ["A Par - Bur — vite!", "F Lon - Nth Sea"]
    assert messages[2].text == "Germany:\nA Mun - Ruh"  # the quote left out
    assert messages[0].sender == "fran@example.org"
    assert messages[0].date.hour == 10


def test_a_message_in_another_charset_is_decoded(tmp_path):
    path = eml(tmp_path, "a.eml", "Fran\u00e7ais:\nA Par - Bur\n", charset="iso-8859-1", cte="quoted-printable")
    messages, problems = read_messages([path])
    assert problems == []
    assert "Français" in messages[0].text


def test_an_mbox_gives_each_message(tmp_path):
    box = mailbox.mbox(tmp_path / "week.mbox")
    for who in ("fran", "gus"):
        m = EmailMessage()
        m["From"], m["Subject"] = f"{who}@example.org", "orders"
        m.set_content("A Par H\nFrom here on, orders\n")
        box.add(m)
    box.flush()
    messages, problems = read_messages([tmp_path / "week.mbox"])
    assert problems == []
    assert [m.source for m in messages] == ["week.mbox #1", "week.mbox #2"]
    assert [m.sender for m in messages] == ["fran@example.org", "gus@example.org"]


@pytest.mark.parametrize("make,code", [
    (lambda d: eml(d, "big.eml", "A Par H\n" + "x" * (10 << 20)), "too-large"),
    (lambda d: _raw(d, "cs.eml", b"From: a@example.org\nContent-Type: text/plain; charset=x-klingon\n\nA Par H\n"),
     "unknown-charset"),
    (lambda d: _attached(d), "binary-attachment"),
    (lambda d: _raw(d, "scan.pdf", b"%PDF-1.4\n\x00\x01\x02 A Par - Bur"), "not-a-message"),
    (lambda d: _raw(d, "long.txt", b"hello\n" * 5002), "too-large"),
])
def test_bad_messages_are_refused_and_nothing_is_written(capsys, game, tmp_path, make, code):
    path = make(tmp_path)
    _, problems = read_messages([path])
    assert [p.code for p in problems] == [code]
    status, _, err = run(capsys, game, path)
    assert status == 1
    assert f"[{code}]" in err
    assert not (game / "1901-spring.yml").exists()


def _raw(folder: Path, name: str, data: bytes) -> Path:
    (folder / name).write_bytes(data)
    return folder / name


def _attached(folder: Path) -> Path:
    m = EmailMessage()
    m["From"] = "fran@example.org"
    m.set_content("France:\nA Par - Bur\n")
    m.add_attachment(b"\x89PNG\r\n\x1a\n" + bytes(200), maintype="image", subtype="png", filename="map.png")
    return _raw(folder, "att.eml", bytes(m))


def test_html_text_keeps_lines_and_drops_quotes():
    assert html_text("<div>France:<br>A Par - Bur</div><div class='gmail_quote'>A Mar H</div>") == \
        "France:\nA Par - Bur"
    assert MAX_MESSAGE < 10 << 20


# ---------------------------------------------------------------- the command

LETTER = """Hi Grace,

here are my orders for the spring.

France:
1. army paris to burgundy
2. A Mar S Par - Bur
3. Brest - Mid Atlantic
Greetings from Paris!

Press to all:
Peace in our time.
A Mun - Bur is coming, Germany!
Endpress

Cheers,
--
Fran
On Thu, 26 Nov 2026, Grace <grace@example.org> wrote:
> A Par - Pic
"""


def test_a_letter_becomes_the_phase_file(capsys, game, tmp_path):
    status, out, err = run(capsys, game, eml(tmp_path, "fran.eml", LETTER))
    assert (status, err) == (0, "")
    assert orders(game) == {"France": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - MAO"]}
    assert "+++ " in out
    assert "+    - A Par - Bur" in out
    assert "# from fran.eml, sent Fri, 27 Nov 2026 10:00:00 +0000" in (game / "1901-spring.yml").read_text()


def test_a_later_message_replaces_a_power_s_orders_by_date_and_comments_stay(capsys, game, tmp_path):
    write_game(game, {"1901-spring.yml": "# the GM's note\norders:\n  England:  # by phone\n    - F Lon H\n"
                                         "  # Italy asked for more time\n  Italy: []\n"})
    later = eml(tmp_path, "b.eml", "France:\nA Par - Pic\n", date="Fri, 27 Nov 2026 12:00:00 +0000")
    earlier = eml(tmp_path, "a.eml", "France:\nA Par - Bur\n", date="Fri, 27 Nov 2026 09:00:00 +0000")
    assert run(capsys, game, later, earlier)[0] == 0
    text = (game / "1901-spring.yml").read_text()
    assert orders(game)["France"] == ["A Par - Pic"]
    assert "from b.eml" in text
    assert "# the GM's note" in text
    assert "# by phone" in text
    assert "# Italy asked for more time" in text
    status, out, _ = run(capsys, game, earlier)  # an older message than the file's: the file's are kept
    assert status == 0
    assert orders(game)["France"] == ["A Par - Pic"]
    assert "kept the file's" in out


def test_whose_orders_headings_power_option_and_units(capsys, game, tmp_path):
    body = ("ENGLAND\nF Lon - ENG\nOrders for Germany\nA Mun - Ruh\nItaly: A Ven H\nOrders (Austria):\nA Vie H\n"
            "France's orders\nA Par H\n")
    assert run(capsys, game, eml(tmp_path, "a.eml", body))[0] == 0
    assert orders(game) == {"England": ["F Lon - ENG"], "Germany": ["A Mun - Ruh"], "Italy": ["A Ven H"],
                            "Austria": ["A Vie H"], "France": ["A Par H"]}
    assert run(capsys, game, "--power", "Russia", eml(tmp_path, "r.eml", "War - Gal\n"))[0] == 0
    assert orders(game)["Russia"] == ["A War - Gal"]
    assert run(capsys, game, eml(tmp_path, "t.eml", "F Ank - Bla\nA Con - Bul\n"))[0] == 0  # Turkey's units
    assert orders(game)["Turkey"] == ["F Ank - BLA", "A Con - Bul"]


def test_the_from_address_says_whose_orders(capsys, game, tmp_path):
    write_game(game, {"secrets.yml": "addresses:\n  Gus: gus@example.org\n"})
    assert run(capsys, game, eml(tmp_path, "g.eml", "A Mun - Ruh\n", sender="Gus <GUS@example.org>"))[0] == 0
    assert orders(game) == {"Germany": ["A Mun - Ruh"]}
    assert "gus@" not in (game / "1901-spring.yml").read_text().lower()
    status, _, err = run(capsys, game, eml(tmp_path, "h.eml", "France:\nA Par - Bur\n", sender="gus@example.org"))
    assert status == 1
    assert codes(err) == ["not-her-power"]
    assert "France" not in orders(game)


def test_lines_not_understood_are_reported_and_the_status_is_1(capsys, game, tmp_path):
    status, out, err = run(capsys, game, eml(tmp_path, "a.eml", "France:\nA Par - Bxx\nA Mar supprot A Par\n"
                                                                "Xyzzy A Bre\n"))
    assert status == 1
    assert orders(game) == {"France": ["A Mar S A Par"]}
    # the two lines not read, then the check of what was written: Mar does not reach Par
    assert codes(err) == ["bad-order", "bad-order", "illegal-order"]
    assert "a.eml:2: not understood: 'A Par - Bxx'" in err
    assert "a.eml:4: not understood: 'Xyzzy A Bre'" in err
    assert "note: a.eml:3: 'supprot' read as Support" in out


def test_nothing_is_written_for_another_phase_a_finished_game_or_a_power_not_in_it(capsys, game, tmp_path):
    path = eml(tmp_path, "a.eml", "A Par - Bur\n")
    assert run(capsys, game, "--phase", "1902-spring", path)[:1] == (1,)
    assert run(capsys, game, "--power", "Prussia", path)[0] == 1
    assert run(capsys, game, "--dry-run", "--power", "France", path)[0] == 0
    assert not (game / "1901-spring.yml").exists()
    over = write_game(tmp_path / "over", {"game.yml": GAME_YML + "end: {draw: [England, France]}\n",
                                          "1901-spring.yml": "orders:\n  France: []\n"})
    status, _, err = run(capsys, over, "--phase", "1901-fall", path)
    assert status == 1
    assert "[game-over]" in err or "[not-next-phase]" in err
    assert not (over / "1901-fall.yml").exists()


def test_the_checks_run_on_the_file_written(capsys, game, tmp_path):
    status, _, err = run(capsys, game, eml(tmp_path, "a.eml", "France:\nA Par - Mun\n"))
    assert status == 0
    assert "1901-spring.yml" in err
    assert "[illegal-order]" in err  # a misorder, as dipgen check says


def test_canonical_rewrites_orders_keeping_comments(capsys, game):
    write_game(game, {"1901-spring.yml": "orders:\n  France:  # sent late\n    - army paris to burgundy  # ok\n"
                                         "    - 2. a mar s par - bur\n  England: |\n    f lon - nth sea\n"})
    status, out, _ = run(capsys, game, "--canonical")
    text = (game / "1901-spring.yml").read_text()
    assert status == 0
    assert orders(game)["France"] == ["A Par - Bur", "A Mar S Par - Bur"]
    assert "# sent late" in text
    assert "# ok" in text
    assert "F Lon - NTH" in text


def test_double_and_tir_orders_go_under_the_writing_player(capsys, tmp_path):
    double = write_game(tmp_path / "d", {"game.yml": (Path(__file__).parent.parent / "games" / "two-captains" /
                                                      "game.yml").read_text()})
    assert run(capsys, double, "--player", "Anneke Vos", eml(tmp_path, "a.eml", "England:\nF Lon - NTH\n"))[0] == 0
    assert orders(double) == {"England": {"Anneke Vos": ["F Lon - NTH"]}}
    tir = write_game(tmp_path / "t", {"game.yml": "title: T\nvariant: tir\ngm: G\nplayers:\n  France: Alice\n"
                                                  "  Russia: Boris\n"})
    run(capsys, tir, "--player", "Alice", eml(tmp_path, "b.eml", "Germany:\nA Mun - Ruh\n"
                                                                 "France-Germany +2, England-Italy -1\n"))
    text = (tir / "1901-spring.yml").read_text()
    assert yaml.safe_load(text)["orders"] == {"France": {"Germany": ["A Mun - Ruh"]}}
    assert "France-Germany: +2" in text
    assert "England-Italy: -1" in text


def test_no_address_reaches_the_phase_file_whose_bytes_are_published(capsys, game, tmp_path):
    path = eml(tmp_path, "fran@example.org.eml", "France:\nA Par - Bur\n")
    assert run(capsys, game, path)[0] == 0
    text = (game / "1901-spring.yml").read_text()
    assert "@" not in text
    assert "# from a message, sent" in text


def test_an_outlook_reply_and_a_forwarded_message(capsys, game, tmp_path):
    reply = "France:\nA Par - Bur\n\n-----Original Message-----\nFrom: Grace\nA Mar - Spa\n"
    forward = ("FYI\n\n---------- Forwarded message ---------\nFrom: Gus <gus@example.org>\nSubject: orders\n\n"
               "Germany:\nA Mun - Ruh\n")
    assert run(capsys, game, eml(tmp_path, "a.eml", reply), eml(tmp_path, "b.eml", forward))[0] == 0
    assert orders(game) == {"France": ["A Par - Bur"], "Germany": ["A Mun - Ruh"]}


def test_a_message_of_hundreds_of_order_lines_is_refused_before_it_is_read(capsys, game, tmp_path):
    """Each line may cost a search for the word meant: a file saved by mistake must not take minutes."""
    status, _, err = run(capsys, game, _raw(tmp_path, "many.txt", b"A Qwertyuiop - Poiuytrewq\n" * 301))
    assert status == 1
    assert "[too-large]" in err
    assert not (game / "1901-spring.yml").exists()


def test_a_retreat_is_filed_under_the_power_of_the_dislodged_unit(capsys, game, tmp_path):
    write_game(game, {
        "1901-spring.yml": "orders:\n  France: [A Par - Gas, A Mar H]\n  Germany: [A Mun - Bur, A Ber - Mun]\n"
                           "  Italy: [A Ven - Pie]\n",
        "1901-fall.yml": "orders:\n  France: [A Mar H]\n  Germany: [A Bur - Mar]\n  Italy: [A Pie S A Bur - Mar]\n"})
    subprocess.run(["git", "add", "-A"], cwd=game, check=True)
    subprocess.run(["git", "-c", "user.name=G", "-c", "user.email=g@example.org", "commit", "-qm", "1901"],
                   cwd=game, check=True)
    status, out, err = run(capsys, game, eml(tmp_path, "r.eml", "Marseilles retreats to Spain\n"))
    assert status == 0, err
    assert orders(game, "1901-fall-retreats") == {"France": ["A Mar R Spa"]}


def test_press_runs_to_the_next_heading(capsys, game, tmp_path):
    body = "Press:\nPeace in our time\nA Mun - Bur, Germany\nGermany:\nA Mun - Ruh\n"
    assert run(capsys, game, eml(tmp_path, "a.eml", body))[0] == 0
    assert orders(game) == {"Germany": ["A Mun - Ruh"]}


def test_a_build_under_no_heading_goes_to_the_owner_of_its_centre(capsys, game, tmp_path):
    write_game(game, {"1901-spring.yml": "orders:\n  France: [A Mar - Spa]\n",
                      "1901-fall.yml": "orders:\n  France: [A Spa H]\n"})
    subprocess.run(["git", "add", "-A"], cwd=game, check=True)
    subprocess.run(["git", "-c", "user.name=G", "-c", "user.email=g@example.org", "commit", "-qm", "1901"],
                   cwd=game, check=True)
    status, _, err = run(capsys, game, eml(tmp_path, "b.eml", "build army marseilles\n"))
    assert status == 0, err
    assert orders(game, "1901-winter") == {"France": ["Build A Mar"]}

"""Reading orders by mail: messages per second on a season of seven messages, against the engine
adjudicating that same season, in the same run; and the share of the order corpus read right.

    python bench/orders.py [--repeat 7] [--rounds 20]

The season is Spring 1901 of a standard game: seven e-mails in seven styles (judge syntax, full
English, a numbered list, HTML only, quoted-printable, base64, a reply quoting the GM), made with
the standard library as a mail client saves them. One round reads the seven messages from their
bytes (`dipgen.io.messages`), reads their order lines for the game's position
(`dipgen.io.mailorders`), and, as the baseline, adjudicates the season's 22 orders with dipgen's
engine (`adjudicate_movement`). The two are timed in turns, in CPU time, each `--rounds` times a
run, `--repeat` runs; the medians are printed and their ratio.

The corpus is tests/data/orders_corpus.txt: a line is read right when the reading with slips
guessed (as `dipgen orders` reads) is the corpus's, refused where the corpus says refused; the
lines the corpus marks as not yet read (``~``) count as misses.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import statistics
import sys
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dipgen.core.orders import read_order  # noqa: E402
from dipgen.core.phase import Phase  # noqa: E402
from dipgen.engine.movement import adjudicate_movement  # noqa: E402
from dipgen.io.mailorders import Whose, read_message  # noqa: E402
from dipgen.io.messages import _messages  # noqa: E402
from dipgen.variants import VARIANTS, get_variant  # noqa: E402

CORPUS = ROOT / "tests" / "data" / "orders_corpus.txt"

SEASON = {
    "Austria": ("plain", None, "Austria:\nA Vie - Gal\nA Bud - Ser\nF Tri - Alb\n"),
    "England": ("plain", "quoted-printable", "Hi Grace,\n\nEngland:\nThe fleet in London moves to the North Sea\n"
                "Fleet Edinburgh to the Norwegian Sea\nArmy Liverpool to Yorkshire\n\nCheers,\n-- \nEd\n"),
    "France": ("plain", "base64", "FRANCE\n1. A Par - Bur\n2. A Mar S A Par - Bur\n3. F Bre - Mid Atlantic\n"),
    "Germany": ("html", None, "<p>Orders for Germany</p><ul><li>A Mun - Ruh</li><li>A Ber - Kie</li>"
                "<li>F Kie - Den</li></ul><blockquote>A Ber - Pru</blockquote>"),
    "Italy": ("plain", None, "Italy: A Ven H\nItaly: A Rom - Apu\nItaly: F Nap - Ion\n"),
    "Russia": ("plain", None, "Russia\n- A War - Ukr\n- A Mos - StP\n- F Sev - Bla\n- F StP/sc - Bot\n\n"
               "On Thu, 26 Nov 2026, Grace <grace@example.org> wrote:\n> Orders are due on Friday.\n"),
    "Turkey": ("plain", None, "Turkey:\nF Ank - Black Sea\nA Con - Bulgaria\nA Smy - Armenia\n\nPress:\n"
               "Peace in our time.\nEndpress\n"),
}


def season() -> list[bytes]:
    out = []
    for power, (subtype, cte, body) in SEASON.items():
        m = EmailMessage()
        m["From"], m["Subject"], m["Date"] = f"{power.lower()}@example.org", "orders", \
            "Fri, 27 Nov 2026 10:00:00 +0000"
        if cte:
            m.set_content(body, subtype=subtype, cte=cte)
        else:
            m.set_content(body, subtype=subtype)
        out.append(bytes(m))
    return out


def read_season(raw: list[bytes], variant, phase, position) -> dict:
    orders: dict = {}
    for i, data in enumerate(raw):
        problems: list = []
        for message in _messages(f"m{i}", data, problems):
            reading = read_message(message, variant, phase, position, Whose())
            assert not reading.unread and not problems, (reading.unread, problems)
            for (power, _), lines in reading.orders.items():
                orders[power] = [line.canonical for line in lines]
    return orders


def corpus_share() -> tuple[int, int]:
    right = total = 0
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, text, reading = (part.strip() for part in line.split(" | "))
        rules = VARIANTS[name]().rules
        try:
            got = read_order(rules.board, text, rules.order_words, rules.verbs, guess=True)[0].format(rules.board)
        except ValueError:
            got = None
        wanted = reading[2:] if reading[:2] in ("? ", "~ ") else None if reading.startswith("!") else reading
        total += 1
        right += got == wanted
    return right, total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=7, help="runs (the medians are printed)")
    ap.add_argument("--rounds", type=int, default=20, help="seasons read, and adjudicated, in a run")
    args = ap.parse_args()
    variant = get_variant("standard")
    phase, position = Phase.from_slug("1901-spring"), variant.rules.start()
    raw = season()
    read = read_season(raw, variant, phase, position)
    assert sum(map(len, read.values())) == 22, read
    from dipgen.core.orders import parse_order

    board, kinds = variant.rules.board, variant.rules.unit_kinds
    orders = {p: [parse_order(board, t) for t in texts] for p, texts in read.items()}
    reading, judging, parsing = [], [], []
    for _ in range(args.repeat):  # in turns, so that the machine's load falls on each alike
        start = time.process_time()
        for _ in range(args.rounds):
            read_season(raw, variant, phase, position)
        reading.append((time.process_time() - start) / args.rounds)
        start = time.process_time()
        for _ in range(args.rounds):
            adjudicate_movement(board, position.units, orders, kinds)
        judging.append((time.process_time() - start) / args.rounds)
        start = time.process_time()
        for _ in range(args.rounds):
            for data in raw:
                email.message_from_bytes(data, policy=email.policy.default).get_body().get_content()
        parsing.append((time.process_time() - start) / args.rounds)
    r, j, p = statistics.median(reading), statistics.median(judging), statistics.median(parsing)
    right, total = corpus_share()
    print(f"a season of {len(raw)} messages, 22 orders; median of {args.repeat} runs of {args.rounds} (CPU time)")
    print(f"  reading the messages:            {r * 1000:8.2f} ms  ({len(raw) / r:8.0f} messages/s)")
    print(f"  adjudicating the season (engine): {j * 1000:8.2f} ms")
    print(f"  reading / adjudicating:           {r / j:8.1f}x")
    print(f"  of which the standard library's parsing of the e-mails alone: {p * 1000:.2f} ms ({p / r:.0%})")
    print(f"corpus read right: {right} of {total} lines ({right / total:.1%}), {CORPUS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

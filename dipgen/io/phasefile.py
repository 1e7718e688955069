"""One phase file of a game (``games/<slug>/1901-spring.yml``): its keys, its orders in the
form the variant reads them (by power, by power and writer, or by writer and power), each
order parsed; whether an order fits the position is the replay's to check.
"""

from __future__ import annotations

from pathlib import Path

from dipgen.core.board import UnknownName
from dipgen.core.errors import GameError, Problem
from dipgen.io.paths import display_path
from dipgen.core.orderline import OrderLine
from dipgen.core.orders import OrderSyntaxError, UnknownOrderWord, UnknownUnitKind, for_phase, parse_order
from dipgen.core.phase import Phase
from dipgen.io.acknowledge import read_acknowledged
from dipgen.io.yamlfile import by_power, decode, kind_of, line_of, parse, read_bytes, text_field, unknown_keys
from dipgen.play.game import PhaseFile
from dipgen.variants import Variant

PHASE_KEYS = {"orders", "press", "notes", "acknowledged"}
NONE_SENT = "if nobody sent orders, list each power with an empty list, e.g. England: []"
_ORDERS_EXAMPLE = "e.g.\n      orders:\n        England: [F Lon - NTH, F Edi - NWG, A Lvp - Yor]\n        France: []"


def split_orders(value) -> list[tuple[str, int | None]]:
    """An order list or block string -> [(text, line)], skipping blanks and # comments.
    Items that are not text are left out (`_read_phase` reports them)."""
    if isinstance(value, str):
        out = []
        base = line_of(value)
        for i, line in enumerate(value.splitlines()):
            text = line.split("#", 1)[0].strip()
            if text:
                out.append((text, base + i if base else None))
        return out
    if isinstance(value, list):
        return [(v.split("#", 1)[0].strip(), line_of(v)) for v in value
                if isinstance(v, str) and v.split("#", 1)[0].strip()]
    return []


def read_phase(variant: Variant, phase: Phase, file: Path, problems: list[Problem], first: Phase,
                seating=None) -> PhaseFile:
    name = display_path(file)
    raw = read_bytes(file)  # the file's exact bytes: the game's record is a chain of them (dipgen.rules.chain)
    data = parse(decode(raw, name), name)
    if data is None:
        raise GameError([Problem(name, None, "the file is empty",
                                 f"write the orders received; {NONE_SENT}\n    {_ORDERS_EXAMPLE}",
                                 code="empty-file")])
    if not isinstance(data, dict):
        raise GameError([Problem(name, 1,
                                 "a phase file is a mapping with 'orders' (and optionally 'press' and 'notes')",
                                 "e.g.\n      orders:\n        England:\n          - F Lon - NTH",
                                 code="not-a-mapping")])
    setup = set(variant.files.setup_keys)
    allowed = PHASE_KEYS | set(variant.files.phase_keys) | setup
    unknown = unknown_keys(data, allowed, name, hint=f"a phase file has {', '.join(sorted(allowed))}")
    problems.extend(unknown)
    for key in sorted(setup & set(data)) if phase != first else ():
        problems.append(Problem(name, line_of(data, key),
                                f"{key} belongs in the game's first phase file, {first.slug}.yml",
                                f"it sets up the game; move it to {first.slug}.yml or delete it",
                                code="setup-key-misplaced"))
    press = text_field(data, "press", name, problems)
    notes = text_field(data, "notes", name, problems)
    orders: dict[str, list[OrderLine]] = {}
    key_lines: dict[str, int | None] = {}
    raw_orders = data.get("orders")
    closing = phase.retreats and raw_orders == {}  # `orders: {}`: nobody retreats (the replay checks it)
    if not raw_orders and isinstance(raw_orders, (dict, type(None))) and not closing:
        if "orders" in data or not unknown:  # a misspelt 'orders' has been reported already
            problems.append(Problem(name, line_of(data, "orders"),
                                    "orders is empty" if "orders" in data else "no orders",
                                    f"{NONE_SENT}\n    {_ORDERS_EXAMPLE}", code="no-orders"))
        raw_orders = {}
    elif not isinstance(raw_orders, dict):
        problems.append(Problem(name, line_of(data, "orders"), f"orders must map each power to its orders, not be "
                                f"{kind_of(raw_orders)}",
                                "e.g.\n      orders:\n        France:\n          - A Par - Bur", code="bad-orders"))
        raw_orders = {}
    writers: dict[tuple[str, str], int | None] = {}
    for key, value, kline in _order_blocks(variant, seating, raw_orders, name, problems):
        power, writer = key
        writers[key] = kline
        if value is None:
            who = power if writer == power else f"{writer} for {power}"
            problems.append(Problem(name, kline, f"{who} has nothing after it",
                                    f"list the orders under it, or write {writer}: [] if none were sent",
                                    code="no-orders"))
            continue
        if not isinstance(value, (str, list)):
            problems.append(Problem(name, kline, f"{power}'s orders must be a list or a block of lines, not "
                                                 f"{kind_of(value)}", 'quote each order: - "F Lon - NTH"',
                                    code="bad-orders"))
            continue
        for i, item in enumerate(value if isinstance(value, list) else ()):
            if item is None:
                problems.append(Problem(name, line_of(value, i) or kline,
                                        f"an empty order in {power}'s list: a '-' with nothing after it",
                                        f"write the order after the dash, or delete the line; write {writer}: [] "
                                        "if no orders were sent", code="bad-order"))
            elif isinstance(item, dict):
                problems.append(Problem(name, line_of(item) or kline, "this order reads as a mapping (key: value): "
                                        "YAML takes ': ' or '{ }' that way", 'quote the order: - "F Lon - NTH"',
                                        code="bad-order"))
            elif item is not None and not isinstance(item, str):
                problems.append(Problem(name, line_of(item) or kline, f"an order must be text, not {kind_of(item)}",
                                        'write one order a line, e.g. - "A Par - Bur"', code="bad-order"))
        orders.setdefault(power, [])
        for text, line in split_orders(value):
            order_line = _order_line(variant, phase, power, text, line or kline, name, problems, writer)
            if order_line is not None:
                orders[power].append(order_line)
        key_lines.setdefault(power, kline)
    extra = variant.files.read_phase(phase, {k: data[k] for k in data if k not in PHASE_KEYS and k in allowed}, name,
                                     first, seating, problems)
    acknowledged = read_acknowledged(data, name, problems)
    return PhaseFile(phase, file, orders, key_lines, press, notes, extra, writers, data=raw, acknowledged=acknowledged,
                     shown=name)


def _order_blocks(variant: Variant, seating, raw: dict, file: str, problems: list[Problem]):
    """The lists of orders under ``orders:``, as ((power, writer), value, line of its key), in the
    form the variant reads them (`Variant.order_form`): ``power`` (each power's orders, written by
    its player), ``power/writer`` (each power's orders per player: Double Diplomacy) or
    ``writer/power`` (each player's orders per power she orders: the 2-player game)."""
    form = variant.files.order_form
    if form == "power":
        for power, value, kline in by_power(variant.rules.board, raw, file, problems, "under orders",
                                            "merge its two lists of orders into one"):
            yield (power, power), value, kline
        return
    writers = variant.files.writers(seating)
    outer_is_power = form == "power/writer"
    outer = by_power(variant.rules.board, raw, file, problems, "under orders", "merge the two lists into one") \
        if outer_is_power else _by_writer(writers, raw, file, problems, "under orders")
    for first, inner, kline in outer:
        if inner is None or isinstance(inner, (str, list)):
            what = "each of its players" if outer_is_power else "each power she orders"
            problems.append(Problem(file, kline, f"{first}'s orders are given per writer: a mapping of {what} to a "
                                    f"list of orders", variant.files.order_form_example, code="bad-orders"))
            continue
        if not isinstance(inner, dict):
            problems.append(Problem(file, kline, f"{first}'s orders must be a mapping, not {kind_of(inner)}",
                                    variant.files.order_form_example, code="bad-orders"))
            continue
        seconds = _by_writer(writers, inner, file, problems, f"under {first}") if outer_is_power else \
            by_power(variant.rules.board, inner, file, problems, f"under {first}", "merge the two lists into one")
        for second, value, line in seconds:
            yield ((first, second) if outer_is_power else (second, first)), value, line


def _by_writer(writers: dict, raw: dict, file: str, problems: list[Problem], where: str):
    """(writer, value, line) for each key of `raw` that names a writer of this game (a player)."""
    from dipgen.core.names import did_you_mean

    seen: dict[str, int | None] = {}
    for key, value in raw.items():
        line = line_of(raw, key)
        name = writers.get(str(key).strip().casefold()) if isinstance(key, str) else None
        if name is None:
            known = ", ".join(sorted(set(writers.values())))
            problems.append(Problem(file, line, f"{key!r} {where} is not a player of this game."
                                    f"{did_you_mean(str(key), list(writers.values()))}", f"the players: {known}",
                                    code="unknown-writer"))
            continue
        if name in seen:
            problems.append(Problem(file, line, f"{name} appears twice {where} (first on line {seen[name]})",
                                    "merge the two lists into one", code="duplicate-writer"))
            continue
        seen[name] = line
        yield name, value, line


def _order_line(variant: Variant, phase: Phase, power: str, text: str, line, file: str,
                problems: list[Problem], writer: str | None = None) -> OrderLine | None:
    try:
        order = for_phase(parse_order(variant.rules.board, text, variant.rules.order_words, variant.rules.verbs),
                          phase.kind)
    except UnknownUnitKind as e:
        problems.append(Problem(file, line, str(e), _unit_kind_hint(variant, e.word), code="unknown-unit-kind"))
        return None
    except UnknownOrderWord as e:
        problems.append(Problem(file, line, str(e), code="unknown-order-word"))
        return None
    except (OrderSyntaxError, UnknownName) as e:
        problems.append(Problem(file, line, str(e), code="bad-order"))
        return None
    return OrderLine(power, text, order, file, line, writer or power)


def _unit_kind_hint(variant: Variant, word: str) -> str:
    """Where a unit letter this variant lacks comes from: 'S' is a Blind spy."""
    from dipgen.variants import VARIANTS

    for name, make in VARIANTS.items():
        if name == variant.name:
            continue
        other = make()
        kind = other.rules.order_words.get(word)
        if kind is not None and other.rules.unit_kinds.get(kind) is not None:
            unit = other.rules.unit_kinds[kind]
            return (f"{unit.plural} ({kind}) are a piece of {other.words.title} (variant: {other.name}); "
                    f"this game is {variant.words.title}")
    return "orders start with the unit, e.g. A Par - Bur or F Lon - NTH"

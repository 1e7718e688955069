"""game.yml's ``orders_to:``: the address the GM takes orders at, optional and public. The order
sheet offers a ``mailto:`` link to it with the orders picked in the body; nothing else reads it."""

from __future__ import annotations

import re

from dipgen.core.errors import Problem
from dipgen.io.yamlfile import kind_of, line_of

EXAMPLE = "orders_to: gm@example.org"
#: one address, as people write it: a local part, @, a domain with a dot; no spaces, no second address
_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+")
MAX_ADDRESS = 254


def read_orders_to(data: dict, file: str, problems: list[Problem]) -> str:
    """game.yml's ``orders_to`` ('' when absent or empty); anything but one e-mail address is a
    problem naming the line."""
    value = data.get("orders_to")
    line = line_of(data, "orders_to")
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        problems.append(Problem(file, line, f"orders_to must be an e-mail address, not {kind_of(value)}",
                                f"e.g. {EXAMPLE}", code="bad-orders-to"))
        return ""
    text = value.strip()
    if len(text) > MAX_ADDRESS or not _ADDRESS.fullmatch(text):
        problems.append(Problem(file, line, f"orders_to {text[:80]!r} is not one e-mail address",
                                f"write the one address players mail their orders to, e.g. {EXAMPLE}",
                                code="bad-orders-to"))
        return ""
    return text

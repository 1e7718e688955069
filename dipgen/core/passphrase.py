"""What counts as the same passphrase: one rule for the reader of secrets.yml (`dipgen.io.secretsfile`,
which checks each seat's passphrase) and the private pages' key (`dipgen.present.site.crypt`), two
rooms that may both import core and neither the other. The browser applies the same rule
(``private.js``).
"""

from __future__ import annotations

import unicodedata


def normalize(passphrase: str) -> str:
    """The passphrase as the key is derived from it: NFC, surrounding spaces dropped.
    The browser does the same (``private.js``), so a stray space when typing does not matter."""
    return unicodedata.normalize("NFC", passphrase).strip()

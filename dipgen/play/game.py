"""A game as the replay takes it: its set-up (title, variant, players, start, how it ended) and
each phase's orders as the GM wrote them. `dipgen.io.gamefiles` reads one from a game folder;
`dipgen.play.replay` adjudicates it; nothing here reads a file.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping

from dipgen.core.orderline import OrderLine
from dipgen.core.outcome import DeclaredEnd
from dipgen.core.phase import Phase
from dipgen.rules.seats import Seating
from dipgen.rules.variant import Variant


@dataclass
class PhaseFile:
    phase: Phase
    path: Path
    orders: dict[str, list[OrderLine]]   # power -> orders, in the order written
    order_lines: dict[str, int | None]    # power -> line of its key
    press: str = ""
    notes: str = ""
    extra: dict = field(default_factory=dict)  # the variant's keys, as its `Files.read_phase` read them
    #: (power, writer) -> line of the key under which the writer's orders for the power stand,
    #: an empty list included (the writers a variant that takes orders per writer must check)
    writers: dict = field(default_factory=dict)
    #: when the file was published: the time (UTC) of the commit that added it (None: not committed,
    #: or no git; `dipgen.io.commits`)
    committed: dt.datetime | None = None
    #: the file's exact bytes, as read (the game's record hashes them: `dipgen.rules.chain`)
    data: bytes = b""
    #: the warnings the GM has read and acknowledged in the file (``acknowledged:``)
    acknowledged: tuple[Acknowledgement, ...] = ()
    #: the file as the GM's messages name it (`dipgen.io.paths.display_path`: io names it)
    shown: str = ""

    @property
    def name(self) -> str:
        """The file as the messages name it: as io named it, else its path as given."""
        return self.shown or str(self.path)


@dataclass(frozen=True)
class Acknowledgement:
    """A warning the GM has read, as a phase file's ``acknowledged:`` names it: its code, and the
    order it is about as written (`subject`; '' for every warning of that code in the file)."""

    code: str
    subject: str = ""
    line: int | None = None

    def matches(self, code: str, subject: str) -> bool:
        return code == self.code and (not self.subject or _same_text(self.subject, subject))


def _same_text(a: str, b: str) -> bool:
    """Two orders as written, alike but for case and spaces."""
    return "".join(a.split()).casefold() == "".join(b.split()).casefold()


@dataclass(frozen=True)
class Ending:
    """How the GM declared the game over (``end:`` in game.yml)."""

    kind: DeclaredEnd
    powers: tuple[str, ...] = ()
    phase: Phase | None = None  # the last phase played; None: the last with a file
    note: str = ""
    line: int | None = None     # the line of `phase` in game.yml (else of `end`)


@dataclass
class Game:
    slug: str
    path: Path
    title: str
    variant: Variant
    gm: str
    players: dict[str, list[tuple[str, Phase | None]]]  # power -> [(name, from phase)], first from the start
    start: int
    phases: dict[Phase, PhaseFile]
    ending: Ending | None = None
    reveal: str = "end"
    description: str = ""
    seed_sha256: str | None = None
    raw: dict = field(default_factory=dict)
    #: the seats and who controls which power at the start (changes in play are in the History)
    seating: Seating = field(default_factory=lambda: Seating((), {}))

    #: the seed, published in game.yml once the game is over (64 hex digits; see dipgen.io.seed)
    seed: str | None = None
    #: the line of each key of game.yml
    lines: dict = field(default_factory=dict)
    #: an example game that ships its secrets.yml on purpose (public demo secrets; see dipgen.io.load)
    demo_secrets: bool = False
    #: the set-up as the variant reads it from game.yml and the first phase file (its `Files.read_setup`:
    #: Stab!'s placement, Blind's spies, Complicated's options), which its rules start the game from
    setup: Mapping = field(default_factory=dict)
    #: when the orders of the phase the game waits for are due (``deadline:``, in UTC), if given
    deadline: dt.datetime | None = None
    #: how long before the deadline its calendar reminds the players (``reminders:``; a day by default)
    reminders: tuple[dt.timedelta, ...] = (dt.timedelta(days=1),)
    #: the address the GM takes orders at (``orders_to:``, public; '' when not given)
    orders_to: str = ""
    #: when game.yml was first committed (None: not committed, or no git)
    created: dt.datetime | None = None
    #: what reading the files found that is only a warning (an acknowledgement of no known warning)
    warnings: list = field(default_factory=list)
    #: the folder as the GM's messages name it (`dipgen.io.paths.display_path`: io names it)
    shown: str = ""

    def __post_init__(self) -> None:
        if self.seating is None:
            self.seating = Seating.one_per_power(self.players)

    def shown_file(self, name: str = "") -> str:
        """The folder, or its file `name`, as the messages name it (the path as given where io
        named none)."""
        folder = self.shown or str(self.path)
        return os.path.join(folder, name) if name else folder

    def player(self, power: str, phase: Phase | None = None) -> str:
        """Who played `power` at `phase` (by default: at the end), as `players:` seats them."""
        return self.seating.player(power, phase)

    def player_names(self, power: str) -> list[str]:
        return self.seating.player_names(power)

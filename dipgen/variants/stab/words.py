"""Stab!'s name, and the words of its rules for a move that fails."""

from types import MappingProxyType

from dipgen.core.results import STANDARD_WORDS, Bounce
from dipgen.rules.variant import Words


class StabWords(Words):
    title = "Stab!"
    description = ("A hidden-movement game on the standard map: free initial placement, and reports that show "
                   "only the orders that came into contact with a foreign unit.")
    #: the words of the Stab! rules (its example report): a move *fails* against a unit that
    #: stayed, *bounce*s off another country's move, and is in a *self-standoff* with its own
    result_vocabulary = MappingProxyType({**STANDARD_WORDS, Bounce.HELD: "fails", Bounce.STANDOFF: "bounce",
                                          Bounce.SELF_STANDOFF: "self-standoff"})

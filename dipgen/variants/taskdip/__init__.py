"""Taskdip (Andreas Kueck): 2 to 7 players on the standard board, powers and secret tasks drawn by
lot, the other powers neutral until someone violates their neutrality."""

from dipgen.rules.variant import Variant
from dipgen.variants.taskdip.files import TaskdipFiles
from dipgen.variants.taskdip.rules import TaskdipRules
from dipgen.variants.taskdip.visibility import TaskdipPolicy
from dipgen.variants.taskdip.words import TaskdipWords


def variant() -> Variant:
    return Variant.of("taskdip", TaskdipRules(), files=TaskdipFiles, policy=TaskdipPolicy, words=TaskdipWords)

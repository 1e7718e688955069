"""For the move to four parts (issue 22): a variant written as one class of every hook, which
serves as all four parts of its bundle. Goes once every variant is a package of parts."""

from dipgen.rules.variant import Files, Policy, Rules, Variant, Words


class _Bundle(Variant):
    """A bundle whose members of its variant's own (not the four parts') are still read off it."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.rules, name)


class Whole(Rules, Files, Policy, Words):
    name = "standard"

    def __init__(self) -> None:
        Rules.__init__(self)
        self.rules = self

    @classmethod
    def bundle(cls) -> Variant:
        whole = cls()
        return _Bundle(whole.name, whole, whole, whole, whole)

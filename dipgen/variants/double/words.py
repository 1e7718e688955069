"""Double Diplomacy's words: what the synchronisation decided, and the captains' victory."""

from __future__ import annotations

from dipgen.rules.variant import Words
from dipgen.variants.double.rules import VICTORY, WORDS


class DoubleWords(Words):
    title = "Double Diplomacy"
    description = ("Seven players, each the captain of two powers; each power has two captains whose orders "
                   "are synchronised: what both ordered is carried out, a unit ordered differently holds.")
    result_vocabulary = {**Words.result_vocabulary, **WORDS}

    scoring_note = ("Double Diplomacy is won by the two captains of a power together: the winning captains score 1 "
                    "between them, a draw splits 1 among the captains of the powers in it. The systems that score "
                    "each power for one player do not apply.")

    def victory_text(self) -> str:
        return f"A power's two captains win together when it has {VICTORY} centres after a Fall turn."

    def result_line(self, history) -> str:
        r = history.result
        if r is None or r.kind != "solo":
            return ""
        parts = [f"{p}'s two captains, {history.player(p, r.phase)}," for p in r.powers]
        counts = history.records[-1].after.centre_counts(self.rules.powers()) if history.records else {}
        centres = " and ".join(str(counts.get(p, 0)) for p in r.powers)
        verb = "win together" if len(parts) > 1 else "win"
        return f"{' and '.join(parts)} {verb} with {centres} centres in {r.phase.season_name}!"

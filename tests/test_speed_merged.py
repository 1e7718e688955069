"""The games' files merged under serve (`dipgen.mkdocs.speed.merged`): after any sequence of edits the
merge is `first_wins`'s, entry for entry and in its order, and an edit that changes one game's files
but not their names merges nothing whole."""

from __future__ import annotations

import random

import pytest

import dipgen.mkdocs.speed.merged as merged_module
from dipgen.mkdocs.output import first_wins
from dipgen.mkdocs.speed.merged import Merged


class Out:
    """A game's output as the cache holds it: its files a fresh dict at every read, as `Stored`'s."""

    def __init__(self, files: dict[str, str]) -> None:
        self._files = dict(files)

    @property
    def files(self) -> dict[str, str]:
        return dict(self._files)

    card = None


def game(name: str, board: str = "standard", phases: int = 2, text: str = "") -> Out:
    files = {f"games/{name}/index.md": f"{name} {text}"}
    files.update({f"games/{name}/190{i}/index.md": f"{name} {i} {text}" for i in range(phases)})
    files[f"assets/maps/{board}.svg"] = f"{board} base map, drawn for {name}"  # every game of a board makes it
    return Out(files)


@pytest.fixture
def whole(monkeypatch) -> list[int]:
    """How many times the games were merged whole."""
    calls: list[int] = []
    monkeypatch.setattr(merged_module, "first_wins", lambda files, shared: calls.append(1) or first_wins(files, shared))
    return calls


def test_an_edit_to_one_game_puts_its_files_in_place_and_the_first_game_keeps_the_shared_map(whole):
    merge = Merged(lambda g: g.files)
    games = [game("alpha", "tir"), game("bravo"), game("charlie"), game("delta", "tir")]
    assert list(merge(games).items()) == list(first_wins(g.files for g in games).items())
    assert len(whole) == 1
    for i in (1, 3, 0):  # a game whose board's map an earlier game makes, ... and the game that makes it first
        games[i] = game(["alpha", "bravo", "charlie", "delta"][i], "tir" if i in (0, 3) else "standard",
                        text=f"edited {i}")
        files = merge(games)
        assert list(files.items()) == list(first_wins(g.files for g in games).items())
        assert len(whole) == 1  # the edit put in place, nothing merged whole
    files["extra"] = "the caller's own"
    assert "extra" not in merge(games)


def test_an_edit_that_adds_a_file_or_a_game_or_reorders_its_files_merges_whole(whole):
    merge = Merged(lambda g: g.files)
    games = [game("alpha"), game("bravo")]
    merge(games)
    games[1] = game("bravo", phases=3)  # a new phase
    assert list(merge(games).items()) == list(first_wins(g.files for g in games).items())
    games.insert(1, game("azure", "tir"))
    assert list(merge(games).items()) == list(first_wins(g.files for g in games).items())
    games[2] = Out(dict(reversed(games[2].files.items())))  # the same files, in another order
    assert list(merge(games).items()) == list(first_wins(g.files for g in games).items())
    assert len(whole) == 4


@pytest.mark.parametrize("seed", range(20))
def test_any_sequence_of_edits_merges_as_first_wins(seed):
    rng = random.Random(seed)
    names = [f"g{i:02d}" for i in range(8)]
    boards = {name: rng.choice(["standard", "tir", "stab"]) for name in names}
    phases = {name: rng.randint(0, 3) for name in names}
    games = {name: game(name, boards[name], phases[name]) for name in names[:5]}
    merge = Merged(lambda g: g.files)
    for step in range(30):
        what = rng.random()
        name = rng.choice(names)
        if what < 0.6 and name in games:  # the same files, other words
            games[name] = game(name, boards[name], phases[name], text=f"step {step}")
        elif what < 0.7 and name in games:  # a phase more
            phases[name] += 1
            games[name] = game(name, boards[name], phases[name], text=f"step {step}")
        elif what < 0.8:  # a game added or removed
            if name in games:
                del games[name]
            else:
                games[name] = game(name, boards[name], phases[name])
        ordered = [games[n] for n in sorted(games)]
        got = merge(ordered)
        assert list(got.items()) == list(first_wins(g.files for g in ordered).items()), (seed, step)

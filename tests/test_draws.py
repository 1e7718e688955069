"""Random draws from a committed seed (dipgen.rules.draws), the seed's checks (dipgen.io.seed) and
`dipgen secrets` making the seed and its commitment."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from pathlib import Path

import pytest

from dipgen.cli import main
from dipgen.rules.draws import CHAIN, GameDraws, commitment, integer, key_matches, step_of
from dipgen.core.errors import GameError
from dipgen.io.gamefiles import load_game
from dipgen.core.phase import Phase
from support import write_game

SEED = bytes(range(32))
GAME_YML = """title: Dice
gm: Jane Doe
players: {England: A, France: B, Germany: C, Italy: D, Austria: E, Russia: F, Turkey: G}
"""


def source(seed=SEED, start=1901) -> GameDraws:
    return GameDraws(commitment(seed), start, seed)


def test_the_same_seed_and_labels_give_the_same_draws():
    a, b = source().phase(Phase(1903, 1)), source().phase(Phase(1903, 1))
    for d in (a, b):
        d.die("tir/England-France")
        d.integer("n", 1000)
        d.choice("who", ["x", "y", "z"])
        d.shuffle("order", list("abcdefg"), secret=True)
    assert a.drawn == b.drawn
    assert len(a.drawn) == 4
    assert a.drawn[0].label == "1903-fall/tir/England-France"
    assert 1 <= a.drawn[0].value <= 6
    other = GameDraws(commitment(b"\1" * 32), 1901, b"\1" * 32).phase(Phase(1903, 1))
    assert [other.integer("n", 1 << 60)] != [source().phase(Phase(1903, 1)).integer("n", 1 << 60)]


def test_a_label_drawn_twice_in_a_phase_is_a_programming_error():
    d = source().phase(Phase(1901, 0))
    d.die("x")
    with pytest.raises(ValueError, match="drawn twice"):
        d.die("x")
    for bad in ("", "a#b", "a@1", "a\nb"):
        with pytest.raises(ValueError):
            d.die(bad)


def test_integer_is_the_documented_function_and_uniform():
    key = b"k" * 32
    x = int.from_bytes(hmac.new(key, b"1901-spring/x#0", hashlib.sha256).digest(), "big")
    assert integer(key, "1901-spring/x", 7) == x % 7  # the first try is taken (2**256 - 2**256 % 7 > x)
    counts = Counter(integer(key, f"l{i}", 6) for i in range(6000))
    assert set(counts) == set(range(6))
    assert min(counts.values()) > 850


def test_integer_rejects_the_biased_tail(monkeypatch):
    """A value at or above the largest multiple of n is drawn again with the next counter."""
    import dipgen.rules.draws as draws

    calls = []

    class Fake:
        def __init__(self, key, msg, alg):
            calls.append(msg)
            self.msg = msg

        def digest(self):
            return (b"\xff" * 32) if self.msg.endswith(b"#0") else (5).to_bytes(32, "big")

    monkeypatch.setattr(draws.hmac, "new", Fake)
    assert draws.integer(b"k", "l", 3) == 5 % 3
    assert calls == [b"l#0", b"l#1"]


def test_a_phase_key_checks_against_the_commitment_and_later_keys_are_not_earlier_ones():
    g = source()
    k1, k2 = g.key(Phase(1901, 0)), g.key(Phase(1901, 1))
    c = commitment(SEED)
    assert key_matches(k1, step_of(Phase(1901, 0), 1901), c)
    assert key_matches(k2, step_of(Phase(1901, 1), 1901), c)
    assert not key_matches(k1, step_of(Phase(1901, 1), 1901), c)
    assert hashlib.sha256(hashlib.sha256(k2).digest()).digest() == k1  # an earlier key follows from a later one
    assert SEED not in (g.key(None), g.key(Phase(2900, 2)))  # no key is ever the seed
    assert key_matches(g.key(Phase(2900, 2, False)), step_of(Phase(2900, 2), 1901), c)
    assert CHAIN > step_of(Phase(2900, 2), 1901) + 1


def test_secret_draws_do_not_come_from_the_published_key():
    d = source().phase(Phase(1901, 0))
    public, secret = d.integer("a", 1 << 64), d.integer("b", 1 << 64, secret=True)
    assert integer(source().key(Phase(1901, 0)), "1901-spring/a", 1 << 64) == public
    assert integer(source().key(Phase(1901, 0)), "1901-spring/b", 1 << 64) != secret


def test_a_draw_without_a_seed_raises_a_game_error(tmp_path):
    from dipgen.io.seed import game_draws

    folder = write_game(tmp_path / "dice", {"game.yml": GAME_YML + 'seed_sha256: "' + commitment(SEED) + '"\n'})
    draws = game_draws(load_game(folder)).phase(None)
    with pytest.raises(GameError) as e:
        draws.die("x")
    text = str(e.value)
    assert "game.yml:4" in text
    assert "DIPGEN_SECRETS" in text
    assert "no seed" in text


def game(tmp_path, extra: str = "", phases: bool = False) -> Path:
    return write_game(tmp_path / "games" / "dice",
                      {"game.yml": GAME_YML + extra,
                       **({"1901-spring.yml": "orders: {England: []}\n"} if phases else {})})


def test_secrets_makes_the_seed_and_commits_to_it_before_the_first_phase(tmp_path, capsys):
    folder = game(tmp_path, "# the GM's comment\nreveal: end\n")
    assert main(["secrets", str(folder), "--seed"]) == 0
    g = load_game(folder)
    assert "# the GM's comment" in (folder / "game.yml").read_text()
    from dipgen.io.seed import seed_of
    from dipgen.usecases.games import read_game

    seed = seed_of(*read_game(folder))
    assert seed is not None
    assert commitment(seed) == g.seed_sha256
    assert main(["check", str(folder)]) == 0
    # run again: nothing changes
    before = (folder / "game.yml").read_text(), (folder / "secrets.yml").read_text()
    assert main(["secrets", str(folder), "--seed"]) == 0
    assert before == ((folder / "game.yml").read_text(), (folder / "secrets.yml").read_text())


def test_secrets_refuses_to_commit_once_a_phase_file_exists(tmp_path, capsys):
    folder = game(tmp_path, phases=True)
    assert main(["secrets", str(folder), "--seed"]) == 1
    err = capsys.readouterr().err
    assert "[seed-too-late]" in err
    assert "before the first" in err  # seed-too-late's words, tested here once
    assert "seed_sha256" not in (folder / "game.yml").read_text()
    folder2 = game(tmp_path / "b", 'seed_sha256: "' + "0" * 64 + '"\n', phases=True)
    assert main(["secrets", str(folder2), "--seed"]) == 1
    assert "0" * 64 in (folder2 / "game.yml").read_text()


def test_a_seed_that_does_not_match_the_commitment_is_an_error_with_its_line(tmp_path, capsys):
    folder = game(tmp_path, 'seed_sha256: "' + commitment(SEED) + '"\n')
    write_game(folder, {"secrets.yml": 'page_key: "' + "ab" * 32 + '"\nseed: "' + "11" * 32 + '"\n'})
    assert main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "secrets.yml:2: error: " in err
    assert "[seed-mismatch]" in err
    assert "the seed does not match the commitment" in err  # the words, tested here once
    write_game(folder, {"secrets.yml": 'page_key: "' + "ab" * 32 + '"\nseed: "' + SEED.hex() + '"\n'})
    assert main(["check", str(folder)]) == 0


def test_a_seed_without_a_commitment_is_an_error(tmp_path, capsys):
    folder = game(tmp_path)
    write_game(folder, {"secrets.yml": 'page_key: "' + "ab" * 32 + '"\nseed: "' + SEED.hex() + '"\n'})
    assert main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "secrets.yml:2: error: " in err
    assert "[seed-without-commitment]" in err
    assert "a seed, but game.yml has no commitment" in err  # the words, tested here once


def test_the_seed_in_game_yml_only_once_the_game_is_over(tmp_path, capsys):
    running = game(tmp_path, f'seed_sha256: "{commitment(SEED)}"\nseed: "{SEED.hex()}"\n')
    assert main(["check", str(running)]) == 1
    err = capsys.readouterr().err
    assert "game.yml:5: error: " in err
    assert "[seed-published-early]" in err
    assert "the seed is published in game.yml while the game runs" in err  # the words, tested here once
    write_game(running, {"1901-spring.yml": "orders: {England: [], France: []}\n",
                         "game.yml": GAME_YML + f'seed_sha256: "{commitment(SEED)}"\nseed: "{SEED.hex()}"\n'
                                     "end: {abandoned: true}\n"})
    assert main(["check", str(running)]) == 0
    write_game(running, {"game.yml": GAME_YML + f'seed_sha256: "{commitment(SEED)}"\nseed: "{"22" * 32}"\n'
                                     "end: {abandoned: true}\n"})
    assert main(["check", str(running)]) == 1
    err = capsys.readouterr().err
    assert "game.yml:5: error: " in err
    assert "[seed-mismatch]" in err
    assert "seed is not the seed of this game's commitment" in err  # the words, tested here once


def test_map_names_the_variants_board(tmp_path, capsys):
    folder = game(tmp_path, "map: hexes\n")
    assert main(["check", str(folder)]) == 1
    err = capsys.readouterr().err
    assert "game.yml:4: error: " in err
    assert "[wrong-map]" in err

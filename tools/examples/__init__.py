"""Generate the bundled example games under ``games/`` with a scripted player: one pipeline for
every variant's example game.

    python -m tools.examples            # (re)write every generated example game (or: python tools/example_games.py)
    python -m tools.examples SLUG ...   # only these (tracks-in-the-mud, two-crowns, ...)
    python -m tools.examples --check    # generate in memory, check, print the summaries, write nothing
    python -m tools.examples --force    # overwrite folders even if they were edited by hand
    python -m tools.examples --out DIR  # write the game folders under DIR instead of games/

Each game is generated in memory, replayed with dipgen from a scratch folder and checked before
it is written; tests/test_example_games.py holds every committed example to it, byte for byte.

The player is a heuristic bot, not a random one: each power values the centres it could
take by distance, keeps threatened home centres covered, supports its attacks when an
attack alone would bounce, convoys armies over water, keeps to its alliances for a while
and now and then stabs. The diplomacy (who is allied with whom, when the stabs come) is
written down per game in a story, so that the games tell a story; the moves are the bot's.
Every phase is stepped with dipgen's own engine while generating, the files are then written,
and the written folder is replayed with ``dipgen`` to make sure it says the same thing, and
checked for what the story promises. Everything is drawn from fixed seeds: the output is the
same every run, byte for byte (tests/test_example_games.py holds the committed games to it).

Two of the games are Stab! games (hidden movement): the first phase file carries each power's
free ``placement``; the players lose track of foreign units now and then (``fog``) and so
blunder into each other; a few scenes the reports must show (a convoying fleet under attack, a
self-standoff a foreign unit reveals) are set up on purpose if the bot has not produced them
(``wants``); and since press in a hidden game is public, its press and GM notes are written
from dipgen's own public view of each season, so they say only what the public report shows:
rumour, diplomacy, bluster and the revealed contacts.

Two are Blind games (every position secret, spies): the first phase file places some powers'
spies (``spies``); each player plans with its own units, its allies' and the foreign units
its fights and spies revealed (dipgen's own private view of each season), and forgets them as
they go stale; spies scout toward enemy centres and fronts, sit in key places and hunt enemy
spies at home and abroad, and two hunts the example must show (a kill, two hunters killing
each other) are set up if the spies have not produced them. The public learns only the centre
totals and the NMRs, so the press names no province, unit or order, and the GM's notes keep
to deadlines, rulings, player changes and the result.

Each story-driven folder gets a ``.generated`` manifest (hashes of the files written). A folder
whose files no longer match it has been edited by hand, and is left alone unless ``--force``.

The other variants' examples are scripted (scripted.py): armor.py (games/tracks-in-the-mud),
complicated.py (games/supply-lines), double.py (games/two-captains) and tir.py
(games/two-crowns), each a game played phase by phase on the same bots, each phase replayed with
dipgen before the next is planned. They carry no manifest (they never had one): they are
rewritten whole.

The package, one module a job:

    story.py      the stories (`Script`), read from data/stories/<slug>.yml
    board.py      what the players know of the board: distances, reach, names
    bot.py        the scripted player and the diplomacy it keeps to
    notation.py   orders written as people write them (each player's writing habit)
    sim.py        the simulation loop, every phase stepped with dipgen's engine (`Sim`: the
                  standard game; a family subclasses it and fills in its hooks)
    press.py      press and GM notes (`Composer`: the course of each phase's press and notes;
                  `Writer`: phrases drawn from data/press/<family>.yml; data/powers.yml signs them)
    standard.py, hidden.py, stab.py, blind.py
                  the variant families: what their games and their press do differently
    generate.py   every generated example by slug (`EXAMPLES`: how it is made, what it must show);
                  a story-driven one played, composed, rendered (`FAMILIES`: variant -> its classes)
    scripted.py   what the scripted games share: the loop, the YAML a GM types, the draw at
                  the end, the tanks and aircraft the bots do not see
    armor.py, complicated.py, double.py, tir.py
                  the scripted games, each a `Scripted` subclass
    files.py      the game folder's YAML files and its .generated manifest
    checks.py     the feature checks: what each example must show, counted from dipgen's
                  replay (`require`), shared with tests/test_example_games.py
    cli.py        the command

A new family of story-driven games (a new variant) adds a story in data/stories/, its phrase
banks in data/press/<variant>.yml (reusing others' categories with ``same_as``), a module with
its `Sim` and `Composer` subclasses, their line in `generate.FAMILIES`, and its checks in
`checks.REQUIRE`; a new scripted game adds its module (a `Scripted` subclass, and a `require`
if it has one) and its line in `generate.EXAMPLES`. The random draws of the existing games must
stay in the order they are: regenerating has to write the committed games byte for byte.
"""

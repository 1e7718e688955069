#!/usr/bin/env python3
"""Generate the bundled example games under ``games/`` with a scripted player.

    python tools/example_games.py            # (re)write the example games
    python tools/example_games.py --check    # generate in memory, print the summaries, write nothing
    python tools/example_games.py --force    # overwrite folders even if they were edited by hand

The player is a heuristic bot, not a random one: each power values the centres it could
take by distance, keeps threatened home centres covered, supports its attacks when an
attack alone would bounce, convoys armies over water, keeps to its alliances for a while
and now and then stabs. The diplomacy (who is allied with whom, when the stabs come) is
written down per game in a small script, so that the games tell a story; the moves are
the bot's. Every phase is stepped with dipgen's own engine while generating, the files
are then written, and the written folder is replayed with ``dipgen`` to make sure it says
the same thing. Everything is drawn from a fixed seed: the output is the same every run.

Two of the games are Stab! games (hidden movement): the first phase file carries each power's
free ``placement``; the players lose track of foreign units now and then (``Script.fog``) and
so blunder into each other; a few scenes the reports must show (a convoying fleet under
attack, a self-standoff a foreign unit reveals) are set up on purpose if the bot has not
produced them (``Script.wants``); and since press in a hidden game is public, its press and GM
notes are written from dipgen's own public view of each season, so they say only what the
public report shows: rumour, diplomacy, bluster and the revealed contacts.

Two are Blind games (every position secret, spies): the first phase file places some powers'
spies (``spies``); each player plans with its own units, its allies' and the foreign units
its fights and spies revealed (dipgen's own private view of each season), and forgets them as
they go stale; spies scout toward enemy centres and fronts, sit in key places and hunt enemy
spies at home and abroad, and two hunts the example must show (a kill, two hunters killing
each other) are set up if the spies have not produced them. The public learns only the centre
totals and the NMRs, so the press names no province, unit or order, and the GM's notes keep
to deadlines, rulings, player changes and the result.

Each folder gets a ``.generated`` manifest (hashes of the files written). A folder whose
files no longer match it has been edited by hand, and is left alone unless ``--force``.
"""

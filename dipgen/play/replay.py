"""Replay a game phase by phase into a History: the phases folded, one record per phase played.

`replay(game)` sets the game up, plays each phase from the position the one before left
(`dipgen.play.step.play_phase`) and folds the records into a History. It raises GameError
(file, line, what is wrong, a hint) on anything the GM must fix (two orders for one unit from
one writer, an order of another phase's kind, a file of a phase that never came;
`dipgen.play.checks`); orders that are well formed but cannot be carried out (a player's
misorder: an impossible move, an order for a unit she does not have, a build the rules refuse)
are kept as written, adjudicated as the rules say (void), and reported as warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from dipgen.core.errors import GameError, Problem

from dipgen.core.outcome import GameResult
from dipgen.core.phase import ADJUSTMENTS, Phase
from dipgen.core.position import Position
from dipgen.play import checks
from dipgen.play.game import Game, PhaseFile
from dipgen.play.records import GameInfo, History, PhaseRecord
from dipgen.play.step import end_of_season, play_phase, skip_empty
from dipgen.rules.chain import Chain, make_chain, record_salt
from dipgen.rules.draws import GameDraws
from dipgen.rules.seats import Seating, control_after
from dipgen.rules.visibility import reveal_reached
from dipgen.rules.variant import Variant


@dataclass
class _Played:
    """The phases played so far, as the fold goes: their records, where the game stands, its
    result, the phases whose files were played, and what the GM is told."""

    position: Position
    seating: Seating
    records: list[PhaseRecord] = field(default_factory=list)
    result: GameResult | None = None
    used: set[Phase] = field(default_factory=set)
    unclosed: list[Phase] = field(default_factory=list)  # Falls no file closes, though later files follow
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    stopped: Phase | None = None  # the phase the play stopped in, on an error


def replay(game: Game, draws: GameDraws | None = None, secret=None, seed: bytes | None = None) -> History:
    """Adjudicate every phase of `game`. Raises GameError on anything the GM must fix. `draws`: the
    game's source of draws, from its seed (`dipgen.io.seed.game_draws`; without one, game.yml's
    published seed, unchecked); `secret`: what its secrets.yml says for the set-up, as the variant's
    files read it (Taskdip's lots); `seed`: the game's seed, checked against its commitment
    (`dipgen.io.seed.seed_of`), which salts a hidden game's record. All come from `dipgen.io.load`,
    read once; the replay reads no file."""
    variant = game.variant
    game_draws = None
    try:
        if variant.rules.makes_draws:
            game_draws = draws or GameDraws(game.seed_sha256.lower() if game.seed_sha256 else None, game.start,
                                            bytes.fromhex(game.seed) if game.seed else None)
        setup = game_draws.phase(None) if game_draws is not None else None
        drawn = variant.rules.drawn_seating(game, setup)  # seats drawn at the set-up: the History's
        # the variant checks the phase files against the drawn seats; the loaded game stays as the GM wrote it
        position = variant.rules.initial_position(game if drawn is None else replace(game, seating=drawn),
                                                  setup, secret)
    except GameError as e:
        raise GameError(e.problems) from None
    played = _play(variant, game, _Played(position, drawn or game.seating), game_draws)
    errors = played.errors
    if not errors:
        errors += checks.unplayed(game, played.used, played.records, played.position, played.result)
    errors += checks.unclosed_falls(game, played.unclosed)
    result = played.result
    if game.ending and result is None and not errors:
        last = played.records[-1].phase if played.records else None
        errors += checks.end_not_played(game, last)
        if not errors and last is not None:
            result = GameResult(game.ending.kind, game.ending.powers, last, game.ending.note)
    if errors:  # the warnings of the phases before too
        raise GameError(played.warnings + errors, stopped=played.stopped)
    if setup is not None and game_draws is not None:  # (a set-up draws only where the game does)
        game_draws.setup_draws = setup.drawn
    history = History(game_info(game), variant, drawn or game.seating, played.records, played.position,
                      None if result else played.position.phase, result, played.warnings, draws=game_draws)
    history.chain = _chain(game, history, seed, game_draws)
    return history


def _play(variant: Variant, game: Game, played: _Played, game_draws: GameDraws | None) -> _Played:
    """Fold the game's phases into `played`, from its position, until the game ends, its files
    run out, or a phase has errors (the phases after it are not played)."""
    end_phase = game.ending.phase if game.ending else None
    while True:
        position = played.position
        phase = position.phase
        pf = game.phases.get(phase)
        if pf is None and _closing_owed(variant, game, position):
            played.unclosed.append(phase)
            pf = PhaseFile(phase, game.path / f"{phase.slug}.yml", {}, {},  # played as if it were there
                           shown=game.shown_file(f"{phase.slug}.yml"))
        if pf is None:
            return played
        played.used.add(phase)
        step = play_phase(variant, position, pf, game_draws.phase(phase) if game_draws is not None else None)
        record = replace(step.record, time=pf.committed, data=pf.data)
        record, played.seating = control_after(variant, record, played.seating)  # seats: powers changing hands
        played.records.append(record)
        played.warnings += step.warnings
        played.errors += step.errors
        played.position = position = record.after
        if step.errors:
            played.stopped = phase
            return played
        year_over = variant.rules.calendar.ends_year(phase) and position.phase.kind == ADJUSTMENTS
        played.result = variant.rules.game_result(position, phase, played.seating, year_over)
        if played.result is not None:
            return played
        if end_phase is not None and phase == end_phase:
            if position.phase.retreats and not position.dislodged:  # the declared end closes the Fall
                played.position, changes = end_of_season(variant, position)
                played.records[-1] = replace(record, after=played.position,
                                             centre_changes=record.centre_changes + changes)
            return played
        played.position = skip_empty(variant, position)


def _chain(game: Game, history: History, seed: bytes | None, game_draws: GameDraws | None) -> Chain | None:
    """The game's record over its phase files (None: a hidden game's, where the build has no seed)."""
    if seed is None and game_draws is not None:
        seed = game_draws.seed
    if seed is None and game.seed:
        seed = bytes.fromhex(game.seed)
    salt = record_salt(history.variant.policy.hidden, seed, bool(game.seed_sha256), reveal_reached(history))
    return None if salt is None else make_chain(game.slug, salt, ((r.phase, r.data) for r in history.records))


def _closing_owed(variant: Variant, game: Game, position: Position) -> bool:
    """Does `position` wait for the file that closes a Fall nobody retreats in
    (`Policy.closed_by_file`), while the game has files for later phases?"""
    return (position.phase.retreats and not position.dislodged
            and variant.policy.closed_by_file(position.phase)
            and any(p > position.phase for p in game.phases))


def game_info(game: Game) -> GameInfo:
    """What the History keeps of game.yml besides its players and phases."""
    return GameInfo(game.slug, game.title, game.gm, game.description, game.reveal, game.shown_file(),
                    dict(game.lines), game.start, game.deadline, game.created, game.reminders,
                    game.orders_to)


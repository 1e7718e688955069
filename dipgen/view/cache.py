"""The view's caches of one History: what `game_view` made of it, each level's timeline, and the
variant's ruling on each record, made once per History and kept while it lives.

The view owns them, not the History: a History is the replay's value and knows nothing of views.
They are keyed by the History object itself (held weakly: a cache goes with its History), so a
History changed after it was viewed must be a new one (`dataclasses.replace`), as the replay
never changes one it has handed out.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from dipgen.core.phase import Phase
from dipgen.play.records import History
from dipgen.rules.visibility import RecordVisibility
from dipgen.view.types import DemoSecrets, GameView, Timeline


@dataclass
class ViewCache:
    """What the view made of one History."""

    #: the variant's ruling on each record, by its phase (`dipgen.view.seen.record_visibility`)
    visibility: dict[Phase, RecordVisibility] = field(default_factory=dict)
    #: each level's timeline (`dipgen.view.timeline.timeline`)
    timelines: dict[str, Timeline] = field(default_factory=dict)
    #: each level's view, with the demo secrets it shows (`dipgen.view.game.game_view`)
    views: dict[tuple[str, DemoSecrets | None], GameView] = field(default_factory=dict)


_CACHES: dict[int, ViewCache] = {}


def cache_of(history: History) -> ViewCache:
    """The view's cache of `history`, made empty the first time it is asked for; dropped when
    the History is (its id may then be another object's)."""
    key = id(history)
    cache = _CACHES.get(key)
    if cache is None:
        cache = _CACHES[key] = ViewCache()
        weakref.finalize(history, _CACHES.pop, key, None)
    return cache

"""Views: what one visibility level may know of a game, and the one door to them (`game_view`).

    from dipgen.view import game_view
    view = game_view(history, "public")     # a GameView: every output is made from one

Levels are ``"gm"`` (everything), ``"public"`` (what everyone knows), each power's name (what
that power knows) and each seat's key (`dipgen.rules.seats`). The variant's policy says who may know
each fact (`dipgen.rules.visibility`); `dipgen.view.timeline` says which phases a level is told of.
"""

from dipgen.view.game import DemoSecrets, game_view
from dipgen.rules.visibility import (EVERYONE, GM, NOBODY, PUBLIC, Audience, PositionVisibility, RecordVisibility,
                                     knows, reveal_reached, revealed)
from dipgen.view.seen import levels
from dipgen.view.types import (UNKNOWN, ChainView, DemoSeat, DislodgedView, DrawsView, GameInfoView, GameView, Link,
                               PositionView, RecordView, Unknown)

__all__ = ["EVERYONE", "GM", "NOBODY", "PUBLIC", "UNKNOWN", "Audience", "ChainView", "DemoSecrets", "DemoSeat",
           "DislodgedView", "Link", "DrawsView", "GameInfoView", "GameView", "PositionView", "PositionVisibility",
           "RecordView", "RecordVisibility", "Unknown", "game_view", "knows", "levels", "reveal_reached", "revealed"]

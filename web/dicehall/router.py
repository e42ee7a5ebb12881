"""Where the app is: the address's hash as route parts, and the focus rule.

Routes: `#/home`, `#/setup/<game>`, `#/rules/<game>`, `#/settings`, `#/history`, `#/play` (the
running game, or its results), `#/join/<room id>[/<invitation>]` (a room's join screen),
`#/rooms` (the room overview: screens/rooms_overview.py), `#/room` (the hosted room choosing its game:
roomlobby.py),
`#/replay/<history id>/<move>` (a finished game replayed: screens/replay.py). Anything else is Home.

Focus rule: a new *moment* — another screen, another game's set-up or rules, another person's
turn on the play screen, a hand-over — starts at the top with the focus on the screen's heading;
any other redraw keeps the focus on the control that had it.
"""

from __future__ import annotations

SCREENS = ("home", "setup", "rules", "settings", "history", "play", "join", "replay", "rooms", "room")  # the routes' first parts


def parts(hash_: str) -> list[str]:
    """"#/setup/mygame" -> ["setup", "mygame"]; an empty hash is Home."""
    path = str(hash_ or "").lstrip("#").strip("/")
    return [p for p in path.split("/") if p] or ["home"]


def arg(route: list[str], i: int) -> str | None:
    return route[i] if len(route) > i else None


def game_of(route: list[str], known) -> str | None:
    """The game a set-up or rules route names, if the registry knows it."""
    game = arg(route, 1)
    return game if game in known else None


def moment(screen: str, route: list[str], play_moment: tuple | None) -> tuple:
    return (screen, arg(route, 1), play_moment)

"""Ranking and tournament points, shared by every game."""

from __future__ import annotations

from .schema import Fields, Int, ListOf

# Far above any real table's total (a game's points are its places' points or its scores).
MAX_POINTS = 10**12
MAX_SEATS = 8  # more than any game seats
STANDINGS_SCHEMA = Fields({"points": ListOf(Int(-MAX_POINTS, MAX_POINTS), MAX_SEATS, 1),
                           "wins": ListOf(Int(0, MAX_POINTS), MAX_SEATS, 1), "games": Int(0, MAX_POINTS)})


def competition_places(scores: list[float], winners: list[int] | None = None) -> list[int]:
    """Standard competition places (1, 2, 2, 4); direct `winners` rank first, ahead of scores."""
    winners = winners or []
    keyed = [(0 if seat in winners else 1, -score) for seat, score in enumerate(scores)]
    return [1 + sum(1 for other in keyed if other < key) for key in keyed]


def placement_points(places: list[int]) -> list[int]:
    """Tournament points: with n players places score n, n-1, …, 1; shared places share points."""
    n = len(places)
    return [n + 1 - place for place in places]


class Standings:
    """Tournament standings across consecutive games of the same table."""

    def __init__(self, players: int) -> None:
        self.points = [0] * players
        self.games = 0
        self.wins = [0] * players

    def add_game(self, places: list[int]) -> None:
        """Record one finished game's places."""
        if len(places) != len(self.points):
            raise ValueError("places do not match the table")
        for seat, points in enumerate(placement_points(places)):
            self.points[seat] += points
        for seat, place in enumerate(places):
            self.wins[seat] += place == 1
        self.games += 1

    def order(self) -> list[int]:
        """Seats ordered by points, then wins, then seat."""
        return sorted(range(len(self.points)), key=lambda s: (-self.points[s], -self.wins[s], s))

    def to_json(self) -> dict:
        return {"points": list(self.points), "games": self.games, "wins": list(self.wins)}

    @classmethod
    def from_json(cls, data: dict) -> "Standings":
        """Standings from a save (STANDINGS_SCHEMA); schema.Invalid or ValueError when unsound."""
        data = STANDINGS_SCHEMA.check(data)
        if len(data["wins"]) != len(data["points"]):
            raise ValueError("inconsistent standings")
        standings = cls(len(data["points"]))
        standings.points, standings.wins, standings.games = data["points"], data["wins"], data["games"]
        return standings

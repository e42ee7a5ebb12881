"""Ranking and tournament points, shared by every game."""

from __future__ import annotations

from .safejson import exact_int

# Far above any real table's total (a game's points are its places' points or its scores).
MAX_POINTS = 10**12


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
        standings = cls(len(data["points"]))
        standings.points = [exact_int(p, -MAX_POINTS, MAX_POINTS) for p in data["points"]]
        standings.wins = [exact_int(w, 0, MAX_POINTS) for w in data["wins"]]
        standings.games = exact_int(data["games"], 0, MAX_POINTS)
        if len(standings.wins) != len(standings.points) or standings.games < 0:
            raise ValueError("inconsistent standings")
        return standings

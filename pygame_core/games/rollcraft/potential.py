"""What RollCraft T8's three row zones (Blue, Green, Pink) can still bring, by dynamic programming.

Each of these zones is filled left to right, so its state is small: boxes filled and the number
that matters next (Blue: the last sum; Green: the open pair's first number). The model: the zone
gets `draws` more chances (throws where its die or the white die could be taken); at each chance
the player sees the dice, and either places (paying `price`, what the placement could have
earned elsewhere) or lets it go. Dynamic programming over (state, chances left) gives the
expected points the zone still brings when played this way, bonuses earned on the way included
(at a share of their usual worth): net of the prices paid (what the evaluation adds up) and gross
(what the zone will score, for the rune value). The chances per round and the price are weights
in `ai.W`, set by comparing settings on seeded self-play games.
"""

from __future__ import annotations

from .board import BOARD

B = BOARD
FACES = B.faces
BLUE_POINTS = (0,) + B.blue_points
ZERO = (0.0, 0.0)  # (net of the price paid per placement, gross points)


def _weights(outcome) -> list[tuple[int, float]]:
    """(value, probability) of outcome(a, b) over the throws of two dice."""
    counts: dict[int, int] = {}
    for a in range(1, FACES + 1):
        for b in range(1, FACES + 1):
            v = outcome(a, b)
            counts[v] = counts.get(v, 0) + 1
    return [(v, n / FACES ** 2) for v, n in sorted(counts.items())]


# Of the zone's die and the white die the player takes the better one: higher is better for a
# green first box and for pink, lower for a green second box; blue always takes their sum.
HIGHER, LOWER, SUM = _weights(max), _weights(min), _weights(lambda a, b: a + b)


class RowPotential:
    """Tables of expected future points for Blue, Green and Pink, for 0..max_draws chances left."""

    def __init__(self, bonus_value: dict, price: float, max_draws: int, bonus_share: float) -> None:
        self.price = price
        self.max_draws = max_draws
        bonus = {code: v * bonus_share for code, v in bonus_value.items()}
        self.blue = self._blue(bonus)
        self.green = self._green(bonus)
        self.pink = self._pink(bonus)

    def _chance(self, stay, outcomes) -> tuple[float, float]:
        """(net, gross) of one chance, from `stay` (the zone's value if it lets the chance go) and
        each outcome (probability, points, the value after placing, None if it cannot be placed):
        the zone places when that beats letting the chance go, price paid."""
        net = gross = 0.0
        for p, points, after in outcomes:
            if after is not None and points - self.price + after[0] > stay[0]:
                net += p * (points - self.price + after[0])
                gross += p * (points + after[1])
            else:
                net += p * stay[0]
                gross += p * stay[1]
        return net, gross

    # Blue: state (boxes filled n, last sum s; s = 17 before the first box); the chance is the
    # blue + white sum. Value = points gained from now on (the last box's points minus now's).
    def _blue(self, bonus):
        size = B.blue_size
        prev = {(n, s): ZERO for n in range(size + 1) for s in range(2, 18)}
        tables = [prev]
        for _ in range(self.max_draws):
            cur = {}
            for n in range(size + 1):
                for s in range(2, 18):
                    if n == size:
                        cur[(n, s)] = ZERO
                        continue
                    points = BLUE_POINTS[n + 1] - BLUE_POINTS[n] + bonus.get(B.blue_bonus[n], 0.0)
                    cur[(n, s)] = self._chance(prev[(n, s)], (
                        (p, points, prev[(n + 1, t)] if t <= s else None) for t, p in SUM))
            tables.append(cur)
            prev = cur
        return tables

    # Green: state (boxes filled i, first number of the open pair f, already multiplied; 0 if
    # no pair is open); the chance is the green and the white die, either may be taken.
    def _green(self, bonus):
        size = B.green_size
        firsts = sorted({v * m for v in range(1, FACES + 1) for m in B.green_mult} | {0})
        states = [(i, f) for i in range(size + 1) for f in (firsts if i % 2 else (0,))]
        prev = {state: ZERO for state in states}  # no chance left: an open pair scores nothing
        tables = [prev]
        for _ in range(self.max_draws):
            cur = {}
            for i, f in states:
                if i == size:
                    cur[(i, f)] = ZERO
                    continue
                mult = B.green_mult[i]
                extra = bonus.get(B.green_bonus[i], 0.0)
                if i % 2 == 0:  # a first number: the pair's points come with its second
                    outcomes = ((p, extra, prev[(i + 1, v * mult)]) for v, p in HIGHER)
                else:
                    outcomes = ((p, extra + f - v * mult, prev[(i + 1, 0)]) for v, p in LOWER)
                cur[(i, f)] = self._chance(prev[(i, f)], outcomes)
            tables.append(cur)
            prev = cur
        return tables

    # Pink: state (boxes filled); the chance is the pink and the white die.
    def _pink(self, bonus):
        size = B.pink_size
        prev = [ZERO] * (size + 1)
        tables = [prev]
        for _ in range(self.max_draws):
            cur = [ZERO] * (size + 1)
            for n in range(size):
                met = bonus.get(B.pink_bonus[n], 0.0)
                cur[n] = self._chance(prev[n], (
                    (p, v + (met if v >= B.pink_threshold[n] else 0.0), prev[n + 1]) for v, p in HIGHER))
            tables.append(cur)
            prev = cur
        return tables

    def _at(self, tables, draws: float, key) -> tuple[float, float]:
        """(net, gross) future points, linear between whole numbers of chances."""
        draws = max(0.0, min(float(self.max_draws), draws))
        low = int(draws)
        frac = draws - low
        net, gross = tables[low][key]
        if frac and low < self.max_draws:
            net2, gross2 = tables[low + 1][key]
            net += (net2 - net) * frac
            gross += (gross2 - gross) * frac
        return net, gross

    def blue_future(self, sheet, draws: float) -> tuple[float, float]:
        s = sheet.blue[-1] if sheet.blue else 17
        return self._at(self.blue, draws, (len(sheet.blue), s))

    def green_future(self, sheet, draws: float) -> tuple[float, float]:
        i = len(sheet.green)
        return self._at(self.green, draws, (i, sheet.green[-1] if i % 2 else 0))

    def pink_future(self, sheet, draws: float) -> tuple[float, float]:
        return self._at(self.pink, draws, len(sheet.pink))

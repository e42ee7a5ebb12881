"""Penta: the exact optimal solitaire strategy (advisor, "optimal" AI level, post-game review).

Pure Python (no numpy): runs on CPython and under Pyodide. The heavy part, the value of every
turn-start state, is precomputed by `tools/solve_penta.py` (numpy) and shipped as
`pygame_core/games/penta/data/values.bin`; this module loads it and does the within-turn search.

Turn-start state
----------------
`(mask, u, p)`: `mask` = used boxes (bit i = `BOXES[i]`, so Ones..Sixes are bits 0..5 and Penta
is bit 12), `u` = upper total capped at 63, `p` = 1 if the Penta box holds 50 (else 0; 0 also
while the Penta box is free). `V(mask, u, p)` = the optimal expected number of points still to
come (boxes, the 35 upper bonus if it is still to be earned, +100 Penta bonuses), maximising the
expected final total of a solitaire game. The upper bonus is counted in the turn that lifts the
upper total to 63, so `V(full card) = 0` and the expected final total of a card is
`card_total(card, bonuses) + V(state of the card)`.

Table file format (`values.bin`, little-endian)
----------------------------------------------------
    offset  size  field
    0       8     magic b"PENTAVAL"
    8       4     uint32 format version (1)
    12      4     uint32 rules: 0 = Penta (shared/rules/penta.md); 1, 2 = Yahtzee variants (checks)
    16      4     uint32 count: number of float32 values that follow
    20      4     uint32 reserved (0)
    24      8     float64 V(start) computed in float64 (the start value at full precision)
    32      4*n   float32 V of every reachable non-terminal turn-start state, in this order:
                  mask ascending (0 .. 8190); within a mask the Penta-box status
                  (p = 0 only if the Penta box is free, else p = 0 then p = 1); within that the
                  reachable capped upper totals ascending (the sums f*k of the used upper
                  faces f, k = 0..5, capped at 63). Totals that no longer matter share one
                  value, stored at total 0: all totals once the six upper boxes are used, and
                  totals too low to reach 63 even with five of each free upper face.
No index is stored: `layout()` rebuilds it from these rules (a few ms). The values are the
float64 dynamic programme rounded to float32 (relative error < 6e-8).

Within a turn the search is exact (float64) from those values: the value of keeping a multiset
`k` is the mean over the next die of keeping `k` plus that die (`_expect`), and the best choice
among a roll's sub-multisets is a max over one-die removals (`_best`). The generator performs the
very same operations in the very same order, vectorised, so `exact_value` (pure Python, from
scratch) reproduces the table bit for bit (tested on the last layers).
"""

from __future__ import annotations

import struct
import sys
from array import array
from itertools import combinations_with_replacement

from .rules import (
    BOXES,
    JOKER_LOWER,
    PENTA_BONUS,
    ROLLS_PER_ROUND,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    allowed_boxes,
    box_scores,
    card_total,
    distinct_keeps,
    upper_total,
    write_score,
)

MAGIC = b"PENTAVAL"
VERSION = 1
HEADER = struct.Struct("<8sIIIId")
RULES = {0: "penta", 1: "official", 2: "verhoeff"}
FULL = (1 << len(BOXES)) - 1
PENTA_BIT = BOXES.index("penta")
CAP = UPPER_BONUS_THRESHOLD

# --- dice combinatorics (shared with tools/solve_penta.py) ----------------------------------
KEEPS: list[tuple[int, ...]] = [k for n in range(6) for k in combinations_with_replacement(range(1, 7), n)]
KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}
FIRST_ROLL = KEEP_INDEX[(1, 1, 1, 1, 1)]  # the 252 five-dice multisets are KEEPS[FIRST_ROLL:]
ROLLS = KEEPS[FIRST_ROLL:]
N_ROLLS = len(ROLLS)
# CHILD[i]: the keeps one die larger (faces 1..6, in order), for keeps of fewer than 5 dice.
CHILD = [tuple(KEEP_INDEX[tuple(sorted(k + (f,)))] for f in range(1, 7)) for k in KEEPS[:FIRST_ROLL]]
# SUBS[i]: the distinct keeps one die smaller.
SUBS = [tuple(KEEP_INDEX[k[:j] + k[j + 1 :]] for j in range(len(k)) if j == 0 or k[j] != k[j - 1]) for k in KEEPS]
# NORMAL[b][r]: normal (no joker) score of roll r in box b, from the engine's own box_scores.
# Built at import so it is in the boot snapshot: the first hint of a visit must not pay for it
# on the main thread. One face count per roll keeps the first visit's import cost small.
_ROLL_SCORES = [box_scores(r) for r in ROLLS]
NORMAL = [[scores[box] for scores in _ROLL_SCORES] for box in BOXES]
del _ROLL_SCORES
FACE_COUNT = [[r.count(f) for r in ROLLS] for f in range(1, 7)]
PENTA_ROLLS = [KEEP_INDEX[(f,) * 5] - FIRST_ROLL for f in range(1, 7)]


def upper_slots(umask: int) -> tuple[list[int], int]:
    """For the used upper boxes `umask`: slot of each capped total 0..63 (-1 unreachable), count.

    Totals that can no longer reach 63 (even with five of every free upper face) share slot 0
    with total 0: their values are identical. So does every total once all upper boxes are used.
    """
    if umask == 63:
        return [0] * (CAP + 1), 1
    reach = {0}
    for f in range(6):
        if umask >> f & 1:
            reach = {min(CAP, x + (f + 1) * k) for x in reach for k in range(6)}
    most = sum(5 * (f + 1) for f in range(6) if not umask >> f & 1)
    slots = [-1] * (CAP + 1)
    n = 0
    for u in sorted(reach):
        if u + most < CAP and u > 0:
            slots[u] = 0
        else:
            slots[u] = n
            n += 1
    return slots, n


def layout() -> tuple[list[int], list[list[int]], list[int], int]:
    """Offsets of each mask's block, slot lists per upper mask, slot counts, total count."""
    slots, sizes = [], []
    for umask in range(64):
        s, n = upper_slots(umask)
        slots.append(s)
        sizes.append(n)
    offsets = [0] * FULL
    total = 0
    for mask in range(FULL):
        offsets[mask] = total
        total += sizes[mask & 63] * (2 if mask >> PENTA_BIT & 1 else 1)
    return offsets, slots, sizes, total


class TableError(ValueError):
    """The value table is missing or damaged."""


class Table:
    """The turn-start state values, loaded from the bytes of `values.bin`."""

    def __init__(self, data: bytes) -> None:
        if len(data) < HEADER.size:
            raise TableError("penta value table: file too short")
        magic, version, rules, count, _reserved, start = HEADER.unpack_from(data)
        if magic != MAGIC or version != VERSION:
            raise TableError("penta value table: not a version-1 table")
        offsets, slots, sizes, total = layout()
        if count != total or len(data) != HEADER.size + 4 * count:
            raise TableError(f"penta value table: expected {total} values, file has {count}")
        values = array("f")
        if values.itemsize != 4:  # pragma: no cover - every platform we target has 4-byte floats
            raise TableError("float32 arrays unsupported")
        values.frombytes(bytes(data[HEADER.size :]))
        if sys.byteorder != "little":  # pragma: no cover
            values.byteswap()
        self.rules = RULES.get(rules, str(rules))
        self.start = start
        self.values = values
        self._offsets = offsets
        self._slots = slots
        self._sizes = sizes

    def index(self, mask: int, u: int, p: int) -> int:
        umask = mask & 63
        slot = self._slots[umask][min(u, CAP)]
        if slot < 0:
            raise KeyError(f"unreachable state mask={mask} u={u}")
        return self._offsets[mask] + (p if mask >> PENTA_BIT & 1 else 0) * self._sizes[umask] + slot

    def value(self, mask: int, u: int, p: int) -> float:
        """Expected points still to come from the start of a turn (0 for a full card)."""
        if mask == FULL:
            return 0.0
        return self.values[self.index(mask, u, p)]


_table: Table | None = None
_table_missing = False


def load_table(data: bytes) -> Table:
    """Load the table from the bytes of `values.bin` (the browser fetches them) and use it."""
    global _table, _table_missing
    _table = Table(data)
    _table_missing = False
    _TURNS.clear()
    return _table


TABLE_FILE = "values.bin"  # in this package's data/ folder (the browser fetches dist/data/penta/values.bin)


def _find_table_bytes() -> bytes | None:
    """The table next to the package (CPython, Pyodide in Node); None in the browser build."""
    from pathlib import Path

    try:
        return (Path(__file__).resolve().parent / "data" / TABLE_FILE).read_bytes()
    except OSError:
        return None


def get_table() -> Table:
    """The loaded table; on first use it is located next to the package (CPython). TableError if absent."""
    global _table_missing
    if _table is None:
        if _table_missing:
            raise TableError("penta value table not loaded")
        data = _find_table_bytes()
        if data is None:
            _table_missing = True
            raise TableError("penta value table not found (call load_table with data/values.bin)")
        load_table(data)
    return _table


def available() -> bool:
    """True when the value table is (or can be) loaded."""
    try:
        get_table()
        return True
    except TableError:
        return False


# --- the within-turn search -----------------------------------------------------------------
NEG = float("-inf")


def _final_values(mask: int, u: int, p: int, value) -> list[float]:
    """W3: for each of the 252 rolls, the best `points + value(next state)` over allowed boxes.

    `points` is an int (box + upper bonus reached now + Penta bonus) added to the float once.
    """
    w = [NEG] * N_ROLLS
    for b in range(len(BOXES)):
        bit = 1 << b
        if mask & bit:
            continue
        nmask = mask | bit
        if b < 6:
            cand = []
            for c in range(6):
                s = (b + 1) * c
                nu = min(CAP, u + s)
                cand.append(s + (UPPER_BONUS if u < CAP <= u + s else 0) + value(nmask, nu, p))
            for r, c in enumerate(FACE_COUNT[b]):
                v = cand[c]
                if v > w[r]:
                    w[r] = v
        elif b == PENTA_BIT:
            v0 = value(nmask, u, 0)
            v50 = 50 + value(nmask, u, 1)
            for r, s in enumerate(NORMAL[b]):
                v = v50 if s else v0
                if v > w[r]:
                    w[r] = v
        else:
            vn = value(nmask, u, p)
            for r, s in enumerate(NORMAL[b]):
                v = s + vn
                if v > w[r]:
                    w[r] = v
    if p and mask >> PENTA_BIT & 1:
        # A Penta while the Penta box holds 50: the engine's forced joker and +100 bonus.
        card = _card(mask, p)
        for f in range(1, 7):
            w[PENTA_ROLLS[f - 1]] = max(_box_value(card, mask, u, p, box, (f,) * 5, value)[0] for box in allowed_boxes(card, (f,) * 5))
    return w


def _card(mask: int, p: int) -> dict:
    card = {box: (0 if mask >> i & 1 else None) for i, box in enumerate(BOXES)}
    if p:
        card["penta"] = 50
    return card


def _box_value(card: dict, mask: int, u: int, p: int, box: str, dice, value) -> tuple[float, int]:
    """`points + value(next)` for writing `dice` into `box`, and the points (bonuses included)."""
    b = BOXES.index(box)
    score, bonus = write_score(card, box, dice)
    points = score + bonus
    nu = u
    np_ = p
    if b < 6:
        nu = min(CAP, u + score)
        if u < CAP <= u + score:
            points += UPPER_BONUS
    elif b == PENTA_BIT:
        np_ = 1 if score == 50 else 0
    return points + value(mask | (1 << b), nu, np_), points


def _expect(w: list[float]) -> list[float]:
    """Keep values: K[keep] = mean over the next die of K[keep + die]; K[roll] = w[roll]."""
    k = [0.0] * FIRST_ROLL + list(w)
    for i in range(FIRST_ROLL - 1, -1, -1):
        c0, c1, c2, c3, c4, c5 = CHILD[i]
        k[i] = (k[c0] + k[c1] + k[c2] + k[c3] + k[c4] + k[c5]) / 6
    return k


def _best(k: list[float], stop: list[float]) -> list[float]:
    """For each roll: max of scoring now (`stop`) and keeping any proper sub-multiset."""
    b = [0.0] * len(KEEPS)
    for i in range(FIRST_ROLL):
        v = k[i]
        for j in SUBS[i]:
            if b[j] > v:
                v = b[j]
        b[i] = v
    out = []
    for r in range(N_ROLLS):
        v = stop[r]
        for j in SUBS[FIRST_ROLL + r]:
            if b[j] > v:
                v = b[j]
        out.append(v)
    return out


class Turn:
    """The within-turn tables of one turn-start state."""

    __slots__ = ("w3", "k3", "w2", "k2", "w1", "start")

    def __init__(self, mask: int, u: int, p: int, value) -> None:
        self.w3 = _final_values(mask, u, p, value)
        self.k3 = _expect(self.w3)  # keep values before the 3rd roll
        self.w2 = _best(self.k3, self.w3)  # value after the 2nd roll
        self.k2 = _expect(self.w2)  # keep values before the 2nd roll
        self.w1 = _best(self.k2, self.w3)  # value after the 1st roll
        self.start = None

    def value(self) -> float:
        """Turn-start value: the mean over the first roll."""
        if self.start is None:
            self.start = _expect(self.w1)[0]
        return self.start


_TURNS: dict = {}


def _turn(mask: int, u: int, p: int) -> Turn:
    table = get_table()
    key = (mask, min(u, CAP), p)
    turn = _TURNS.get(key)
    if turn is None:
        if len(_TURNS) > 64:
            _TURNS.clear()
        turn = _TURNS[key] = Turn(mask, min(u, CAP), p, table.value)
    return turn


def exact_value(mask: int, u: int, p: int, memo: dict | None = None) -> float:
    """V(mask, u, p) computed from scratch in float64 (no table): slow except near the end."""
    memo = {} if memo is None else memo

    def value(m: int, uu: int, pp: int) -> float:
        if m == FULL:
            return 0.0
        if m & 63 == 63 or uu + sum(5 * (f + 1) for f in range(6) if not m >> f & 1) < CAP:
            uu = 0  # the upper total no longer matters: the table keeps one value (see upper_slots)
        pp = pp if m >> PENTA_BIT & 1 else 0
        key = (m, uu, pp)
        if key not in memo:
            memo[key] = Turn(m, uu, pp, value).value()
        return memo[key]

    return value(mask, u, p)


# --- positions of the game ------------------------------------------------------------------
def card_state(card: dict) -> tuple[int, int, int]:
    """The turn-start state `(mask, u, p)` of a score card."""
    mask = sum(1 << i for i, box in enumerate(BOXES) if card[box] is not None)
    return mask, min(CAP, upper_total(card)), 1 if card["penta"] == 50 else 0


def state_value(state) -> float:
    """Expected final total of the current seat's card, seen from the start of its turn."""
    seat = state.seat()
    card = state.cards[seat]
    return card_total(card, state.bonuses[seat]) + get_table().value(*card_state(card))


def advise(state, seat: int | None = None) -> list[dict]:
    """Every legal move of the current seat, best first, with the expected final total of its card
    as `value` (`seat`, if given, must be the current one: Penta has no simultaneous choices).

    [] at chance nodes and at the end. Keeps are valued by the optimal play that follows; a box by
    its points plus the value of the next turn. Ties keep the engine's move order.
    """
    if state.is_terminal() or state.is_chance() or seat not in (None, state.seat()):
        return []
    seat = state.seat()
    card = state.cards[seat]
    dice = tuple(state.dice)
    mask, u, p = card_state(card)
    turn = _turn(mask, u, p)
    table = get_table()
    already = card_total(card, state.bonuses[seat])
    options = []
    if state.rolls < ROLLS_PER_ROUND:
        keeps = turn.k2 if state.rolls == 1 else turn.k3
        for keep in distinct_keeps(list(dice)):
            move = "keep " + " ".join(map(str, keep)) if keep else "keep"
            options.append((move, keeps[KEEP_INDEX[keep]]))
    for box in allowed_boxes(card, dice):
        options.append(("score " + box, _box_value(card, mask, u, p, box, dice, table.value)[0]))
    order = sorted(range(len(options)), key=lambda i: (-options[i][1], i))
    return [{"move": options[i][0], "value": already + options[i][1]} for i in order]


def best_move(state) -> str:
    """The optimal move of the current seat (TableError if the table is not available)."""
    return advise(state)[0]["move"]


# --- post-game review -----------------------------------------------------------------------
def review(record, top: int = 5) -> dict:
    """Grade every decision of every seat of a game record against the optimal strategy.

    `record`: a `Record` or its JSON dict. Per seat: `decisions` (each with the move, its
    expectation, the best move and its expectation, and `loss` = points of expected final total
    given away), `mean_loss`, `total_loss`, `mistakes` (the `top` costliest), and `curve`: the
    expected final total of the seat's card at the start (index 0) and after each of its turns
    (the last point is the final total once the game is over). Every grade is exact (the optimal
    table): `certainty` "exact" and each decision's `exact` True. A choice with a single legal
    option is not a decision and is left out.
    """
    from ...record import Record

    if isinstance(record, dict):
        record = Record.from_json(record)
    if record.game != "penta":
        raise ValueError("review() is for Penta records")
    state = record.new_state()
    n = state.num_players
    seats = [{"seat": s, "decisions": [], "curve": [], "final": None} for s in range(n)]
    table = get_table()
    for s in range(n):
        seats[s]["curve"].append(round(table.value(0, 0, 0), 4))
    for index, (player, move) in enumerate(record.moves):
        if player >= 0 and not state.is_chance():
            seat = state.seat()
            options = advise(state)
            chosen = next((o for o in options if o["move"] == move), None)  # moves are canonical
            if chosen is not None and len(options) > 1:
                best = options[0]
                loss = max(0.0, best["value"] - chosen["value"])
                seats[seat]["decisions"].append(
                    {
                        "index": index,
                        "round": state.round() + 1,
                        "roll": state.rolls,
                        "dice": list(state.dice),
                        "move": move,
                        "value": round(chosen["value"], 4),
                        "best": best["move"],
                        "best_value": round(best["value"], 4),
                        "loss": round(loss, 4),
                        "exact": True,
                    }
                )
        turn_before = state.turn
        state.apply(move, player)
        if state.turn != turn_before:  # a box was written: the seat's turn is over
            seat = (state.start + turn_before) % n
            card = state.cards[seat]
            total = card_total(card, state.bonuses[seat]) + table.value(*card_state(card))
            seats[seat]["curve"].append(round(total, 4))
    scores = state.scores()
    for s, entry in enumerate(seats):
        decisions = entry["decisions"]
        total_loss = sum(d["loss"] for d in decisions)
        entry["total_loss"] = round(total_loss, 4)
        entry["mean_loss"] = round(total_loss / len(decisions), 4) if decisions else 0.0
        costly = sorted((d for d in decisions if d["loss"] > 0), key=lambda d: (-d["loss"], d["index"]))
        entry["mistakes"] = costly[:top]
        entry["final"] = scores[s] if state.is_terminal() else None
        entry["score"] = scores[s]
    return {"game": "penta", "complete": state.is_terminal(), "certainty": "exact", "start_value": round(table.value(0, 0, 0), 4), "seats": seats}


# --- command line (declared in GAME.cli_commands, run by pygame_core/__main__.py) -----------------------------------
def _solve_arguments(parser) -> None:
    parser.add_argument("--recompute", action="store_true", help="run tools/solve_penta.py (needs numpy)")
    parser.add_argument("--rules", choices=["penta", "official", "verhoeff"], default="penta", help="with --recompute")


def _solve_run(args) -> dict:
    if not args.recompute:
        table = get_table()
        return {"game": "penta", "rules": table.rules, "start_value": round(table.start, 4), "source": "table"}
    import importlib.util
    import time
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "tools" / "solve_penta.py"
    spec = importlib.util.spec_from_file_location("solve_penta", path)
    if spec is None or not path.exists():
        raise OSError(f"generator not found: {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    started = time.perf_counter()
    dense = module.solve(rules=args.rules)
    start = float(dense[0, 0, 0])
    return {
        "game": "penta",
        "rules": args.rules,
        "start_value": round(start, 4),
        "source": "recomputed",
        "seconds": round(time.perf_counter() - started, 1),
    }


def _advise_arguments(parser) -> None:
    parser.add_argument("file", help="a game record; advice for the position at its end")


def _advise_run(args) -> dict:
    from ...record import Record

    with open(args.file, encoding="utf-8") as handle:
        record = Record.loads(handle.read())
    if record.game != "penta":
        raise ValueError(f"This record is for {record.game}, not penta.")
    state = record.replay()
    options = advise(state)
    return {
        "game": "penta",
        "seat": None if state.is_terminal() or state.is_chance() else state.seat(),
        "dice": list(state.dice),
        "rolls": state.rolls,
        "moves": [{"move": o["move"], "expected": round(o["value"], 4)} for o in options],
    }


CLI_COMMANDS = {"solve": (_solve_arguments, _solve_run), "advise": (_advise_arguments, _advise_run)}

"""Generate pygame_core/games/penta/data/values.bin: the optimal Penta solitaire state values.

    python tools/solve_penta.py                    # Penta rules, writes the shipped table
    python tools/solve_penta.py --rules verhoeff   # Yahtzee as Verhoeff solved it: 254.5896
    python tools/solve_penta.py --out FILE         # write elsewhere

Needs numpy (the `solver` extra). Backward induction over the turn-start states (used boxes,
upper total capped at 63, Penta box holds 50), layer by layer from the full card down. Inside a
layer the masks are processed in chunks with every (p, u) variant dense, so each numpy operation
covers thousands of states. Only element-wise operations are used (no BLAS reductions), in the
same order as the pure-Python search in `pygame_core/games/penta/solver.py`, so the output is
identical bit for bit on every machine and reproducible in pure Python. The file format is
documented at the top of that module.

Rules:
- penta    — shared/rules/penta.md: the forced joker and the +100 bonus only while the Penta box
             holds 50; a Penta after the box was spent with 0 is an ordinary roll.
- official — official Yahtzee, forced joker: once the Yahtzee box is filled (50 or 0) a Yahtzee
             must go to its upper box if free, else to any free lower box (joker values),
             else to an upper box (0); the +100 bonus only if the box holds 50. Optimum 254.5877.
- verhoeff — official Yahtzee as interpreted by T. Verhoeff's Optimal Solitaire Yahtzee Player
             (the published 254.5896): once the Yahtzee box is filled a Yahtzee may go to any free
             box, and Full house / straights get joker values only if its upper box is used.
             `--rules verhoeff` reproduces 254.5896, which checks the solver's machinery.

Start values (expected final total of a solitaire game, float64): penta 254.4848 (254.48484588),
official 254.5877 (254.58772873), verhoeff 254.5896 (254.58960948). About 40 s on one core.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.games.penta import solver as ps  # noqa: E402
from pygame_core.games.penta.rules import BOXES, JOKER_LOWER, PENTA_BONUS, UPPER_BONUS  # noqa: E402

RULES = {"penta": 0, "official": 1, "verhoeff": 2}
OUT = ROOT / "pygame_core" / "games" / "penta" / "data" / "values.bin"
NB = len(BOXES)
CAP = ps.CAP
NK = len(ps.KEEPS)
FR = ps.FIRST_ROLL
CHUNK = 64  # masks per vectorised batch (arrays of 462 x 64*128 float64 = 30 MB)

U = np.arange(CAP + 1)
FACE_COUNT = [np.array(fc) for fc in ps.FACE_COUNT]
NORMAL = [np.array(row, dtype=np.int64) for row in ps.NORMAL]
LEVELS = [[i for i, k in enumerate(ps.KEEPS) if len(k) == n] for n in range(6)]
CHILD = np.array(ps.CHILD, dtype=np.intp)
SUBS = np.array([(s + (s[0],) * 5)[:5] if s else (0,) * 5 for s in ps.SUBS], dtype=np.intp)
JOKER_POINTS = {"three_kind": None, "four_kind": None, "full_house": 25, "small_straight": 30,
                "large_straight": 40, "chance": None}  # None: the sum of the dice


def _final_values(V: np.ndarray, ms: np.ndarray, rules: str) -> np.ndarray:
    """W3 for a chunk of masks: shape (252, C, 2, 64)."""
    C = len(ms)
    w = np.full((ps.N_ROLLS, C, 2, CAP + 1), -np.inf)
    for b in range(NB):
        free = ((ms >> b) & 1) == 0
        if not free.any():
            continue
        Vn = V[ms | (1 << b)]  # (C, 2, 64)
        if b < 6:
            f = b + 1
            cand = np.empty((6, C, 2, CAP + 1))
            for c in range(6):
                s = f * c
                nu = np.minimum(CAP, U + s)
                pts = s + np.where((U < CAP) & (U + s >= CAP), UPPER_BONUS, 0)
                cand[c] = pts + Vn[:, :, nu]
            val = cand[FACE_COUNT[b]]
        elif b == ps.PENTA_BIT:
            v0 = Vn[:, 0:1, :]
            v50 = 50 + Vn[:, 1:2, :]
            is5 = (NORMAL[b] != 0)[:, None, None, None]
            val = np.where(is5, v50[None], v0[None])
        else:
            val = NORMAL[b][:, None, None, None] + Vn[None]
        np.maximum(w, np.where(free[None, :, None, None], val, -np.inf), out=w)
    # Pentas with the joker in force.
    penta_used = ((ms >> ps.PENTA_BIT) & 1) == 1
    p = np.arange(2)[:, None]  # (2, 1)
    bonus = PENTA_BONUS * p
    if rules == "penta":  # only while the Penta box holds 50
        joker = penta_used[:, None, None] & (p == 1)[None]
    else:
        joker = penta_used[:, None, None] & np.ones((2, 1), dtype=bool)[None]
    if not joker.any():
        return w
    for f in range(1, 7):
        r = ps.PENTA_ROLLS[f - 1]
        s = 5 * f
        own = f - 1
        own_free = ((ms >> own) & 1) == 0
        nu = np.minimum(CAP, U + s)
        pts = s + np.where((U < CAP) & (U + s >= CAP), UPPER_BONUS, 0) + bonus  # (2, 64)
        own_val = pts + V[ms | (1 << own)][:, :, nu]
        low = np.full((len(ms), 2, CAP + 1), -np.inf)
        any_low = np.zeros(len(ms), dtype=bool)
        for box in JOKER_LOWER:
            b = BOXES.index(box)
            free = ((ms >> b) & 1) == 0
            js = JOKER_POINTS[box] if JOKER_POINTS[box] is not None else s
            val = (js + bonus) + V[ms | (1 << b)]
            np.maximum(low, np.where(free[:, None, None], val, -np.inf), out=low)
            any_low |= free
        up = np.full((len(ms), 2, CAP + 1), -np.inf)
        for b in range(6):
            if b == own:
                continue
            free = ((ms >> b) & 1) == 0
            val = (0 + bonus) + V[ms | (1 << b)]
            np.maximum(up, np.where(free[:, None, None], val, -np.inf), out=up)
        if rules == "verhoeff":
            # Any free box; Full house / straights take joker values only once the own upper
            # box is used (with it free they score as usual: 0).
            plain = np.full((len(ms), 2, CAP + 1), -np.inf)
            for box in JOKER_LOWER:
                b = BOXES.index(box)
                free = ((ms >> b) & 1) == 0
                ps_ = 0 if JOKER_POINTS[box] is not None else s
                np.maximum(plain, np.where(free[:, None, None], (ps_ + bonus) + V[ms | (1 << b)], -np.inf), out=plain)
            jv = np.where(own_free[:, None, None], np.maximum(own_val, np.maximum(plain, up)), np.maximum(low, up))
        else:
            jv = np.where(own_free[:, None, None], own_val, np.where(any_low[:, None, None], low, up))
        w[r] = np.where(joker, jv, w[r])
    return w


def _expect(w: np.ndarray) -> np.ndarray:
    """K over all 462 keeps from the 252 roll values (rows), same order as penta_solver._expect."""
    K = np.empty((NK,) + w.shape[1:])
    K[FR:] = w
    for n in range(4, -1, -1):
        idx = LEVELS[n]
        ch = CHILD[idx]
        acc = K[ch[:, 0]] + K[ch[:, 1]]
        for j in range(2, 6):
            acc += K[ch[:, j]]
        K[idx[0] : idx[-1] + 1] = acc / 6
    return K


def _best(K: np.ndarray, stop: np.ndarray) -> np.ndarray:
    B = np.empty_like(K)
    B[0] = K[0]
    for n in range(1, 6):
        idx = LEVELS[n]
        sl = slice(idx[0], idx[-1] + 1)
        sub = SUBS[idx]
        m = stop.copy() if n == 5 else K[sl].copy()
        for j in range(5):
            np.maximum(m, B[sub[:, j]], out=m)
        B[sl] = m
    return B[FR:]


def _layer_values(V: np.ndarray, ms: np.ndarray, rules: str) -> np.ndarray:
    w3 = _final_values(V, ms, rules)
    C = len(ms)
    w3 = w3.reshape(ps.N_ROLLS, -1)
    w2 = _best(_expect(w3), w3)
    w1 = _best(_expect(w2), w3)
    return _expect(w1)[0].reshape(C, 2, CAP + 1)


def solve(rules: str = "penta", min_used: int = 0, progress=None) -> np.ndarray:
    """Dense float64 values V[mask, p, u] for every mask with at least `min_used` boxes used.

    Masks with fewer used boxes are left NaN. V[full card] = 0.
    """
    V = np.full((1 << NB, 2, CAP + 1), np.nan)
    V[(1 << NB) - 1] = 0.0
    popcount = np.array([bin(m).count("1") for m in range(1 << NB)])
    for used in range(NB - 1, min_used - 1, -1):
        masks = np.nonzero(popcount == used)[0]
        for start in range(0, len(masks), CHUNK):
            ms = masks[start : start + CHUNK]
            V[ms] = _layer_values(V, ms, rules)
        if progress:
            progress(used, len(masks))
    return V


def flat_index() -> np.ndarray:
    """Positions in the dense V (mask*128 + p*64 + u) of the stored values, in file order."""
    offsets, slots, sizes, total = ps.layout()
    out = np.empty(total, dtype=np.int64)
    for mask in range(ps.FULL):
        umask = mask & 63
        reps = {}
        for u in range(CAP + 1):  # the smallest total of each slot (0 for the shared slot)
            reps.setdefault(slots[umask][u], u)
        us = [reps[slot] for slot in range(sizes[umask])]
        pos = offsets[mask]
        for p in ((0, 1) if mask >> ps.PENTA_BIT & 1 else (0,)):
            for u in us:
                out[pos] = mask * 2 * (CAP + 1) + p * (CAP + 1) + u
                pos += 1
    assert pos == total
    return out


def pack(V: np.ndarray, rules: str) -> bytes:
    idx = flat_index()
    values = V.reshape(-1)[idx].astype("<f4")
    header = ps.HEADER.pack(ps.MAGIC, ps.VERSION, RULES[rules], len(values), 0, float(V[0, 0, 0]))
    return header + values.tobytes()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", choices=list(RULES), default="penta")
    parser.add_argument("--out", help=f"output file (default for penta rules: {OUT.relative_to(ROOT)})")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    out = Path(args.out) if args.out else (OUT if args.rules == "penta" else None)
    started = time.perf_counter()

    def progress(used, n):
        if not args.quiet:
            print(f"layer {used:2d} used boxes: {n:5d} masks  {time.perf_counter() - started:6.1f} s", file=sys.stderr)

    V = solve(args.rules, progress=progress)
    data = pack(V, args.rules)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    print(json.dumps({
        "rules": args.rules,
        "start_value": round(float(V[0, 0, 0]), 4),
        "start_value_full": float(V[0, 0, 0]),
        "values": (len(data) - ps.HEADER.size) // 4,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "file": str(out) if out else None,
        "seconds": round(time.perf_counter() - started, 1),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())

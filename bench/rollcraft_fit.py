"""Fit a linear correction of RollCraft T8's evaluation from self-play positions
(bench/rollcraft_fit_collect.py): final score − ai.value(position) regressed on the evaluation's
components and their products with the rounds left. Prints the fit, its out-of-sample error
against the uncorrected evaluation (games split in two halves), and the coefficients.

    python bench/rollcraft_fit.py /tmp/fit.jsonl [/tmp/fit2.jsonl ...] [--phases plus,passive] [--ridge 1] [--low [--rho R]]

`--low` adds the five components about what runes pay (ai.LOW_FIT): the learnt lowest zone L (each
zone's final points calibrated on its forecast, ai.ZONE_CAL; their soft minimum, spread
ai.LOW_SPREAD · sqrt(r/6)), runes·L, r/6·runes·L, (runes + runes still to come)·L, L and r/6·L, and
prints LIN_FIT, LOW_FIT, ZONE_CAL, LOW_SPREAD and RUNES_PER_ROUND. ai.py's constants are this
model on 400 pooled solo games of hard, which a checkout of e480af2 plays again exactly
(`bench/rollcraft_fit_collect.py --level hard`): seeds "fit:0".."fit:199" with `ai.W["lin_fit"] = 0`
set before the run (hard before any correction), "fit2a:0".."fit2a:99" and "fit2b:0".."fit2b:99"
as it is (hard with the components-only correction). Collected again on 2026-12-03 and fitted
with `--low --rho 0.42`, they give ai.py's constants digit for digit (`--low` alone fits rho 0.45:
other LOW_FIT numbers, the same correction to four decimals).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pygame_core.games.rollcraft import ai  # noqa: E402
from pygame_core.games.rollcraft.sheet import Sheet  # noqa: E402


def components(sheet: Sheet, left: float, r: float) -> dict:
    zones, expected, rune_term, act = ai.value_parts(sheet, left, r)
    return {"zones": zones, "expected": expected, "now": sheet.zone_scores(), "runes": sheet.runes,
            "rune_term": rune_term, "act": act, "value": ai.value(sheet, left, r)}


def load(paths, phases: set) -> list:
    rows, g = [], -1
    for g, line in enumerate(line for path in ([paths] if isinstance(paths, str) else paths) for line in open(path)):
        game = json.loads(line)
        final = Sheet.from_json(game["final"])
        for p in game["positions"]:
            if phases and p["phase"] not in phases:
                continue
            sheet = Sheet.from_json(p["sheet"])
            c = components(sheet, p["left"], p["rounds_left"])
            c.update(game=g, r=p["rounds_left"], total=game["total"], final_zones=final.zone_scores(),
                     final_runes=final.runes)
            rows.append(c)
    return rows


def features(c: dict) -> list[float]:
    r = c["r"] / 6.0
    base = list(c["zones"]) + [c["rune_term"], c["runes"], c["act"]]
    return [1.0, r] + base + [r * x for x in base]


NAMES = ["1", "r"] + [f"{n}" for n in ("grey", "yellow", "blue", "green", "pink", "rune_term", "runes", "act")] + [
    f"r*{n}" for n in ("grey", "yellow", "blue", "green", "pink", "rune_term", "runes", "act")]


def fit(rows, ridge, featurize=None):
    X = np.array([(featurize or features)(c) for c in rows])
    y = np.array([c["total"] - c["value"] for c in rows])
    reg = ridge * np.eye(X.shape[1])
    reg[0, 0] = reg[1, 1] = 0
    return np.linalg.solve(X.T @ X + reg, X.T @ y)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path", nargs="+")
    parser.add_argument("--phases", default="plus,passive")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--low", action="store_true", help="also the five components of the learnt lowest zone")
    parser.add_argument("--rho", type=float, help="runes still to come per round left (default: fitted)")
    parser.add_argument("--json", help="with --low: also write the constants to this file (rollcraft_paired.py --const-file)")
    args = parser.parse_args()
    rows = load(args.path, set(filter(None, args.phases.split(","))))
    if args.low:
        fit_low(rows, args.ridge, args.rho, args.json)
        return
    games = max(c["game"] for c in rows) + 1
    print(f"{len(rows)} positions, {games} games")
    for half in (0, 1):
        train = [c for c in rows if c["game"] % 2 != half]
        test = [c for c in rows if c["game"] % 2 == half]
        beta = fit(train, args.ridge)
        for lo, hi in ((0, 2), (2, 4), (4, 7)):
            sub = [c for c in test if lo <= c["r"] < hi]
            e0 = np.array([c["total"] - c["value"] for c in sub])
            e1 = e0 - np.array([features(c) for c in sub]) @ beta
            print(f"half {half} r in [{lo},{hi}): n={len(sub)} rmse eval {np.sqrt((e0 ** 2).mean()):.2f} "
                  f"(bias {e0.mean():+.2f}, sd {e0.std():.2f}) -> corrected sd {e1.std():.2f}")
    beta = fit(rows, args.ridge)
    print(json.dumps({n: round(float(b), 4) for n, b in zip(NAMES, beta)}))
    # each zone's final points against its forecast, by rounds left
    for k, z in enumerate(("grey", "yellow", "blue", "green", "pink")):
        out = []
        for lo, hi in ((0, 1.5), (1.5, 3), (3, 4.5), (4.5, 7)):
            sub = [c for c in rows if lo <= c["r"] < hi]
            d = np.mean([c["final_zones"][k] - c["expected"][k] for c in sub])
            out.append(f"{d:+.1f}")
        print(z, "final - expected by r [0,1.5),[1.5,3),[3,4.5),[4.5,6]:", " ".join(out))
    report_rune_model(rows)



# --- the rune term learnt: each zone's final points calibrated on its forecast, the lowest final
# zone as a soft minimum of the calibrated forecasts, runes still to come per round left ---------
def calibrate(rows):
    """Per zone: final_k ≈ a + b·expected_k + c·r + d·r·expected_k (least squares)."""
    out = []
    for k in range(5):
        X = np.array([[1.0, c["expected"][k], c["r"], c["r"] * c["expected"][k]] for c in rows])
        y = np.array([c["final_zones"][k] for c in rows])
        out.append(np.linalg.lstsq(X, y, rcond=None)[0])
    return out


def forecasts(c, cal):
    return [float(a + b * e + cc * c["r"] + d * c["r"] * e) for (a, b, cc, d), e in zip(cal, c["expected"])]


def softmin(xs, tau):
    if tau <= 1e-9:
        return min(xs)
    m = min(xs)
    return m - tau * np.log(sum(np.exp(-(x - m) / tau) for x in xs))


def rune_model(rows):
    cal = calibrate(rows)
    best = None
    for t0 in (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0, 25.0):
        err = [softmin(forecasts(c, cal), t0 * np.sqrt(c["r"] / 6.0)) - min(c["final_zones"]) for c in rows]
        mse = float(np.mean(np.square(err)))
        if best is None or mse < best[0]:
            best = (mse, t0, float(np.mean(err)))
    # runes still to come ≈ rho · r
    r = np.array([c["r"] for c in rows])
    more = np.array([c["final_runes"] - c["runes"] for c in rows])
    rho = float((r @ more) / (r @ r))
    return cal, best, rho


def report_rune_model(rows):
    for half in (0, 1):
        train = [c for c in rows if c["game"] % 2 != half]
        test = [c for c in rows if c["game"] % 2 == half]
        cal, (mse, t0, bias), rho = rune_model(train)
        low = np.array([min(c["final_zones"]) for c in test])
        e_old = np.array([min(c["expected"]) for c in test]) - low
        e_new = np.array([softmin(forecasts(c, cal), t0 * np.sqrt(c["r"] / 6.0)) for c in test]) - low
        print(f"half {half}: lowest final zone from min(expected): rmse {np.sqrt((e_old ** 2).mean()):.2f} "
              f"bias {e_old.mean():+.2f}; learnt (tau0 {t0}): rmse {np.sqrt((e_new ** 2).mean()):.2f} "
              f"bias {e_new.mean():+.2f}; rho {rho:.3f}")
    cal, (mse, t0, bias), rho = rune_model(rows)
    print("CAL =", [[round(float(x), 4) for x in row] for row in cal], "TAU0 =", t0, "RHO =", round(rho, 4))



def low_features(c: dict, cal, tau0: float, rho: float) -> list[float]:
    """`features` and the five components of ai.LOW_FIT, as ai.value computes them."""
    r = c["r"] / 6.0
    low = softmin(forecasts(c, cal), tau0 * np.sqrt(r))
    runes = c["runes"]
    return features(c) + [runes * low, r * runes * low, (runes + rho * c["r"]) * low, low, r * low]


def fit_low(rows, ridge, rho_fixed=None, out=None) -> None:
    """The correction with the learnt lowest zone: out-of-sample errors by halves, then the constants.
    The runes still to come per round (rho) hardly matters: runes·L and r·L are components too, so
    another rho moves weight between LOW_FIT's terms and leaves the correction the same."""
    def model(train):
        cal, (_, t0, _), rho = rune_model(train)
        rho = rho_fixed if rho_fixed is not None else round(rho, 2)
        return cal, t0, rho, fit(train, ridge, lambda c: low_features(c, cal, t0, rho))
    for half in (0, 1):
        train = [c for c in rows if c["game"] % 2 != half]
        test = [c for c in rows if c["game"] % 2 == half]
        cal, t0, rho, beta = model(train)
        base = fit(train, ridge)
        e0 = np.array([c["total"] - c["value"] for c in test])
        e1 = e0 - np.array([features(c) for c in test]) @ base
        e2 = e0 - np.array([low_features(c, cal, t0, rho) for c in test]) @ beta
        print(f"half {half}: n={len(test)} error sd: uncorrected {e0.std():.2f}, components {e1.std():.2f}, "
              f"with the lowest zone {e2.std():.2f}")
    cal, t0, rho, beta = model(rows)
    print("LIN_FIT =", tuple(round(float(b), 4) for b in beta[:18]))
    print("LOW_FIT =", tuple(round(float(b), 4) for b in beta[18:]))
    print("ZONE_CAL =", tuple(tuple(round(float(x), 4) for x in row) for row in cal))
    print("LOW_SPREAD =", t0, " RUNES_PER_ROUND =", rho)
    if out:  # for bench/rollcraft_paired.py --const-file
        constants = {"LIN_FIT": [round(float(b), 4) for b in beta[:18]], "LOW_FIT": [round(float(b), 4) for b in beta[18:]],
                     "ZONE_CAL": [[round(float(x), 4) for x in row] for row in cal], "LOW_SPREAD": t0,
                     "RUNES_PER_ROUND": rho}
        Path(out).write_text(json.dumps(constants))


if __name__ == "__main__":
    main()

"""Cephalopod review benchmark: the time to review a typical 5×5 game, and how much of it is exact.

    python bench/cephalopod_review.py [--games 4] [--seed 1] [--nodes N] [--levels medium,medium] [--capped]

Games: seeded 5×5 games between two levels (default Medium-vs-Medium; typically 125–160 moves,
like games against Hard; Hard-vs-Medium and Medium-vs-Easy for a person's game). For each: the
review's wall and CPU seconds with the shipped budget (`review.REVIEW_NODES` a decision, the time
caps lifted so that the node budget decides), the decisions, the disputes (the first look calls
the move a mistake) and how many of them Hard's search settled (and to 0), how many decisions
are graded exactly (the endgame solver) and from how many moves before the end, with the empty
squares there; for a Hard seat, the share of its decisions graded 0 (the bench knows the levels,
the review does not). The levels play on their own time caps too: on a heavily loaded machine
those can bind and change the games.
Prints one JSON object; bench/cephalopod_review_pyodide.mjs runs the same `measure` under Pyodide
in Node (there the review's own time caps apply, as in the browser's worker).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pygame_core.ai import self_play
from pygame_core.games.cephalopod import review as rv


class Counting:
    """Wraps the review's two looks: the disputes, and each one settled (True: to no mistake); a
    dispute the time cap cut short (its first look returned as it was) does not count."""

    def __init__(self) -> None:
        self.first_look, self.settle_one = rv.first_look, rv.settle
        self.disputes, self.settled = 0, []

    def look(self, *args, **kwargs):
        graded = self.first_look(*args, **kwargs)
        self.disputes += graded is not None and rv.disputed(graded)
        return graded

    def settle(self, state, graded, *args, **kwargs):
        out = self.settle_one(state, graded, *args, **kwargs)
        if out is not graded:
            self.settled.append(out["value"] >= out["best_value"])
        return out


def measure(games: int = 4, seed: int = 1, nodes: int | None = None, capped: bool = False,
            levels: str = "medium,medium") -> dict:
    """`capped`: keep the review's time caps (as the browser does) instead of lifting them."""
    nodes = nodes or rv.REVIEW_NODES
    caps = {} if capped else {"seconds": 60.0, "settle_seconds": 60.0, "total_seconds": 600.0}
    seats = levels.split(",")
    rows = []
    for k in range(games):
        # the default levels keep the seeds (and so the games) of the earlier Medium-vs-Medium runs
        record, _ = self_play("cephalopod", seats, seed=f"{seed}:{k}", start=k % 2)
        counts = Counting()
        rv.first_look, rv.settle = counts.look, counts.settle
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            result = rv.review(record, nodes=nodes, **caps)
        finally:
            rv.first_look, rv.settle = counts.first_look, counts.settle_one
        disputes, settled = counts.disputes, counts.settled
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        decisions = sorted((d for s in result["seats"] for d in s["decisions"]), key=lambda d: d["index"])
        exact = [d["index"] for d in decisions if d["exact"]]
        first = exact[0] if exact else None
        empty = None
        if first is not None:
            empty = 25 - sum(1 for c in record.replay(first).cells if c)
        hard = [s for s, level in enumerate(seats) if level == "hard"]
        hards = [d for s in hard for d in result["seats"][s]["decisions"]]
        rows.append({"moves": len(record.moves), "decisions": len(decisions), "seconds": round(wall, 2),
                     "cpu_seconds": round(cpu, 2), "disputes": disputes, "settled": len(settled),
                     "settled_to_zero": sum(settled),
                     "hard_graded_zero": f"{sum(d['loss'] == 0 for d in hards)}/{len(hards)}" if hard else None,
                     "exact": len(exact),
                     "exact_from_moves_before_end": len(record.moves) - first if exact else None,
                     "empty_squares_there": empty, "certainty": result["certainty"]})
    return {"bench": "cephalopod_review", "python": platform.python_version(), "platform": sys.platform,
            "nodes_per_decision": nodes, "capped": capped, "levels": levels, "games": rows,
            "mean_seconds": round(sum(r["seconds"] for r in rows) / len(rows), 2),
            "mean_cpu_seconds": round(sum(r["cpu_seconds"] for r in rows) / len(rows), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--capped", action="store_true", help="keep the review's time caps")
    parser.add_argument("--levels", default="medium,medium", help="the two seats' levels, e.g. hard,medium")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    print(json.dumps(measure(args.games, args.seed, args.nodes, args.capped, args.levels)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

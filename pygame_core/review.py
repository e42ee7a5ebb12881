"""What every game's review (`review(record)`, see docs/ARCHITECTURE.md) sums up the same way."""

from __future__ import annotations


def sum_up_seat(entry: dict, score, top: int) -> None:
    """A seat's graded `decisions` summed up in place: `total_loss`, `mean_loss`, its `top`
    costliest `mistakes` (costliest first, then in the order played) and its `score`."""
    decisions = entry["decisions"]
    total = sum(d["loss"] for d in decisions)
    entry["total_loss"] = round(total, 2)
    entry["mean_loss"] = round(total / len(decisions), 3) if decisions else 0.0
    entry["mistakes"] = sorted((d for d in decisions if d["loss"] > 0), key=lambda d: (-d["loss"], d["index"]))[:top]
    entry["score"] = score

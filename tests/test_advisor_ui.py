"""Pure helpers of the Penta advisor/review UI (web/dicehall/advisor.py) on CPython."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "web"))
sys.path.insert(0, str(ROOT))

from dicehall.advisor import curve_geometry, fmt, move_words  # noqa: E402
from dicehall.i18n import Catalog  # noqa: E402

EN = json.loads((ROOT / "web" / "i18n" / "en.json").read_text(encoding="utf-8"))


def test_moves_in_words():
    t = Catalog("en", EN).t
    assert move_words(t, "keep 5 5 5") == "Keep 5 5 5"
    assert move_words(t, "keep") == "Reroll all dice"
    assert move_words(t, "score full_house") == "Write in Full house"
    assert t("advisor.option", move=move_words(t, "keep 5 5 5"), expected=fmt(236.43)) == "Keep 5 5 5 → 236.4"


def test_curve_geometry_shared_scale():
    pts, low, high, steps = curve_geometry({0: [254.5, 250.0, 200.0], 1: [254.5, 260.2, 127.0]}, 320, 200, 34)
    assert (low, high, steps) == (120, 270, 2)
    assert pts[0][0][0] == 34 and pts[0][-1][0] == 320 - 34
    ys = [y for p in pts.values() for _, y in p]
    assert min(ys) >= 34 and max(ys) <= 200 - 34

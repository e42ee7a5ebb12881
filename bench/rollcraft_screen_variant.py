"""Screen one evaluation variant of RollCraft's hard (rollcraft-hard6): load its constants into ai,
then run bench/rollcraft_levels.py with the remaining arguments.

    nice -n 19 python bench/rollcraft_screen_variant.py bench/rollcraft_hard6_variants.json Yd25 --games 80 --seed k --levels hard --scores
"""
import json, sys, runpy
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from pygame_core.games.rollcraft import ai
cfg = json.load(open(sys.argv[1]))[sys.argv[2]]
if "fit" in cfg:
    ai.LIN_FIT3 = (tuple(cfg["fit"]), tuple(tuple(x) for x in cfg["cal"]), cfg["tau0"], cfg["rho"])
if "lin" in cfg:
    ai.LIN_FIT = tuple(cfg["lin"]); ai._LIN_TERMS = tuple(zip(ai.LIN_FIT[2:10], ai.LIN_FIT[10:18]))
for k, v in cfg.get("W", {}).items():
    ai.W[k] = v
sys.argv = ["rollcraft_levels.py"] + sys.argv[3:]
runpy.run_path(str(ROOT / "bench" / "rollcraft_levels.py"), run_name="__main__")

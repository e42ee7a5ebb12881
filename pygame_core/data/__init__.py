"""Package data: penta_values.bin (optimal Penta state values, made by tools/solve_penta.py)."""

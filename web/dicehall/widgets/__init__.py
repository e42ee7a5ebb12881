"""Widgets written once for every game: each returns escaped HTML from plain data.

seats (symbols, seat labels, the seat bar), dice (d6 pips, d8 numerals, custom faces, holds),
board (N×N with coordinates), scorecard (rows × seats), banner (prompt, last turn), countdown,
actionbar, hint (advisor panel), review (post-game grading), plot (one SVG line plot), results.
"""

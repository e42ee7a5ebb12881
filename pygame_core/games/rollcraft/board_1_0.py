"""Board 1.0 of RollCraft T8: the JSON block of the rules file (section 14), verbatim.

The board is data: a board 1.1 is a new module like this one (and its name in `board.BOARDS`);
the engine reads every number and bonus from it. The app ships only Python sources in its
zip, so the JSON text lives in a string here rather than in `data/`.
"""

BOARD_JSON = r"""
{
  "game": "RollCraft T8",
  "boardVersion": "1.0",
  "dice": {
    "colors": ["grey", "yellow", "blue", "green", "pink", "white"],
    "faces": 8
  },
  "roundsByPlayerCount": {"1": 6, "2": 6, "3": 5, "4": 4},
  "roundBenefits": ["reroll", "plusOne", "return", "question:black", null, null],
  "regularRollsPerActiveTurn": 3,
  "soloPassive": {"diceRolled": 6, "lowestToPlatter": 3},
  "zones": {
    "grey": {
      "boxesPerColumn": 4,
      "columns": [
        {"value": 1, "points": 5, "bonus": "lock"},
        {"value": 2, "points": 6, "bonus": "question:yellow"},
        {"value": 3, "points": 7, "bonus": "plusOne"},
        {"value": 4, "points": 9, "bonus": "question:pink"},
        {"value": 5, "points": 11, "bonus": "question:green"},
        {"value": 6, "points": 13, "bonus": "rune"},
        {"value": 7, "points": 16, "bonus": "t8:blue"},
        {"value": 8, "points": 19, "bonus": "t8:yellow"}
      ]
    },
    "yellow": {
      "rows": 6,
      "cols": 4,
      "boxes": [
        {"id": "Y1", "row": 1, "col": 1, "value": 3},
        {"id": "Y2", "row": 1, "col": 3, "value": 6},
        {"id": "Y3", "row": 2, "col": 2, "value": 1},
        {"id": "Y4", "row": 2, "col": 4, "value": 5},
        {"id": "Y5", "row": 3, "col": 1, "value": 7},
        {"id": "Y6", "row": 3, "col": 3, "value": 4},
        {"id": "Y7", "row": 4, "col": 2, "value": 4},
        {"id": "Y8", "row": 4, "col": 4, "value": 2},
        {"id": "Y9", "row": 5, "col": 1, "value": 5},
        {"id": "Y10", "row": 5, "col": 3, "value": 8},
        {"id": "Y11", "row": 6, "col": 2, "value": 6},
        {"id": "Y12", "row": 6, "col": 4, "value": 3}
      ],
      "rowBonuses": ["question:blue", "return", "t8:pink", null, "lock", "question:grey"],
      "colBonuses": ["reroll", "rune", "plusOne", null],
      "pointsByCompletedBoxes": [0, 6, 15, 26, 38, 52, 68, 86, 106, 128, 152, 178, 206]
    },
    "blue": {
      "sumMin": 2,
      "sumMax": 16,
      "boxes": [
        {"box": 1, "points": 1, "bonus": null},
        {"box": 2, "points": 3, "bonus": "return"},
        {"box": 3, "points": 5, "bonus": "question:yellow"},
        {"box": 4, "points": 8, "bonus": "t8:grey"},
        {"box": 5, "points": 12, "bonus": "lock"},
        {"box": 6, "points": 16, "bonus": "reroll"},
        {"box": 7, "points": 21, "bonus": "question:pink"},
        {"box": 8, "points": 27, "bonus": "t8:green"},
        {"box": 9, "points": 34, "bonus": "rune"},
        {"box": 10, "points": 42, "bonus": "plusOne"},
        {"box": 11, "points": 51, "bonus": null},
        {"box": 12, "points": 61, "bonus": "question:grey"}
      ]
    },
    "green": {
      "boxes": [
        {"box": 1, "pair": 1, "position": "first", "multiplier": 1, "bonus": null},
        {"box": 2, "pair": 1, "position": "second", "multiplier": 1, "bonus": "reroll"},
        {"box": 3, "pair": 2, "position": "first", "multiplier": 2, "bonus": "question:blue"},
        {"box": 4, "pair": 2, "position": "second", "multiplier": 2, "bonus": "return"},
        {"box": 5, "pair": 3, "position": "first", "multiplier": 2, "bonus": null},
        {"box": 6, "pair": 3, "position": "second", "multiplier": 1, "bonus": "plusOne"},
        {"box": 7, "pair": 4, "position": "first", "multiplier": 2, "bonus": "question:grey"},
        {"box": 8, "pair": 4, "position": "second", "multiplier": 2, "bonus": "t8:yellow"},
        {"box": 9, "pair": 5, "position": "first", "multiplier": 3, "bonus": "question:pink"},
        {"box": 10, "pair": 5, "position": "second", "multiplier": 3, "bonus": "question:yellow"}
      ]
    },
    "pink": {
      "boxes": [
        {"box": 1, "threshold": null, "bonus": null},
        {"box": 2, "threshold": 3, "bonus": "lock"},
        {"box": 3, "threshold": 4, "bonus": "reroll"},
        {"box": 4, "threshold": 5, "bonus": "plusOne"},
        {"box": 5, "threshold": 6, "bonus": "question:grey"},
        {"box": 6, "threshold": 7, "bonus": "t8:blue"},
        {"box": 7, "threshold": 8, "bonus": "rune"}
      ]
    }
  }
}
"""

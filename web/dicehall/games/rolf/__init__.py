"""Rolf The Dice's view package: the play screen (`view.py`), its catalogs (`i18n/`) and styles."""

from .view import RolfView

VIEW = RolfView()

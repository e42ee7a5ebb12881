"""Cephalopod's view package: the play screen (`view.py`), its catalogs (`i18n/`), styles and the
in-page benchmark (`bench.py`)."""

from .view import CephalopodView

VIEW = CephalopodView()

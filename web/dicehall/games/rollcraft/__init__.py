"""RollCraft T8's view package: the play screen (`view.py`), its catalogs (`i18n/`) and styles."""

from .view import RollCraftView

VIEW = RollCraftView()

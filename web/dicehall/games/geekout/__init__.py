"""Geek Out! Masters' view package: the play screen (`view.py`), its catalogs (`i18n/`) and styles."""

from .view import GeekOutView

VIEW = GeekOutView()

"""Dice Hall front end (runs under PyScript/Pyodide; `i18n` and `results` are pure Python)."""

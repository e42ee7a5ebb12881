"""Message catalogs: flat keys, `{name}` placeholders. Pure Python (tested under CPython)."""

from __future__ import annotations

import re

LANGUAGES = {
    "en": ("English", "ltr"),
    "nb": ("Norsk bokmål", "ltr"),
    "sv": ("Svenska", "ltr"),
    "pl": ("Polski", "ltr"),
    "ar": ("العربية", "rtl"),
}
DEFAULT = "en"
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
# Parameters that carry players' names: isolated (FSI … PDI) so right-to-left text or bidi
# controls in a name cannot reorder the sentence around it.
NAME_PARAMS = {"name", "names", "players"}
FSI, PDI = "\u2068", "\u2069"


def isolate(text: str) -> str:
    return f"{FSI}{text}{PDI}"


def pick_language(preferred) -> str:
    """The first supported language among BCP-47 tags such as 'nb-NO', 'no', 'sv-SE'."""
    for tag in preferred or []:
        base = str(tag).lower().split("-")[0].split("_")[0]
        if base in ("no", "nn"):
            base = "nb"
        if base in LANGUAGES:
            return base
    return DEFAULT


def placeholders(message: str) -> set[str]:
    return set(PLACEHOLDER.findall(message))


class Catalog:
    """Translate keys; a missing key falls back to English, then to the key itself.

    The shared catalog is loaded at boot; each game's own catalog (`web/dicehall/games/<id>/i18n/`,
    every key starting with `<id>.`) is added when the game opens (`add`).
    """

    def __init__(self, lang: str, messages: dict, fallback: dict | None = None) -> None:
        self.lang = lang
        self.messages = dict(messages)
        self.fallback = dict(fallback or {})
        self.games: set[str] = set()

    def add(self, game: str, messages: dict, fallback: dict | None = None) -> None:
        """Add a game's catalog (and its English one as fallback)."""
        self.messages.update(messages)
        self.fallback.update(fallback or {})
        self.games.add(game)

    @property
    def dir(self) -> str:
        return LANGUAGES.get(self.lang, ("", "ltr"))[1]

    def has(self, key: str) -> bool:
        return key in self.messages or key in self.fallback

    def t(self, key: str, **params) -> str:
        message = self.messages.get(key) or self.fallback.get(key) or key
        if not params:
            return message

        def value(match) -> str:
            name = match.group(1)
            if name not in params:
                return match.group(0)
            return isolate(str(params[name])) if name in NAME_PARAMS else str(params[name])

        return PLACEHOLDER.sub(value, message)

    def error(self, err) -> str:
        """The player-language sentence for an engine error with `code` (and `params`)."""
        code = getattr(err, "code", None)
        params = dict(getattr(err, "params", {}) or {})
        if code and self.has(code):
            # A parameter naming a game thing is shown in words: a code "<game>.…" with
            # `box="fours"` reads the key "<game>.box.fours" when the catalog has it.
            prefix = code.split(".", 1)[0]
            for name, value in params.items():
                key = f"{prefix}.{name}.{value}"
                if self.has(key):
                    params[name] = self.t(key)
            return self.t(code, **params)
        return self.t("error.unexpected")

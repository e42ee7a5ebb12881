"""Message catalogs: flat keys, `{name}` placeholders, CLDR plural forms, number formats.

A message is a string, or a plural message: `{"plural": "n", "one": "{n} roll left", "other":
"{n} rolls left"}` with the CLDR categories of its language (PLURAL_FORMS); the number in the
named parameter picks the form. Pure Python (tested under CPython).
"""

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


# CLDR plural categories each language uses (https://cldr.unicode.org, "Language Plural Rules").
PLURAL_FORMS = {
    "en": ("one", "other"),
    "nb": ("one", "other"),
    "sv": ("one", "other"),
    "pl": ("one", "few", "many", "other"),
    "ar": ("zero", "one", "two", "few", "many", "other"),
}
DECIMAL_COMMA = {"nb", "sv", "pl"}


def plural_category(lang: str, n) -> str:
    """The CLDR plural category of the number `n` in `lang` (numbers with a fraction: "other")."""
    if isinstance(n, float) and not n.is_integer():
        return "other"
    try:
        i = abs(int(n))
    except (TypeError, ValueError):
        return "other"
    if lang == "pl":
        if i == 1:
            return "one"
        if 2 <= i % 10 <= 4 and not 12 <= i % 100 <= 14:
            return "few"
        return "many"
    if lang == "ar":
        if i in (0, 1, 2):
            return ("zero", "one", "two")[i]
        if 3 <= i % 100 <= 10:
            return "few"
        if 11 <= i % 100 <= 99:
            return "many"
        return "other"
    return "one" if i == 1 else "other"


def format_number(lang: str, value: float, decimals: int = 0) -> str:
    """`value` with `decimals` digits and the language's decimal sign (a comma in nb, sv, pl)."""
    text = f"{value:.{decimals}f}"
    return text.replace(".", ",") if lang in DECIMAL_COMMA else text


def forms(message) -> list[str]:
    """The texts of a message: itself, or each plural form of a plural message."""
    if isinstance(message, dict):
        return [v for k, v in message.items() if k != "plural"]
    return [message]


def placeholders(message) -> set[str]:
    """Placeholders of a message (of all its plural forms)."""
    return set().union(*(set(PLACEHOLDER.findall(text)) for text in forms(message)))


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
        if isinstance(message, dict):
            # {"plural": "n", "one": "...", "other": "..."}: the form for the number in `n`
            count = params.get(message.get("plural", "n"))
            message = message.get(plural_category(self.lang, count)) or message.get("other") or key
        if not params:
            return message

        def value(match) -> str:
            name = match.group(1)
            if name not in params:
                return match.group(0)
            return isolate(str(params[name])) if name in NAME_PARAMS else str(params[name])

        return PLACEHOLDER.sub(value, message)

    def __call__(self, key: str, **params) -> str:
        """A catalog is its own `t`: views get it as `ctx.t` and can also ask `t.number(...)`."""
        return self.t(key, **params)

    def number(self, value: float, decimals: int = 0) -> str:
        return format_number(self.lang, value, decimals)

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


async def add_game(catalog: Catalog, game: str, fetch_json, english: dict) -> None:
    """Add `game`'s own strings to `catalog` (fetched with `fetch_json`; its English ones once, kept
    in `english` by game): to this catalog, even if another has replaced it in the app meanwhile."""
    if game in catalog.games:
        return
    if game not in english:
        english[game] = await fetch_json(f"./i18n/{game}/en.json")
    lang = catalog.lang
    messages = english[game] if lang == "en" else await fetch_json(f"./i18n/{game}/{lang}.json")
    catalog.add(game, messages, english[game])

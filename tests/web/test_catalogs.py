"""Message catalogs: the shared one (web/i18n/) and each game's own (web/dicehall/games/<id>/i18n/).

Same keys and placeholders in all five languages, game keys in their game's namespace only,
every engine message code and every key the front-end code uses defined."""

from __future__ import annotations

import importlib
import json
import re

import pytest

from dicehall.i18n import LANGUAGES, PLURAL_FORMS, Catalog, format_number, forms, pick_language, placeholders, plural_category
from pygame_core.registry import entries, get_entry
from support import GAME_ROOTS, LANGS, ROOT, game_web_dir, load_catalog

WEB = ROOT / "web"
GAMES = list(entries())
SHARED = {lang: load_catalog(lang) for lang in LANGS}


def own(lang: str, game: str) -> dict:
    return json.loads((game_web_dir(game) / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def test_languages_are_the_five():
    assert sorted(LANGUAGES) == sorted(LANGS)
    for lang in LANGS:
        assert (WEB / "i18n" / f"{lang}.json").is_file()
        for game in GAMES:
            assert (game_web_dir(game) / "i18n" / f"{lang}.json").is_file(), (game, lang)


@pytest.mark.parametrize("game", [None, *GAMES])
def test_same_keys_and_placeholders_everywhere(game):
    catalogs = {lang: SHARED[lang] if game is None else own(lang, game) for lang in LANGS}
    english = catalogs["en"]
    for lang, messages in catalogs.items():
        assert sorted(set(english) - set(messages)) == [], (lang, "missing")
        assert sorted(set(messages) - set(english)) == [], (lang, "extra")
        for key, message in messages.items():
            if isinstance(message, dict):  # a plural message: exactly the language's CLDR forms
                assert isinstance(english[key], dict) and message["plural"] == english[key]["plural"], (lang, key)
                assert set(message) - {"plural"} == set(PLURAL_FORMS[lang]), (lang, key)
                selector = message["plural"]
                for category, text in message.items():
                    if category != "plural" and category not in ("zero", "one", "two"):  # those may spell the number
                        assert "{" + selector + "}" in text, (lang, key, category)
                assert placeholders(message) <= placeholders(english[key]) | {selector}, (lang, key)
            else:
                assert placeholders(message) == placeholders(english[key]), (lang, key, message)
            for text in forms(message):
                assert isinstance(text, str) and text.strip(), (lang, key)
                assert text.count("{") == text.count("}"), (lang, key)


def test_games_keep_to_their_namespace():
    for game in GAMES:
        stray = [key for key in own("en", game) if not key.startswith(game + ".")]
        assert stray == [], (game, stray)
    shared_games = [key for key in SHARED["en"] if key.split(".")[0] in GAMES]
    assert shared_games == [], "a game's strings belong in its own catalog"


def engine_sources():
    for root in GAME_ROOTS:
        yield from (root / "pygame_core").rglob("*.py")


def engine_codes() -> dict[str, set[str] | None]:
    """Codes of IllegalMove/RecordError/SaveError with the params raised; prompt() codes (None:
    their params come in a dict, checked by the conformance suite's renders instead)."""
    out: dict[str, set[str]] = {}
    for path in engine_sources():
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'(?:IllegalMove|RecordError|SaveError)\(\s*"([a-z_][\w.]*)",(.*?)\)\n', text, re.S):
            out.setdefault(m.group(1), set()).update(re.findall(r"\b([a-z_]+)=", m.group(2)))
        for code in re.findall(r'(?:IllegalMove|RecordError|SaveError)\(\s*"([a-z_][\w.]*)"', text):
            out.setdefault(code, set())
        for code in re.findall(r'return \(\s*"([a-z_]+\.[\w.]+)"', text):
            out.setdefault(code, None)
    return out


def test_every_engine_code_is_in_a_catalog_with_its_params():
    codes = engine_codes()
    assert {"penta.box_used", "penta.prompt.sacrifice", "record.not_json", "save.corrupt", "error.stale_move",
            "error.cannot_take_back", "claim.taken"} <= set(codes)
    for code, params in codes.items():
        game = code.split(".")[0]
        messages = {**SHARED["en"], **(own("en", game) if game in GAMES else {})}
        assert code in messages, code
        if params is not None:
            assert placeholders(messages[code]) <= params, code


KEY_CALL = re.compile(r'\bt\(\s*(f?)"([^"]+)"')


def pattern(text: str) -> str:
    """An f-string key as a pattern: "penta.box.{b}" -> "penta.box.{}"."""
    return re.sub(r"\{[^{}]*\}", "{}", text)


def game_packages() -> dict[str, object]:
    """Each registered game's view package folder (the project's, the fixtures', any added)."""
    return {game: game_web_dir(game) for game in GAMES}


def used_keys(paths) -> tuple[set[str], set[str]]:
    """Literal keys passed to t() in these Python files, and the patterns of f-string keys."""
    keys, patterns = set(), set()
    for path in paths:
        for m in KEY_CALL.finditer(path.read_text(encoding="utf-8")):
            (patterns if m.group(1) else keys).add(m.group(2) if not m.group(1) else pattern(m.group(2)))
    return keys, patterns


def shared_sources():
    games = WEB / "dicehall" / "games"
    return [p for p in WEB.rglob("*.py") if games not in p.parents]


def test_every_used_key_exists():
    every = dict(SHARED["en"])
    for game in GAMES:
        every.update(own("en", game))
    keys, _ = used_keys(shared_sources())
    assert len(keys) > 50
    for folder in game_packages().values():
        keys |= used_keys(folder.rglob("*.py"))[0]
    assert sorted(k for k in keys if k not in every) == []


def shared_patterns(game: str) -> dict[str, list[str]]:
    """The keys shared code builds at run time: the shell's own, and a game's (title, rules…)."""
    from dicehall import store
    from dicehall.router import SCREENS
    from dicehall.screens.settings import PACES, SWITCHES
    from dicehall.widgets.seats import SYMBOLS

    entry = get_entry(game)
    hint = ["heading", "explain", "best"] if entry.advise is not None else []
    review = ["intro", "loss_help", "plot"] if entry.review is not None else []
    return {
        "settings.{}": [f"settings.{k}" for k in (*SWITCHES, "autofill_seconds", "pace")],
        "settings.pace_{}": [f"settings.pace_{p}" for p in PACES],
        "symbol.{}": [f"symbol.{k}" for k in range(len(SYMBOLS))],
        "aside.what.{}": [f"aside.what.{key.removeprefix(store.PREFIX)}" for key in store.CHECKED],
        "boot.screen.{}": [f"boot.screen.{screen}" for screen in SCREENS],
        "{}.title": [f"{game}.title"], "{}.blurb": [f"{game}.blurb"], "{}.rules.{}": [f"{game}.rules.1"],
        "{}.option.{}": [f"{game}.option.{name}" for name in entry.rules.option_schema],
        **{f"{{}}.hint.{k}": [f"{game}.hint.{k}"] for k in hint},
        **{f"{{}}.review.{k}": [f"{game}.review.{k}"] for k in review},
    }


@pytest.mark.parametrize("game", GAMES)
def test_keys_built_at_run_time_are_declared_and_exist(game):
    """Shared code's patterns make keys every game has; a game's own patterns are declared by its
    view (`GameView.catalog_keys`), and every key they can make is in its catalog."""
    messages = {**SHARED["en"], **own("en", game)}
    shared = shared_patterns(game)
    _, used = used_keys(shared_sources())
    assert used - set(shared) <= {"{}.hint.heading", "{}.hint.explain", "{}.hint.best", "{}.review.intro",
                                  "{}.review.loss_help", "{}.review.plot"}, used - set(shared)
    declared = importlib.import_module(f"dicehall.games.{game}").VIEW.catalog_keys()
    _, own_used = used_keys(game_packages()[game].rglob("*.py"))
    assert own_used <= set(declared), f"{game}: patterns its view does not declare: {own_used - set(declared)}"
    for made, keys in {**shared, **declared}.items():
        regex = re.compile(re.escape(made).replace(r"\{\}", r"[^.{}]+") + "$")
        for key in keys:
            assert regex.match(key), (made, key)
            assert key in messages, (game, made, key)


def test_boot_strings_used_by_index_html():
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for key in re.findall(r'"(boot\.[a-z]+)"', html):
        assert key in SHARED["en"], key


def test_catalog_format_fallback_and_errors_in_words():
    cat = Catalog("sv", SHARED["sv"], SHARED["en"])
    cat.add("penta", own("sv", "penta"), own("en", "penta"))
    assert cat.t("penta.rolls_left", n=2) == "2 kast kvar"
    assert cat.number(254.48, 1) == "254,5" and Catalog("en", SHARED["en"]).number(254.48, 1) == "254.5"
    assert cat.t("no.such.key") == "no.such.key"
    assert Catalog("ar", SHARED["ar"], SHARED["en"]).dir == "rtl"
    assert cat.dir == "ltr"

    class Err(Exception):
        code, params = "penta.unknown_box", {"box": "fours"}

    # a parameter naming a game thing is shown in words (penta.box.fours), generically
    assert cat.error(Err()) == own("sv", "penta")["penta.unknown_box"].replace("{box}", own("sv", "penta")["penta.box.fours"])
    assert cat.error(ValueError("x")) == cat.t("error.unexpected")


def test_pick_language():
    assert pick_language(["nb-NO", "en"]) == "nb"
    assert pick_language(["no"]) == "nb"
    assert pick_language(["de-DE", "sv-SE"]) == "sv"
    assert pick_language(["ar-EG"]) == "ar"
    assert pick_language(["fr"]) == "en"
    assert pick_language([]) == "en"


def test_plural_rules_follow_cldr():
    assert [plural_category("en", n) for n in (0, 1, 2, 1.5)] == ["other", "one", "other", "other"]
    assert [plural_category("pl", n) for n in (1, 2, 4, 5, 12, 14, 21, 22, 25, 112)] == \
        ["one", "few", "few", "many", "many", "many", "many", "few", "many", "many"]
    assert [plural_category("ar", n) for n in (0, 1, 2, 3, 10, 11, 99, 100, 102, 103)] == \
        ["zero", "one", "two", "few", "few", "many", "many", "other", "other", "few"]
    pl = Catalog("pl", SHARED["pl"], SHARED["en"])
    pl.add("penta", own("pl", "penta"), own("en", "penta"))
    assert [pl.t("penta.rolls_left", n=n) for n in (1, 2, 5)] == ["Został 1 rzut", "Zostały 2 rzuty", "Zostało 5 rzutów"]
    ar = Catalog("ar", SHARED["ar"], SHARED["en"])
    assert ar.t("standings.games", n=2) != ar.t("standings.games", n=3) != ar.t("standings.games", n=11)
    assert format_number("sv", 2.25, 2) == "2,25" and format_number("ar", 2.5, 1) == "2.5"

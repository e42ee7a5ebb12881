"""Message catalogs (web/i18n/*.json): same keys and placeholders everywhere, every engine
message code present, every key used by the front-end Python code defined."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
I18N = WEB / "i18n"
LANGS = ["en", "nb", "sv", "pl", "ar"]
sys.path.insert(0, str(WEB))
sys.path.insert(0, str(ROOT))

from dicehall.i18n import LANGUAGES, Catalog, pick_language, placeholders  # noqa: E402


def load(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


CATALOGS = {lang: load(lang) for lang in LANGS}
EN = CATALOGS["en"]


def engine_codes() -> set[str]:
    """Codes of IllegalMove/RecordError/SaveError raised in pygame_core and prompt() codes."""
    codes = set()
    for path in (ROOT / "pygame_core").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'(?:IllegalMove|RecordError|SaveError)\(\s*"([a-z_][\w.]*)"', text))
        codes |= {c for c in re.findall(r'return \(\s*"([a-z_]+\.[\w.]+)"', text)}
    return codes


def engine_params() -> dict[str, set[str]]:
    """Keyword params each engine error code is raised with."""
    out: dict[str, set[str]] = {}
    for path in (ROOT / "pygame_core").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'(?:IllegalMove|RecordError|SaveError)\(\s*"([\w.]+)",(.*?)\)\n', text, re.S):
            out.setdefault(m.group(1), set()).update(re.findall(r"\b([a-z_]+)=", m.group(2)))
    return out


def test_languages_are_the_five():
    assert sorted(LANGUAGES) == sorted(LANGS)
    for lang in LANGS:
        assert (I18N / f"{lang}.json").is_file()


@pytest.mark.parametrize("lang", LANGS[1:])
def test_same_keys(lang):
    cat = CATALOGS[lang]
    assert sorted(set(EN) - set(cat)) == [], "missing"
    assert sorted(set(cat) - set(EN)) == [], "extra"


@pytest.mark.parametrize("lang", LANGS)
def test_same_placeholders_no_empty(lang):
    cat = CATALOGS[lang]
    for key, message in cat.items():
        assert isinstance(message, str) and message.strip(), key
        assert placeholders(message) == placeholders(EN[key]), (lang, key, message)
        assert message.count("{") == message.count("}"), (lang, key)


def test_every_engine_code_present():
    codes = engine_codes()
    assert {"penta.box_used", "penta.prompt.sacrifice", "record.not_json", "save.corrupt"} <= codes
    missing = sorted(c for c in codes if c not in EN)
    assert missing == []


def test_engine_params_are_placeholders():
    for code, params in engine_params().items():
        if code in EN:
            assert placeholders(EN[code]) <= params | {"box"}, code


def test_prompt_codes_from_engine_states():
    from pygame_core.registry import GAMES
    from pygame_core.rng import DiceRoller

    seen = set()
    for game in GAMES.values():
        state = game.new_state({"players": 2})
        roller = DiceRoller(7)
        while not state.is_terminal():
            seen.add(state.prompt()[0])
            if state.is_chance():
                state.apply(roller.roll(state))
            else:
                state.apply(state.legal_moves()[-1])
        seen.add(state.prompt()[0])
    assert seen - set(EN) == set()


def used_keys() -> tuple[set[str], list[str]]:
    """Literal keys passed to t()/has() in web/ Python code, and f-string key patterns."""
    keys, patterns = set(), []
    for path in list(WEB.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'\.(?:t|has)\(\s*(f?)"([^"]+)"', text):
            if m.group(1):
                patterns.append(m.group(2))
            else:
                keys.add(m.group(2))
        keys |= set(re.findall(r'boot_phase\("([^"]+)"\)', text))
    return keys, patterns


def test_every_used_key_exists():
    keys, patterns = used_keys()
    assert len(keys) > 50
    missing = sorted(k for k in keys if k not in EN)
    assert missing == []


def test_dynamic_keys_exist():
    from pygame_core import ai
    from pygame_core.games.penta import BOXES
    from pygame_core.registry import GAMES

    _, patterns = used_keys()
    known = {"penta.box.{box}", "penta.box.{b}", "penta.box.{lbox}", "penta.rule.{b}", "game.{name}",
             "game.{name}.blurb", "game.{game}", "game.{self.table.game}", "symbol.{k}", "ai.level.{level}",
             "{game}.rules.{i}", "penta.box.{params['box']}"}
    assert set(patterns) <= known | {p for p in patterns if p.startswith("penta.box.")}, set(patterns) - known
    for name in GAMES:
        assert f"game.{name}" in EN and f"game.{name}.blurb" in EN and f"{name}.rules.1" in EN
        for level in ai.levels(name):
            assert f"ai.level.{level}" in EN, level
    for box in BOXES:
        assert f"penta.box.{box}" in EN and f"penta.rule.{box}" in EN
    for k in range(5):
        assert f"symbol.{k}" in EN


def test_boot_strings_used_by_index_html():
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for key in re.findall(r'"(boot\.[a-z]+)"', html):
        assert key in EN, key


def test_catalog_format_and_fallback():
    cat = Catalog("sv", CATALOGS["sv"], EN)
    assert cat.t("penta.rolls_left", n=2) == "Kast kvar: 2"
    assert cat.t("no.such.key") == "no.such.key"
    assert Catalog("ar", CATALOGS["ar"], EN).dir == "rtl"
    assert cat.dir == "ltr"

    class Err(Exception):
        code, params = "penta.box_used", {"box": "fours"}

    assert cat.error(Err()) == "Den rutan är redan ifylld."
    assert cat.error(ValueError("x")) == cat.t("error.unexpected")


def test_pick_language():
    assert pick_language(["nb-NO", "en"]) == "nb"
    assert pick_language(["no"]) == "nb"
    assert pick_language(["de-DE", "sv-SE"]) == "sv"
    assert pick_language(["ar-EG"]) == "ar"
    assert pick_language(["fr"]) == "en"
    assert pick_language([]) == "en"


def test_progression_helper():
    from dicehall.results import progression
    from pygame_core.record import Record
    from pygame_core.registry import GAMES
    from pygame_core.rng import DiceRoller

    record = Record("penta", {"players": 2, "start": 1})
    state = record.new_state()
    roller = DiceRoller(3)
    while not state.is_terminal():
        moves = state.legal_moves()
        keep_first = bool(moves) and state.rolls == 1 and moves[0].startswith("keep")
        move = roller.roll(state) if state.is_chance() else (moves[0] if keep_first else moves[-1])
        player = state.current_player()
        state.apply(move, player)
        record.moves.append((player, move))
    series = progression(record)
    assert [len(s) for s in series] == [14, 14]
    assert progression(record, lambda m: m.startswith("score ")) == series
    assert [s[-1] for s in series] == state.scores()
    assert all(s[0] == 0 for s in series)
    assert GAMES["penta"]

"""Each game's rules page says what its contract (../shared/rules/) and its engine say (issue 29,
item 6), in every language, drawn by the real shell on the fake page: Geek Out's six faces drawn
with the play screen's own glyphs (the Dragon a winged dragon) and its last exhaustion line a
paragraph, not a bullet; RollCraft's yellow points table read from the engine's board; Rolf's
corner bonus, skipped throws and totals; Cephalopod's start player and captured dice. Norwegian
uses the seed's words (../shared/seeds/rolf-the-dice.nb.txt)."""

from __future__ import annotations

import re

import pytest
from dicehall.games.geekout.view import ICONS, die_svg
from dicehall.screens.rules import paragraph
from fakehost import run
from fakepage import FakePage, parse
from support import LANGS, load_catalog

from pygame_core.games.geekout.rules import DRAGON, FACE_NAMES
from pygame_core.games.rollcraft.board import BOARD
from pygame_core.registry import entries

pytestmark = pytest.mark.usefixtures("instant_sleep")


def rules_page(game: str, lang: str) -> FakePage:
    """The rules page of `game` opened from its address, as a person would land on it."""
    page = FakePage(lang=lang)

    async def steps():
        page.location = f"#/rules/{game}"
        await page.boot()

    run(steps)
    assert page.screen == "rules" and not page.errors
    return page


def words(html: str) -> str:
    return " ".join(parse(html).text().split())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(entries()))
def test_every_rules_paragraph_is_on_the_page_in_every_language(game, lang):
    text = load_catalog(lang, game)
    page = rules_page(game, lang)
    shown = page.text()
    keys = [k for k in text if re.fullmatch(rf"{game}\.rules\.\d+", k)]
    assert keys
    for key in keys:
        for line in text[key].split("\n"):
            line = line.removeprefix("## ").removeprefix("- ")
            assert " ".join(line.split()) in shown, (key, line)


def test_a_list_paragraph_keeps_its_closing_line_out_of_the_bullets():
    html = paragraph("- one\n- two\nAfter the list.")
    assert html == "<ul><li>one</li><li>two</li></ul><p>After the list.</p>"
    assert paragraph("- only") == "<ul><li>only</li></ul>"


@pytest.mark.parametrize("lang", LANGS)
def test_geekout_exhaustion_ends_with_text_not_a_fourth_bullet(lang):
    page = rules_page("geekout", lang)
    last_line = load_catalog(lang, "geekout")["geekout.rules.10"].split("\n")[-1]
    assert not last_line.startswith("- ")
    items = [" ".join(li.text().split()) for li in page.app.walk() if li.tag == "li"]
    paragraphs = [" ".join(p.text().split()) for p in page.app.walk() if p.tag == "p"]
    assert " ".join(last_line.split()) in paragraphs
    assert not any(last_line[:30] in item for item in items)


@pytest.mark.parametrize("lang", LANGS)
def test_geekout_rules_draw_the_six_faces_as_the_play_screen_does(lang):
    page = rules_page("geekout", lang)
    text = load_catalog(lang, "geekout")
    faces = page.find("rules-faces")
    assert len([el for el in faces.walk() if el.tag == "li"]) == 6
    for face in FACE_NAMES:
        if face:
            assert die_svg(face) in page.html  # the very glyph a die on the table shows
    assert words(page.html).count(text["geekout.face.dragon"]) >= 1
    # The faces come in the "Dice and zones" section, before the scoring table.
    assert page.html.index('data-testid="rules-faces"') < page.html.index('data-testid="rules-score-table"')


def test_geekout_play_screen_draws_its_dice_with_the_same_glyphs():
    from test_geekout_view import EXAMPLE_1, host_at

    body = host_at(EXAMPLE_1).body  # Example 1: every face is on the table
    for face in FACE_NAMES:
        if face:
            assert die_svg(face) in body


def test_the_dragon_is_a_winged_dragon_not_the_old_dog_head():
    dragon = ICONS[DRAGON]
    assert "M14 74 L30 46 L24 20" not in dragon  # the head-only glyph players read as a dog
    assert dragon.count("<path") >= 3  # wing, body with horn and tail, legs


@pytest.mark.parametrize("lang", LANGS)
def test_rollcraft_rules_show_the_engines_yellow_points_table(lang):
    page = rules_page("rollcraft", lang)
    table = page.find("rules-yellow-table")
    cells = [" ".join(td.text().split()) for td in table.walk() if td.tag == "td"]
    expected = [str(x) for n, points in enumerate(BOARD.yellow_points) for x in (n, points)]
    assert cells == expected and expected[:8] == ["0", "0", "1", "6", "2", "15", "3", "26"]
    assert load_catalog(lang, "rollcraft")["rollcraft.yellow_table.caption"] in table.text()


ROLF_FACTS = {  # per language: corner bonus keeps 20 and is everyone's; skipped throw; misses; total
    "en": ["never falls below 20", "Every player can earn it", "the turn passes on, or the extra throw",
           "No miss marks", "Total = group points + diagonal bonus + permanent corner bonus + end bonus"],
    "nb": ["aldri går under 20", "Alle spillere kan oppnå bonusen", "Turen går videre automatisk, eller du får et opptjent ekstrakast",
           "Ingen bommerker telles", "Totalpoeng = gruppepoeng + diagonalbonus + varig hjørnebonus + sluttbonus",
           "«Bekreft · ekstrakast»"],
    "sv": ["aldrig under 20", "Alla spelare kan få den", "går turen vidare, eller så följer det extrakast",
           "Inga missar räknas", "Total = grupppoäng + diagonalbonus + bestående hörnbonus + slutbonus"],
    "pl": ["nigdy nie spada poniżej 20", "Każdy gracz może ją zdobyć", "kolej przechodzi dalej albo następuje zdobyty dodatkowy rzut",
           "Nie ma znaczników pudeł", "Wynik = punkty za grupy + premia za przekątną"],
    "ar": ["أبداً عن 20", "ويمكن لكل لاعب أن يكسبها", "أو تأتي الرمية الإضافية التي كسبتها",
           "لا تُحسب أي علامات إخفاق", "المجموع = نقاط المجموعات"],
}

CEPHALOPOD_FACTS = {  # per language: who starts; captured dice leave the board
    "en": ["drawn at random", "the other player starts", "Captured dice leave the board"],
    "nb": ["trekkes tilfeldig", "starter den andre spilleren", "Fangede terninger forlater brettet"],
    "sv": ["lottas", "börjar den andra spelaren", "Fångade tärningar lämnar brädet"],
    "pl": ["losowanie", "zaczyna ten, kto poprzednio nie zaczynał", "Zbite kości schodzą z planszy"],
    "ar": ["عشوائيًا", "يبدأ اللاعب الآخر", "يغادر النرد الملتقط اللوحة"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_rolf_rules_say_the_corner_bonus_skipped_throws_and_the_total(lang):
    shown = rules_page("rolf", lang).text()
    for fact in ROLF_FACTS[lang]:
        assert fact in shown, fact


@pytest.mark.parametrize("lang", LANGS)
def test_cephalopod_rules_say_who_starts_and_where_captured_dice_go(lang):
    shown = rules_page("cephalopod", lang).text()
    for fact in CEPHALOPOD_FACTS[lang]:
        assert fact in shown, fact


def test_norwegian_uses_the_seeds_words():
    """«Bekreft · ekstrakast» on the button, «Resultatliste» and «Turneringsstilling» as headings."""
    shared, rolf = load_catalog("nb"), load_catalog("nb", "rolf")
    assert rolf["rolf.confirm_extra"] == rolf["rolf.move.extra"] == "Bekreft · ekstrakast"
    assert not any("ekstra kast" in v for v in rolf.values() if isinstance(v, str))
    assert shared["results.heading"] == "Resultatliste"
    assert shared["standings.heading"] == "Turneringsstilling"


def test_rolf_group_table_follows_the_paragraph_on_group_points():
    page = rules_page("rolf", "en")
    explained = load_catalog("en", "rolf")["rolf.rules.13"][:40]
    assert 0 < page.html.index(explained) < page.html.index('data-testid="rules-group-table"')

"""Results that explain the end (issue 29, item 2), under CPython on fixed positions and records:
each game's reason in words from the engine's facts, the final board or cards on the results
screen (read-only, with the final state's content) and counts that agree: the score plot, the
review plot and the reason all count rounds."""

from __future__ import annotations

import re

import pytest
from dicehall.games.cephalopod import VIEW as CEPHALOPOD
from dicehall.games.geekout import VIEW as GEEKOUT
from dicehall.games.penta import VIEW as PENTA
from dicehall.games.rolf import VIEW as ROLF
from dicehall.games.rollcraft import VIEW as ROLLCRAFT
from dicehall.i18n import Catalog
from dicehall.widgets.results import progression
from fakehost import run
from fakepage import FakePage
from support import load_catalog

from pygame_core.ai import self_play
from pygame_core.games.cephalopod import ai as cephalopod_ai
from pygame_core.games.rolf.board import DIAGONAL, NAMES, OFF_DIAGONAL
from pygame_core.match import Match
from pygame_core.registry import get_game
from pygame_core.table import Table

SEATS = [{"name": "Ann", "symbol": "●", "ai": None}, {"name": "Bo", "symbol": "▲", "ai": None},
         {"name": "Cy", "symbol": "■", "ai": None}]
FAST = {"animations": False, "autofill": False}
VIEWS = {"rolf": ROLF, "penta": PENTA, "geekout": GEEKOUT, "rollcraft": ROLLCRAFT, "cephalopod": CEPHALOPOD}


def plain(text: str) -> str:
    """Without the isolation marks the catalog puts around players' names (dicehall.i18n)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def catalog(game: str, lang: str = "en") -> Catalog:
    cat = Catalog(lang, load_catalog(lang), load_catalog("en"))
    cat.add(game, load_catalog(lang, game), load_catalog("en", game))
    return cat


# --- the reasons, from the engine's facts on fixed positions ------------------------------------
def rolf_state(owners: list[int], winner=None, end_seat=None):
    state = get_game("rolf").new_state({"players": 2})
    for seat, mask in enumerate(owners):
        state.owners[seat] = mask
    state.winner, state.end_seat, state.over = winner, end_seat, True
    return state


def test_rolf_says_a_direct_win_by_the_diagonal():
    state = rolf_state([DIAGONAL, 1 << NAMES.index("1-2")], winner=0)
    assert plain(ROLF.end_reason(catalog("rolf"), state, SEATS)) == "Ann owns all six diagonal squares at once: a direct win."


def test_rolf_says_a_direct_win_by_100_points_with_the_total():
    state = rolf_state([0, 0], winner=1)
    state.points[1] = 103  # group points: a total of 100 or more without the diagonal
    assert plain(ROLF.end_reason(catalog("rolf"), state, SEATS)) == "Bo reached 103 points: a direct win (100 or more)."


def test_rolf_says_who_took_the_last_square_off_the_diagonal():
    half = sum(1 << i for i in range(36) if OFF_DIAGONAL >> i & 1 and i % 2)
    state = rolf_state([half, OFF_DIAGONAL & ~half], end_seat=1)
    text = plain(ROLF.end_reason(catalog("rolf"), state, SEATS))
    assert text.startswith("All 30 squares off the diagonal are taken: Bo took the last one (+10 end bonus)")


def test_rolf_a_placement_that_fills_the_board_and_wins_directly_is_the_direct_win():
    state = rolf_state([DIAGONAL | (OFF_DIAGONAL & ~1), 0], winner=0, end_seat=0)
    assert "direct win" in ROLF.end_reason(catalog("rolf"), state, SEATS)


def test_cephalopod_says_the_board_is_full_and_who_has_more_dice():
    _, final = self_play("cephalopod", ["random", "random"], seed=3, options={"size": 3})
    scores = final.scores()
    win = 0 if scores[0] > scores[1] else 1
    text = plain(CEPHALOPOD.end_reason(catalog("cephalopod"), final, SEATS))
    colour = ["White", "Black"][win]
    assert text == (f"The board is full (9 squares): {SEATS[win]['name']} ({colour}) has more dice, "
                    f"{scores[win]} against {scores[1 - win]}.")


def test_cephalopod_a_full_board_with_equal_dice_is_a_shared_win():
    _, final = self_play("cephalopod", ["random", "random"], seed=2, options={"size": 4})  # ends 8 against 8
    assert final.scores() == [8, 8]
    assert CEPHALOPOD.end_reason(catalog("cephalopod"), final, SEATS) == \
        "The board is full (16 squares): 8 dice each, a shared win."


@pytest.mark.parametrize("game, players, expected", [
    ("penta", 2, "Every box on every card is filled: 13 rounds played."),
    ("geekout", 3, "All 5 rounds are played: every player had 5 turns. The highest total wins."),
    ("rollcraft", 2, "The last round is played: 6 rounds with 2 players. The highest total wins."),
    ("rollcraft", 3, "The last round is played: 5 rounds with 3 players. The highest total wins."),
])
def test_round_games_say_the_last_round_and_how_many(game, players, expected):
    _, final = self_play(game, ["random"] * players, seed=2)
    assert VIEWS[game].end_reason(catalog(game), final, SEATS[:players]) == expected


def test_every_reason_exists_in_every_language_without_raw_keys_or_direction_marks():
    cases = {"rolf": rolf_state([DIAGONAL, 0], winner=0), "cephalopod": self_play("cephalopod", ["random"] * 2, 1, options={"size": 3})[1]}
    for game in ("penta", "geekout", "rollcraft"):
        cases[game] = self_play(game, ["random"] * 2, seed=1)[1]
    for lang in ("en", "nb", "sv", "pl", "ar"):
        for game, state in cases.items():
            text = VIEWS[game].end_reason(catalog(game, lang), state, SEATS[:2])
            assert text and f"{game}.end" not in text and "{" not in text, (lang, game, text)
            # no stray direction marks: only the catalog's isolation of names (FSI … PDI)
            assert not re.search("[\u200e\u200f\u202a-\u202e]", text), (lang, game)


# --- the counts: rounds in the score plot, the review plot and the reason -----------------------
@pytest.mark.parametrize("game, players, rounds", [("penta", 2, 13), ("geekout", 3, 5), ("rollcraft", 2, 6),
                                                    ("rollcraft", 4, 4), ("rolf", 2, None), ("cephalopod", 2, None)])
def test_the_score_plot_has_one_point_per_round(game, players, rounds):
    record, final = self_play(game, ["random"] * players, seed=5, options={"size": 3} if game == "cephalopod" else None)
    match = Match(record)
    series = progression(match, VIEWS[game].round_of)
    if rounds is None:  # games that end mid-round count the round they ended in
        turns = match.turns()
        rounds = VIEWS[game].round_of(turns[-1][0][2]) + 1
        if game == "cephalopod":
            assert rounds == (len(record.moves) + 1) // 2
    assert all(len(s) == rounds + 1 for s in series)
    assert [s[-1] for s in series] == final.scores()  # the last point is the final score


def test_cephalopod_review_counts_the_rounds_the_score_plot_counts():
    """Issue 29: the plot said "123 turns" while the review said "63 rounds" of the same game."""
    record, _ = self_play("cephalopod", ["random", "random"], seed=4, options={"size": 3})
    rounds = len(progression(Match(record), CEPHALOPOD.round_of)[0]) - 1
    review = cephalopod_ai.review(record)
    assert rounds == (len(record.moves) + 1) // 2
    assert [len(s["curve"]) - 1 for s in review["seats"]] == [rounds, rounds]


# --- the results screen ----------------------------------------------------------------------------
def finished_page(game: str, players: int, seed: int, lang: str = "en", options: dict | None = None):
    record, final = self_play(game, ["random"] * players, seed=seed, options=options)
    table = Table.from_record(record, [dict(s) for s in SEATS[:players]])
    page = FakePage(settings=FAST, lang=lang, languages=(lang,))
    page.browser.items["dicehall.table"] = table.dumps()
    page.location = "#/play"
    return page, final


def plot_rounds(page) -> int:
    caption = page.find("plot").text()
    return int(re.search(r"\((\d+) rounds?", caption).group(1))


@pytest.mark.parametrize("game, players", [("rolf", 2), ("penta", 2), ("geekout", 3), ("rollcraft", 2), ("cephalopod", 2)])
def test_the_results_screen_says_why_and_shows_the_final_picture(game, players):
    async def steps():
        page, final = finished_page(game, players, seed=7, options={"size": 5} if game == "cephalopod" else None)
        await page.boot()
        assert page.screen == "results", (page.screen, page.toasts, page.spoken)
        reason = page.find("end-reason").text()
        assert reason == VIEWS[game].end_reason(catalog(game), final, SEATS[:players])
        picture = page.find("final-picture")
        assert picture.get("data-game") == game
        # read-only: nothing in it can be tapped but RollCraft's folds
        assert not [el for el in picture.walk() if el.tag == "button" or el.get("data-action")]
        html = page.html
        start = html.index('data-testid="final-picture"')
        inner = html[start: html.index("</section>", start)] if game != "rollcraft" else html[start:]
        if game in ("rolf", "cephalopod"):
            squares = [el for el in picture.walk() if (el.testid or "").startswith("sq-")]
            assert len(squares) == (36 if game == "rolf" else 25)
            filled = [el for el in squares if el.get("class", "").find("owner-" if game == "rolf" else "die") >= 0]
            if game == "rolf":
                assert len(filled) == sum(m.bit_count() for m in final.owners)
            else:
                assert len(filled) == 25 and sum(final.scores()) == 25  # the full board, every die
        elif game == "penta":
            for s in range(players):
                assert page.find(f"final-total-{s}").text() == str(final.scores()[s])
                assert page.find(f"final-{s}-chance").text() == str(final.cards[s]["chance"])
        elif game == "geekout":
            for s in range(players):
                assert page.find(f"total-{s}").text() == str(final.scores()[s])
                assert [page.find(f"pad-{s}-{r}").text() for r in range(1, 6)] == [str(p) for p in final.pad[s]]
        else:
            for s in range(players):
                assert page.find(f"final-total-{s}").text() == str(final.scores()[s])
                assert page.find(f"final-sheet-{s}").tag == "details"
            assert 'data-testid="final-zone-1-pink"' in inner
        # one count: the plot's rounds are the rounds the game had
        turns = Match(page.shell.play.table.record).turns()
        assert plot_rounds(page) == VIEWS[game].round_of(turns[-1][0][2]) + 1
        if game in ("penta", "geekout", "rollcraft"):
            assert f"{plot_rounds(page)} rounds" in reason
        assert not page.errors

    run(steps)


@pytest.mark.parametrize("lang", ["nb", "sv", "pl", "ar"])
def test_the_results_reason_and_picture_in_every_language(lang):
    async def steps():
        page, final = finished_page("rolf", 2, seed=11, lang=lang)  # Ann wins with 105 points
        await page.boot()
        assert page.screen == "results"
        assert page.find("end-reason").text() == ROLF.end_reason(catalog("rolf", lang), final, SEATS[:2])
        assert "Ann" in plain(page.find("end-reason").text()) and "105" in page.find("end-reason").text()
        heading = page.find("final-picture").walk()
        assert any(el.tag == "h2" and el.text().strip() for el in heading)
        assert "results.final" not in page.html and "rolf.end" not in page.html
        assert not page.errors

    run(steps)


@pytest.mark.parametrize("game, options", [("cephalopod", {"size": 3}), ("penta", None)])
def test_the_review_plot_and_the_score_plot_say_the_same_rounds(game, options):
    """On the results screen itself: the review's curve and the score plot count the same rounds
    (Cephalopod's said "63 rounds" beside "123 turns"; Penta's review 13 rounds beside 26 turns)."""
    async def steps():
        page, final = finished_page(game, 2, seed=4, options=options)
        await page.boot()
        await page.tap("review-open")
        review = page.find("review-plot").text()
        rounds = int(re.search(r"\((\d+) rounds?", review).group(1))
        assert rounds == plot_rounds(page)
        if game == "penta":
            assert rounds == 13 and "13 rounds" in page.find("end-reason").text()
        else:
            assert rounds == (final.plies + 1) // 2
        assert not page.errors

    run(steps)

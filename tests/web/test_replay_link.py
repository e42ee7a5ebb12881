"""A replay shared as a link (issue 30, item 1; web/dicehall/replaylink.py): the link of a finished
game of each kind opens, on a phone with nothing stored, the same record (every move the same,
the positions the same); its length is measured and within the stated limit; a tampered link
(any one character changed, cut short, a forged record, a payload that would unpack into
megabytes, one over the limit) is refused in words, never opened as another game; and the file
the replay saves imports as the same record."""

from __future__ import annotations

import base64
import json
import zlib

import pytest
from dicehall import replaylink, store
from dicehall.screens import replay as replay_screen
from fakehost import run
from fakepage import FakePage
from support import load_catalog
from test_replay import GAMES, finished, open_from_history, shown

from pygame_core.record import Record

pytestmark = pytest.mark.usefixtures("instant_sleep")

EN = load_catalog("en")
LENGTHS: dict[str, int] = {}


async def shared_link(game: str, seed: int = 12) -> tuple[str, Record, FakePage]:
    page = FakePage(lang="en", seed=seed)
    await page.boot()
    record = await finished(page, game, players=2)
    await open_from_history(page)
    await page.tap("replay-next")
    await page.tap("replay-link")  # no share sheet here: the clipboard
    assert page.spoken[-1] == EN["replay.link_copied"]
    return page.copied[-1], record, page


async def opened(link: str) -> FakePage:
    """The link opened on another phone (nothing stored)."""
    address, fragment = link.split("#", 1)
    assert address == "https://dice.example/app/index.html"
    page = FakePage(lang="en", hash_="#" + fragment)
    await page.boot()
    return page


@pytest.mark.parametrize("game", GAMES)
def test_a_link_opens_the_same_game_on_another_phone(game):
    async def steps():
        link, record, _ = await shared_link(game)
        fragment = link.split("#", 1)[1]
        assert fragment.startswith("/replay/~") and fragment.endswith("/1")  # at the move it was shared from
        LENGTHS[game] = len(link)
        assert len(fragment.split("/")[2]) <= replaylink.MAX_LINK_CHARS + 1, len(fragment)
        page = await opened(link)
        assert page.screen == "replay" and not page.errors
        replayed = replay_screen._OPEN[page.shell][1]
        assert replayed.record.to_json() == record.to_json()  # the same record, move for move
        assert shown(page).index == 1
        for index in (0, len(record.moves) // 2, len(record.moves)):
            page.shell.change("replay-at", str(index))
            await page.idle()
            assert shown(page).state.to_json() == record.replay(index).to_json()
        assert page.stored(store.REPLAYS) is None  # opening a link keeps nothing
        print(f"{game}: link of {len(link)} characters for {len(record.moves)} moves")

    run(steps)


def test_every_changed_character_is_refused_or_changes_nothing():
    """zlib's checksum: a link with any one character changed is refused (or, for the unused bits
    of base64's last character, unpacks to the very same game)."""
    async def steps():
        link, _, _ = await shared_link("penta")
        text = link.split("#/replay/", 1)[1].rsplit("/", 1)[0]
        original = replaylink.entry(text)["record"]
        refused = same = 0
        alphabet = "AbZ09-_"
        for i in range(1, len(text)):
            for c in alphabet:
                if c == text[i]:
                    continue
                changed = text[:i] + c + text[i + 1:]
                try:
                    got = replaylink.entry(changed)
                except replaylink.LinkError as err:
                    assert err.code == "replay.link_damaged"
                    refused += 1
                    continue
                assert got["record"] == original, (i, c)
                same += 1
        assert refused > 0 and same <= len(alphabet)  # only the last character's spare bits
        for cut in (text[:-1], text[: len(text) // 2], "~", "~!!!!", text + "AAAA"):
            with pytest.raises(replaylink.LinkError):
                replaylink.entry(cut)

    run(steps)


def forged(data) -> str:
    packed = zlib.compress(json.dumps(data).encode(), 9)
    return "~" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_a_tampered_forged_or_oversized_link_is_refused_in_words():
    async def steps():
        link, record, _ = await shared_link("rolf")
        base, fragment = link.split("#", 1)
        text = fragment.split("/")[2]
        middle = len(text) // 2
        tampered = text[:middle] + ("A" if text[middle] != "A" else "B") + text[middle + 1:]
        page = await opened(f"{base}#/replay/{tampered}/0")
        assert page.screen == "replay" and page.text("replay-refused") == EN["replay.link_damaged"]
        assert page.find("replay-refused").get("role") == "alert" and not page.has("replay-board")
        # A record that unpacks but does not hold together: refused like an imported file
        data = {"v": 1, "seats": [{"name": "A", "symbol": "●", "ai": None}, {"name": "B", "symbol": "▲", "ai": None}],
                "record": record.to_json()}
        data["record"]["moves"][4][1] = "take 9 9 9 9"
        page = await opened(f"{base}#/replay/{forged(data)}/0")
        words = page.text("replay-refused")
        assert words.startswith("This game cannot be replayed:") and "Move 5 (take 9 9 9 9)" in words, words
        data["record"] = record.to_json()
        data["seats"] = data["seats"][:1]  # seats that do not match its players
        page = await opened(f"{base}#/replay/{forged(data)}/0")
        assert page.text("replay-refused").startswith("This game cannot be replayed:")
        for junk in ({"v": 2, **{k: v for k, v in data.items() if k != "v"}}, [1, 2], {"v": 1, "seats": 5, "record": {}}):
            page = await opened(f"{base}#/replay/{forged(junk)}/0")
            assert page.text("replay-refused") == EN["replay.link_damaged"], junk
        bomb = "~" + base64.urlsafe_b64encode(zlib.compress(b" " * 1_200_000, 9)).decode().rstrip("=")
        assert len(bomb) <= replaylink.MAX_LINK_CHARS  # small, but it would unpack to 1.2 MB
        page = await opened(f"{base}#/replay/{bomb}/0")
        assert page.text("replay-refused") == EN["replay.link_damaged"]
        page = await opened(f"{base}#/replay/~{'A' * (replaylink.MAX_LINK_CHARS + 1)}/0")
        assert page.text("replay-refused") == EN["replay.link_too_long"]
        assert not page.errors

    run(steps)


def test_the_replay_saved_as_a_file_imports_as_the_same_record():
    async def steps():
        _, record, page = await shared_link("cephalopod")
        await page.tap("replay-export")
        name, text = page.downloads[-1]
        assert name.startswith("dicehall-cephalopod-") and name.endswith(".json")
        other = FakePage(lang="en")
        await other.boot()
        await other.choose_file(text)
        assert other.screen == "results" and other.table().record.to_json() == record.to_json()
        assert [s["name"] for s in other.table().seats] == [s["name"] for s in page.table().seats]

    run(steps)


def test_without_share_sheet_or_clipboard_the_link_is_shown_to_copy():
    async def steps():
        page = FakePage(lang="en", seed=4)
        await page.boot()
        await finished(page, "penta")
        await open_from_history(page)
        page.clipboard = False
        await page.tap("replay-link")
        link = page.find("replay-link-text").text()
        assert "#/replay/~" in link and page.shell.dialog_kind == "replay-link"
        await page.tap("replay-link-close")
        assert page.dialog_el is None

    run(steps)

"""Settings: language, motion, the auto-fill countdown, the computer's pace, feel, hints, the hand-over card, rooms.

Stored settings are read back one by one (SETTINGS_SCHEMA): anything malformed falls back to its
default and is set aside, and the player is told once, so no stored value can stop the app."""

from __future__ import annotations

import json
import weakref

from pygame_core.schema import Bool, Choice, Field, Fields, Invalid, ListOf, Maybe, Report, Text, Via

from ..dom import button, esc
from ..i18n import LANGUAGES
from ..rooms import ROOM_SETTINGS
from ..rooms import check_setting as check_room_setting
from ..store import PREFIX
from ..widgets.guide import MAX_SEEN, NAME

DEFAULT_SETTINGS = {"lang": None, "animations": None, "autofill": True, "autofill_seconds": 3, "hints": False,
                    "pace": "normal", "offline_noted": False, "handover": True,
                    "sound": False, "vibrate": False, "room_server": "", "room_ice": "", "guides_seen": ()}
PACES = ("slow", "normal", "fast")
COUNTDOWN_CHOICES = (2, 3, 5, 10)
SWITCHES = ("animations", "autofill", "hints", "handover", "sound", "vibrate")


def _room_setting(key: str) -> Via:
    return Via(lambda value: check_room_setting(key, value), "a room setting")


# Each stored setting is checked on its own: an unsound one falls back to its default (and is set
# aside, store.Store.load), the others are kept.
SETTINGS_SCHEMA = Fields({
    "lang": Field(Maybe(Text(8, choices=LANGUAGES)), fallback=True),
    "animations": Field(Maybe(Bool()), fallback=True),
    **{key: Field(Bool(), fallback=True, default=DEFAULT_SETTINGS[key])
       for key in ("autofill", "hints", "handover", "offline_noted", "sound", "vibrate")},
    "autofill_seconds": Field(Choice(*COUNTDOWN_CHOICES), fallback=True, default=3),
    "pace": Field(Text(8, choices=PACES), fallback=True, default="normal"),
    **{key: Field(_room_setting(key), fallback=True, default="") for key in ROOM_SETTINGS},
    # The guides already seen (widgets/guide.py): an unsound list shows the guides again.
    "guides_seen": Field(ListOf(Text(40, test=NAME.match), MAX_SEEN, salvage=True), fallback=True, default=()),
}, report_extra=True)


def check_settings(data) -> tuple[dict, bool]:
    """Stored settings, each checked, and whether all of them were sound."""
    if data is None:
        return dict(DEFAULT_SETTINGS), True
    report = Report()
    try:
        return SETTINGS_SCHEMA.check(data, "$", report), not report.dropped
    except Invalid:
        return dict(DEFAULT_SETTINGS), False


def render(app) -> str:
    t, settings = app.t, app.settings
    opts = "".join(f'<option value="{code}"{" selected" if code == app.lang else ""} lang="{code}">{esc(name)}</option>'
                   for code, (name, _) in LANGUAGES.items())

    def check(field: str, on: bool, help_key: str | None = None) -> str:
        out = (f'<label class="check"><input type="checkbox" data-field="{field}" data-testid="set-{field}"'
               f'{" checked" if on else ""}> {esc(t(f"settings.{field}"))}</label>')
        return out + (f'<p class="muted">{esc(t(help_key))}</p>' if help_key else "")

    def choice(field: str, testid: str, values, current, label) -> str:
        return (f'<label>{esc(t(f"settings.{field}"))} <select data-field="{field}" data-testid="{testid}">'
                + "".join(f'<option value="{v}"{" selected" if v == current else ""}>{esc(label(v))}</option>'
                          for v in values) + "</select></label>")

    return (f'<section class="screen settings" aria-labelledby="settings-h"><h1 id="settings-h">{esc(t("settings.heading"))}</h1>'
            f'<div class="card"><label>{esc(t("settings.language"))} <select data-field="lang" data-testid="set-lang">{opts}</select></label>'
            + check("animations", app.animations)
            + check("autofill", bool(settings.get("autofill", True)), "settings.autofill_help")
            + choice("autofill_seconds", "set-autofill-seconds", COUNTDOWN_CHOICES, settings.get("autofill_seconds", 3),
                     lambda n: t("settings.seconds", n=n))
            + choice("pace", "set-pace", PACES, settings.get("pace", "normal"), lambda p: t(f"settings.pace_{p}"))
            + check("sound", bool(settings.get("sound"))) + check("vibrate", bool(settings.get("vibrate")))
            + check("hints", bool(settings.get("hints", False)), "settings.hints_help")
            + check("handover", bool(settings.get("handover", True)), "settings.handover_help")
            + guides_again(app) + "</div>"
            + advanced(app) + set_aside(app) +
            '<div class="actionbar">' + button(esc(t("nav.back")), action="go", arg=app.back_target(), cls="btn primary big",
                                               testid="settings-back") + "</div></section>")


def guides_again(app) -> str:
    """The guided first turns (widgets/guide.py) once more: the guides seen are forgotten."""
    return ('<div class="row">' + button(esc(app.t("settings.guides_again")), action="guides-again", cls="btn small",
                                         testid="guides-again", disabled=not app.settings.get("guides_seen")) + "</div>")


def _guides_again(app, arg) -> None:
    app.settings["guides_seen"] = []
    app.save_settings()
    app.render()
    app.say(app.t("settings.guides_again_done"))


# Whether a person opened or closed the "Advanced" fold on this visit (per shell; a view state,
# never saved): a redraw draws the fold anew, as they left it.
_FOLDED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def advanced(app) -> str:
    """The rooms' meeting server and STUN/TURN servers, folded under "Advanced" (a native
    <details>: its summary opens it by tap, Enter or Space). A redraw draws the fold anew: open
    as the person last left it on this visit, else open whenever one of its fields holds a value
    (a person who set one sees it)."""
    t, settings = app.t, app.settings
    server, ice = settings.get("room_server", ""), settings.get("room_ice", "")
    is_open = _FOLDED.get(app, bool(server or ice))
    return (f'<div class="card"><h2>{esc(t("settings.rooms"))}</h2>'
            f'<details class="advanced" data-testid="settings-advanced"{" open" if is_open else ""}>'
            f'<summary data-testid="settings-advanced-summary" data-action="settings-advanced">'
            f'{esc(t("settings.advanced"))}</summary>'
            f'<label>{esc(t("settings.room_server"))} <input type="url" data-field="room_server" data-testid="set-room-server" '
            f'value="{esc(server)}" placeholder="https://…" autocomplete="off"></label>'
            f'<p class="muted">{esc(t("settings.room_server_help"))}</p>'
            f'<label>{esc(t("settings.room_ice"))} <input type="text" data-field="room_ice" data-testid="set-room-ice" '
            f'value="{esc(ice)}" autocomplete="off"></label>'
            f'<p class="muted">{esc(t("settings.room_ice_help"))}</p></details></div>')


def set_aside(app) -> str:
    """The stored values that failed their check (store.Store.load), offered for Export."""
    kept = app.store.aside()
    if not kept:
        return ""
    t = app.t
    items = "".join(f'<li><bdi>{esc(t(f"aside.what.{key.removeprefix(PREFIX)}"))}</bdi> · '
                    f'{esc(app.page.date_text(entry["when"], app.lang))}</li>'
                    for key, entry in sorted(kept.items(), key=lambda kv: kv[1]["when"]))
    return (f'<div class="card" data-testid="set-aside"><h2>{esc(t("aside.heading"))}</h2>'
            f'<p class="muted">{esc(t("aside.help"))}</p><ul>{items}</ul><div class="row">'
            + button(esc(t("aside.export")), action="aside-export", cls="btn", testid="aside-export")
            + button(esc(t("aside.delete")), action="aside-delete", cls="btn", testid="aside-delete")
            + "</div></div>")


def _export_aside(app, arg) -> None:
    kept = app.store.aside()
    if kept:
        app.page.download("dicehall-set-aside.json", json.dumps(kept, ensure_ascii=False, indent=1))


def _delete_aside(app, arg) -> None:
    app.store.forget_aside()
    app.render()


def _toggle_advanced(app, arg) -> None:
    settings = app.settings
    _FOLDED[app] = not _FOLDED.get(app, bool(settings.get("room_server") or settings.get("room_ice")))
    app.render()


ACTIONS = {"aside-export": _export_aside, "aside-delete": _delete_aside, "guides-again": _guides_again,
           "settings-advanced": _toggle_advanced}


# --- form fields -----------------------------------------------------------------------------
def _lang(app, value: str, checked: bool, data: dict) -> None:
    if value in LANGUAGES:
        app.settings["lang"] = value
        app.save_settings()
        app.later(app.change_language(value))


def _pace(app, value: str, checked: bool, data: dict) -> None:
    if value in PACES:
        app.settings["pace"] = value
        app.save_settings()


def _seconds(app, value: str, checked: bool, data: dict) -> None:
    if value.isdigit() and int(value) in COUNTDOWN_CHOICES:
        app.settings["autofill_seconds"] = int(value)
        app.save_settings()


def _room(field: str):
    def change(app, value: str, checked: bool, data: dict) -> None:
        try:
            app.settings[field] = check_room_setting(field, value[:500])
        except ValueError:
            app.say(app.t("settings.room_server_bad" if field == "room_server" else "settings.room_ice_bad"), error=True)
            return
        app.save_settings()
    return change


def _switch(field: str):
    def change(app, value: str, checked: bool, data: dict) -> None:
        app.settings[field] = bool(checked)
        app.save_settings()
        if field == "autofill" and not checked:
            app.play.cancel_countdown(render=False)
    return change


FIELDS = {"lang": _lang, "pace": _pace, "autofill_seconds": _seconds,
          **{field: _room(field) for field in ROOM_SETTINGS}, **{field: _switch(field) for field in SWITCHES}}

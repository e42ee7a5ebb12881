"""Penta play screen: SVG dice, holds, rolls, the score card, AI pacing and the auto-fill countdown.

All rules come from the engine (`pygame_core.games.penta`); this module only displays them.
UI state in `app.ui` (saved with the table): `held` display slots, `order` display slot -> engine
die position, `box` the selected box.
"""

from __future__ import annotations

import asyncio
import time

from pygame_core import ai
from pygame_core.games.penta import (
    BOXES,
    LOWER,
    PENTA_BONUS,
    ROLLS_PER_ROUND,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_THRESHOLD,
    allowed_boxes,
    joker_applies,
    keep_positions,
    upper_total,
    write_score,
)
from pygame_core.protocol import IllegalMove

from ..advisor import curve_geometry, fmt, move_words
from ..dom import attrs, button, esc

PIPS = {
    1: [(50, 50)],
    2: [(27, 27), (73, 73)],
    3: [(27, 27), (50, 50), (73, 73)],
    4: [(27, 27), (73, 27), (27, 73), (73, 73)],
    5: [(27, 27), (73, 27), (50, 50), (27, 73), (73, 73)],
    6: [(27, 27), (73, 27), (27, 50), (73, 50), (27, 73), (73, 73)],
}


LOCK_SVG = ('<svg viewBox="0 0 20 20" focusable="false"><rect x="4" y="9" width="12" height="9" rx="2" fill="currentColor"/>'
            '<path d="M6.5 9V6.5a3.5 3.5 0 0 1 7 0V9" fill="none" stroke="currentColor" stroke-width="2.2"/></svg>')


def die_svg(value: int) -> str:
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="9" class="pip"/>' for x, y in PIPS.get(value, []))
    blank = ' stroke-dasharray="8 6"' if not value else ""
    return (f'<svg class="die-svg" viewBox="0 0 100 100" aria-hidden="true" focusable="false">'
            f'<rect x="4" y="4" width="92" height="92" rx="18" class="face"{blank}/>{pips}</svg>')


# --- UI state helpers ----------------------------------------------------------------------
def order(app) -> list[int]:
    o = app.ui.get("order")
    return o if isinstance(o, list) and sorted(o) == [0, 1, 2, 3, 4] else [0, 1, 2, 3, 4]


def held(app) -> list[int]:
    return sorted({int(k) for k in app.ui.get("held", []) if 0 <= int(k) < 5})


def shown(state, app) -> list[int]:
    o = order(app)
    return [state.dice[o[k]] for k in range(5)]


def is_person(app, seat: int) -> bool:
    return not app.table.seats[seat]["ai"]


def last_score(app):
    """(seat, box, dice, points) of the last written box, cached by record length."""
    record = app.table.record
    key = (id(record), len(record.moves))
    cache = getattr(app, "_last_score", None)
    if cache and cache[0] == key:
        return cache[1]
    result = None
    for i in range(len(record.moves) - 1, -1, -1):
        player, move = record.moves[i]
        if move.startswith("score "):
            before = record.replay(i)
            box = move[6:]
            result = (player, box, list(before.dice), write_score(before.cards[player], box, before.dice))
            break
    app._last_score = (key, result)
    return result


# --- actions ---------------------------------------------------------------------------------
def play_roll(app) -> None:
    """The chance move for the current roll (dice shown changing, briefly animated)."""
    table = app.table
    rolling = list(table.state.rolling or [])
    table.play(app.roller.roll(table.state))
    o = order(app)
    app.rolled = {k for k in range(5) if o[k] in rolling}
    app.ui["box"] = None


def keep_and_roll(app, seat: int, slots: list[int]) -> None:
    """Send `keep <values of held dice>` and rearrange the display so held dice stay put."""
    state = app.table.state
    o = order(app)
    values = [state.dice[o[k]] for k in slots]
    app.table.play("keep " + " ".join(map(str, values)) if values else "keep", seat)
    kept_positions = keep_positions(state.dice, values) or []
    free = list(kept_positions)
    new = [None] * 5
    for k in slots:  # pair each held slot with a kept engine position of the same value
        v = state.dice[o[k]]
        pos = next(p for p in free if state.dice[p] == v)
        free.remove(pos)
        new[k] = pos
    rolling = [p for p in range(5) if p not in kept_positions]
    for k in range(5):
        if new[k] is None:
            new[k] = rolling.pop(0)
    app.ui["order"] = new
    app.ui["held"] = list(slots)


def new_round(app) -> None:
    app.ui = {"held": [], "order": [0, 1, 2, 3, 4], "box": None}


def handle(app, action: str, arg) -> None:
    table = app.table
    if action in ("review-open", "review-seat"):  # results screen: the game is over
        app.review_open = id(table.record)
        app.want_penta_table()  # retried here after a failed load
        if action == "review-seat":
            app.review_seat = None if arg in (None, "all") else int(arg)
        app.render()
        return
    if table is None or table.state is None or table.state.is_terminal():
        return
    state = table.state
    seat = state.seat()
    if not is_person(app, seat) or app.busy:
        return
    if action == "toggle":
        if state.is_chance() or state.rolls >= ROLLS_PER_ROUND:
            return
        k = int(arg)
        h = set(held(app))
        h ^= {k}
        app.ui["held"] = sorted(h)
        app.cancel_countdown()
        app.save_ui()
        app.render()
    elif action == "roll":
        app.cancel_countdown()
        try:
            if state.is_chance():
                play_roll(app)
            else:
                keep_and_roll(app, seat, held(app))
                play_roll(app)
        except IllegalMove as err:
            app.say(app.catalog.error(err), error=True)
            app.render()
            return
        app.after_move()
        app.say(prompt_text(app))
        app.kick()
    elif action == "box":
        app.cancel_countdown()
        app.ui["box"] = None if app.ui.get("box") == arg else arg
        app.save_ui()
        app.render()
    elif action == "confirm":
        box = app.ui.get("box")
        if not box:
            return
        score_box(app, seat, box)
    elif action == "hint":
        app.cancel_countdown()  # time to read the advice
        show_hint(app)
    elif action == "stop-countdown":
        app.countdown_stopped = len(table.record.moves)
        app.cancel_countdown()


def score_box(app, seat: int, box: str) -> None:
    app.cancel_countdown()
    try:
        app.table.play(f"score {box}", seat)
    except IllegalMove as err:
        app.say(app.catalog.error(err), error=True)
        app.render()
        return
    new_round(app)
    app.after_move()
    app.say(prompt_text(app))
    app.kick()


async def auto_turns(app) -> None:
    """Play AI seats (paced so people can follow) and run the auto-fill countdown."""
    table = app.table
    while app.table is table and table.state is not None and not table.state.is_terminal():
        state = table.state
        seat = state.seat()
        ai_level = table.seats[seat]["ai"]
        if state.is_chance():
            if not ai_level and state.rolls == 0:
                break  # a person presses Roll
            if ai_level:
                app.thinking = True
                app.render()
                await asyncio.sleep(app.pace())
                if app.table is not table or table.state is not state:
                    return
            play_roll(app)
            app.after_move()
            continue
        if ai_level:
            app.thinking = True
            app.render()
            started = time.monotonic()
            await app.penta_table_ready()
            move = await app.ai_move(state.clone(), ai_level)
            await asyncio.sleep(max(0.0, app.pace() - (time.monotonic() - started)))
            if app.table is not table or table.state is not state:
                return
            if move.startswith("keep"):
                kept = list(map(int, move.split()[1:]))
                shown_values = shown(state, app)
                slots, pool = [], list(kept)
                for k, v in enumerate(shown_values):
                    if v in pool:
                        pool.remove(v)
                        slots.append(k)
                keep_and_roll(app, seat, slots)
            else:
                table.play(move, seat)
                new_round(app)
            app.after_move()
            continue
        break
    app.thinking = False
    state = table.state
    if app.table is not table or state is None or state.is_terminal():
        if app.table is table:
            app.render()
        return
    app.render()
    app.say(prompt_text(app))
    if (state.rolls >= ROLLS_PER_ROUND and app.settings.get("autofill", True)
            and getattr(app, "countdown_stopped", None) != len(table.record.moves)
            and (app.countdown_task is None or app.countdown_task.done())):
        app.countdown_task = asyncio.ensure_future(countdown(app, state))


async def countdown(app, state) -> None:
    table = app.table
    for n in (3, 2, 1):
        app.countdown = n
        el = app.element("countdown")
        if el is None:
            app.render()
        else:
            el.textContent = app.t("penta.countdown", n=n)
        await asyncio.sleep(1)
        if app.table is not table or table.state is not state:
            return
    app.countdown = None
    app.countdown_task = None
    await app.penta_table_ready()
    if app.table is not table or table.state is not state:
        return
    box = ai.choose_move(state.clone())[len("score "):]
    score_box(app, state.seat(), box)


# --- rendering -------------------------------------------------------------------------------
def prompt_text(app) -> str:
    state = app.table.state
    if state.is_terminal():
        return app.t("prompt.game_over")
    seat = state.seat()
    name = app.table.seats[seat]["name"]
    if app.table.seats[seat]["ai"]:
        return app.t("play.thinking", name=name)
    code, params = state.prompt()
    if code == "penta.prompt.rolling" and state.rolls == 0:
        code = "penta.prompt.roll"
    return app.t("play.turn", name=name) + " " + app.t(code, **params)


def render_play(app) -> str:
    table, state = app.table, app.table.state
    seat = state.seat()
    person = is_person(app, seat)
    rolled = state.rolls > 0 and not (state.is_chance() and state.rolls == 0)
    values = shown(state, app)
    h = held(app) if person else [k for k in range(5) if state.rolling is not None and order(app)[k] not in state.rolling and state.rolls > 0]
    if not person and not state.is_chance():
        h = []
    can_hold = person and not state.is_chance() and state.rolls < ROLLS_PER_ROUND and not app.thinking
    anim = app.animations
    rolled_now = getattr(app, "rolled", set())
    app.rolled = set()

    # players strip
    scores = state.scores()
    chips = []
    for s, info in enumerate(table.seats):
        cur = s == seat
        flash = " flash" if s in app.flash and anim else ""
        kind = ""
        chips.append(f'<li class="chip{" current" if cur else ""}"{attrs(aria_current="true" if cur else None, data_testid=f"player-{s}")}>'
                     f'{app.symbol_html(info["symbol"])} <span class="pname">{esc(info["name"])}</span>'
                     f'{f" <small>{esc(kind)}</small>" if kind else ""}'
                     f'<span class="num chip-total{flash}" data-testid="player-total-{s}">{scores[s]}</span></li>')
    round_no = min(state.round() + 1, 13)
    out = [f'<section class="screen play" aria-labelledby="play-h" data-seat="{seat}" data-rolls="{state.rolls}">'
           f'<h1 id="play-h" class="sr-only">{esc(app.t("game.penta"))}</h1>'
           f'<div class="status"><span class="round" data-testid="round">{esc(app.t("penta.round", n=round_no, total=13))}</span>'
           f'<ul class="chips">{"".join(chips)}</ul></div>']
    thinking = app.thinking and not person
    spinner = ' <span class="spinner" aria-hidden="true"></span>' if thinking else ""
    out.append(f'<p class="prompt" data-testid="prompt">{app.seat_label(seat)}<span aria-hidden="true">:</span> '
               f'<span>{esc(prompt_body(app))}</span>{spinner}</p>')

    # board
    board = ['<div class="board">']
    last = last_score(app) if state.rolls == 0 else None
    if last:
        lp, lbox, ldice, (lpoints, lbonus) = last
        mini = "".join(f'<span class="mini">{die_svg(v)}</span>' for v in ldice)
        bonus = f" + {esc(app.t('penta.bonus_plus', n=lbonus))}" if lbonus else ""
        board.append(f'<div class="lastmove" data-testid="last-move"><span class="lm-label">{esc(app.t("play.last_move"))}</span> '
                     f'<span>{app.seat_label(lp)}:</span> <span class="minis" dir="ltr">{mini}</span> '
                     f'<span>{esc(app.t("penta.last_box", box=app.t(f"penta.box.{lbox}"), points=lpoints))}{bonus}</span></div>')
    dice = []
    for k in range(5):
        v = values[k] if rolled or state.rolls > 0 else 0
        is_held = k in h
        label = (app.t("penta.die_label", n=k + 1, value=v) if v else app.t("penta.die_blank", n=k + 1))
        if is_held:
            label += ", " + app.t("penta.held")
        cls = "die" + (" held" if is_held else "") + (" roll" if anim and k in rolled_now and not is_held else "")
        lock = f'<span class="lock" aria-hidden="true">{LOCK_SVG}</span>' if is_held else ""
        dice.append(f'<button type="button"{attrs(cls=cls, data_action="toggle", data_arg=k, data_testid=f"die-{k}", data_value=v, aria_pressed="true" if is_held else "false", aria_label=label, disabled=not can_hold)}>'
                    f'{die_svg(v)}{lock}</button>')
    board.append(f'<div class="dice" dir="ltr" role="group" aria-label="{esc(app.t("penta.dice"))}">{"".join(dice)}</div>')
    notes = []
    if person and not state.is_chance():
        card = state.cards[seat]
        if state.rolls < ROLLS_PER_ROUND and len(h) == 5:
            notes.append(f'<p class="note" data-testid="hint-keep-all">{esc(app.t("penta.keep_all"))}</p>')
        if joker_applies(card, state.dice):
            names = ", ".join(app.t(f"penta.box.{b}") for b in allowed_boxes(card, state.dice))
            notes.append(f'<p class="note" id="joker-note" data-testid="joker-note">{esc(app.t("penta.joker_note", boxes=names))}</p>')
        elif state.rolls < ROLLS_PER_ROUND:
            notes.append(f'<p class="note muted">{esc(app.t("penta.hold_hint"))}</p>')
    if app.countdown is not None:
        notes.append(f'<div class="countdown" role="status" data-testid="countdown"><span id="countdown">{esc(app.t("penta.countdown", n=app.countdown))}</span> '
                     + button(esc(app.t("penta.countdown_stop")), action="stop-countdown", cls="btn small", testid="stop-countdown") + "</div>")
    board.append("".join(notes) + render_hint(app, person) + "</div>")
    out.append('<div class="layout">' + "".join(board) + render_card(app) + "</div>")
    out.append('<div class="row tools">' + button(esc(app.t("results.export")), action="export", cls="btn small",
                                                 testid="export-record") + "</div>")

    # action bar
    box = app.ui.get("box") if person else None
    rolls_left = ROLLS_PER_ROUND - state.rolls
    can_roll = person and not app.thinking and rolls_left > 0 and (state.is_chance() or len(h) < 5)
    roll_label = (f'<span>{esc(app.t("penta.roll"))}</span><small data-testid="rolls-left">{esc(app.t("penta.rolls_left", n=rolls_left))}</small>')
    out.append('<div class="actionbar">'
               + button(roll_label, action="roll", cls="btn big " + ("secondary" if box or not can_roll else "primary"), testid="roll", disabled=not can_roll)
               + button(esc(app.t("penta.confirm")), action="confirm", cls="btn big " + ("primary" if box else "secondary"), testid="confirm", disabled=not box)
               + "</div></section>")
    return "".join(out)


def prompt_body(app) -> str:
    state = app.table.state
    seat = state.seat()
    if app.table.seats[seat]["ai"]:
        return app.t("play.thinking_short")
    code, params = state.prompt()
    if code == "penta.prompt.rolling" and state.rolls == 0:
        code = "penta.prompt.roll"
    return app.t(code, **params)


def render_card(app) -> str:
    table, state = app.table, app.table.state
    seat = state.seat()
    person = is_person(app, seat) and not app.thinking
    dice = state.dice
    live = person and not state.is_chance() and state.rolls > 0
    card_now = state.cards[seat]
    allowed = set(allowed_boxes(card_now, dice)) if live else set()
    selected = app.ui.get("box") if person else None
    last = last_score(app)
    n = len(table.seats)
    cols = "".join(f'<th scope="col" class="{"cur" if s == seat else "other"}">{app.symbol_html(table.seats[s]["symbol"])} '
                   f'<span class="pname">{esc(table.seats[s]["name"])}</span></th>' for s in range(n))
    rows = []

    def row(label: str, cells: list[str], cls: str = "", rid: str = "") -> None:
        rows.append(f'<tr class="{cls}"{attrs(data_testid=rid or None)}><th scope="row">{label}</th>{"".join(cells)}</tr>')

    for box in BOXES:
        cells = []
        for s in range(n):
            value = state.cards[s][box]
            c = "cur" if s == seat else "other"
            if last and last[0] == s and last[1] == box and state.rolls == 0:
                c += " last"
            if value is not None:
                cells.append(f'<td class="{c} num filled" data-testid="cell-{s}-{box}">{value}</td>')
            elif s == seat and live:
                points, bonus = write_score(card_now, box, dice)
                ok = box in allowed
                lab = app.t("penta.box_would", box=app.t(f"penta.box.{box}"), points=points)
                if not ok:
                    lab += ". " + app.t("penta.joker_forced", box=app.t(f"penta.box.{box}"))
                extra = f'<span class="plus">+{bonus}</span>' if bonus and ok else ""
                cells.append(f'<td class="{c} num">' + button(
                    f'{points}{extra}', action="box", arg=box, cls="boxbtn" + (" zero" if not points else "") + (" sel" if selected == box else ""),
                    testid=f"box-{box}", aria_pressed="true" if selected == box else "false", aria_label=lab,
                    disabled=not ok, aria_describedby="joker-note" if not ok else None) + "</td>")
            else:
                cells.append(f'<td class="{c} num empty" data-testid="cell-{s}-{box}"><span aria-hidden="true">·</span></td>')
        row(esc(app.t(f"penta.box.{box}")), cells, "lower-start" if box == LOWER[0] else "", f"row-{box}")
        if box == UPPER[-1]:
            ups = []
            bon = []
            for s in range(n):
                c = "cur" if s == seat else "other"
                u = upper_total(state.cards[s])
                ups.append(f'<td class="{c} num sub" data-testid="upper-{s}"><span dir="ltr">{esc(app.t("penta.upper_progress", x=u, target=UPPER_BONUS_THRESHOLD))}</span></td>')
                got = UPPER_BONUS if u >= UPPER_BONUS_THRESHOLD else 0
                bon.append(f'<td class="{c} num sub">{got if got else "–"}</td>')
            row(esc(app.t("penta.upper_sum")), ups, "sum")
            row(esc(app.t("penta.upper_bonus", bonus=UPPER_BONUS)), bon, "sum")
    pb = [f'<td class="{"cur" if s == seat else "other"} num sub" data-testid="penta-bonus-{s}"><span dir="ltr">{esc(app.t("penta.bonus_count", n=state.bonuses[s], points=state.bonuses[s] * PENTA_BONUS))}</span></td>' for s in range(n)]
    row(esc(app.t("penta.penta_bonus")), pb, "sum")
    scores = state.scores()
    tot = [f'<td class="{"cur" if s == seat else "other"} num total{" flash" if s in app.flash and app.animations else ""}" data-testid="total-{s}">{scores[s]}</td>' for s in range(n)]
    row(esc(app.t("penta.total")), tot, "grand")
    return (f'<div class="cardpanel"><table class="scorecard" data-testid="scorecard" data-players="{n}"><caption class="sr-only">{esc(app.t("penta.scorecard"))}</caption>'
            f'<thead><tr><th scope="col"><span class="sr-only">{esc(app.t("penta.box"))}</span></th>{cols}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')


RULES_TABLE_AFTER = 6  # the catalog's "## The score card" heading (penta.rules.6)


def rules_table(app) -> str:
    rows = "".join(f'<tr><th scope="row">{esc(app.t(f"penta.box.{b}"))}</th><td>{esc(app.t(f"penta.rule.{b}"))}</td></tr>' for b in BOXES)
    return (f'<table class="rules-table"><thead><tr><th scope="col">{esc(app.t("penta.box"))}</th><th scope="col">{esc(app.t("penta.scores"))}</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def ends_turn(move: str) -> bool:
    """A Penta turn ends when a box is written."""
    return move.startswith("score ")


def breakdown_heads(app) -> list[str]:
    return [app.t("penta.upper_sum"), app.t("penta.upper_bonus", bonus=UPPER_BONUS), app.t("penta.lower_sum"), app.t("penta.penta_bonus")]


def breakdown(state, seat: int) -> list[int]:
    card = state.cards[seat]
    up = upper_total(card)
    return [up, UPPER_BONUS if up >= UPPER_BONUS_THRESHOLD else 0, sum(card[b] or 0 for b in LOWER), state.bonuses[seat] * PENTA_BONUS]


# --- advisor (hint button) -----------------------------------------------------------------
HINT_OPTIONS = 4


def hint_key(app) -> tuple:
    """The position a hint belongs to: this game's record and its length."""
    return (id(app.table.record), len(app.table.record.moves))


def hint_available(app, person: bool) -> bool:
    state = app.table.state
    return (bool(app.settings.get("hints", False)) and person and not app.thinking
            and not state.is_terminal() and not state.is_chance() and state.rolls > 0)


def show_hint(app) -> None:
    """Advice for the current position: the best moves with the expected final total."""
    from pygame_core.games import penta_solver

    state = app.table.state
    n = hint_key(app)
    if app.penta_table != "loaded" or not penta_solver.available():
        app.want_penta_table()
        app.hint = (n, None)
        app.render()
        app.say(app.t("advisor.loading"))
        return
    options = penta_solver.advise(state)[:HINT_OPTIONS]
    app.hint = (n, options)
    app.render()
    best = options[0]
    app.say(app.t("advisor.best", move=move_words(app.t, best["move"]), expected=fmt(best["expected"])))


def render_hint(app, person: bool) -> str:
    if not hint_available(app, person):
        return ""
    n = hint_key(app)
    hint = app.hint if app.hint is not None and app.hint[0] == n else None
    body = ""
    if hint is not None:
        options = hint[1]
        if options is None:
            key = "advisor.unavailable" if app.penta_table == "failed" else "advisor.loading"
            body = f'<p class="muted">{esc(app.t(key))}</p>'
        else:
            items = []
            for i, o in enumerate(options):
                text = app.t("advisor.option", move=move_words(app.t, o["move"]), expected=fmt(o["expected"]))
                expected = f'{o["expected"]:.4f}'
                items.append(f'<li{attrs(cls="best" if i == 0 else None, data_move=o["move"], data_expected=expected, data_testid=f"hint-option-{i}")}>'
                             f'{esc(text)}</li>')
            body = (f'<p class="hint-head">{esc(app.t("advisor.heading"))}</p><ol class="hint-list">{"".join(items)}</ol>'
                    f'<p class="muted small">{esc(app.t("advisor.explain"))}</p>')
    return (f'<div class="hint" data-testid="hint-panel">'
            + button(esc(app.t("advisor.button")), action="hint", cls="btn small",
                     testid="hint", aria_expanded="true" if hint else "false", aria_controls="hint-body")
            + f'<div id="hint-body" role="status" aria-live="polite">{body}</div></div>')


# --- post-game review ----------------------------------------------------------------------
REVIEW_DASH = ["", "6 3", "2 3", "8 3 2 3", "1 0"]


def game_review(app):
    """`penta_solver.review()` of the table's record, cached by record identity and length."""
    from pygame_core.games import penta_solver

    record = app.table.record
    key = (id(record), len(record.moves))
    if app._review is None or app._review[0] != key:
        app._review = (key, penta_solver.review(record))
    return app._review[1]


def render_review(app) -> str:
    table = app.table
    head = (f'<section class="review card" aria-labelledby="rev-h" data-testid="review"><h2 id="rev-h">{esc(app.t("review.heading"))}</h2>')
    if app.review_open != id(table.record):
        return (head + f'<p class="muted">{esc(app.t("review.intro"))}</p>'
                + button(esc(app.t("review.open")), action="review-open", cls="btn", testid="review-open") + "</section>")
    if app.penta_table != "loaded":
        key = "advisor.unavailable" if app.penta_table == "failed" else "advisor.loading"
        return head + f'<p class="muted" role="status" data-testid="review-loading">{esc(app.t(key))}</p></section>'
    result = game_review(app)
    seats = result["seats"]
    n = len(seats)
    chosen = app.review_seat if app.review_seat is not None and 0 <= app.review_seat < n else None
    shown_seats = list(range(n)) if chosen is None else [chosen]
    picker = ""
    if n > 1:
        picker = (f'<div class="row review-pick" role="group" aria-label="{esc(app.t("review.show"))}">'
                  + button(esc(app.t("review.all")), action="review-seat", arg="all", cls="btn small", testid="review-seat-all",
                           aria_pressed="true" if chosen is None else "false")
                  + "".join(button(app.seat_label(s), action="review-seat", arg=s, cls="btn small", testid=f"review-seat-{s}",
                                   aria_pressed="true" if chosen == s else "false") for s in range(n))
                  + "</div>")
    rows = []
    for s in shown_seats:
        e = seats[s]
        rows.append(f'<tr data-testid="review-row-{s}"><th scope="row">{app.seat_label(s)}</th>'
                    f'<td class="num" data-testid="review-loss-{s}" data-loss="{e["total_loss"]:.4f}">{e["total_loss"]:.1f}</td>'
                    f'<td class="num" data-testid="review-mean-{s}">{e["mean_loss"]:.2f}</td>'
                    f'<td class="num">{e["score"]}</td></tr>')
    summary = (f'<div class="scroll"><table class="review-table" data-testid="review-table"><caption class="sr-only">{esc(app.t("review.heading"))}</caption>'
               f'<thead><tr><th scope="col">{esc(app.t("results.player"))}</th>'
               f'<th scope="col" class="num">{esc(app.t("review.loss"))}</th><th scope="col" class="num">{esc(app.t("review.mean"))}</th>'
               f'<th scope="col" class="num">{esc(app.t("results.total"))}</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
               f'<p class="muted small">{esc(app.t("review.loss_help"))}</p>')
    mistakes = []
    for s in shown_seats:
        e = seats[s]
        name = table.seats[s]["name"]
        if not e["mistakes"]:
            mistakes.append(f'<p data-testid="review-none-{s}">{app.symbol_html(table.seats[s]["symbol"])} {esc(app.t("review.none", name=name))}</p>')
            continue
        items = []
        for d in e["mistakes"][: 5 if chosen is not None else 3]:
            when = app.t("review.when", round=d["round"], roll=d["roll"])
            dice = " ".join(str(v) for v in sorted(d["dice"]))
            items.append(
                f'<li data-testid="review-mistake" data-seat="{s}" data-index="{d["index"]}" data-loss="{d["loss"]:.4f}">'
                f'<span class="when">{esc(when)}</span> <span class="dice-text" dir="ltr">{esc(dice)}</span>'
                f'<span class="chose">{esc(app.t("review.chose", move=move_words(app.t, d["move"]), expected=fmt(d["expected"])))}</span>'
                f'<span class="better">{esc(app.t("review.better", move=move_words(app.t, d["best"]), expected=fmt(d["best_expected"])))}</span>'
                f'<strong class="lost">{esc(app.t("review.lost", loss=fmt(d["loss"])))}</strong></li>')
        mistakes.append(f'<h3>{app.seat_label(s)}</h3><p class="muted small">{esc(app.t("review.mistakes"))}</p>'
                        f'<ol class="mistakes">{"".join(items)}</ol>')
    return (head + f'<p class="muted">{esc(app.t("review.intro"))}</p>' + picker + summary
            + render_review_plot(app, {s: seats[s]["curve"] for s in shown_seats}) + "".join(mistakes) + "</section>")


def render_review_plot(app, curves: dict) -> str:
    w, h, pad = 320, 200, 34
    pts, low, high, steps = curve_geometry(curves, w, h, pad)
    lines, legend = [], []
    for seat, points in pts.items():
        sym = app.table.seats[seat]["symbol"]
        cls = app_seat_class(app, seat)
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        values = ",".join(f"{v:.4f}" for v in curves[seat])
        x, y = points[-1]
        lines.append(f'<g class="{cls}"><polyline points="{path}" fill="none" stroke="currentColor" stroke-width="2" '
                     f'stroke-dasharray="{REVIEW_DASH[seat % 5]}" data-testid="review-curve-{seat}" data-values="{values}"/>'
                     f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" class="mark">{esc(sym)}</text></g>')
        legend.append(f'<li>{app.seat_label(seat)}: <span dir="ltr">{fmt(curves[seat][0])} → {fmt(curves[seat][-1])}</span></li>')
    mid = (low + high) / 2
    ymid = h - pad - (h - 2 * pad) / 2
    axis = (f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" class="axis"/>'
            f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" class="axis"/>'
            f'<line x1="{pad}" y1="{ymid:.1f}" x2="{w - pad}" y2="{ymid:.1f}" class="grid"/>'
            f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end" class="tick">{high}</text>'
            f'<text x="{pad - 4}" y="{ymid + 4:.1f}" text-anchor="end" class="tick">{mid:g}</text>'
            f'<text x="{pad - 4}" y="{h - pad + 4}" text-anchor="end" class="tick">{low}</text>'
            f'<text x="{pad}" y="{h - 12}" text-anchor="middle" class="tick">0</text>'
            f'<text x="{w - pad}" y="{h - 12}" text-anchor="middle" class="tick">{steps}</text>')
    label = app.t("review.plot")
    return (f'<figure class="plot review-plot" data-testid="review-plot"><svg viewBox="0 0 {w} {h}" role="img" aria-label="{esc(label)}" dir="ltr">'
            f'{axis}{"".join(lines)}</svg><figcaption>{esc(label)} ({esc(app.t("results.rounds", n=steps))})'
            f'<ul class="legend">{"".join(legend)}</ul></figcaption></figure>')


def app_seat_class(app, seat: int) -> str:
    from ..app import SYMBOL_CLASS

    return SYMBOL_CLASS.get(app.table.seats[seat]["symbol"], "seat-0")

"""The running table's life: started, saved after every move, played again, put aside and taken up
again, quit, resumed after a reload, and taken over from another tab.

**One game, one writer.** Every tab saves after every move, so a tab that fell behind (it missed
another tab's moves, or rolled the same turn itself) must never overwrite a longer or different
history: before writing, the table in storage is compared with this tab's (`savesync.relation`),
and only a save another tab wrote since this tab's last one (`last_written`) can win — then this
tab adopts it ("tabs.continued") instead of overwriting. A failed write (full or blocked storage)
is said at once, a lasting notice offers Export, and play goes on in memory.

Besides the running game (`shelf.py` checks all of it when read): one unfinished table per other
game (parked), each game's last set-up, and the history of finished games.
"""

from __future__ import annotations

import random

from pygame_core.table import SaveError, Table

from . import replay, savesync, shelf, store
from .controller import UI_SCHEMA


class TableLife:
    def __init__(self, app) -> None:
        self.app = app
        self.last_written: str | None = None  # the table text this tab saved or read last
        self.unsaved = False  # the last save failed (storage full or blocked): said, export offered
        self.broken_save: str | None = None  # a stored table that cannot be read, kept until the player chooses
        self.broken_reason = ""

    @property
    def store(self):
        return self.app.store

    @property
    def play(self):
        return self.app.play

    # --- what is kept besides the running game -----------------------------------------------------
    def history(self) -> list[dict]:
        return self.store.load(store.HISTORY, shelf.HISTORY_SCHEMA, [])

    def bests(self, game: str) -> list[dict]:
        """People's best scores in `game`, best first (the results screen and History show them)."""
        return shelf.personal_bests(self.history(), game)

    def parked(self) -> dict[str, str]:
        return shelf.parked_unfinished(self.store.load(store.PARKED, shelf.PARKED_SCHEMA, {}))

    # --- saving -----------------------------------------------------------------------------------
    def save_game(self, table: Table | None, ui_text: str | None) -> bool:
        """Save after a move (the table, its view state, or both; neither: the game is over and
        gone). False when another tab's save won (this tab takes it over) or the write failed."""
        if table is None and ui_text is None:
            self.forget_saved_game()
            self.set_unsaved(False)
            return True
        ok = True
        if table is not None:
            stored = self.store.get(store.TABLE)
            # Only a save another tab wrote since this tab's last one can win: this tab's own
            # take-backs shorten its history and are still its to write.
            if stored is not None and stored != self.last_written and \
                    savesync.relation(stored, table) in ("behind", "diverged", "other"):
                self.app.later(self.adopt_stored("tabs.continued"))
                return False
            text = table.dumps()
            ok = self.store.put(store.TABLE, text)
            if ok:
                self.last_written = text
            if table.state is not None and table.state.is_terminal():
                self.remember_finished(table)
        if ui_text is not None:
            ok = self.store.put(store.UI, ui_text) and ok
        self.set_unsaved(not ok)
        return ok

    def remember_finished(self, table: Table) -> None:
        """A finished game joins the history (once: saves after the end do not add it again)."""
        added = shelf.add_to_history(self.history(), shelf.history_entry(table, self.app.page.clock()))
        if added is not None:
            self.store.put_json(store.HISTORY, added)
            replay.keep(self.store, added[-1]["id"], table)  # its record, for a replay (the last 20)

    def set_unsaved(self, unsaved: bool) -> None:
        if unsaved != self.unsaved:
            self.unsaved = unsaved
            if unsaved:
                self.app.say(self.app.t("save.failed"), error=True)
            self.app.render()

    def forget_saved_game(self) -> None:
        """A deliberate new table (set-up, import, quit): it replaces whatever storage holds."""
        self.store.remove(store.TABLE)
        self.store.remove(store.UI)
        self.last_written = None

    # --- a table on the screen ----------------------------------------------------------------------
    def take(self, table: Table, hash_: str = "#/play", replace: bool = False) -> None:
        """Put `table` on the screen as this tab's running game (saved at once) and play on."""
        self.play.load(table)
        self.forget_saved_game()
        self.play.save()
        if self.app.booted:
            self.app.go(hash_, replace=replace)
        else:  # a Start kept before Python, done by the shell's start: it draws the table, once
            self.app.page.set_hash_quietly(hash_)
        self.play.kick()

    def start(self, game: str, seats: list[dict], options: dict) -> None:
        """A new table from the set-up. Another game's unfinished table is put aside (Home lists
        it); one of this game is replaced, as the set-up screen said."""
        table = Table(game, seats, options)
        table.new_game(random.Random(self.app.page.random_seed()))
        running = self.play.table
        if self.play.running and shelf.unfinished(running) and running.game != game and not self.park_running():
            self.app.say(self.app.t("save.failed"), error=True)
            return
        parked = self.parked()
        if parked.pop(game, None) is not None:
            self.store.put_json(store.PARKED, parked)
        self.take(table, replace=True)

    def again(self) -> None:
        """"Play again": the same table, the next start seat (at a hosted table the room starts it)."""
        table = self.play.table
        rng = random.Random(self.app.page.random_seed())
        if not self.app.rooms.new_game(rng):
            table.new_game(rng)
        self.play.load(table)
        self.play.save()
        self.app.render()
        self.play.kick()

    def new_table(self) -> None:
        """"New table": the set-up again with these seats and options; this table is done."""
        table = self.play.table
        self.app.rooms.close_room()
        self.app.setup = {"game": table.game, "seats": [dict(s) for s in table.seats],
                          "options": shelf.check_options(table.game, table.extra_options)}
        self.play.load(None)
        self.play.save()
        self.app.go(f"#/setup/{table.game}")

    def quit(self) -> None:
        """The quit dialog's Quit: the game ends unsaved (a guest leaves the room instead)."""
        self.app.close_dialog()
        if self.app.rooms.guesting is not None:
            self.app.rooms.leave()
            return
        self.app.rooms.close_room()
        self.play.load(None)
        self.play.save()
        self.app.go("#/home", replace=True)

    def discard_broken(self) -> None:
        self.broken_save = None
        self.play.load(None)
        self.play.save()
        self.app.go("#/home", replace=True)

    # --- put aside and taken up again ------------------------------------------------------------
    def park_running(self) -> bool:
        """Put the running unfinished game aside (one per game) so another can start or go on."""
        table = self.play.table
        if not self.play.running or not shelf.unfinished(table):
            return True
        parked = self.parked()
        parked[table.game] = table.dumps()
        return self.store.put_json(store.PARKED, parked)

    def unpark(self, game: str) -> None:
        """Go on with the unfinished game of `game` that was put aside; the running one is put aside."""
        text = self.parked().get(game)
        if text is None:
            self.app.render()
            return
        if game not in self.app.catalog.games:  # its words first: its prompt is said as it opens
            self.app.later(self._unpark_with_words(game))
            return
        if not self.park_running():
            self.app.say(self.app.t("save.failed"), error=True)
            return
        fresh = self.parked()
        fresh.pop(game, None)
        self.store.put_json(store.PARKED, fresh)
        self.take(Table.loads(text))

    async def _unpark_with_words(self, game: str) -> None:
        try:
            await self.app.load_game_catalog(game)
        except Exception as err:
            self.app.log_error(f"catalog of {game}: {err!r}")
            self.app.say(self.app.t("error.unexpected"), error=True)
            return
        self.unpark(game)

    # --- after a reload, and another tab's game ------------------------------------------------------
    async def resume(self) -> None:
        """The saved game, as it was (a save that cannot be read is kept and explained)."""
        text = self.store.get(store.TABLE)
        if text is None:
            return
        try:
            table = Table.loads(text)
            await self.app.load_game_catalog(table.game)
        except SaveError as err:
            self.broken_save, self.broken_reason = text, self.app.catalog.error(err)
            return
        except Exception:
            self.broken_save, self.broken_reason = text, self.app.t("save.corrupt")
            return
        self.last_written = text
        self.play.load(table, self.store.load(store.UI, UI_SCHEMA, {}))

    async def adopt_stored(self, note: str | None) -> None:
        """Take over the table saved in storage (another tab's), with a note for the player."""
        text = self.store.get(store.TABLE)
        if text is None:
            self.play.load(None)
            if note:
                self.app.say(self.app.t("tabs.ended"), error=True)
            if self.app.route()[0] == "play":
                self.app.go("#/home", replace=True)
            return
        try:
            table = Table.loads(text)
            await self.app.load_game_catalog(table.game)
        except Exception:
            return  # a broken save from elsewhere: keep playing here; our next save replaces it
        self.last_written = text
        self.play.load(table, self.store.load(store.UI, UI_SCHEMA, {}))
        if note:
            self.app.say(self.app.t(note), error=True)
        self.app.render()
        self.play.kick()

    def storage_changed(self, key: str, stored: str | None) -> None:
        """Another tab saved: catch up when it is ahead of this one, else say the game moved on."""
        if key != store.TABLE or self.app.rooms.guesting is not None:
            return  # (a guest's screen shows the host's table, not this phone's saved game)
        if stored is None:
            if self.play.running:
                self.app.later(self.adopt_stored("tabs.ended"))
            return
        if not self.play.running or stored == self.last_written:
            return
        relation = savesync.relation(stored, self.play.table)
        if relation == "behind":
            self.app.later(self.adopt_stored(None))  # plain catching up
        elif relation in ("diverged", "other"):
            self.app.later(self.adopt_stored("tabs.continued"))

    def restore_own_table(self) -> None:
        """Back from someone else's room: this phone's own saved game, as it was."""
        self.play.load(None)

        async def restore():
            await self.resume()
            self.app.render()
        self.app.later(restore())

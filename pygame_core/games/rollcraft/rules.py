"""RollCraft T8: a roll-and-write game with six d8, five zones and the silver platter.

The contract is `shared/rules/rollcraft-t8.md` (rule numbers R… below refer to it); the board
is data (`board.py`, section 14 of the rules).

Notation (canonical spelling only; dice by colour: grey yellow blue green pink white;
targets: `grey` (the column of the die's value), `Y1`…`Y12` (a yellow box), `blue` (the
blue + white sum), `green`, `pink`, or `none` for an empty choice):
  roll 3 8 1        chance: the dice being thrown, in the colour order above (only the dice
                    rolled: the roll group minus locked dice; all six in the solo passive roll)
  roll 2            chance, solo passive roll only: which of the equally low dice go to the
                    platter when the third-lowest value is tied (R6.5): the n-th combination,
                    in order, of the tied dice (sides = number of combinations)
  take pink pink    a choice: the die and where it goes; active (R5.4, `none` = empty choice)
                    from the roll group, passive (R6) from the silver platter
  pass              a passive player declines the passive choice (R6.3)
  reroll            use a Re-roll (R11.3) instead of choosing now
  lock green        use a Lock on a roll-group die (R11.5): before a Re-roll (then only more
                    locks or `reroll` follow) or before regular roll 2/3
  return pink       use a Return (R11.4): a platter die joins the roll group, before roll 2/3
  throw             before regular roll 2/3 once Returns/Locks are done: throw (the chance
                    move follows); `end` instead when the roll group is empty (R5.6)
  plus white Y4     a +1 (R7): any die not yet taken in this window, at its value
  done              close the +1 window (unused +1 stay in the stock)
  question pink 7   resolve a coloured question bonus (R10.1): grey takes a column number,
                    yellow a box, blue a sum 2–16, green and pink a value 1–8
  black green 5     resolve the black question bonus (R10.2): a zone, then as above
  t8 blue           resolve a T8 bonus (R10.3); grey and yellow name the column / box:
                    `t8 grey 4`, `t8 yellow Y10`
  decline t8 blue   decline a pending question / T8 bonus (R10.7): `decline question yellow`,
                    `decline black`, `decline t8 pink`

Flow: each round starts with the benefits (R4; the black question of round 4 is resolved by
every player at once, a simultaneous choice); then each seat, from the start seat on, plays an
active turn (chance: `roll`; then choices, saved actions, bonuses), its +1 window, then the
passive phase: every other seat at once (simultaneous seats), each making its passive choice,
its bonuses and its +1 window; in solo the passive roll. `turn_number()` counts finished active
turns (with their +1 window) and finished passive phases.

Rulings where the rules leave room (section 15 settles the rest):
- A confirmed move is final (R2.6): selections before confirming are the view's UI state, so the
  engine declares no take-backs. Using a saved action is a move and final too.
- Bonuses with no choice (saved actions, runes) are gained at once when earned; question and T8
  bonuses wait as "pending" and the player resolves them one at a time in any order (R10.5).
  A pending bonus that can no longer be placed (its zone filled meanwhile) is dropped (R10.7).
  While a seat has pending bonuses it can do nothing else.
- A Lock used in the choice phase commits the player to the Re-roll it precedes (R11.5 "immediately
  before"); a Lock may not fix every die of a Re-roll (that Re-roll would throw nothing). Before a
  regular roll every die may be locked: the roll then throws nothing and just counts.
- Returns come before Locks (R5.2): after a Lock no Return is offered before that roll.
- A +1 window opens only if the player has a +1 and some die can be placed; a passive choice is
  skipped when no platter die fits (R6.3). The window closes itself when no +1 is left or nothing
  fits any more.
- When the roll group becomes empty before roll 3 and the player holds a Return and the platter
  is not empty, the player chooses between `return …` and `end` (R5.6); otherwise the turn ends.
- Until the first roll of an active turn the dice show 0 (not thrown).
- The solo passive roll is thrown by the player (`roller()`), its tie-break by nobody (automatic).
"""

from __future__ import annotations

import itertools
from typing import ClassVar

from ...protocol import CHANCE, Game, IllegalMove, State, split_move
from .board import BOARD, BLUE, DICE, WHITE, ZONES, Board
from .sheet import LOCK, PLUS, REROLL, RETURN, Sheet, _int

DIE_INDEX = {name: i for i, name in enumerate(DICE)}
TARGET_ZONES = ("grey", "blue", "green", "pink")  # targets spelled as a zone name; yellow boxes by id
DIE_ZONES = {0: ("grey",), 1: ("yellow",), 2: ("blue",), 3: ("green",), 4: ("pink",),
             5: ("grey", "yellow", "blue", "green", "pink")}

GROUP, PLATTER, CHOSEN, OUT = "group", "platter", "chosen", "out"  # where a die lies

# Phases: who moves and what they do.
ROLL, REROLL_ROLL, SOLO_ROLL, SOLO_TIE = "roll", "reroll", "solo_roll", "solo_tie"  # chance nodes
CHOOSE, RELOCK, PLACED, PREPARE, PLUS_WINDOW = "choose", "relock", "placed", "prepare", "plus"  # active seat
BENEFIT, PASSIVE, OVER = "benefit", "passive", "over"  # several seats (steps per seat)
CHANCE_PHASES = (ROLL, REROLL_ROLL, SOLO_ROLL, SOLO_TIE)
# Per-seat steps in BENEFIT / PASSIVE: a passive choice to make, a +1 window, finished.
TAKE, WINDOW, DONE = "take", "window", "done"


class RollCraftState(State):
    game: ClassVar[type[Game]]
    board: Board = BOARD

    def __init__(self, options: dict) -> None:
        super().__init__(options)
        n = self.num_players
        self.sheets = [Sheet(self.board) for _ in range(n)]
        self.rounds = self.board.rounds[n]
        self.round = 0  # 1-based once started
        self.turn_in_round = 0  # active turns finished in this round
        self.turn = 0  # finished turns (active turns with their +1 window, passive phases)
        self.phase = BENEFIT
        self.steps = [DONE] * n  # per seat, in BENEFIT / PASSIVE
        self.values = [0] * 6
        self.where = [GROUP] * 6
        self.locked: list[int] = []  # dice fixed for the next roll (R11.5)
        self.rolls = 0  # regular rolls made in this active turn
        self.locks_used = False  # a Lock was used before the coming regular roll (Returns come first)
        self.used: list[list[int]] = [[] for _ in range(n)]  # dice taken in the seat's +1 window (R7.3)
        self.tied: list[int] = []  # solo passive roll: dice tied at the third-lowest value
        self.tie_need = 0  # how many of them go to the platter
        self._start_round()

    # --- seats --------------------------------------------------------------------------------
    @property
    def active(self) -> int:
        return (self.options.get("start", 0) + self.turn_in_round) % self.num_players

    def current_players(self) -> list[int]:
        phase = self.phase
        if phase == OVER:
            return []
        if phase in CHANCE_PHASES:
            return [CHANCE]
        if phase in (BENEFIT, PASSIVE):
            return [s for s in range(self.num_players) if self.steps[s] != DONE]
        return [self.active]

    def turn_number(self) -> int:
        return self.turn

    # --- chance -------------------------------------------------------------------------------
    def rolling_dice(self) -> list[int]:
        """The dice the coming throw rolls, in colour order."""
        if self.phase in (ROLL, REROLL_ROLL):
            return [d for d in range(6) if self.where[d] == GROUP and d not in self.locked]
        if self.phase == SOLO_ROLL:
            return list(range(6))
        return []

    def chance(self) -> tuple[int, ...]:
        if self.phase == SOLO_TIE:
            return (self.tie_combinations(),)
        return (self.board.faces,) * len(self.rolling_dice())

    def roller(self) -> int | None:
        if self.phase in (ROLL, REROLL_ROLL, SOLO_ROLL):
            return self.active
        return None

    def tie_combinations(self) -> int:
        return len(list(itertools.combinations(self.tied, self.tie_need)))

    # --- what fits where ------------------------------------------------------------------------
    def blue_sum(self) -> int:
        return self.values[BLUE] + self.values[WHITE]

    def targets(self, seat: int, die: int) -> list[str]:
        """Where die `die` may be placed on `seat`'s sheet at its current value (sections 8–9)."""
        sheet = self.sheets[seat]
        value = self.values[die]
        if not value:
            return []
        out = []
        for zone in DIE_ZONES[die]:
            if zone == "grey":
                if sheet.grey_ok(value):
                    out.append("grey")
            elif zone == "yellow":
                out.extend(self.board.yellow_ids[i] for i in sheet.yellow_boxes(value))
            elif zone == "blue":
                if sheet.blue_ok(self.blue_sum()):
                    out.append("blue")
            elif zone == "green":
                if sheet.green_ok():
                    out.append("green")
            elif sheet.pink_ok():
                out.append("pink")
        return out

    def bonus_moves(self, seat: int) -> list[str]:
        sheet = self.sheets[seat]
        out: list[str] = []
        seen = set()
        for code in sheet.pending:
            if code in seen:
                continue
            seen.add(code)
            kind, _, zone = code.partition(":")
            if zone == "black":
                for z in ZONES:
                    out.extend("black " + z + " " + arg for arg in self.free_args(sheet, z))
                out.append("decline black")
            elif kind == "question":
                out.extend("question " + zone + " " + arg for arg in self.free_args(sheet, zone))
                out.append("decline question " + zone)
            else:
                if zone == "grey":
                    out.extend("t8 grey " + arg for arg in self.free_args(sheet, "grey"))
                elif zone == "yellow":
                    out.extend("t8 yellow " + arg for arg in self.free_args(sheet, "yellow"))
                else:
                    out.append("t8 " + zone)
                out.append("decline t8 " + zone)
        return out

    def free_args(self, sheet: Sheet, zone: str) -> list[str]:
        """Every placement a question bonus may make in `zone` (R10.1), as move arguments."""
        b = self.board
        if zone == "grey":
            return [str(v) for v in range(1, b.faces + 1) if sheet.grey_ok(v)]
        if zone == "yellow":
            return [b.yellow_ids[i] for i in sheet.yellow_boxes()]
        if zone == "blue":
            return [str(s) for s in range(b.blue_max, b.blue_min - 1, -1) if sheet.blue_ok(s)]
        if zone == "green":
            return [str(v) for v in range(1, b.faces + 1)] if sheet.green_ok() else []
        return [str(v) for v in range(1, b.faces + 1)] if sheet.pink_ok() else []

    def window_moves(self, seat: int) -> list[str]:
        """The +1 placements open to `seat` now (R7.2–R7.3), without `done`."""
        if not self.sheets[seat].stock[PLUS]:
            return []
        used = self.used[seat]
        return ["plus %s %s" % (DICE[d], t) for d in range(6) if d not in used for t in self.targets(seat, d)]

    def passive_takes(self, seat: int) -> list[str]:
        return ["take %s %s" % (DICE[d], t) for d in range(6) if self.where[d] == PLATTER
                for t in self.targets(seat, d)]

    # --- legal moves ----------------------------------------------------------------------------
    def legal_moves(self, player: int | None = None) -> list[str]:
        current = self.current_players()
        if not current or current == [CHANCE]:
            return []
        seat = current[0] if player is None else player
        if seat not in current:
            return []
        sheet = self.sheets[seat]
        if sheet.pending:
            return self.bonus_moves(seat)
        phase = self.phase
        if phase == CHOOSE:
            out = []
            group = [d for d in range(6) if self.where[d] == GROUP]
            for d in group:
                out.extend("take %s %s" % (DICE[d], t) for t in self.targets(seat, d))
                out.append("take %s none" % DICE[d])
            if sheet.stock[REROLL]:
                out.append("reroll")
                if sheet.stock[LOCK] and len(group) > 1:
                    out.extend("lock " + DICE[d] for d in group)
            return out
        if phase == RELOCK:
            out = ["reroll"]
            free = [d for d in range(6) if self.where[d] == GROUP and d not in self.locked]
            if sheet.stock[LOCK] and len(free) > 1:
                out.extend("lock " + DICE[d] for d in free)
            return out
        if phase == PREPARE:
            out = []
            if sheet.stock[RETURN] and not self.locks_used:
                out.extend("return " + DICE[d] for d in range(6) if self.where[d] == PLATTER)
            group = [d for d in range(6) if self.where[d] == GROUP]
            if sheet.stock[LOCK]:
                out.extend("lock " + DICE[d] for d in group if d not in self.locked)
            out.append("throw" if group else "end")
            return out
        if phase == PLUS_WINDOW:
            return self.window_moves(seat) + ["done"]
        if phase == PASSIVE:
            if self.steps[seat] == TAKE:
                return self.passive_takes(seat) + ["pass"]
            return self.window_moves(seat) + ["done"]
        return []  # BENEFIT steps always have a pending bonus

    def is_legal(self, move: str, player: int) -> bool:
        """`move in legal_moves(player)`, answered without listing every move (replays of long
        records check each move: the record is replayed on every position in the browser)."""
        current = self.current_players()
        if player not in current or player == CHANCE:
            return False
        parts = move.split(" ")
        verb = parts[0]
        sheet = self.sheets[player]
        if sheet.pending or verb in ("question", "black", "t8", "decline"):
            return bool(sheet.pending) and move in self.bonus_moves(player)
        phase = self.phase
        die = DIE_INDEX.get(parts[1], -1) if len(parts) >= 2 else -1
        if verb == "take" and len(parts) == 3 and die >= 0:
            if phase == CHOOSE:
                return self.where[die] == GROUP and (parts[2] == "none" or parts[2] in self.targets(player, die))
            return (phase == PASSIVE and self.steps[player] == TAKE and self.where[die] == PLATTER
                    and parts[2] in self.targets(player, die))
        if verb == "plus" and len(parts) == 3 and die >= 0:
            in_window = phase == PLUS_WINDOW or (phase == PASSIVE and self.steps[player] == WINDOW)
            return (in_window and sheet.stock[PLUS] > 0 and die not in self.used[player]
                    and parts[2] in self.targets(player, die))
        if phase in (CHOOSE, RELOCK, PREPARE) and verb in ("reroll", "lock", "return", "throw", "end"):
            return move in self.legal_moves(player)  # short lists
        if len(parts) != 1:
            return False
        if verb == "pass":
            return phase == PASSIVE and self.steps[player] == TAKE
        if verb == "done":
            return phase == PLUS_WINDOW or (phase == PASSIVE and self.steps[player] == WINDOW)
        return False

    # --- moves ----------------------------------------------------------------------------------
    def _apply(self, move: str, player: int) -> None:
        if player == CHANCE:
            self._chance(self.chance_values(move))
            return
        if player not in self.current_players():
            raise IllegalMove("error.not_your_turn", "It is not your turn.")
        word, args = split_move(move)
        sheet = self.sheets[player]
        if sheet.pending and word not in ("question", "black", "t8", "decline"):
            raise IllegalMove("rollcraft.bonus_first", "Resolve your bonus first.", bonus=sheet.pending[0])
        if word in ("question", "black", "t8", "decline"):
            self._resolve_bonus(player, word, args)
        elif word == "take" and len(args) == 2:
            self._take(player, self._die(args[0]), args[1])
        elif word == "plus" and len(args) == 2:
            self._plus(player, self._die(args[0]), args[1])
        elif word == "pass" and not args:
            self._need(self.phase == PASSIVE and self.steps[player] == TAKE)
            self.steps[player] = WINDOW
        elif word == "done" and not args:
            self._need(self.phase == PLUS_WINDOW or (self.phase == PASSIVE and self.steps[player] == WINDOW))
            self._close_window(player)
            return
        elif word == "reroll" and not args:
            self._reroll(player)
            return
        elif word == "lock" and len(args) == 1:
            self._lock(player, self._die(args[0]))
            return
        elif word == "return" and len(args) == 1:
            self._return(player, self._die(args[0]))
            return
        elif word in ("throw", "end") and not args:
            self._need(self.phase == PREPARE)
            group = any(w == GROUP for w in self.where)
            if (word == "throw") != group:
                raise IllegalMove("rollcraft.bad_timing", "You cannot do that now.")
            if group:
                self._regular_roll_or_skip()
            else:
                self._end_active_turn()
            return
        else:
            raise IllegalMove("error.bad_move", f"'{move}' is not a RollCraft move.", move=move)
        self._settle(player)

    def _need(self, condition: bool) -> None:
        if not condition:
            raise IllegalMove("rollcraft.bad_timing", "You cannot do that now.")

    def _die(self, name: str) -> int:
        if name not in DIE_INDEX:
            raise IllegalMove("rollcraft.no_die", f"There is no {name} die.", die=name)
        return DIE_INDEX[name]

    def _place(self, seat: int, die: int, target: str) -> None:
        """Place die `die` at its value (R2.5); `target` known legal."""
        sheet = self.sheets[seat]
        value = self.values[die]
        if target == "grey":
            sheet.mark_grey(value)
        elif target == "blue":
            sheet.write_blue(self.blue_sum())
        elif target == "green":
            sheet.write_green(value)
        elif target == "pink":
            sheet.write_pink(value)
        else:
            sheet.mark_yellow(self.board.yellow_index[target])

    def _check_target(self, seat: int, die: int, target: str) -> None:
        if target not in self.targets(seat, die):
            raise IllegalMove("rollcraft.does_not_fit", "That die does not fit there.", die=DICE[die], target=target)

    def _take(self, seat: int, die: int, target: str) -> None:
        if self.phase == PASSIVE:  # R6.1: a platter die, no dice move, no extra grey marks
            self._need(self.steps[seat] == TAKE)
            if self.where[die] != PLATTER:
                raise IllegalMove("rollcraft.not_on_platter", "Choose a die from the silver platter.", die=DICE[die])
            self._check_target(seat, die, target)
            self.steps[seat] = WINDOW
            self._place(seat, die, target)
            return
        self._need(self.phase == CHOOSE and seat == self.active)
        if self.where[die] != GROUP:
            raise IllegalMove("rollcraft.not_in_group", "Choose a die you rolled.", die=DICE[die])
        if target != "none":
            self._check_target(seat, die, target)
        value = self.values[die]
        moved = [d for d in range(6) if self.where[d] == GROUP and d != die and self.values[d] < value]
        for d in moved:  # R5.5: lower dice to the platter, equal and higher stay
            self.where[d] = PLATTER
        self.where[die] = CHOSEN
        self.phase = PLACED
        if target == "none":
            return
        self._place(seat, die, target)
        if target == "grey":  # R8.1.4: one extra grey mark per die moved, after the main mark
            sheet = self.sheets[seat]
            for d in moved:
                sheet.extra_grey(self.values[d])

    def _plus(self, seat: int, die: int, target: str) -> None:
        self._need(self.phase == PLUS_WINDOW or (self.phase == PASSIVE and self.steps[seat] == WINDOW))
        sheet = self.sheets[seat]
        if not sheet.stock[PLUS]:
            raise IllegalMove("rollcraft.no_action", "You have no such saved action.", action="plusOne")
        if die in self.used[seat]:
            raise IllegalMove("rollcraft.die_used", "That die was already taken in this window.", die=DICE[die])
        self._check_target(seat, die, target)
        sheet.stock[PLUS] -= 1
        self.used[seat].append(die)
        self._place(seat, die, target)

    def _resolve_bonus(self, seat: int, word: str, args: list[str]) -> None:
        sheet = self.sheets[seat]
        if word == "decline":
            code = "question:black" if args == ["black"] else ":".join(args) if len(args) == 2 else ""
            if code not in sheet.pending or args == ["question", "black"]:
                raise IllegalMove("rollcraft.no_bonus", "You have no such bonus to resolve.")
            sheet.pending.remove(code)
            return
        if word == "black":
            code, zone, rest = "question:black", args[0] if args else "", args[1:]
        elif word == "question":
            code, zone, rest = "question:" + (args[0] if args else ""), args[0] if args else "", args[1:]
        else:
            code, zone, rest = "t8:" + (args[0] if args else ""), args[0] if args else "", args[1:]
        if code not in sheet.pending or zone not in ZONES or code == "question:question":
            raise IllegalMove("rollcraft.no_bonus", "You have no such bonus to resolve.")
        b = self.board
        if word == "t8" and zone in ("blue", "green", "pink"):
            if rest:
                raise IllegalMove("error.bad_move", "A T8 bonus has a fixed value.", move=word)
            sheet.pending.remove(code)
            if zone == "blue":
                sheet.write_blue(sheet.t8_blue_value())
            elif zone == "green":
                sheet.write_green(sheet.t8_green_value())
            else:
                sheet.write_pink(b.faces)
            return
        if len(rest) != 1 or rest[0] not in self.free_args(sheet, zone):
            raise IllegalMove("rollcraft.bonus_does_not_fit", "That placement is not possible.", zone=zone)
        sheet.pending.remove(code)
        arg = rest[0]
        if zone == "grey":
            sheet.mark_grey(int(arg))
        elif zone == "yellow":
            sheet.mark_yellow(b.yellow_index[arg])
        elif zone == "blue":
            sheet.write_blue(int(arg))
        elif zone == "green":
            sheet.write_green(int(arg))
        else:
            sheet.write_pink(int(arg))

    def _reroll(self, seat: int) -> None:
        self._need(self.phase in (CHOOSE, RELOCK) and seat == self.active)
        sheet = self.sheets[seat]
        if not sheet.stock[REROLL]:
            raise IllegalMove("rollcraft.no_action", "You have no such saved action.", action="reroll")
        sheet.stock[REROLL] -= 1
        self.phase = REROLL_ROLL

    def _lock(self, seat: int, die: int) -> None:
        self._need(self.phase in (CHOOSE, RELOCK, PREPARE) and seat == self.active)
        sheet = self.sheets[seat]
        if not sheet.stock[LOCK]:
            raise IllegalMove("rollcraft.no_action", "You have no such saved action.", action="lock")
        if self.where[die] != GROUP or die in self.locked:
            raise IllegalMove("rollcraft.cannot_lock", "Lock a die of the roll group that is not locked yet.",
                              die=DICE[die])
        if self.phase != PREPARE:
            free = [d for d in range(6) if self.where[d] == GROUP and d not in self.locked]
            if not sheet.stock[REROLL] or len(free) < 2:
                raise IllegalMove("rollcraft.bad_timing", "You cannot do that now.")
            self.phase = RELOCK
        else:
            self.locks_used = True
        sheet.stock[LOCK] -= 1
        self.locked.append(die)
        self.locked.sort()

    def _return(self, seat: int, die: int) -> None:
        self._need(self.phase == PREPARE and seat == self.active and not self.locks_used)
        sheet = self.sheets[seat]
        if not sheet.stock[RETURN]:
            raise IllegalMove("rollcraft.no_action", "You have no such saved action.", action="return")
        if self.where[die] != PLATTER:
            raise IllegalMove("rollcraft.not_on_platter", "Choose a die from the silver platter.", die=DICE[die])
        sheet.stock[RETURN] -= 1
        self.where[die] = GROUP

    # --- chance -----------------------------------------------------------------------------
    def _chance(self, values: list[int]) -> None:
        phase = self.phase
        if phase == SOLO_TIE:
            combo = list(itertools.combinations(self.tied, self.tie_need))[values[0] - 1]
            for d in combo:
                self.where[d] = PLATTER
            self.tied, self.tie_need = [], 0
            self._start_solo_choice()
            return
        for d, v in zip(self.rolling_dice(), values):
            self.values[d] = v
        if phase == SOLO_ROLL:
            self._solo_platter()
            return
        if phase == ROLL:
            self.rolls += 1
        self.locked = []
        self.locks_used = False
        self.phase = CHOOSE

    def _regular_roll_or_skip(self) -> None:
        if self.rolling_dice_for_roll():
            self.phase = ROLL
        else:  # every die locked: the roll throws nothing and just counts (ruling)
            self.rolls += 1
            self.locked = []
            self.locks_used = False
            self.phase = CHOOSE

    def rolling_dice_for_roll(self) -> list[int]:
        return [d for d in range(6) if self.where[d] == GROUP and d not in self.locked]

    def _solo_platter(self) -> None:
        """R6.5: the three lowest dice to the platter; a tie at the third-lowest is a chance node."""
        need = self.board.solo_platter
        order = sorted(range(6), key=lambda d: self.values[d])
        cut = self.values[order[need - 1]]
        below = [d for d in range(6) if self.values[d] < cut]
        tied = [d for d in range(6) if self.values[d] == cut]
        self.where = [OUT] * 6
        for d in below:
            self.where[d] = PLATTER
        rest = need - len(below)
        if len(tied) == rest:
            for d in tied:
                self.where[d] = PLATTER
            self._start_solo_choice()
        else:
            self.tied, self.tie_need = tied, rest
            self.phase = SOLO_TIE

    def _start_solo_choice(self) -> None:
        self.phase = PASSIVE
        self.steps = [DONE] * self.num_players
        seat = self.active
        self.used[seat] = []
        self.steps[seat] = TAKE if self.passive_takes(seat) else WINDOW
        self._settle_passive(seat)

    # --- flow -------------------------------------------------------------------------------
    def _settle(self, seat: int) -> None:
        """After a seat's move: drop impossible bonuses, then go on once none are pending."""
        sheet = self.sheets[seat]
        sheet.prune()
        if sheet.pending:
            return
        phase = self.phase
        if phase == PLACED:
            self._after_choice()
        elif phase == PLUS_WINDOW:
            if not self.window_moves(seat):
                self._close_window(seat)
        elif phase == BENEFIT:
            self.steps[seat] = DONE
            if all(step == DONE for step in self.steps):
                self._start_turn()
        elif phase == PASSIVE:
            self._settle_passive(seat)

    def _settle_passive(self, seat: int) -> None:
        if self.steps[seat] == WINDOW and not self.window_moves(seat):
            self.steps[seat] = DONE
        if all(step == DONE for step in self.steps):
            self._end_passive()

    def _after_choice(self) -> None:
        """R5.6: the next regular roll, Returns into an empty group, or the end of the turn."""
        sheet = self.sheets[self.active]
        group = any(w == GROUP for w in self.where)
        platter = any(w == PLATTER for w in self.where)
        if self.rolls >= self.board.regular_rolls:
            self._end_active_turn()
            return
        can_return = sheet.stock[RETURN] > 0 and platter
        if group and (can_return or sheet.stock[LOCK]) or not group and can_return:
            self.phase = PREPARE
            self.locked = []
            self.locks_used = False
        elif group:
            self.phase = ROLL
        else:
            self._end_active_turn()

    def _end_active_turn(self) -> None:
        """R5.7: the roll group goes to the platter; then the active player's +1 window (R5.8)."""
        self.where = [PLATTER if w == GROUP else w for w in self.where]
        self.locked = []
        seat = self.active
        self.used[seat] = []
        self.phase = PLUS_WINDOW
        if not self.window_moves(seat):
            self._close_window(seat)

    def _close_window(self, seat: int) -> None:
        if self.phase == PLUS_WINDOW:
            self.turn += 1
            self._start_passive()
        else:
            self.steps[seat] = DONE
            self._settle_passive(seat)

    def _start_passive(self) -> None:
        if self.num_players == 1:  # R6.5: the solo passive roll
            self.phase = SOLO_ROLL
            return
        self.phase = PASSIVE
        self.steps = [DONE] * self.num_players
        for seat in range(self.num_players):
            if seat != self.active:
                self.used[seat] = []
                self.steps[seat] = TAKE if self.passive_takes(seat) else WINDOW
                if self.steps[seat] == WINDOW and not self.window_moves(seat):
                    self.steps[seat] = DONE
        if all(step == DONE for step in self.steps):
            self._end_passive()

    def _end_passive(self) -> None:
        self.turn += 1
        self.steps = [DONE] * self.num_players
        self.turn_in_round += 1
        if self.turn_in_round < self.num_players:
            self._start_turn()
            return
        self.turn_in_round = 0
        if self.round >= self.rounds:
            self.phase = OVER
            return
        self._start_round()

    def _start_round(self) -> None:
        """R4: every player's round benefit; the black question is resolved by all at once."""
        self.round += 1
        benefit = self.board.round_benefits[self.round - 1] if self.round <= len(self.board.round_benefits) else None
        self.phase = BENEFIT
        self.steps = [DONE] * self.num_players
        for seat, sheet in enumerate(self.sheets):
            sheet.earn(benefit)
            if sheet.pending:
                self.steps[seat] = TAKE
        if all(step == DONE for step in self.steps):
            self._start_turn()

    def _start_turn(self) -> None:
        """R5.1: all six dice in the roll group, platter and chosen row empty."""
        self.phase = ROLL
        self.steps = [DONE] * self.num_players
        self.values = [0] * 6
        self.where = [GROUP] * 6
        self.locked = []
        self.rolls = 0
        self.locks_used = False

    # --- outcome ----------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [sheet.total() for sheet in self.sheets]

    def breakdown(self, seat: int) -> dict[str, int]:
        sheet = self.sheets[seat]
        zones = sheet.zone_scores()
        out = dict(zip(ZONES, zones))
        out["runes"] = sheet.runes * min(zones)
        return out

    # --- UI helpers -------------------------------------------------------------------------
    def dice_at(self, place: str) -> list[int]:
        return [d for d in range(6) if self.where[d] == place]

    def prompt(self, seat: int | None = None) -> tuple[str, dict]:
        """What the current seat (or `seat`, one of several choosing at once) must do now."""
        phase = self.phase
        if phase == OVER:
            return ("prompt.game_over", {})
        if phase in (ROLL, REROLL_ROLL):
            return ("rollcraft.prompt.roll", {"n": self.rolls + (phase == ROLL), "max": self.board.regular_rolls})
        if phase == SOLO_ROLL:
            return ("rollcraft.prompt.solo_roll", {})
        if phase == SOLO_TIE:
            return ("rollcraft.prompt.tie", {})
        current = self.current_players()
        seat = seat if seat in current else current[0]
        pending = self.sheets[seat].pending
        if pending:
            return ("rollcraft.prompt.bonus", {"bonus": pending[0], "n": len(pending)})
        if phase == CHOOSE:
            return ("rollcraft.prompt.choose", {"n": self.rolls, "max": self.board.regular_rolls})
        if phase == RELOCK:
            return ("rollcraft.prompt.relock", {})
        if phase == PREPARE:
            return ("rollcraft.prompt.prepare", {"n": self.rolls + 1})
        if phase == PLUS_WINDOW or self.steps[seat] == WINDOW:
            return ("rollcraft.prompt.plus", {"n": self.sheets[seat].stock[PLUS]})
        return ("rollcraft.prompt.passive", {})

    # --- data -------------------------------------------------------------------------------
    def clone(self) -> "RollCraftState":
        other = RollCraftState.__new__(RollCraftState)
        other.options = self.options
        other.num_players = self.num_players
        other.sheets = [s.copy() for s in self.sheets]
        other.rounds = self.rounds
        other.round = self.round
        other.turn_in_round = self.turn_in_round
        other.turn = self.turn
        other.phase = self.phase
        other.steps = self.steps[:]
        other.values = self.values[:]
        other.where = self.where[:]
        other.locked = self.locked[:]
        other.rolls = self.rolls
        other.locks_used = self.locks_used
        other.used = [u[:] for u in self.used]
        other.tied = self.tied[:]
        other.tie_need = self.tie_need
        return other

    def to_json(self) -> dict:
        return {
            "game": "rollcraft",
            "board": self.board.version,
            "options": dict(self.options),
            "round": self.round,
            "turn_in_round": self.turn_in_round,
            "turn": self.turn,
            "phase": self.phase,
            "steps": self.steps[:],
            "values": self.values[:],
            "where": self.where[:],
            "locked": self.locked[:],
            "rolls": self.rolls,
            "locks_used": self.locks_used,
            "used": [u[:] for u in self.used],
            "tied": self.tied[:],
            "tie_need": self.tie_need,
            "sheets": [s.to_json() for s in self.sheets],
        }

    @classmethod
    def from_json(cls, data: dict) -> "RollCraftState":
        try:
            if data["game"] != "rollcraft" or data["board"] != cls.board.version:
                raise ValueError("not a RollCraft T8 state for this board")
            state = cls.__new__(cls)
            State.__init__(state, RollCraft.check_options(data["options"]))
            n = state.num_players
            state.rounds = cls.board.rounds[n]
            state.round = _int(data["round"], 1, state.rounds)
            state.turn_in_round = _int(data["turn_in_round"], 0, n - 1)
            state.turn = _int(data["turn"], 0, 10**6)
            state.phase = data["phase"]
            if state.phase not in CHANCE_PHASES + (CHOOSE, RELOCK, PLACED, PREPARE, PLUS_WINDOW, BENEFIT, PASSIVE, OVER):
                raise ValueError("bad phase")
            state.steps = [s for s in data["steps"] if s in (TAKE, WINDOW, DONE)]
            state.values = [_int(v, 0, cls.board.faces) for v in data["values"]]
            state.where = [w for w in data["where"] if w in (GROUP, PLATTER, CHOSEN, OUT)]
            state.locked = [_int(d, 0, 5) for d in data["locked"]]
            state.rolls = _int(data["rolls"], 0, cls.board.regular_rolls)
            if not isinstance(data["locks_used"], bool):
                raise ValueError("bad flag")
            state.locks_used = data["locks_used"]
            state.used = [[_int(d, 0, 5) for d in u] for u in data["used"]]
            state.tied = [_int(d, 0, 5) for d in data["tied"]]
            state.tie_need = _int(data["tie_need"], 0, 6)
            state.sheets = [Sheet.from_json(s, cls.board) for s in data["sheets"]]
            if (len(state.steps) != n or len(state.values) != 6 or len(state.where) != 6 or len(state.used) != n
                    or len(state.sheets) != n):
                raise ValueError("bad sizes")
            if state.phase == SOLO_TIE and state.tie_combinations() < 2:
                raise ValueError("bad tie")
            if state.to_json() != data:
                raise ValueError("not a canonical RollCraft state")
        except (KeyError, TypeError, AttributeError, IndexError, IllegalMove) as err:
            raise ValueError(f"malformed RollCraft state: {err}") from err
        return state


class RollCraft(Game):
    """RollCraft T8: 1–4 players, six d8, five zones."""

    name = "rollcraft"
    title = "RollCraft T8"
    min_players = 1
    max_players = 4
    state_class = RollCraftState


RollCraftState.game = RollCraft

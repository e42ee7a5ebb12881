"""Geek Out! Masters: ten custom dice, mandatory actions, push your luck with the 42s.
The contract is `shared/rules/geek-out-masters.md`; section numbers (§) below refer to it.

Faces are numbered so that a flip (§2.3) is `7 - face`, as on a real die:
  1 meeple   2 hero (superhero)   3 heart   4 42   5 dragon   6 ship (spaceship)

Notation (one move per string, canonical spelling only):
  roll 1 4 4 6      chance: the faces of the dice thrown now, ascending (dice are
                    interchangeable, so only the sorted spelling is accepted). Every throw is a
                    chance move: the 7 dice of a turn's start (§5.2), the die a Meeple rerolls
                    (§8.1), the die a Heart brings in (§8.3) and the used dice when continuing
                    (§11.2). `roller()` is the seat whose turn it is.
  meeple 42         the acting die's face, then its target's face (§6.2, §6.3): a Meeple rerolls
  hero dragon       a die, a Superhero flips one, a Spaceship sends one to the inactive zone.
  ship 42           Dice of one face are interchangeable (§7.2), so faces name them.
  meeple / hero     a lone Meeple or Superhero acts with no target (§9.3): it moves to used.
  heart             a Heart acts: it brings in an inactive die (rolled next) or does nothing.
  stop / continue   after a phase's exhaustion (§11); `stop` is the only move if nothing is used.

Rulings where the contract leaves the engine a choice (the rules' own rulings are followed):
- Exhaustion is checked after every action and every throw; it is resolved at once and needs no
  move: a bust (a Dragon, or a lone Spaceship self-destructing, §8.2/§9.4/§10.1) ends the turn
  with 0 points, only 42s are banked into the scored zone (§10.2). A lone Spaceship is not a move:
  it has no action available (§10 lists it as an exhaustion), so the turn ends at once.
- A lone Meeple or Superhero is a move (`meeple`, `hero`) the player makes: §9.3 says it counts as
  performing its action, so the player sees it happen.
- When the used zone is empty after banking (all dice scored, Q12) the player still makes the
  move `stop` (the only legal one), so every turn ends on a visible choice or a bust.
- The first turn's seat is the `start` option (the platform draws or rotates it, §4.1); seats
  then follow in order. A game has 5 rounds (§4.2): `turn_number()` counts completed turns and the
  game ends after 5 × players turns. Ties share the victory (no winners by rule, §4.4).
- No take-backs: every action is mandatory or followed by the dice.
- The state keeps the last throw (`rolled`), the last action (`acted`) and how the previous turn
  ended (`last`) so every screen can show what just happened.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial
from typing import ClassVar

from ...protocol import CHANCE, Game, IllegalMove, State, split_move

MEEPLE, HERO, HEART, FORTYTWO, DRAGON, SHIP = 1, 2, 3, 4, 5, 6
FACES = (MEEPLE, HERO, HEART, FORTYTWO, DRAGON, SHIP)
FACE_NAMES = {MEEPLE: "meeple", HERO: "hero", HEART: "heart", FORTYTWO: "42", DRAGON: "dragon", SHIP: "ship"}
FACE_OF = {name: face for face, name in FACE_NAMES.items()}
TARGETING = (MEEPLE, HERO, SHIP)  # faces whose action needs another active die
DICE = 10
START_ACTIVE = 7
START_INACTIVE = 3
ROUNDS = 5
MIN_PLAYERS, MAX_PLAYERS = 1, 4


def flip(face: int) -> int:
    """The opposite face (§2.3)."""
    return 7 - face


def triangle(n: int) -> int:
    """T(N) = N(N+1)/2, the points for N scored 42s (§12)."""
    return n * (n + 1) // 2


def action_moves(active: tuple[int, ...] | list[int]) -> list[str]:
    """Every available action for active face counts (index 0 = meeple … 5 = ship), canonical order.

    Empty exactly at exhaustion (§10): only Dragons and 42s, a lone Spaceship, or nothing.
    """
    total = sum(active)
    moves = []
    for actor in (MEEPLE, HERO, SHIP):
        if not active[actor - 1]:
            continue
        if total == 1:
            if actor != SHIP:
                moves.append(FACE_NAMES[actor])  # §9.3: no target, no effect
            continue
        for target in FACES:
            if active[target - 1] - (target == actor) > 0:
                moves.append(f"{FACE_NAMES[actor]} {FACE_NAMES[target]}")
    if active[HEART - 1]:
        moves.append("heart")
    return moves


def exhausted(active) -> bool:
    """No action is available (§10)."""
    total = sum(active)
    if active[HEART - 1]:
        return False
    if total == 1 and active[SHIP - 1]:
        return True
    return active[MEEPLE - 1] + active[HERO - 1] + active[SHIP - 1] == 0


def busts(active) -> bool:
    """At exhaustion: a Spaceship or a Dragon is left (§10.1)."""
    return bool(active[DRAGON - 1] or active[SHIP - 1])


ROLL_PROMPTS = {"start": "geekout.prompt.roll_start", "meeple": "geekout.prompt.roll_meeple",
                "heart": "geekout.prompt.roll_heart", "continue": "geekout.prompt.roll_continue"}


class GeekOutState(State):
    """A Geek Out! Masters table: the score pad and the turn in progress.

    Zones hold counts: `active[f - 1]` active dice showing face f, and the numbers of inactive,
    used and scored dice; `pending` dice are in the air (a chance node), thrown `for_` a reason
    ("start", "meeple", "heart", "continue"). `phase` is "roll", "act", "decide" or "over".
    """

    game: ClassVar[type[Game]]

    def __init__(self, options: dict) -> None:
        super().__init__(options)
        self.seat: int = options.get("start", 0)
        self.turn = 0
        self.pad: list[list[int]] = [[] for _ in range(self.num_players)]
        self.last: dict | None = None  # how the previous turn ended
        self._start_turn()

    def _start_turn(self) -> None:
        self.active = [0] * 6
        self.inactive = START_INACTIVE
        self.used = 0
        self.scored = 0
        self.pending = START_ACTIVE
        self.reason = "start"
        self.phase = "roll"
        self.rolled: list[int] = []
        self.acted: str | None = None
        self.phases = 1  # phases begun this turn

    # --- who moves -------------------------------------------------------------------
    def current_players(self) -> list[int]:
        if self.phase == "over":
            return []
        return [CHANCE] if self.phase == "roll" else [self.seat]

    def turn_number(self) -> int:
        return self.turn

    def round(self) -> int:
        """The current round, 1..5 (5 once the game is over)."""
        return min(self.turn // self.num_players + 1, ROUNDS)

    def chance(self) -> tuple[int, ...]:
        return (6,) * self.pending if self.phase == "roll" else ()

    def roller(self) -> int | None:
        return self.seat if self.phase == "roll" else None

    def chance_move(self, values: list[int]) -> str:
        return "roll " + " ".join(str(v) for v in sorted(values))

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.phase != "roll":
            return []
        return [("roll " + " ".join(map(str, faces)), p) for faces, p in roll_outcomes(self.pending)]

    # --- queries ---------------------------------------------------------------------
    def zones(self) -> dict:
        return {"active": list(self.active), "inactive": self.inactive, "used": self.used, "scored": self.scored}

    def key(self) -> tuple:
        """The turn position as the solver sees it: (active counts, inactive, used, scored)."""
        return (tuple(self.active), self.inactive, self.used, self.scored)

    def legal_moves(self, player: int | None = None) -> list[str]:
        if self.phase in ("over", "roll") or (player is not None and player != self.seat):
            return []
        if self.phase == "decide":
            return ["stop", "continue"] if self.used else ["stop"]
        return action_moves(self.active)

    def scores(self) -> list[int]:
        return [sum(turns) for turns in self.pad]

    # --- moves -----------------------------------------------------------------------
    def _apply(self, move: str, player: int) -> None:
        if player == CHANCE:
            self._throw(self.chance_values(move))
            return
        word, args = split_move(move)
        if word in ("stop", "continue") and not args:
            if self.phase != "decide":
                raise IllegalMove("geekout.mid_phase", "You can stop or continue only when no action is left.")
            if word == "stop":
                self._end_turn("stop", triangle(self.scored))
            else:
                if not self.used:
                    raise IllegalMove("geekout.nothing_used", "No die is used: you must stop.")
                self.pending, self.used, self.reason, self.phase = self.used, 0, "continue", "roll"
                self.phases += 1
            return
        if word not in FACE_OF or len(args) > 1:
            raise IllegalMove("error.bad_move", f"'{move}' is not a Geek Out move.", move=move)
        if self.phase != "act":
            raise IllegalMove("geekout.must_decide", "No action is left: stop or continue.")
        actor = FACE_OF[word]
        if not self.active[actor - 1]:
            raise IllegalMove("geekout.no_such_die", "No active die shows that face.", face=word)
        if actor in (DRAGON, FORTYTWO):
            raise IllegalMove("geekout.no_action", "That face has no action.", face=word)
        total = sum(self.active)
        if actor == HEART:
            if args:
                raise IllegalMove("geekout.heart_no_target", "A Heart takes no target: it draws on the inactive zone.")
            self.active[HEART - 1] -= 1
            self.used += 1
            if self.inactive:
                self.inactive -= 1
                self.pending, self.reason, self.phase = 1, "heart", "roll"
            self.acted = move
            self._settle()
            return
        if not args:
            if total > 1:
                raise IllegalMove("geekout.choose_target", "Choose a target: another active die.", face=word)
            self.active[actor - 1] -= 1
            self.used += 1
            self.acted = move
            self._settle()
            return
        if args[0] not in FACE_OF:
            raise IllegalMove("error.bad_move", f"'{move}' is not a Geek Out move.", move=move)
        target = FACE_OF[args[0]]
        if self.active[target - 1] - (target == actor) <= 0:
            raise IllegalMove("geekout.no_target", "No other active die shows that face.", face=args[0])
        self.active[actor - 1] -= 1
        self.used += 1
        self.active[target - 1] -= 1
        if actor == MEEPLE:
            self.pending, self.reason, self.phase = 1, "meeple", "roll"
        elif actor == HERO:
            self.active[flip(target) - 1] += 1
        else:
            self.inactive += 1
        self.acted = move
        self._settle()

    def _throw(self, faces: list[int]) -> None:
        for face in faces:
            self.active[face - 1] += 1
        self.rolled = sorted(faces)
        self.pending = 0
        self.phase = "act"
        self._settle()

    def _settle(self) -> None:
        """After an action or a throw: resolve exhaustion (§10) if no action is left."""
        if self.phase != "act" or not exhausted(self.active):
            return
        if busts(self.active):
            lone_ship = sum(self.active) == 1 and self.active[SHIP - 1] == 1
            self._end_turn("self_destruct" if lone_ship else "bust", 0)
            return
        self.scored += self.active[FORTYTWO - 1]
        self.active = [0] * 6
        self.phase = "decide"

    def _end_turn(self, result: str, points: int) -> None:
        self.last = {"seat": self.seat, "result": result, "points": points, "scored": self.scored,
                     "active": list(self.active), "acted": self.acted}
        self.pad[self.seat].append(points)
        self.turn += 1
        self.seat = (self.seat + 1) % self.num_players
        self._start_turn()
        if self.turn >= ROUNDS * self.num_players:
            self.phase, self.pending = "over", 0

    # --- UI helpers --------------------------------------------------------------------
    def prompt(self) -> tuple[str, dict]:
        if self.phase == "over":
            return ("prompt.game_over", {})
        if self.phase == "roll":
            return (ROLL_PROMPTS[self.reason], {"n": self.pending})
        if self.phase == "decide":
            if not self.used:
                return ("geekout.prompt.must_stop", {"n": self.scored, "points": triangle(self.scored)})
            return ("geekout.prompt.decide", {"n": self.scored, "points": triangle(self.scored)})
        return ("geekout.prompt.act", {})

    # --- data ------------------------------------------------------------------------
    def clone(self) -> "GeekOutState":
        other = GeekOutState.__new__(GeekOutState)
        other.options = self.options
        other.num_players = self.num_players
        other.seat = self.seat
        other.turn = self.turn
        other.pad = [list(t) for t in self.pad]
        other.last = None if self.last is None else {**self.last, "active": list(self.last["active"])}
        other.active = list(self.active)
        other.inactive, other.used, other.scored = self.inactive, self.used, self.scored
        other.pending, other.reason, other.phase = self.pending, self.reason, self.phase
        other.rolled = list(self.rolled)
        other.acted = self.acted
        other.phases = self.phases
        return other

    def to_json(self) -> dict:
        return {
            "game": "geekout",
            "options": dict(self.options),
            "seat": self.seat,
            "turn": self.turn,
            "pad": [list(t) for t in self.pad],
            "last": None if self.last is None else {**self.last, "active": list(self.last["active"])},
            "phase": self.phase,
            "active": list(self.active),
            "inactive": self.inactive,
            "used": self.used,
            "scored": self.scored,
            "pending": self.pending,
            "reason": self.reason,
            "rolled": list(self.rolled),
            "acted": self.acted,
            "phases": self.phases,
        }

    @classmethod
    def from_json(cls, data: dict) -> "GeekOutState":
        try:
            if data["game"] != "geekout":
                raise ValueError("not a Geek Out state")
            state = cls(GeekOut.check_options(data["options"]))
            n = state.num_players
            state.seat = _int(data["seat"], 0, n - 1)
            state.turn = _int(data["turn"], 0, ROUNDS * n)
            pad = data["pad"]
            if len(pad) != n:
                raise ValueError("bad score pad")
            state.pad = [[_int(p, 0, triangle(DICE)) for p in turns] for turns in pad]
            if sum(len(t) for t in state.pad) != state.turn:
                raise ValueError("the score pad does not match the turns")
            last = data["last"]
            if last is not None:
                last = {
                    "seat": _int(last["seat"], 0, n - 1),
                    "result": _choice(last["result"], ("stop", "bust", "self_destruct")),
                    "points": _int(last["points"], 0, triangle(DICE)),
                    "scored": _int(last["scored"], 0, DICE),
                    "active": [_int(a, 0, DICE) for a in last["active"]],
                    "acted": _move_or_none(last["acted"]),
                }
                if len(last["active"]) != 6:
                    raise ValueError("bad last turn")
            state.last = last
            state.phase = _choice(data["phase"], ("roll", "act", "decide", "over"))
            state.active = [_int(a, 0, DICE) for a in data["active"]]
            if len(state.active) != 6:
                raise ValueError("bad active zone")
            state.inactive = _int(data["inactive"], 0, DICE)
            state.used = _int(data["used"], 0, DICE)
            state.scored = _int(data["scored"], 0, DICE)
            state.pending = _int(data["pending"], 0, DICE)
            state.reason = _choice(data["reason"], ("start", "meeple", "heart", "continue"))
            state.rolled = [_int(f, 1, 6) for f in data["rolled"]]
            state.acted = _move_or_none(data["acted"])
            state.phases = _int(data["phases"], 1, 10**6)
            total = sum(state.active) + state.inactive + state.used + state.scored + state.pending
            if state.phase != "over" and total != DICE:
                raise ValueError("the zones do not hold ten dice")
            if (state.phase == "roll") != (state.pending > 0) or state.rolled != sorted(state.rolled):
                raise ValueError("the dice in the air do not fit the phase")
            if state.phase == "act" and exhausted(state.active):
                raise ValueError("an exhausted phase must be settled")
            if state.phase == "decide" and any(state.active):
                raise ValueError("active dice at a decision")
            if (state.phase == "over") != (state.turn == ROUNDS * n):
                raise ValueError("the game end does not fit the turns")
            if state.to_json() != data:
                raise ValueError("not a canonical Geek Out state")
        except (KeyError, TypeError, AttributeError, IllegalMove) as err:
            raise ValueError(f"malformed Geek Out state: {err}") from err
        return state


def _int(value, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"{value!r} is not an integer in {low}..{high}")
    return value


def _choice(value, choices: tuple[str, ...]) -> str:
    if value not in choices or not isinstance(value, str):
        raise ValueError(f"{value!r} is not one of {choices}")
    return value


def _move_or_none(value) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 20:
        raise ValueError(f"{value!r} is not an action")
    return value


# --- throws -----------------------------------------------------------------------------------
_OUTCOMES: dict[int, list[tuple[tuple[int, ...], float]]] = {}


def roll_outcomes(k: int) -> list[tuple[tuple[int, ...], float]]:
    """The distinct throws of k dice (ascending faces) with their probabilities (multinomial)."""
    if k not in _OUTCOMES:
        ways_all = factorial(k)
        out = []
        for faces in combinations_with_replacement(range(1, 7), k):  # ascending, in lexicographic order
            ways = ways_all
            for f in FACES:
                ways //= factorial(faces.count(f))
            out.append((faces, ways / 6**k))
        _OUTCOMES[k] = out
    return _OUTCOMES[k]


class GeekOut(Game):
    """Geek Out! Masters: 1–4 players, ten dice, five rounds."""

    name = "geekout"
    title = "Geek Out! Masters"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_class = GeekOutState


GeekOutState.game = GeekOut

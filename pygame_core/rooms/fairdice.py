"""Commit–reveal dice: the host throws every die, and a guest can check it did not pick them.

For each game the host draws a secret 32-byte seed and announces only its SHA-256 (the
*commitment*) before anybody adds randomness. Guests then send their own random value (the
*entropy*) for that game, which the host announces to everybody. The k-th throw of the game is

    HMAC-SHA256(seed, "dicehall-dice|<game>|<k>|<mix>|<block>")  → uniform die values

where `mix` is the digest of every entropy announced before that throw (`mix_digest`). Each throw
message carries its `mix`, so a guest sees at once that its own entropy was used. When the game
ends the host reveals the seed: the guest checks it against the commitment and recomputes every
throw (`verify`). Since the seed was fixed before the entropies were known and the entropies
after the commitment, neither side alone chooses a die. (A host could still leave a late entropy
out of one throw; guests see that in the throw's mix.)

Die values are taken from the HMAC bytes one at a time, rejecting bytes that would bias the
result (a byte is used only below the largest multiple of the die's sides).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SEED_BYTES = 32


def new_seed() -> str:
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def mix_digest(entropies: list[tuple[str, str]]) -> str:
    """The digest of the entropies (guest id, value) in the order the host announced them."""
    text = ";".join(f"{guest}:{value}" for guest, value in entropies)
    return hashlib.sha256(text.encode()).hexdigest()


def roll(seed: str, game: int, throw: int, mix: str, sides: tuple[int, ...] | list[int]) -> list[int]:
    """The values (1..sides) of throw number `throw` of game `game`."""
    key = bytes.fromhex(seed)
    values: list[int] = []
    block = 0
    pending = b""
    while len(values) < len(sides):
        if not pending:
            pending = hmac.new(key, f"dicehall-dice|{game}|{throw}|{mix}|{block}".encode(), hashlib.sha256).digest()
            block += 1
        byte, pending = pending[0], pending[1:]
        s = sides[len(values)]
        if not 1 <= s <= 256:
            raise ValueError("a die has 1 to 256 sides")
        if byte < 256 - 256 % s:
            values.append(byte % s + 1)
    return values


def verify(seed: str, commit: str, game: int, throws) -> str | None:
    """None when `seed` matches the commitment and every throw follows from it; else a short
    reason. `throws` holds (mix, sides, accepts) per throw of the game, in order, where
    `accepts(values)` says whether those values give the throw that was played (games write a
    throw in their own notation, some with the dice sorted)."""
    try:
        if not hmac.compare_digest(commitment(seed), commit):
            return "the revealed seed does not match the commitment"
    except ValueError:
        return "the revealed seed is not valid"
    for k, (mix, sides, accepts) in enumerate(throws):
        if not accepts(roll(seed, game, k, mix, sides)):
            return f"throw {k + 1} does not follow from the seed"
    return None

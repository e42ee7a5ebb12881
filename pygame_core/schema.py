"""One validator for every value read back from storage or a file: small schema values that check
types, ranges, finite numbers, lengths and nesting, and say where a value failed.

Anything stored can be tampered with (or written by another version), so every loader states the
shape it accepts here and checks it before using a field: `int()` of a stored 1e999, a list where a
name was expected or a 400-digit score once stopped the app. A schema either accepts a value
(returning it, possibly normalised) or raises `Invalid` naming the path (`$.seats[2].name`) and why.

Salvage: parts of a stored value can be dropped while the rest is kept — a list whose unsound items
are left out (`ListOf(..., salvage=True)`), a field that falls back to its default
(`Field(..., fallback=True)`). What was dropped is written to a `Report`, so the shell can say what
it set aside instead of silently losing it. Pure Python (engines, rooms and the shell use it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

MAX_DEPTH = 24  # as safejson.MAX_DEPTH: deeper than any real value
OMIT = object()  # a Field's default: a missing optional field stays missing


class Invalid(ValueError):
    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


@dataclass
class Report:
    """What salvage left out: one (path, reason) per dropped part."""

    dropped: list[tuple[str, str]] = field(default_factory=list)

    def drop(self, err: Invalid) -> None:
        self.dropped.append((err.path, err.reason))


class Schema:
    def check(self, value, path: str = "$", report: Report | None = None, depth: int = 0):
        if depth > MAX_DEPTH:
            raise Invalid(path, "nested too deep")
        return self._check(value, path, report, depth)

    def _check(self, value, path, report, depth):  # pragma: no cover - every schema has its own
        raise NotImplementedError

    def __call__(self, value, report: Report | None = None):
        return self.check(value, "$", report)


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Int(Schema):
    """A JSON integer (never a bool, never 1.5 or 1e999) within [low, high]."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high

    def _check(self, value, path, report, depth):
        if type(value) is not int or not self.low <= value <= self.high:
            raise Invalid(path, f"not a whole number from {self.low} to {self.high}: {_show(value)}")
        return value


class Number(Schema):
    """A finite JSON number (never a bool, NaN or an infinity) within [low, high]."""

    def __init__(self, low: float, high: float) -> None:
        self.low, self.high = low, high

    def _check(self, value, path, report, depth):
        if type(value) not in (int, float) or (type(value) is float and not math.isfinite(value)) \
                or not self.low <= value <= self.high:
            raise Invalid(path, f"not a number from {self.low} to {self.high}: {_show(value)}")
        return value


class Bool(Schema):
    def _check(self, value, path, report, depth):
        if type(value) is not bool:
            raise Invalid(path, f"not true or false: {_show(value)}")
        return value


class Text(Schema):
    """A string of at most `max_len` characters (at least `min_len`); `choices` or `test` narrow it;
    `cut` shortens what is accepted (a name shown capped, never refused for its length)."""

    def __init__(self, max_len: int, min_len: int = 0, choices=None, test=None, cut: int | None = None) -> None:
        self.max_len, self.min_len, self.choices, self.test, self.cut = max_len, min_len, choices, test, cut

    def _check(self, value, path, report, depth):
        if type(value) is not str:
            raise Invalid(path, f"not text: {_show(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            raise Invalid(path, f"text of {len(value)} characters (allowed {self.min_len} to {self.max_len})")
        if self.choices is not None and value not in self.choices:
            raise Invalid(path, f"not one of the known values: {_show(value)}")
        if self.test is not None and not self.test(value):
            raise Invalid(path, f"not in the expected form: {_show(value)}")
        return value if self.cut is None else value[: self.cut]


class Const(Schema):
    def __init__(self, value) -> None:
        self.value = value

    def _check(self, value, path, report, depth):
        if type(value) is not type(self.value) or value != self.value:
            raise Invalid(path, f"expected {self.value!r}: {_show(value)}")
        return value


class Choice(Schema):
    """One of a few JSON values (compared with their types: 1 is not true)."""

    def __init__(self, *values) -> None:
        self.values = values

    def _check(self, value, path, report, depth):
        if not any(type(value) is type(v) and value == v for v in self.values):
            raise Invalid(path, f"not one of {list(self.values)!r}: {_show(value)}")
        return value


class Maybe(Schema):
    """null, or what `inner` accepts."""

    def __init__(self, inner: Schema) -> None:
        self.inner = inner

    def _check(self, value, path, report, depth):
        return None if value is None else self.inner.check(value, path, report, depth)


class Any(Schema):
    """Any JSON value, bounded in nesting (a part another loader checks further)."""

    def _check(self, value, path, report, depth):
        if isinstance(value, list):
            for i, item in enumerate(value):
                self.check(item, f"{path}[{i}]", report, depth + 1)
        elif isinstance(value, dict):
            for key, item in value.items():
                self.check(item, f"{path}.{key}", report, depth + 1)
        elif type(value) is float and not math.isfinite(value):
            raise Invalid(path, f"not a finite number: {_show(value)}")
        return value


class ListOf(Schema):
    """A list of at most `max_len` items, each checked by `item`; with `salvage`, unsound items are
    left out (and reported) instead of failing the list."""

    def __init__(self, item: Schema, max_len: int, min_len: int = 0, salvage: bool = False) -> None:
        self.item, self.max_len, self.min_len, self.salvage = item, max_len, min_len, salvage

    def _check(self, value, path, report, depth):
        if type(value) is not list:
            raise Invalid(path, f"not a list: {_show(value)}")
        if len(value) > self.max_len and not self.salvage:
            raise Invalid(path, f"a list of {len(value)} items (allowed {self.max_len})")
        out = []
        for i, item in enumerate(value):
            try:
                out.append(self.item.check(item, f"{path}[{i}]", report, depth + 1))
            except Invalid as err:
                if not self.salvage:
                    raise
                if report is not None:
                    report.drop(err)
        if self.salvage and len(out) > self.max_len:  # the newest are kept (lists grow at the end)
            out = out[-self.max_len:]
        if len(out) < self.min_len:
            raise Invalid(path, f"a list of {len(out)} items (at least {self.min_len} needed)")
        return out


@dataclass
class Field:
    """A field of `Fields`: its schema, whether it may be missing (then `default`), and whether an
    unsound value falls back to `default` (reported) rather than failing the whole object."""

    schema: Schema
    optional: bool = False
    default: object = None
    fallback: bool = False


class Fields(Schema):
    """An object with known fields (`{name: Schema | Field}`); other keys are left out (reported
    when `report_extra`). The result holds every known field."""

    def __init__(self, fields: dict, report_extra: bool = False) -> None:
        self.fields = {k: f if isinstance(f, Field) else Field(f) for k, f in fields.items()}
        self.report_extra = report_extra

    def _check(self, value, path, report, depth):
        if type(value) is not dict:
            raise Invalid(path, f"not an object: {_show(value)}")
        out = {}
        for name, spec in self.fields.items():
            where = f"{path}.{name}"
            if name not in value:
                if not (spec.optional or spec.fallback):
                    raise Invalid(where, "missing")
                if spec.default is not OMIT:
                    out[name] = spec.default
                continue
            try:
                out[name] = spec.schema.check(value[name], where, report, depth + 1)
            except Invalid as err:
                if not spec.fallback:
                    raise
                if report is not None:
                    report.drop(err)
                if spec.default is not OMIT:
                    out[name] = spec.default
        if self.report_extra and report is not None:
            for name in value:
                if name not in self.fields:
                    report.drop(Invalid(f"{path}.{str(name)[:40]}", "not a known field"))
        return out


class MapOf(Schema):
    """An object used as a map: at most `max_items` keys, each checked by `key`, values by `value`;
    with `salvage`, unsound entries are left out (and reported)."""

    def __init__(self, key: Schema, value: Schema, max_items: int, salvage: bool = False) -> None:
        self.key, self.value, self.max_items, self.salvage = key, value, max_items, salvage

    def _check(self, value, path, report, depth):
        if type(value) is not dict:
            raise Invalid(path, f"not an object: {_show(value)}")
        if len(value) > self.max_items:
            raise Invalid(path, f"an object of {len(value)} keys (allowed {self.max_items})")
        out = {}
        for name, item in value.items():
            where = f"{path}.{str(name)[:40]}"
            try:
                out[self.key.check(name, where, report, depth + 1)] = self.value.check(item, where, report, depth + 1)
            except Invalid as err:
                if not self.salvage:
                    raise
                if report is not None:
                    report.drop(err)
        return out


class Check(Schema):
    """`inner`, then a test of the whole (`test(value) -> str | None`: why it is unsound)."""

    def __init__(self, inner: Schema, test) -> None:
        self.inner, self.test = inner, test

    def _check(self, value, path, report, depth):
        value = self.inner.check(value, path, report, depth)
        why = self.test(value)
        if why:
            raise Invalid(path, why)
        return value


class Via(Schema):
    """A value a function checks (`read(value) -> value`, ValueError or TypeError when unsound):
    for the few values whose form another module owns (a room server's address)."""

    def __init__(self, read, what: str) -> None:
        self.read, self.what = read, what

    def _check(self, value, path, report, depth):
        try:
            return self.read(value)
        except (ValueError, TypeError) as err:
            raise Invalid(path, f"not {self.what}: {str(err)[:80]}") from None


class Tuple(Schema):
    """A list of exactly these items, in order (a record's `[seat, move]`)."""

    def __init__(self, *items: Schema) -> None:
        self.items = items

    def _check(self, value, path, report, depth):
        if type(value) is not list or len(value) != len(self.items):
            raise Invalid(path, f"not a list of {len(self.items)}: {_show(value)}")
        return [s.check(v, f"{path}[{i}]", report, depth + 1) for i, (s, v) in enumerate(zip(self.items, value))]

"""What a crash dump says, in one line: a renderer crash's signal and where it happened.

Chromium's crash handler writes a minidump for every crashed process (into "<CHROME_CONFIG_HOME>/
chromium/Crash Reports/pending", which the browser tests point into the test's profile), and
nothing else records the signal: its stderr says only that a dump was written. Read with the
minidump format's public layout (stream 4: the modules, 6: the exception and its x86-64 context).
"""

from __future__ import annotations

import bisect
import signal
import struct
from pathlib import Path

MODULES, EXCEPTION = 4, 6


def _u32(data: bytes, at: int) -> int:
    return struct.unpack_from("<I", data, at)[0]


def _string(data: bytes, at: int, encoding: str) -> str:
    return data[at + 4: at + 4 + _u32(data, at)].decode(encoding, "replace")


def summary(path: Path) -> str:
    """E.g. "SIGSEGV (code 2) at chromium+0x9c6674d, address 0x1883f8436000, rsp 0x1883f8433100"."""
    data = path.read_bytes()
    if data[:4] != b"MDMP":
        return f"{path.name}: not a minidump"
    streams = {}
    for i in range(_u32(data, 8)):
        kind, _size, at = struct.unpack_from("<III", data, _u32(data, 12) + 12 * i)
        streams[kind] = at
    modules = []
    if MODULES in streams:
        at = streams[MODULES]
        for i in range(_u32(data, at)):
            base, size = struct.unpack_from("<QI", data, at + 4 + 108 * i)
            modules.append((base, size, _string(data, _u32(data, at + 4 + 108 * i + 20), "utf-16-le")))
    modules.sort()

    def where(address: int) -> str:
        i = bisect.bisect_right([m[0] for m in modules], address) - 1
        if i >= 0 and address < modules[i][0] + modules[i][1]:
            return f"{Path(modules[i][2]).name}+{address - modules[i][0]:#x}"
        return f"{address:#x}"

    if EXCEPTION not in streams:
        return f"{path.name}: no exception record"
    at = streams[EXCEPTION]
    signo, code, _record, fault = struct.unpack_from("<IIQQ", data, at + 8)
    context = _u32(data, at + 164)  # the thread context's location, after 15 exception parameters
    rsp, = struct.unpack_from("<Q", data, context + 152)
    rip, = struct.unpack_from("<Q", data, context + 248)
    try:
        name = signal.Signals(signo).name
    except ValueError:
        name = f"signal {signo}"
    return f"{name} (code {code}) at {where(rip)}, address {fault:#x}, rsp {rsp:#x}"

"""What the browser benchmarks share: the built site served quietly on loopback, and the result
printed (and optionally written) as the last line of JSON."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from pathlib import Path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def serve(directory: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    """Serve `directory` on 127.0.0.1 (a free port) from a thread: (base URL, server)."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


def emit(result: dict, json_path: str | None) -> None:
    """The benchmark's result as one JSON line, last; also into `json_path` when given."""
    line = json.dumps(result)
    if json_path:
        Path(json_path).write_text(line + "\n")
    print(line)

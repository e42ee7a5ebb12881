"""Small HTML-building helpers (everything rendered is escaped here)."""

from __future__ import annotations


def esc(value) -> str:
    """`html.escape(str(value), quote=True)`, written out: importing `html` also loads
    html.entities, a table of 2,000 names that took longer to import on a first visit's boot
    than this whole package. "&" goes first, so the others' ampersands are not escaped twice."""
    return (str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#x27;"))


def attrs(**kw) -> str:
    """HTML attributes; `data_x` -> `data-x`, `aria_x` -> `aria-x`, `cls` -> `class`; None/False dropped."""
    out = []
    for key, value in kw.items():
        if value is None or value is False:
            continue
        name = "class" if key == "cls" else key.rstrip("_").replace("_", "-")
        out.append(name if value is True else f'{name}="{esc(value)}"')
    return (" " + " ".join(out)) if out else ""


def button(label_html: str, *, action: str, arg=None, cls: str = "btn", testid: str | None = None, **kw) -> str:
    return (f"<button type=\"button\"{attrs(cls=cls, data_action=action, data_arg=arg, data_testid=testid, **kw)}>"
            f"{label_html}</button>")

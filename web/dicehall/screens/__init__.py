"""The screens every game shares, one module each: a pure renderer (`render(app, …) -> html`) plus
the taps (`ACTIONS`: action -> handler(app, arg)) and form fields (`FIELDS`) it handles. `app` is
the `shell.Shell`. The play screen is the play controller's; the room's panel is the room desk's."""

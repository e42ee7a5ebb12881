"""One package per game: `web/dicehall/games/<id>/` with `VIEW` (a `GameView`), `i18n/<lang>.json`
(its catalog, loaded when the game opens) and optionally `style.css` (appended to app.css by the
build). Found by game id; adding a game edits no shared file."""

"""Every test session knows the fixture game `claim` (tests/fixtures/README.md)."""

import support

support.register_fixture_game()

"""Online rooms, the part without a browser: a host-run table that guests join over any transport.

The host is the authority. It keeps the `Table` (the one door for moves, `Table.submit` with the
move index the mover saw), decides who may act for which seat, rolls every die and broadcasts
what happened. Guests only send *intents* (a move for their seat on the index they saw, a chat
line, a seat request) and mirror the table by replaying what the host sends.

- `messages`: the wire format (JSON text), parsed and bounded before anything trusts it.
- `fairdice`: commit–reveal dice — the host commits to a secret seed before the guests add their
  own randomness; every roll is derived from both, and the seed is revealed when the game ends,
  so a guest can check that no die was picked.
- `host.RoomHost`: approvals, seat secrets, seats (take over an AI seat, ask a person for theirs,
  30 seconds to refuse), chat with limits and history, presence, saving and resuming the room.
- `guest.RoomGuest`: the guest's mirror of the room, its intents, and the dice check.
- `memory`: an in-memory transport for tests (the browser gets PeerJS and manual signalling).

Time is passed in (`now`, seconds): the rules about 30 seconds, 48 hours or a heartbeat are
tested without waiting, and the browser supplies its clock.
"""

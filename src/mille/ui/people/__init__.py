"""People at their own terminals (``mille --invite bob``, ``mille --join alice``; docs/people.md), at every table.

From the ground up (each imports only those of its own layer and below,
``tests/project/test_layers.py``):

* :mod:`.rendezvous`: where the host waits (one Unix socket, the table's
  door, in a directory only the host may write), the peer's user from the
  kernel before a byte is read, the invitation on the guest's terminal as
  ``write(1)`` does; :mod:`.link`: the bounded conversation between the host
  and a guest or a watcher (JSON lines, capped, with deadlines, written
  without blocking, a word after some seconds of silence);
* :mod:`.messages`: the link's message set, each message spelled once
  (protocol 2's encodings of the game's values, a version in the hello);
  :mod:`.view`: a seat's view as a guest draws and speaks it, and the one
  rule a refused move is told by; :mod:`.narration`: the table's story,
  numbered; :mod:`.talk`: a line of talk typed on a board, the story shown;
* :mod:`.seat`: the host's side of one person: their seat as the flow's
  player (admission, the asking loop, their views, their drops);
* :mod:`.room`: the room around the host's table: the door and its knocks,
  open seats, the watchers, the talk, the story told to who comes back;
* :mod:`.visit`: what a guest's run and a watcher's share (reaching the
  table, here or over ssh; the run that follows it; the faces' lines);
* :mod:`.host`: the host's run and the people added to whichever face plays;
  :mod:`.guest`: a guest's run (its seat, the way back after a drop) and its
  faces on the boards;
* :mod:`.watch`: a watcher's run; :mod:`.lobby`: ``mille --list``;
* :mod:`.inlines`: either side in lines.
"""

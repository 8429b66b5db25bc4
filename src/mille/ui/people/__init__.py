"""People at their own terminals (``mille --invite bob``, ``mille --join alice``; docs/people.md), at every table.

From the ground up (each imports only those before it):

* :mod:`.rendezvous`: where the host waits (a Unix socket in a directory
  only the host may write), the peer's user from the kernel before a byte
  is read, the invitation on the guest's terminal as ``write(1)`` does;
* :mod:`.link`: the bounded conversation between the host and a guest (JSON
  lines, capped, with deadlines, written without blocking);
* :mod:`.messages`: the link's message set, each message spelled once
  (protocol 2's encodings of the game's values, a version in the hello);
* :mod:`.view`: a seat's view as a guest draws and speaks it, and the one
  rule a refused move is told by;
* :mod:`.seat`: the host's side of one person: their seat as the flow's
  player (admission, the asking loop, their views, their drops);
* :mod:`.host`: the host's run and the people added to whichever face plays;
* :mod:`.guest`: a guest's run (the link, the host's messages, the way
  back after a drop) and its faces on the boards;
* :mod:`.inlines`: either side in lines.
"""

"""Two people, each at their own terminal (``mille --invite bob``, ``mille --join alice``; docs/people.md).

* :mod:`.rendezvous`: where the host waits (a Unix socket in a directory
  only the host may write), the peer's user from the kernel before a byte
  is read, the invitation on the guest's terminal as ``write(1)`` does;
* :mod:`.link`: the bounded conversation between the two processes (JSON
  lines of the bot protocol's encoding, capped, with deadlines, written
  without blocking);
* :mod:`.host`: the host's side, the one authority: the guest is the
  flow's second seat, a player that asks over the link (the computer stands
  in while the guest is away);
* :mod:`.guest`: the guest's side: the board drawn from its seat's view
  only, and its keys sent back.
* :mod:`.tablehost`, :mod:`.tableguest`: the same at 3, 4 and 6 seats
  (``mille --players N --invite bob,carol``): people in any seats,
  computers in the rest, the table's board from each person's seat.
"""

"""Plain mode (``mille --plain``): the whole game as lines of text.

For screen readers, braille displays, dumb terminals, Emacs shell buffers,
serial consoles and scripts at the other end of a pipe (issue 32; the
reference ``accessible-play.md``).  A front end of the game's flow beside
the board, over the same engine, driver and observation:

* :mod:`.app`: :class:`~.app.PlainFace`, the flow's face (what is said when);
* :mod:`.speaker`: the sentences, at every table, for the seat spoken
  for, through a naming policy (:class:`~.speaker.Naming`);
* :mod:`.commands`: what a typed line means, and the help;
* :mod:`.lines`: the terminal of lines (a bounded reader, signals as events).

Nothing here imports curses: plain mode works where curses cannot start
(``TERM=dumb``, no terminfo, no terminal at all).
"""

#: The levels of detail (``--detail``, the ``detail`` setting, the ``v``
#: key), the first the default: brief says your picks, the computer's
#: moves, refusals and questions; full adds the running totals and what you
#: may play.
BRIEF = "brief"
FULL = "full"
DETAILS = (BRIEF, FULL)

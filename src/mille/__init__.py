"""mille: a faithful re-creation of the 4.4BSD Mille Bornes game.

The package is in layers (``docs/architecture.md``): ``engine`` (the rules,
no I/O), ``players``, ``files`` (what touches the person's disk), ``lab``
(headless play and measurement), ``ui`` (the faces), and at the top the
commands: ``cli`` (``mille``), ``match``, ``tournament`` and ``sim``.
Importing the package imports none of them (start-up time).
"""

from __future__ import annotations

__version__ = "0.1.0"

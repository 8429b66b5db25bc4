"""The lab: headless play and measurement (``python -m mille.match``, ``.tournament``, ``.sim``, ``.replay``).

A match plays duplicate pairs (``pairs``, ``records``) on a runner of
processes or a Dask cluster (``runner``, ``cluster``), reports intervals
(``report``, ``stats``) and may stop by a sequential test (``sprt``) or
record every game (``gamelog``, replayed by ``replay``); a tournament is a
round robin of such matches (``schedule``, ``results``, ``standings``,
``tournament``).  ``command`` and ``console`` are what the command lines
share.
"""

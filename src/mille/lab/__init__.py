"""The lab: headless play and measurement (``python -m mille.match``, ``.tournament``, ``.sim``, ``.replay``).

Written once for every table.  A match plays sets of rotations (``play``,
``records``; at two seats a set is a duplicate pair) on one runner of
processes or a Dask cluster (``runner``, ``cluster``), reports intervals
(``report``, ``stats``) and may stop by a sequential test (``sprt``) or
record every game (``gamelog``, replayed by ``replay``); a tournament is a
round robin of such matches (``schedule``, ``results``, ``standings``,
``bradley_terry``, ``tournament``).  ``options``, ``command`` and
``console`` are what the runs and command lines share.
"""

"""The person's files: everything that touches the disk, and every string from outside shown on a terminal.

``safeio`` is how every file is written and read (durable whole-file
writes, append-only records, untrusted reads with a size cap, private
directories) and ``shown()``; ``places`` where mille keeps things; ``save``
the JSON saves; ``rescue`` the files a hangup or a crash leaves; ``ledger``,
``recorder`` and ``tally`` the record of games; ``settings`` the settings
file.
"""

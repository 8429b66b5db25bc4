#!/usr/bin/env python3
"""A tiny bot written from docs/protocol.md alone, protocol 1 as first published: nothing opt-in.

    tiny_bot.py NAME COUNTS [--every]

It plays the first legal move.  When told ``quit`` it writes to the file
COUNTS (appending) one line per game: ``decides own_moves asked_forced``,
how many times it was asked, how many moves of its seat the events told
it of (passes aside: a seat with no cards is never asked), and how many of
the questions had a single legal move.  ``--every`` adds the one opt-in
this test needs, ``"every_decision": true`` in the hello.
"""

import json
import sys


def main(argv):
    name, counts = argv[0], argv[1]
    every = "--every" in argv
    greeting = json.loads(sys.stdin.readline())
    assert greeting["type"] == "mille" and greeting["protocol"] == 1
    hello = {"type": "hello", "protocol": 1, "name": name}
    if every:
        hello["every_decision"] = True
    print(json.dumps(hello), flush=True)
    games = []
    seat = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "game":
            seat = message["seat"]
            games.append([0, 0, 0])
        elif kind == "decide":
            legal = message["legal"]
            games[-1][0] += 1
            games[-1][2] += len(legal) == 1
            print(json.dumps({"type": "move", "move": legal[0]}), flush=True)
        elif kind == "event" and message["seat"] == seat and message["kind"] != "pass":
            games[-1][1] += 1
        elif kind == "quit":
            break
    with open(counts, "a") as f:
        f.writelines(" ".join(map(str, g)) + "\n" for g in games)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

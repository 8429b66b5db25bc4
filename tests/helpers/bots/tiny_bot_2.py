#!/usr/bin/env python3
"""A tiny bot of protocol 2, written from docs/protocol.md ("Protocols 1 and 2") alone.

    tiny_bot_2.py NAME HEARD [--both]

It plays the first legal move (at a ``reaction``, the coup fourré) and
writes every line mille sends it, as received, to the file HEARD.PID (the
tests read what it was told: the games' protocol, the reactions asked,
and that nothing in it is another seat's hand or the deck).  Its hello
says ``"protocol": 2``; ``--both`` says ``"protocol": 1, "protocols":
[1, 2]`` instead, and ``--one`` ``"protocol": 1`` alone (protocol 1 as
first published); ``--games`` offers 8 games at once (and plays each
message untagged or tagged alike: it answers every ``decide``).
"""

import json
import os
import sys


def send(message):
    print(json.dumps(message), flush=True)


def main(argv):
    name, heard = argv[0], argv[1]
    with open(f"{heard}.{os.getpid()}", "a") as log:
        for line in sys.stdin:
            log.write(line)
            log.flush()
            message = json.loads(line)
            if message["type"] == "mille":
                if "--one" in argv:
                    send({"type": "hello", "protocol": 1, "name": name})
                elif "--both" in argv:
                    send({"type": "hello", "protocol": 1, "protocols": [1, 2], "name": name})
                else:
                    send({"type": "hello", "protocol": 2, "name": name, **({"games": 8} if "--games" in argv else {})})
            elif message["type"] == "decide":
                tag = {"tag": message["tag"]} if "tag" in message else {}
                send({"type": "move", "move": message["legal"][0], **tag})
            elif message["type"] == "quit":
                break
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

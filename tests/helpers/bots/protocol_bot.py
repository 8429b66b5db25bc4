#!/usr/bin/env python3
"""A bot written from docs/protocol.md alone (no mille import), that misbehaves on request.

    protocol_bot.py [MODE] [--once FILE] [--name NAME] [--started FILE]

It plays the first legal move.  MODE makes it misbehave at its first
``decide`` (with ``--once FILE``: only if it can create FILE, so that of all
the bots with that FILE only the first to decide misbehaves, and a bot
started again after a failure behaves; ``--started FILE`` makes FILE as it
starts, to show that it ran):

``ok``        behave;
``sleep``     never answer;
``exit``      write a line to standard error and exit with status 3;
``garbage``   answer a line that is not JSON;
``illegal``   answer a move that is not among the legal ones;
``flood``     write 3 MiB without a newline, then sleep;
``fork``      start a child that keeps standard output open (its pid in
              FILE.child), then exit;
``stderr``    write 8 MiB to standard error, then behave;
``twice``     answer two moves;
``nohello``   never answer the greeting;
``badhello``  answer the greeting with garbage;
``roll``      ask the host to roll before every move (and count the rolls
              on standard error).
"""

from __future__ import annotations

import json
import os
import sys
import time


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> int:
    mode = argv[0] if argv and not argv[0].startswith("--") else "ok"
    once = argv[argv.index("--once") + 1] if "--once" in argv else None
    name = argv[argv.index("--name") + 1] if "--name" in argv else f"protocol-bot-{mode}"
    if "--started" in argv:
        open(argv[argv.index("--started") + 1], "w").close()
    greeting = json.loads(sys.stdin.readline())
    assert greeting["type"] == "mille" and greeting["protocol"] == 1
    if mode == "nohello":
        time.sleep(3600)
    if mode == "badhello":
        print("good day to you", flush=True)
        time.sleep(3600)
    send({"type": "hello", "protocol": 1, "name": name})
    rolls = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "quit":
            return 0
        if kind != "decide":
            continue
        legal = message["legal"]
        if once is not None and mode != "ok":
            try:  # the first bot to get here misbehaves, the others (started after it) do not
                os.close(os.open(once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                mode = "ok"
        if mode == "sleep":
            time.sleep(3600)
        elif mode == "exit":
            print("protocol_bot: giving up", file=sys.stderr, flush=True)
            return 3
        elif mode == "garbage":
            print("I play the Go card!", flush=True)
            continue
        elif mode == "illegal":
            every = [{"kind": k, "slot": s} for k in ("play", "discard") for s in range(7)] + [{"kind": "draw"}]
            send({"type": "move", "move": next(m for m in every if m not in legal)})
            continue
        elif mode == "flood":
            sys.stdout.write("x" * (3 << 20))
            sys.stdout.flush()
            time.sleep(3600)
        elif mode == "fork":
            pid = os.fork()
            if pid == 0:
                time.sleep(3600)
                os._exit(0)
            if once is not None:
                with open(once + ".child", "w") as f:
                    f.write(str(pid))
            return 0
        elif mode == "stderr":
            sys.stderr.write(("e" * 1023 + "\n") * (8 << 10))
            sys.stderr.flush()
            mode = "ok"
        elif mode == "twice":  # two answers in one write: they reach mille together
            answer = json.dumps({"type": "move", "move": legal[0]}) + "\n"
            sys.stdout.flush()
            os.write(sys.stdout.fileno(), (answer + answer).encode())
            continue
        elif mode == "roll":
            send({"type": "roll"})
            answer = json.loads(sys.stdin.readline())
            assert answer["type"] == "rolled" and 0 <= answer["value"] < 2**31
            rolls += 1
            print(f"rolls {rolls}", file=sys.stderr, flush=True)
        send({"type": "move", "move": legal[0]})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

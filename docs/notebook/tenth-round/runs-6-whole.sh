#!/bin/bash
# The tenth round's declared run 6, played whole in a third session (the second session's run 6 was cut at 38 pairs
# by that session's end), then the declared "if time allows" runs 7a and 7b.  Same worktree, same commit (f380628's
# source; later commits change documents only), same commands as declared in docs/expert.md.  This session ends
# about 13:30 UTC, so a run still going at 12:50 UTC is stopped with one SIGINT then (its finished pairs or sets its
# result, reported as cut by the session), and a run not started by then is reported as not run.
set -m
cd /work/wt/expert
PY=/work/wt/expert/.venv/bin/python
OUT=/tmp/x3/s3
DEADLINE=$(date -u -d "2026-11-29 12:50:00" +%s)
run() {
  name=$1; shift
  if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then echo "$name not run (session deadline)" >> $OUT/log; return; fi
  echo "$name start $(date -u +%H:%M:%S)" >> $OUT/log
  nice -n 10 $PY -m mille.match "$@" --jobs 2 --json > $OUT/$name.json 2> $OUT/$name.err &
  pid=$!
  echo $pid > $OUT/$name.pid
  while kill -0 $pid 2>/dev/null; do
    if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then kill -INT $pid; echo "$name SIGINT at session deadline" >> $OUT/log; wait $pid; break; fi
    sleep 5
  done
  wait $pid
  echo "$name end $(date -u +%H:%M:%S) status $?" >> $OUT/log
}
run r6 expert expert-2026-11 --hands 800 --seed 46462026
run r7a --players 4 expert-2026-11 bsd --games 100 --seed 46042026
run r7b --players 4 mille.lab.partners:Expert202611AndBsd bsd --games 100 --seed 46142026
echo "all done $(date -u +%H:%M:%S)" >> $OUT/log

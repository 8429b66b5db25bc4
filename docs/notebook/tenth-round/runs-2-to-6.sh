#!/bin/bash
# The tenth round's declared runs 2 onward (run 1 done; the session before this one ended while run 2 played and
# its partial output was lost with it, so run 2 starts again from its first game, same seed, same command).
# As declared (docs/expert.md at f380628), plus: this session ends about 10:30 UTC, so a run still going at 09:50
# is stopped with one SIGINT then, its finished pairs or sets its result (reported as cut by the session, not by the rule).
set -m  # job control: the run in the background hears SIGINT (without it, bash starts it with SIGINT ignored)
cd /work/wt/expert
PY=/work/wt/expert/.venv/bin/python
OUT=/tmp/x3/final
DEADLINE=$(date -u -d "2026-11-29 09:50:00" +%s)
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
run r2 --players 4 expert bsd --games 100 --seed 46042026
run r3 --players 4 mille.lab.partners:ExpertAndBsd bsd --games 100 --seed 46142026
run r4 --players 3 expert bsd bsd --games 60 --seed 46032026
run r5 --players 6 expert bsd bsd --games 36 --seed 46062026
run r6 expert expert-2026-11 --hands 800 --seed 46462026
echo "all done $(date -u +%H:%M:%S)" >> $OUT/log

#!/bin/bash
# The tenth round's declared runs, in order (docs/expert.md, "The tenth round, declared"), at f380628.
cd /work/wt/expert
PY=/work/wt/expert/.venv/bin/python
OUT=/tmp/x3/final
DEADLINE=$(date -u -d "2026-11-29 15:00:00" +%s)
run() {
  name=$1; shift
  if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then echo "$name not run (deadline)" >> $OUT/log; return; fi
  echo "$name start $(date -u +%H:%M:%S)" >> $OUT/log
  nice -n 10 $PY -m mille.match "$@" --jobs 2 --json > $OUT/$name.json 2> $OUT/$name.err &
  pid=$!
  echo $pid > $OUT/$name.pid
  while kill -0 $pid 2>/dev/null; do
    if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then kill -INT $pid; echo "$name SIGINT at deadline" >> $OUT/log; wait $pid; break; fi
    sleep 20
  done
  wait $pid
  echo "$name end $(date -u +%H:%M:%S) status $?" >> $OUT/log
}
run r1 expert bsd --hands 800 --seed 46462026
run r2 --players 4 expert bsd --games 100 --seed 46042026
run r3 --players 4 mille.lab.partners:ExpertAndBsd bsd --games 100 --seed 46142026
run r4 --players 3 expert bsd bsd --games 60 --seed 46032026
run r5 --players 6 expert bsd bsd --games 36 --seed 46062026
run r6 expert expert-2026-11 --hands 800 --seed 46462026
run r7a --players 4 expert-2026-11 bsd --games 100 --seed 46042026
run r7b --players 4 mille.lab.partners:Expert202611AndBsd bsd --games 100 --seed 46142026
echo "all done $(date -u +%H:%M:%S)" >> $OUT/log

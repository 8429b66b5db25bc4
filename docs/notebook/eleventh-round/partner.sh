#!/bin/bash
# The eleventh round's declared partner run, after queue.sh (the oracle runs) ends; stopped at 13:05 UTC if still going.
set -m
OUT=/tmp/x3/s3
q=$(pgrep -f "bash /tmp/x3/s3/queue.sh" | head -1)
while [ -n "$q" ] && kill -0 $q 2>/dev/null; do sleep 5; done
DEADLINE=$(date -u -d "2026-11-29 13:05:00" +%s)
cd /work/wt/expert
name=p1
if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then echo "$name not run (session deadline)" >> $OUT/log; exit 0; fi
echo "$name start $(date -u +%H:%M:%S)" >> $OUT/log
nice -n 10 /work/wt/expert/.venv/bin/python -m mille.match --players 4 mille.lab.partners:ExpertAndBsd bsd --games 300 --seed 46342026 --jobs 2 --json > $OUT/$name.json 2> $OUT/$name.err &
pid=$!
echo $pid > $OUT/$name.pid
while kill -0 $pid 2>/dev/null; do
  if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then kill -INT $pid; echo "$name SIGINT at session deadline" >> $OUT/log; wait $pid; break; fi
  sleep 5
done
wait $pid
echo "$name end $(date -u +%H:%M:%S) status $?" >> $OUT/log

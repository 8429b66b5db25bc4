#!/bin/bash
set -m
OUT=/tmp/x3/s4
DEADLINE=$(date -u -d "2026-11-29 15:25:00" +%s)
cd /work/wt/drift
echo "d1 start $(date -u +%H:%M:%S) $(git rev-parse --short HEAD)" >> $OUT/log
PYTHONPATH=/work/wt/drift/src:/work/wt/drift/docs/notebook/twelfth-round nice -n 10 /work/venv/bin/python -m mille.match drift:Strong bsd --hands 800 --seed 46462026 --jobs 2 --json > $OUT/d1.json 2> $OUT/d1.err &
pid=$!
echo $pid > $OUT/d1.pid
while kill -0 $pid 2>/dev/null; do
  if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then kill -INT $pid; echo "d1 SIGINT at declared deadline" >> $OUT/log; wait $pid; break; fi
  sleep 5
done
wait $pid
echo "d1 end $(date -u +%H:%M:%S) status $?" >> $OUT/log

#!/bin/bash
# After the tenth round's run 6 (pid in r6.pid; started by runs.sh, whose later runs 7a and 7b are dropped for the
# eleventh round's declared oracle runs), with the same 12:50 UTC session deadline.
set -m
OUT=/tmp/x3/s3
PY=/work/venv/bin/python
DEADLINE=$(date -u -d "2026-11-29 12:50:00" +%s)
r6=$(cat $OUT/r6.pid)
while kill -0 $r6 2>/dev/null; do
  if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then kill -INT $r6; echo "r6 SIGINT at session deadline" >> $OUT/log; while kill -0 $r6 2>/dev/null; do sleep 1; done; break; fi
  sleep 5
done
echo "r6 end $(date -u +%H:%M:%S)" >> $OUT/log
cd /work/wt/oracle
run() {
  name=$1; shift
  if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then echo "$name not run (session deadline)" >> $OUT/log; return; fi
  echo "$name start $(date -u +%H:%M:%S)" >> $OUT/log
  PYTHONPATH=/work/wt/oracle/src:/work/wt/oracle nice -n 10 $PY -m mille.match "$@" --jobs 2 --json > $OUT/$name.json 2> $OUT/$name.err &
  pid=$!
  echo $pid > $OUT/$name.pid
  while kill -0 $pid 2>/dev/null; do
    if [ "$(date -u +%s)" -ge "$DEADLINE" ]; then kill -INT $pid; echo "$name SIGINT at session deadline" >> $OUT/log; wait $pid; break; fi
    sleep 5
  done
  wait $pid
  echo "$name end $(date -u +%H:%M:%S) status $?" >> $OUT/log
}
run o1 oracle:Hand bsd --hands 400 --seed 46462026
run o2 oracle:Everything bsd --hands 400 --seed 46462026
echo "all done $(date -u +%H:%M:%S)" >> $OUT/log

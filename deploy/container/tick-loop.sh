#!/bin/sh
# The container's main process: bring the database schema up to date once, then run `referee tick`
# every REFEREE_TICK_INTERVAL seconds (default 300) until stopped. No cron daemon is needed: the
# tick takes its own lock, and a failed tick is logged and simply tried again next time.
# SIGTERM (docker stop) ends the loop at once; a tick cut short leaves nothing half done.
set -u

interval=${REFEREE_TICK_INTERVAL:-300}
case $interval in
    ''|*[!0-9]*) echo "referee-tick-loop: REFEREE_TICK_INTERVAL must be a number of seconds, not '$interval'" >&2
                 exit 2 ;;
esac

child=
stop() {
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
    exit 0
}
trap stop TERM INT

# the schema: created on a new database, upgraded after a new image (back the database up first).
# A server not up yet is waited for; anything else (a wrong password, a bad URL) cannot get better by
# waiting, so the loop stops with the reason.
until out=$(referee db upgrade 2>&1); do
    case $out in
        *"Connection refused"*|*"could not connect"*|*"starting up"*|*"could not translate host name"*|\
        *"timeout expired"*|*"closed the connection unexpectedly"*|*"No route to host"*|*"shutting down"*)
            echo "referee-tick-loop: database not ready, trying again in 10 s" >&2
            sleep 10 & child=$!; wait "$child"; child= ;;
        *)
            echo "$out" >&2
            echo "referee-tick-loop: the database cannot be used (see above; check REFEREE_DATABASE_URL and" \
                 "its password): stopping" >&2
            exit 1 ;;
    esac
done
echo "$out"

while :; do
    referee tick & child=$!
    wait "$child" || echo "referee-tick-loop: tick failed (exit $?), next one in $interval s" >&2
    child=
    sleep "$interval" & child=$!
    wait "$child"
    child=
done

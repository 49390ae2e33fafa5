#!/bin/sh
# A system under test for the Exec tests. It reads the item (one JSON object) from
# stdin and behaves as the item's "mode" field says.
item=$(cat)
case "$item" in
*'"mode":"echo"'*)
	# Answer with the item itself, to show what arrived on stdin.
	printf '%s\n' "$item"
	;;
*'"mode":"env"'*)
	echo "$EVALGATE_ITEM_ID"
	;;
*'"mode":"sleep"'*)
	# A child process that outlives a plain kill of the shell: the process group
	# kill must take it down too, or Wait would block on its stdout. Its pid goes to
	# $SUT_PID_FILE when set, so a test can check that it is gone.
	sleep 30 &
	[ -z "$SUT_PID_FILE" ] || echo $! >"$SUT_PID_FILE"
	wait
	echo too late
	;;
*'"mode":"fail"'*)
	echo partial answer
	echo "warming up" >&2
	echo "boom: the model file is missing" >&2
	exit 3
	;;
*)
	echo "unknown mode" >&2
	exit 1
	;;
esac

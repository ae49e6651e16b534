#!/bin/sh
# Command tool for tst_tools: writes its own pid and a child's pid to file $1, then waits.
sleep 30 &
echo "$$ $!" > "$1"
wait

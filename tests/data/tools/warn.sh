#!/bin/sh
# Command tool for tst_tools: exit code 0, but a warning on stderr.
cat >/dev/null
echo "result"
echo "deprecated option" >&2

#!/bin/sh
# Command tool for tst_tools: a failure with a message on stderr and exit code 1.
cat >/dev/null
echo "partial output"
echo "ticket $1 not found" >&2
exit 1

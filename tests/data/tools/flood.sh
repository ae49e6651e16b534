#!/bin/sh
# Command tool for tst_tools: 50 MB of 'a' to stdout (or to stderr with "stderr").
if [ "$1" = "stderr" ]; then
    head -c 52428800 /dev/zero | tr '\0' 'a' >&2
else
    head -c 52428800 /dev/zero | tr '\0' 'a'
fi

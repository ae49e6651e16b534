#!/bin/sh
# Command tool for tst_tools: waits 400 ms, then echoes its stdin (for parallel runs).
sleep 0.4
cat

#!/bin/sh
# Command tool for tst_tools: killed by a signal.
kill -9 $$

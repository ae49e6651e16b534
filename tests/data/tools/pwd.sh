#!/bin/sh
# Command tool for tst_tools: prints its working directory.
pwd -P

#!/bin/sh
# Command tool for tst_tools: output with an invalid UTF-8 byte between valid text.
printf 'caf\303\251 \377 ok'

#!/bin/sh
# A broken "MCP server" for tst_tools: complains on stderr and exits at once.
echo "fatal: missing configuration FOO_TOKEN" >&2
exit 3

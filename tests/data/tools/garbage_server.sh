#!/bin/sh
# A broken "MCP server" for tst_tools: prints lines that are not JSON-RPC, then hangs.
echo "Welcome to the server!"
echo "{not json"
echo "[1,2,3]"
exec sleep 60

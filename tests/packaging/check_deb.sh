#!/usr/bin/env bash
# check_deb.sh BUILD_DIR VERSION
#
# The Debian package round trip: build the .deb with CPack, install it with apt, use the
# installed programs (--version, lint of an installed sample, German messages, a headless
# start of the GUI), validate the installed desktop files, remove the package and check its
# files are gone.
#
# It installs and removes a system package, so it runs only when CALLSCOPE_PACKAGE_CHECK=1
# (tools/dev.sh test sets that as root on a throwaway machine: a container or CI). Otherwise
# it exits 77, which ctest reports as "Skipped" (SKIP_RETURN_CODE), never as a pass.
set -euo pipefail

BUILD_DIR="${1:?usage: check_deb.sh BUILD_DIR VERSION}"
VERSION="${2:?usage: check_deb.sh BUILD_DIR VERSION}"

say() { printf '[check_deb] %s\n' "$*"; }
fail() { printf '[check_deb] FAIL: %s\n' "$*" >&2; exit 1; }

if [ "${CALLSCOPE_PACKAGE_CHECK:-0}" != 1 ]; then
    say "SKIPPED: installs and removes the callscope package system-wide; set CALLSCOPE_PACKAGE_CHECK=1 (as root, on a throwaway machine) to run it"
    exit 77
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null || fail "CALLSCOPE_PACKAGE_CHECK=1 needs root or password-less sudo"
    SUDO="sudo -n"
fi
for tool in cpack dpkg-deb dpkg-shlibdeps apt-get appstreamcli desktop-file-validate; do
    command -v "$tool" >/dev/null || fail "$tool is not installed (tools/dev.sh installs it)"
done
if dpkg-query -W -f='${Status}' callscope 2>/dev/null | grep -q "install ok installed"; then
    fail "a callscope package is already installed; this check would replace and then remove it"
fi

WORK="$(mktemp -d /tmp/callscope-deb.XXXXXX)"
INSTALLED=0
GUI_PID=""
cleanup() {
    [ -n "$GUI_PID" ] && kill "$GUI_PID" 2>/dev/null || true
    if [ "$INSTALLED" = 1 ]; then
        say "cleaning up: removing the package after a failure"
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -qq callscope >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# 1. Build the two programs (cheap when up to date) and the package.
say "building callscope and callscope-cli"
cmake --build "$BUILD_DIR" --target callscope callscope-cli >/dev/null
say "cpack -G DEB"
rm -f "$BUILD_DIR"/callscope_*.deb
(cd "$BUILD_DIR" && cpack -G DEB -B "$BUILD_DIR" >"$WORK/cpack.log" 2>&1) || { cat "$WORK/cpack.log"; fail "cpack failed"; }
shopt -s nullglob
debs=("$BUILD_DIR"/callscope_"$VERSION"_*.deb)
[ "${#debs[@]}" = 1 ] || fail "expected one callscope_${VERSION}_*.deb in $BUILD_DIR, found ${#debs[@]}"
DEB="${debs[0]}"
say "built $(basename "$DEB") ($(du -h "$DEB" | cut -f1))"

# 2. Its control data: name, version and the dependencies shlibdeps cannot see.
[ "$(dpkg-deb -f "$DEB" Package)" = callscope ] || fail "package name is not callscope"
[ "$(dpkg-deb -f "$DEB" Version)" = "$VERSION" ] || fail "package version is not $VERSION"
DEPENDS="$(dpkg-deb -f "$DEB" Depends)"
say "Depends: $DEPENDS"
for dep in libqt6sql6-sqlite libsecret-1-0 libqt6widgets6 libqt6gui6 libqt6network6 libqt6sql6 libqt6keychain1; do
    grep -Eq "(^|, )$dep( |,|$)" <<<"$DEPENDS" || fail "Depends lacks $dep"
done
dpkg-deb -c "$DEB" >"$WORK/contents"
for f in ./usr/bin/callscope ./usr/bin/callscope-cli \
         ./usr/share/applications/io.callscope.Callscope.desktop \
         ./usr/share/metainfo/io.callscope.Callscope.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/io.callscope.Callscope.svg \
         ./usr/share/icons/hicolor/256x256/apps/io.callscope.Callscope.png \
         ./usr/share/icons/hicolor/16x16/apps/io.callscope.Callscope.png \
         ./usr/share/callscope/samples/planner.spec.json \
         ./usr/share/callscope/translations/callscope_de.qm \
         ./usr/share/callscope/docs/architecture.md \
         ./usr/share/callscope/docs/spec-format.md \
         ./usr/share/callscope/docs/cli.md \
         ./usr/share/callscope/docs/export.md; do
    grep -q " $f\$" "$WORK/contents" || fail "the package lacks $f"
done
if grep -Eq '/tst_|/bench_|/fuzz_' "$WORK/contents"; then fail "test or benchmark programs in the package"; fi
if grep -q '/usr/share/callscope/docs/screenshots' "$WORK/contents"; then fail "the screenshots went into the package"; fi

# 3. Install it the way a user would.
say "apt-get install ./$(basename "$DEB")"
cp "$DEB" "$WORK/"
INSTALLED=1
(cd "$WORK" && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "./$(basename "$DEB")" >"$WORK/apt.log" 2>&1) \
    || { cat "$WORK/apt.log"; fail "apt-get install failed"; }
dpkg-query -W -f='${Status}' callscope | grep -q "install ok installed" || fail "callscope is not installed after apt-get"
dpkg -L callscope >"$WORK/files"

# 4. Use the installed programs.
got="$(/usr/bin/callscope-cli --version)"
[ "$got" = "callscope-cli $VERSION" ] || fail "callscope-cli --version said '$got'"
got="$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM /usr/bin/callscope --version)"
[ "$got" = "callscope $VERSION" ] || fail "callscope --version said '$got'"
say "versions agree: $VERSION"

export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share"
mkdir -p "$HOME"
/usr/bin/callscope-cli lint /usr/share/callscope/samples/planner.spec.json >"$WORK/lint.json" \
    || fail "callscope-cli lint of the installed sample exited $?"
# The installed validator checks that the lint output is the JSON object it documents.
printf '%s' '{"type":"object","required":["spec","engine","findings","summary"],"properties":{"findings":{"type":"array"}}}' >"$WORK/lint.schema.json"
/usr/bin/callscope-cli validate "$WORK/lint.schema.json" "$WORK/lint.json" >"$WORK/validate.json" \
    || { cat "$WORK/lint.json" "$WORK/validate.json"; fail "lint did not print the documented JSON object"; }
say "lint of the installed sample: exit 0, $(wc -c <"$WORK/lint.json") bytes of JSON"

if LANGUAGE=de LANG=de_DE.UTF-8 LC_ALL= /usr/bin/callscope-cli no-such-command 2>"$WORK/de.err"; then
    fail "an unknown command exited 0"
fi
grep -q "unbekannter Befehl" "$WORK/de.err" || { cat "$WORK/de.err"; fail "the installed callscope-cli does not speak German"; }
say "German messages: $(head -1 "$WORK/de.err")"

# A headless start of the GUI on an installed sample: still running after 3 s means it came up.
QT_QPA_PLATFORM=offscreen /usr/bin/callscope /usr/share/callscope/samples/planner.spec.json \
    >"$WORK/gui.log" 2>&1 &
GUI_PID=$!
sleep 3
if ! kill -0 "$GUI_PID" 2>/dev/null; then
    wait "$GUI_PID" && rc=0 || rc=$?
    GUI_PID=""
    cat "$WORK/gui.log"
    fail "the installed callscope exited within 3 s (exit $rc)"
fi
kill "$GUI_PID"
wait "$GUI_PID" 2>/dev/null || true
GUI_PID=""
say "headless start of /usr/bin/callscope: up after 3 s, then stopped"

appstreamcli validate --no-net /usr/share/metainfo/io.callscope.Callscope.metainfo.xml >"$WORK/as.log" 2>&1 \
    || { cat "$WORK/as.log"; fail "installed metainfo does not validate"; }
desktop-file-validate /usr/share/applications/io.callscope.Callscope.desktop \
    || fail "installed desktop entry does not validate"

# 5. Remove it; every file it installed must be gone.
say "apt-get remove callscope"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -qq callscope >"$WORK/remove.log" 2>&1 \
    || { cat "$WORK/remove.log"; fail "apt-get remove failed"; }
INSTALLED=0
if dpkg-query -W -f='${Status}' callscope 2>/dev/null | grep -q "install ok installed"; then
    fail "callscope is still installed"
fi
left=0
while IFS= read -r f; do
    if [ -f "$f" ] || [ -L "$f" ]; then
        echo "left behind: $f" >&2
        left=1
    fi
done <"$WORK/files"
[ "$left" = 0 ] || fail "files were left behind after removal"
[ ! -e /usr/share/callscope ] || fail "/usr/share/callscope is left behind"
say "PASS: $(grep -c . "$WORK/files") paths installed and removed"

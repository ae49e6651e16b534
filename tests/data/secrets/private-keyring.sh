#!/bin/sh
# Run inside `dbus-run-session -- sh private-keyring.sh COMMAND...` by tst_secrets: starts a
# throwaway gnome-keyring (Secret Service only) on this private session bus, unlocked with
# $CALLSCOPE_KEYRING_PASSWORD, then runs COMMAND. HOME and XDG_RUNTIME_DIR must already point
# at fresh directories so this daemon never meets the caller's own keyring.
printf %s "${CALLSCOPE_KEYRING_PASSWORD:-callscope-test}" \
    | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1 \
    || { echo "private-keyring.sh: gnome-keyring-daemon failed to start" >&2; exit 97; }
exec "$@"

#!/usr/bin/env bash
# Renders the PNG sizes of the application icon from the SVG (needs rsvg-convert from
# librsvg2-bin). The PNGs are checked in, so a build does not need this; run it after editing
# the SVG.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for size in 16 32 48 64 128 256; do
    mkdir -p "hicolor/${size}x${size}/apps"
    rsvg-convert -w "$size" -h "$size" io.callscope.Callscope.svg \
        -o "hicolor/${size}x${size}/apps/io.callscope.Callscope.png"
done

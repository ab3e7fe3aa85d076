#!/bin/sh
# Renders the icon's PNG sizes from boardsight.svg (needs rsvg-convert: apt-get install
# librsvg2-bin). The PNGs are committed; run this after changing the SVG.
set -eu
cd "$(dirname "$0")"
for size in 16 24 32 48 64 128 256 512; do
    rsvg-convert -w "$size" -h "$size" boardsight.svg -o "boardsight-$size.png"
done

#!/bin/bash
# shot.sh SVG PNG SIZE: render an SVG scaled to SIZE px with headless Chromium.
svg=$(realpath "$1"); png=$2; size=${3:-1000}
html=$(mktemp --suffix=.html)
echo "<html><body style='margin:0'><img src='file://$svg' style='width:${size}px;height:${size}px;object-fit:contain'></body></html>" > $html
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=$(mktemp -d) --hide-scrollbars --window-size=$size,$size --screenshot=$png "file://$html" >/dev/null 2>&1
rm $html

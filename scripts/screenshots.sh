#!/usr/bin/env bash
# Regenerates the web page's screenshots in docs/img (the README shows
# docs/img/web-tour.png): runs the browser test with its screenshots pointed there.
# Needs chromium and chromium-driver (apt-get install -y chromium chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
KNIGHTS_SCREENSHOTS="$PWD/docs/img" cargo test --locked -p knights-serve -- --ignored browser_ --nocapture
rm -f docs/img/web-failure.png
ls docs/img/web-*.png

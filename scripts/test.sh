#!/usr/bin/env bash
# Every test of the project, as CI runs them: bash scripts/test.sh
#
# Sections, in order (each fails the run if it fails; none is skipped
# because a tool is missing: a missing tool is installed or the run fails):
#   rust   - cargo test over the workspace (unit, integration, CLI, doc tests)
#   paper  - docs/paper is what `knights paper` writes now (release build)
#   web    - `knights serve` in headless Chromium over WebDriver, and a short
#            loopback load test (installs chromium and chromium-driver if absent)
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n== %s\n' "$1"; }

section "rust: cargo test --workspace"
cargo test --workspace --locked

section "paper: docs/paper is current"
cargo test --release --locked -p knights-cli --test tests -- --ignored docs_paper_is_current

section "web: the page in headless Chromium, and a short load test"
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  apt-get update && apt-get install -y chromium chromium-driver
fi
cargo test --locked -p knights-cli --bin knights -- --ignored browser_
KNIGHTS_LOAD_SECONDS=3 cargo test --locked -p knights-cli --bin knights -- --ignored load_test --nocapture

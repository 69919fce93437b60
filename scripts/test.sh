#!/usr/bin/env bash
# Every test of the project, as CI runs them: bash scripts/test.sh
#
# Sections, in order (each fails the run if it fails; none is skipped
# because a tool is missing: a missing tool is installed or the run fails):
#   rust   - cargo test over the workspace (unit, integration, CLI, doc tests)
#   paper  - docs/paper is what `knights paper` writes now (release build)
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n== %s\n' "$1"; }

section "rust: cargo test --workspace"
cargo test --workspace --locked

section "paper: docs/paper is current"
cargo test --release --locked -p knights-cli --test tests -- --ignored docs_paper_is_current

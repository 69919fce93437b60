#!/usr/bin/env bash
# Every test of the project, as CI runs them: bash scripts/test.sh
#
# Sections, in order (each fails the run if it fails; none is skipped
# because a tool is missing: a missing tool is installed or the run fails):
#   tools  - Open MPI and libclang (for the MPI bindings of the CLI's feature
#            `distributed`, which every build here has), with apt-get if absent
#   rust   - cargo test over the workspace (unit, integration, CLI, doc
#            tests), all but the distributed ones
#   paper  - docs/paper is what `knights-lab paper` writes now
#   js     - ESLint over the page's ES modules (crates/knights-serve/src/assets):
#            the recommended rules and no import cycle; npm ci installs the
#            locked packages of crates/knights-serve/assets-lint into
#            target/js-lint (npm is required: without it the run fails),
#            axe-core among them for the web section's accessibility test
#   web    - `knights serve` in headless Chromium over WebDriver, and a short
#            loopback load test (installs chromium and chromium-driver if
#            absent, saying so, and nothing else: no recommends, no upgrades)
#   distributed - the CLI's feature `distributed` (counts spread over MPI
#            processes): lints the feature with clippy and runs its tests,
#            each of which starts its processes with mpirun
#   python - the Python package: its wheel built once (maturin, release),
#            installed alone in a fresh virtual environment (target/py-fresh:
#            the command `knights`, `python -m knights serve`, `import
#            knights`) and in target/py-venv with the test tools from PyPI;
#            mypy --strict over the package, then its pytest suite, the
#            example notebooks (examples/notebooks) among them
#
# One build of each profile: every cargo command here selects the whole
# workspace (`--workspace`, then a target filter) and the same features, so
# cargo resolves the dependencies' features the same way each time and
# reuses the first build
# (`-p knights-cli` alone would unify fewer features and rebuild about 50
# crates). The test profile is optimized (Cargo.toml), so the paper check
# runs there too; the one release build is the Python package's.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each section's heading says how long the run has taken so far.
section() { printf '\n== %s (at %d s)\n' "$1" "$SECONDS"; }
trap '[ "$BASH_SUBSHELL" -eq 0 ] && printf "\n== ended after %d s\n" "$SECONDS"' EXIT

# What the tests install where it is missing, as README.md lists it
# ("What the tests install"); npm's packages are locked in
# crates/knights-serve/assets-lint/package-lock.json.
apt_mpi=(openmpi-bin libopenmpi-dev libclang-dev)
pip_tools=(maturin pytest mypy numpy networkx nbclient nbformat ipykernel)

section "tools: Open MPI and libclang, for the feature distributed"
missing=()
for pkg in "${apt_mpi[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "tools: installing ${missing[*]} (missing) with apt-get, and what they need"
    apt-get update
    apt-get install -y --no-install-recommends --no-upgrade "${missing[@]}"
fi
# Every cargo command below builds with this feature, so the one build
# serves them all (the distributed tests run last, on their own: each
# starts several MPI processes).
features=(--features knights-cli/distributed)

section "rust: cargo test --workspace"
cargo test --workspace --locked "${features[@]}" -- --skip cli::distributed

section "paper: docs/paper is current"
cargo test --workspace --locked "${features[@]}" --test tests -- --ignored docs_paper_is_current

section "js: ESLint over the page's modules"
if ! command -v npm >/dev/null; then
    echo "js: npm is missing; install Node.js 20 or newer with npm" >&2
    exit 1
fi
lint="$PWD/target/js-lint"
mkdir -p "$lint"
cp crates/knights-serve/assets-lint/package.json crates/knights-serve/assets-lint/package-lock.json "$lint/"
(cd "$lint" && npm ci --no-audit --no-fund --loglevel=error)
(cd crates/knights-serve && KNIGHTS_JS_LINT="$lint" "$lint/node_modules/.bin/eslint" --max-warnings 0 src/assets)

section "web: the page in headless Chromium, and a short load test"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "web: installing ${missing[*]} (missing) with apt-get, and what they need"
    apt-get update
    # Say beforehand which installed packages their dependencies upgrade
    # (the simulation's "Inst NAME [old version]" lines): apt has no way to
    # install a package while keeping a dependency it needs newer.
    upgrades=$(apt-get install -s --no-install-recommends "${missing[@]}" |
        awk '/^Inst [^ ]+ \[/ {printf "%s ", $2}')
    if [ -n "$upgrades" ]; then
        echo "web: this also upgrades installed packages: $upgrades"
    fi
    apt-get install -y --no-install-recommends --no-upgrade "${missing[@]}"
fi
cargo test --workspace --locked "${features[@]}" --lib -- --ignored browser_
KNIGHTS_LOAD_SECONDS=3 cargo test --workspace --locked "${features[@]}" --lib -- --ignored load_test --nocapture

section "distributed: the feature's lints, and counts spread over MPI processes"
cargo clippy --workspace --all-targets --locked "${features[@]}" -- -D warnings
cargo test --workspace --locked "${features[@]}" --test tests -- cli::distributed

section "python: the wheel, built once, alone in a fresh environment and under pytest"
venv=target/py-venv
if ! "$venv/bin/python" -c "" 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet "${pip_tools[@]}"
# One release build: the wheel (the extension with the command inside),
# installed as it is in both environments below.
rm -rf target/wheels
"$venv/bin/maturin" build --release --locked --out target/wheels -m crates/knights-py/Cargo.toml
wheel=$(ls target/wheels/knights-*.whl)
# The wheel alone, in a new environment: what `pip install knights` gives
# a user (the command and its page as well as `import knights`); the
# command's tests run it from there.
fresh=target/py-fresh
rm -rf "$fresh"
python3 -m venv "$fresh"
"$fresh/bin/python" -m pip install --quiet --no-index --no-deps "$wheel"
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$wheel"
(cd crates/knights-py && "../../$venv/bin/python" -m mypy --strict --no-error-summary python/knights)
# Every test must run: a skip fails (KNIGHTS_PY_NO_SKIP), and so does
# pytest's status 5 (no tests collected), as any non-zero status does.
status=0
(cd crates/knights-py && KNIGHTS_PY_NO_SKIP=1 KNIGHTS_PY_WHEEL_ONLY="$PWD/../../$fresh/bin/python" \
    "../../$venv/bin/python" -m pytest -q -p no:cacheprovider tests) || status=$?
if [ "$status" -ne 0 ]; then
    echo "python: pytest failed with status $status (5: no tests ran)" >&2
    exit 1
fi

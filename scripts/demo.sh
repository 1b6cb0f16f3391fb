#!/usr/bin/env bash
# Sets up and runs the demo scene: a bee circling your head (Examples/scenes/orbit.json), on the
# sound card if there is one, otherwise rendered to orbit-render.wav (the command says which).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product soundstage >&2
root=$PWD
cd "${OLDPWD:-$root}"
exec "$root/.build/release/soundstage" run "$root/Examples/scenes/orbit.json" "$@"

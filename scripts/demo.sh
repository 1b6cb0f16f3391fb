#!/usr/bin/env bash
# Sets up and runs the demo scene: a bee circling your head (Examples/scenes/orbit.json), on the
# sound card if there is one, otherwise rendered to orbit-render.wav (the command says which).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The command as it ships: optimized, the Swift runtime linked in (scripts/build-c-library.sh).
soundstage=$(scripts/build-c-library.sh --cli-only)
root=$PWD
cd "${OLDPWD:-$root}"
exec "$soundstage" run "$root/Examples/scenes/orbit.json" "$@"

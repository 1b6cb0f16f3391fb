#!/usr/bin/env bash
# Sets up and runs the demo: a bee circling your head, on the sound card if there is one,
# otherwise rendered to hello-soundstage.wav (the program says which).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product hello-soundstage >&2
exec .build/release/hello-soundstage "$@"

#!/usr/bin/env bash
# Sets up and runs the whole test suite: once normally (tests run in parallel), then again
# under ThreadSanitizer. Fails if any test fails. Warnings are errors (see Package.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test
swift test --sanitize=thread --scratch-path .build-tsan

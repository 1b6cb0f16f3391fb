#!/usr/bin/env bash
# Generates the Rust binding's raw FFI (bindings/rust/soundstage-sys/src/bindings.rs) from
# include/soundstage.h with Debian's bindgen (apt-get install bindgen libclang1-14).
#   scripts/generate-rust-bindings.sh           rewrites the file (commit it with the header change)
#   scripts/generate-rust-bindings.sh --check   fails, showing the difference, if it is out of date
set -euo pipefail
cd "$(dirname "$0")/.."
target=bindings/rust/soundstage-sys/src/bindings.rs
generated=$(mktemp)
trap 'rm -f "$generated"' EXIT
# Enums stay C integers (constants), as a value the library returns must never be undefined
# behaviour in Rust; the safe crate maps them to Rust enums.
bindgen include/soundstage.h --allowlist-function 'ss_.*' --allowlist-type 'ss_.*' --allowlist-var 'SS_.*' \
    --size_t-is-usize --no-prepend-enum-name > "$generated"
if [ "${1:-}" = "--check" ]; then
    diff -u "$target" "$generated" || { echo "generate-rust-bindings.sh: $target does not match include/soundstage.h; run scripts/generate-rust-bindings.sh" >&2; exit 1; }
    echo "generate-rust-bindings.sh: $target matches include/soundstage.h"
else
    cp "$generated" "$target"
    echo "generate-rust-bindings.sh: wrote $target"
fi

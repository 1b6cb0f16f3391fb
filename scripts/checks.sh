# Sourced by scripts/test-c.sh and scripts/test-bindings.sh: `check NAME COMMAND...` runs
# COMMAND with its output kept in $work/out, prints "ok   NAME" or "FAIL NAME" with the output's
# tail, and counts into $passed and $failed. The sourcing script sets $work first.
passed=0
failed=0
check() {
    local name=$1
    shift
    if "$@" > "$work/out" 2>&1; then
        echo "ok   $name"
        passed=$((passed + 1))
    else
        echo "FAIL $name"
        sed 's/^/     /' "$work/out" | tail -n 60
        failed=$((failed + 1))
    fi
}

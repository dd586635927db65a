# Shared by tests/cli/python_oracles*.sh (not a test itself: ctest runs
# *.sh): run_oracles NAME... runs tests/oracles/check_NAME.py, or
# NAME_oracle.py with 400 cases, each against the keps under test. Under
# the sanitizers (KEPS_SANITIZED=1) every oracle runs a sample of its cases
# (tests/oracles/sizing.py; check_ola.py sizes itself): 100 random cases,
# 100 chi-square seeds.
command -v python3 >/dev/null || skip "python3 missing (scripts/setup.sh installs it)"
export KEPS="$keps" KEPS_REPO="$src" TMPDIR="$d"
n=400
if [ "${KEPS_SANITIZED:-0}" = 1 ]; then
    n=100
    export KEPS_SAFELA_CHI_SEEDS=${KEPS_SAFELA_CHI_SEEDS:-100}
fi
run_oracles() {
    local o="$src/tests/oracles" name rc
    for name in "$@"; do
        if [ -e "$o/${name}_oracle.py" ] && [ ! -e "$o/check_$name.py" ]; then
            mkdir -p "$d/$name"
            python3 "$o/${name}_oracle.py" "$keps" "$d/$name" $n >"$d/$name.log" 2>&1; rc=$?
        else
            python3 "$o/check_$name.py" >"$d/$name.log" 2>&1; rc=$?
        fi
        grep -v '^OK' "$d/$name.log" | tail -n 3
        t "$name agrees with its oracle on every case" "[ $rc -eq 0 ]"
    done
}

# Shared by the keps-mpi tests (mpi.sh, mpi_dp.sh), sourced after lib.bash:
# $mpi, skipped (exit 77) without keps-mpi or mpirun unless
# KEPS_REQUIRE_MPI=1 (scripts/test.sh installs Open MPI), `run NP ARGS...`
# and `cmp_py MODE ...` (mpi_compare.py).
needs_python3
mpi=$(dirname "$keps")/keps-mpi
missing() {
  echo "$(basename "$0"): $1 (apt-get install libopenmpi-dev openmpi-bin, then rebuild)"
  [ "${KEPS_REQUIRE_MPI:-0}" = 1 ] && exit 1
  exit 77
}
[ -x "$mpi" ] || missing "keps-mpi was not built"
command -v mpirun >/dev/null || missing "mpirun not found"
# Open MPI's own allocations are not ours to check for leaks
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
run() { # NP ARGS...: keps-mpi on NP ranks
  local np=$1
  shift
  mpirun --allow-run-as-root --oversubscribe -np "$np" "$mpi" "$@"
}
cmp_py() { python3 "$src/tests/cli/mpi_compare.py" "$@"; }

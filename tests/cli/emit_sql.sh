#!/usr/bin/env bash
# --emit-sql end to end (tests/cli/emit_sql.py): the scripts run in SQLite
# and in a throwaway PostgreSQL cluster started here (initdb in a temporary
# directory, a Unix socket only; as the postgres or nobody user when run as
# root, since PostgreSQL refuses root). Needs Debian's sqlite3 and
# postgresql, which scripts/test.sh installs; without them the test is
# skipped (exit 77), unless KEPS_REQUIRE_SQL=1 (scripts/test.sh) makes that
# a failure.
. "$(dirname "$0")/lib.bash"
missing() {
  echo "emit_sql.sh: $1 not found (apt-get install sqlite3 postgresql)"
  [ "${KEPS_REQUIRE_SQL:-0}" = 1 ] && exit 1
  exit 77
}
command -v sqlite3 >/dev/null || missing sqlite3
command -v psql >/dev/null || missing psql
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bin" ] && [ -x "$bin/initdb" ] || missing "PostgreSQL's initdb"

pg=$(mktemp -d /tmp/keps-pg.XXXXXX)
as=()
if [ "$(id -u)" -eq 0 ]; then
  user=postgres; id -u postgres >/dev/null 2>&1 || user=nobody
  chown "$user" "$pg"
  as=(runuser -u "$user" --)
fi
trap '"${as[@]}" "$bin/pg_ctl" -D "$pg/data" -m immediate stop >/dev/null 2>&1; rm -rf "$pg" "$d"' EXIT
"${as[@]}" "$bin/initdb" -D "$pg/data" -U keps --auth=trust -E UTF8 --locale=C.UTF-8 >"$pg/initdb.log" 2>&1 ||
  { cat "$pg/initdb.log"; echo "FAIL: initdb"; exit 1; }
"${as[@]}" "$bin/pg_ctl" -D "$pg/data" -l "$pg/log" -w \
  -o "-k $pg -c listen_addresses='' -c fsync=off" start >/dev/null ||
  { cat "$pg/log"; echo "FAIL: PostgreSQL did not start"; exit 1; }

KEPS_PG_HOST=$pg python3 "$src/tests/cli/emit_sql.py" "$keps" "$src" "$d"
rc=$?
[ $rc -eq 77 ] && exit 77
t "emit_sql.py: every SQL release equals keps's release" '[ $rc -eq 0 ]'
finish emit_sql.sh

#!/usr/bin/env bash
# --emit-sql end to end (tests/cli/emit_sql.py): the scripts run in SQLite
# and in a throwaway PostgreSQL cluster started here (initdb in a temporary
# directory, a Unix socket only; as the postgres or nobody user when run as
# root, since PostgreSQL refuses root). Needs Debian's sqlite3 and
# postgresql, which scripts/test.sh installs; without them the test is
# skipped (exit 77), unless KEPS_REQUIRE_SQL=1 (scripts/test.sh) makes that
# a failure.
. "$(dirname "$0")/lib.bash"

# The options themselves (no database needed).
A=$src/data/adult
ola=(anonymize --algorithm ola -i "$A/adult.csv" --qi "age:$A/adult_hierarchy_age.csv" --others keep -k 5)
"$keps" "${ola[@]}" -o "$d/r.csv" --emit-sql - --sql-dialect sqlite >"$d/s.sql" 2>"$d/err"
t "--emit-sql - prints the script on stdout, the summary goes to stderr" \
  'grep -q "^CREATE TABLE \"adult_release\"" "$d/s.sql" && ! grep -q "^ola:" "$d/s.sql" && grep -q "^ola:" "$d/err"'
"$keps" "${ola[@]}" -o "$d/r.csv" --emit-sql "$d/a.sql" 2>"$d/err"
t "ansi (the default) warns that it cannot shuffle" '[ $? -eq 0 ] && grep -q "cannot shuffle" "$d/err" && grep -q "^START TRANSACTION;" "$d/a.sql"'
"$keps" "${ola[@]}" -o "$d/r.csv" --sql-table t 2>"$d/err"
t "--sql-table without --emit-sql is refused" '[ $? -eq 2 ] && grep -q "emit-sql" "$d/err"'
"$keps" anonymize --algorithm mdav -i "$A/adult.csv" --qi age -k 5 --others keep -o "$d/m.csv" --emit-sql "$d/m.sql" 2>"$d/err"
t "--emit-sql with mdav is refused, nothing written" '[ $? -eq 2 ] && [ ! -e "$d/m.sql" ] && [ ! -e "$d/m.csv" ]'
"$keps" "${ola[@]}" -o "$d/r2.csv" --emit-sql "$d/r2.csv" 2>"$d/err"
t "--emit-sql naming the -o file is refused" '[ $? -eq 2 ] && [ ! -e "$d/r2.csv" ]'
"$keps" anonymize --algorithm ola -i - --qi "age:$A/adult_hierarchy_age.csv" --others keep -k 5 -o "$d/r3.csv" \
  --emit-sql "$d/r3.sql" <"$A/adult.csv" 2>"$d/err"
t "--emit-sql with stdin needs --sql-table" '[ $? -eq 2 ] && grep -q "sql-table" "$d/err"'
"$keps" "${ola[@]}" -o "$d/r4.csv" --emit-sql "$d/r4.sql" --sql-table 'we"ird' --sql-dialect postgresql 2>"$d/err"
t "a table name is quoted as an identifier" 'grep -q "^CREATE TABLE \"we\"\"ird_release\"" "$d/r4.sql"'
"$keps" "${ola[@]}" -o "$d/r5.csv" --emit-sql "$d/r5.sql" --sql-table "$(printf 'a\nDROP TABLE x;')" 2>"$d/err"
t "a line break in a name cannot leave a comment" \
  '[ -z "$(sed -n "1,/^START TRANSACTION;/p" "$d/r5.sql" | grep -v -e "^-- " -e "^START TRANSACTION;")" ]'
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

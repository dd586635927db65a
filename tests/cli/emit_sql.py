#!/usr/bin/env python3
"""keps anonymize --algorithm ola --emit-sql, run for real: the script is
executed by SQLite (the sqlite3 shell) and by PostgreSQL (a throwaway
cluster that emit_sql.sh starts; its socket directory in KEPS_PG_HOST) on
the source CSV loaded by the database's own CSV loader (.import, \\copy),
and the table it creates must equal keps's release (-o) as a multiset of
rows, header included. Independently of keps, the SQL release is checked
to be k-anonymous: every class of equal quasi-identifiers that is not all
'*' holds at least k rows.

Cases: Adult with 2-4 QIs at several k, suppression limits and dialects,
with and without --remove-suppressed; random tables of awkward values
(quotes, semicolons, commas, unicode, line breaks, missing values, numbers
with leading zeros, blanks inside quotes) and awkward column and table
names, QIs by hierarchy files and by interval hierarchies.

usage: emit_sql.py KEPS SRC WORKDIR"""
import collections
import csv
import os
import random
import shutil
import subprocess
import sys

keps, src, work = sys.argv[1:4]
pg_host = os.environ.get("KEPS_PG_HOST", "")
failures = []
cases = 0


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def read_csv(path, delim):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f, delimiter=delim))


def write_csv(path, rows, delim):
    """RFC 4180 with every field quoted that needs it, blanks at either end
    included (keps trims blanks around unquoted fields)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        for row in rows:
            out = []
            for v in row:
                if v == "" or not any(c in v for c in ('"', delim, "\n", "\r")) and v == v.strip(" \t"):
                    out.append(v)
                else:
                    out.append('"' + v.replace('"', '""') + '"')
            f.write(delim.join(out) + "\n")


def ident(name):
    return '"' + name.replace('"', '""') + '"'


def sqlite_release(csv_path, delim, header, table, script):
    db = os.path.join(work, "t.sqlite")
    if os.path.exists(db):
        os.remove(db)
    out = os.path.join(work, "sqlite_out.csv")
    cols = ", ".join(ident(c) + " TEXT" for c in header)
    cmds = (f"CREATE TABLE {ident(table)} ({cols});\n.mode csv\n.separator '{delim}'\n"
            f".import --skip 1 '{csv_path}' '{table}'\n.bail on\n.read '{script}'\n.headers on\n"
            f".separator ','\n.output '{out}'\nSELECT * FROM {ident(table + '_release')};\n")
    r = subprocess.run(["sqlite3", db], input=cmds, capture_output=True, text=True)
    if r.returncode != 0 or r.stderr.strip():
        return None, "sqlite3: " + r.stderr.strip()
    return read_csv(out, ","), None


def psql(db, *args, stdin=None):
    return subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", pg_host, "-U", "keps", "-d", db,
                           *args], input=stdin, capture_output=True, text=True)


def pg_release(csv_path, delim, header, table, script, not_null):
    global cases
    db = "keps_case_%d" % cases
    r = psql("postgres", "-c", f"CREATE DATABASE {db} ENCODING 'UTF8' TEMPLATE template0")
    if r.returncode:
        return None, "psql: " + r.stderr.strip()
    try:
        out = os.path.join(work, "pg_out.csv")
        cols = ", ".join(ident(c) + " TEXT" for c in header)
        # an empty unquoted field is NULL in PostgreSQL's CSV: the script reads
        # NULL as the missing value; with another --missing token the test
        # loads empty fields as '' (FORCE_NOT_NULL), as keps reads them
        fnn = ", FORCE_NOT_NULL (%s)" % ", ".join(ident(c) for c in header) if not_null else ""
        d = delim.replace("'", "''")
        steps = [["-c", f"CREATE TABLE {ident(table)} ({cols})"],
                 ["-c", f"\\copy {ident(table)} FROM '{csv_path}' WITH (FORMAT csv, HEADER true, "
                        f"DELIMITER '{d}'{fnn})"],
                 ["-f", script],
                 ["-c", f"\\copy (SELECT * FROM {ident(table + '_release')}) TO '{out}' WITH (FORMAT csv, "
                        f"HEADER true)"]]
        for s in steps:
            r = psql(db, *s)
            if r.returncode or r.stderr.strip():
                return None, "psql %s: %s" % (s[0], r.stderr.strip())
        return read_csv(out, ","), None
    finally:
        psql("postgres", "-c", f"DROP DATABASE {db}")


def k_anonymous(rows, qi_idx, k):
    classes = collections.Counter(tuple(r[i] for i in qi_idx) for r in rows[1:])
    return all(n >= k for key, n in classes.items() if not all(v == "*" for v in key))


def case(name, csv_path, delim, args, k, table, qis, dialects, not_null=False):
    """Runs keps with --emit-sql for each dialect and compares."""
    global cases
    header = read_csv(csv_path, delim)[0]
    for dialect in dialects:
        cases += 1
        rel = os.path.join(work, "rel.csv")
        script = os.path.join(work, "rel.sql")
        cmd = [keps, "anonymize", "--algorithm", "ola", "-i", csv_path, "-o", rel, "-k", str(k), "--seed", "1",
               "--quiet", "--emit-sql", script, "--sql-dialect", dialect] + args
        if table is not None:
            cmd += ["--sql-table", table]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"{name} [{dialect}]: keps exit {r.returncode}: {r.stderr.strip()}")
            continue
        want = read_csv(rel, delim)
        tab = table if table is not None else os.path.splitext(os.path.basename(csv_path))[0]
        engines = []
        if dialect in ("sqlite",):
            engines.append(("sqlite", sqlite_release))
        if dialect in ("postgresql", "ansi") and pg_host:
            engines.append(("postgresql", lambda *a: pg_release(*a, not_null)))
        for engine, fn in engines:
            got, err = fn(csv_path, delim, header, tab, script)
            label = f"{name} [{dialect} in {engine}]"
            if err:
                fail(f"{label}: {err}")
                continue
            if got[0] != want[0]:
                fail(f"{label}: header {got[0]} != keps's {want[0]}")
                continue
            cw, cg = collections.Counter(map(tuple, want[1:])), collections.Counter(map(tuple, got[1:]))
            if cw != cg:
                extra, missing = cg - cw, cw - cg
                fail(f"{label}: {sum(extra.values())} rows not in keps's release (e.g. {list(extra)[:2]}), "
                     f"{sum(missing.values())} missing (e.g. {list(missing)[:2]})")
                continue
            qi_idx = [want[0].index(q) for q in qis]
            if not k_anonymous(got, qi_idx, k):
                fail(f"{label}: the SQL release is not {k}-anonymous")


def adult():
    data = os.path.join(src, "data", "adult")
    h = lambda q: f"{q}:{data}/adult_hierarchy_{q}.csv"
    csv_path = os.path.join(data, "adult.csv")
    runs = [(["age", "sex", "race"], 5, "0.02", []),
            (["age", "education", "marital-status", "native-country"], 10, "0.05", ["--remove-suppressed"]),
            (["age", "workclass", "occupation"], 25, "0", []),
            (["sex", "race", "salary-class"], 3, "0.01", ["--identifier", "occupation"])]
    for qis, k, sup, extra in runs:
        args = [a for q in qis for a in ("--qi", h(q))] + ["--suppress", sup, "--others", "keep"] + extra
        case(f"adult {','.join(qis)} k={k} s={sup}", csv_path, ";", args, k, None, qis,
             ["sqlite", "postgresql", "ansi"])


AWKWARD = ["a", 'b"q', "it's", "x;y", "p,q", "ünï", "日本語", "two words", "  pad  ", "007", "0", "-0",
           "line\nbreak", "tab\there", "NULL", "back\\slash", "semi;co'lon", "--dash", "/*c*/", "é"]


def awkward_table(rnd, n, delim, missing_token):
    """Columns: cat1 (2 levels + *), cat2 (1 level + *), num (numbers with
    leading zeros; interval hierarchy), free (anything, often missing), id."""
    header = ["id", 'ca"t 1', "cat;2", "nüm", "free text"]
    vals1 = rnd.sample(AWKWARD, 8)
    vals2 = rnd.sample(AWKWARD, 5) + ([missing_token] if missing_token else [])
    rows = [header]
    for i in range(n):
        num = "%0*d" % (rnd.choice([1, 2, 3]), rnd.randrange(0, 60)) if rnd.uniform(0, 1) > 0.1 else missing_token or ""
        free = rnd.choice(AWKWARD + ["", "", ""])
        rows.append([str(i), rnd.choice(vals1), rnd.choice(vals2), num, free])
    return rows, vals1, vals2


def hierarchy(rows, delim, path):
    # the first row plain: the delimiter is sniffed from it
    rows = sorted(rows, key=lambda r: not all(c.isalnum() for c in r[0]))
    write_csv(path, rows, delim)


def awkward(rnd, trial):
    delim = rnd.choice([",", ";"])
    missing = "NA" if trial % 3 == 2 else None
    rows, v1, v2 = awkward_table(rnd, rnd.randrange(30, 400), delim, missing)
    csv_path = os.path.join(work, "awk_%d.csv" % trial)
    write_csv(csv_path, rows, delim)
    h1 = os.path.join(work, "h1_%d.csv" % trial)
    h2 = os.path.join(work, "h2_%d.csv" % trial)
    groups = ["g%d" % rnd.randrange(3) for _ in v1]
    hierarchy([[v, g + "'s;grp", "*"] for v, g in zip(v1, groups)], rnd.choice([",", ";"]), h1)
    hierarchy([[v, "*"] for v in v2], rnd.choice([",", ";"]), h2)
    k = rnd.choice([2, 3, 5, 8])
    args = ["--qi", 'ca"t 1:' + h1, "--qi", "cat;2:" + h2, "--qi", "nüm:interval=5,10,20",
            "--identifier", "id", "--others", "keep", "--suppress", rnd.choice(["0", "0.05", "0.2"])]
    if rnd.uniform(0, 1) < 0.3:
        args.append("--remove-suppressed")
    if missing:
        args += ["--missing", missing]
    table = rnd.choice([None, "my table", 'we"ird ü', "t-1"])
    case(f"awkward #{trial} (delimiter {delim!r}, missing {missing!r})", csv_path, delim, args, k, table,
         ['ca"t 1', "cat;2", "nüm"], ["sqlite", "postgresql", "ansi"], not_null=bool(missing))


def main():
    if not shutil.which("sqlite3"):
        print("emit_sql.py: sqlite3 not found")
        return 77
    adult()
    rnd = random.Random(30)
    for trial in range(12):
        awkward(rnd, trial)
    print(f"emit_sql.py: {cases} runs of keps, each script run in "
          f"{'SQLite and PostgreSQL' if pg_host else 'SQLite only'}; {len(failures)} failures")
    return 1 if failures else 0


sys.exit(main())

"""Shared helpers of the Mondrian, MDAV and dpmicro oracles (stdlib only).
KEPS (the binary) and KEPS_REPO (the source tree, for its data) come from
the environment; tests/cli/python_oracles.sh sets both."""
import csv, math, subprocess, json, os

KEPS = os.environ["KEPS"]
REPO = os.environ["KEPS_REPO"]

def read_csv(path, delim=None):
    with open(path, newline="") as f:
        text = f.read()
    if delim is None:
        head = text.splitlines()[0]
        delim = ";" if head.count(";") > head.count(",") else ","
    rows = list(csv.reader(text.splitlines(), delimiter=delim))
    return rows[0], rows[1:]

def numeric_matrix(path, cols):
    head, rows = read_csv(path)
    idx = [head.index(c) for c in cols]
    return [[float(r[i]) for i in idx] for r in rows]

def moments(x, j):
    n = len(x)
    s = 0.0
    for r in x:
        s += r[j]
    mu = s / n
    if all(r[j] == x[0][j] for r in x):
        return mu, 0.0
    v = 0.0
    for r in x:
        v += (r[j] - mu) * (r[j] - mu)
    return mu, math.sqrt(v / n)     # population sd (divide by n)

def run_keps(args, check=True):
    p = subprocess.run([KEPS] + args, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise RuntimeError("keps failed %d: %s" % (p.returncode, p.stderr))
    return p

def keps_json(args):
    p = run_keps(args + ["--json", "--quiet"] if "--quiet" not in args else args + ["--json"])
    return json.loads(p.stdout)


def mkhier(path, nleaves, height, rnd):
    """A random hierarchy of nleaves leaves v0.. and the given height, top
    '*', written to path (ARX layout); returns the leaves."""
    # balanced-ish random tree: level l groups
    vals=['v%d'%i for i in range(nleaves)]
    rows=[[v] for v in vals]
    cur=list(range(nleaves))  # group id per leaf at current level
    ng=nleaves
    for l in range(1,height+1):
        if l==height:
            newg=[0]*nleaves; labels={0:'*'}
        else:
            ng2=max(1,ng//2 if rnd.uniform(0, 1)<0.7 else ng//3)
            # map old groups to new groups monotonically
            mp={}
            for g in sorted(set(cur)): mp[g]=rnd.randrange(ng2)
            newg=[mp[g] for g in cur]; labels={g:'L%d_%d'%(l,g) for g in set(newg)}
            ng=ng2
        for i in range(nleaves): rows[i].append(labels[newg[i]])
        cur=newg
    with open(path,'w') as f:
        for r in rows: f.write(';'.join(r)+'\n')
    return vals

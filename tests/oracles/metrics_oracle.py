#!/usr/bin/env python3
"""Independent oracle for the metrics of docs/spec.md section 2, written from
ARX 3.9.2's definitions: every metric with ARX's defaults (metrics), and any
quality model ARX offers (objective: gs-factor, monotonic variant, attribute
weights, aggregate function); exhaustive scans. Loss and precision in exact
fractions. Usage:
 metrics_oracle.py DATA DELIM k suppress QI:HIER ... [--node l1,l2,..] [--scan METRIC] """
import sys, csv, math, itertools, json
from fractions import Fraction as Fr

def load_hier(path):
    rows=[]
    with open(path, newline='') as f:
        for line in f:
            line=line.rstrip('\r\n')
            if not line: continue
            rows.append(line.split(';'))
    return rows

def floor10(x): return math.floor(x*1e10)/1e10

class Problem:
    """released: row indices of a research subset (None: every row); the
    metrics are then taken over those rows only, as ARX takes them."""
    def __init__(self, data, delim, k, s, qis, released=None):
        with open(data, newline='') as f:
            r=list(csv.reader(f, delimiter=delim))
        hdr=r[0]; body=r[1:]
        if released is not None:
            body=[body[i] for i in sorted(released)]
        self.N=len(body); self.k=k; self.limit=math.floor(s*self.N+1e-9)
        self.names=[]; self.H=[]; self.gen=[]; self.height=[]; self.dom=[]; self.share=[]
        cols=[]
        for spec in qis:
            name,h=spec.split(':',1)
            rows=load_hier(h)
            self.names.append(name)
            ci=hdr.index(name); cols.append(ci)
            nl=len(rows[0]); self.height.append(nl-1); self.dom.append(len(rows))
            g={row[0]:row for row in rows}
            self.gen.append(g)
            sh=[]
            for l in range(nl):
                cnt={}
                for row in rows: cnt[row[l]]=cnt.get(row[l],0)+1
                sh.append({v:c/len(rows) for v,c in cnt.items()})
            self.share.append(sh)
        self.q=len(qis)
        tup={}
        for row in body:
            t=tuple(row[c] for c in cols)
            tup[t]=tup.get(t,0)+1
        self.tuples=tup
        # per QI value counts
        self.a=[]
        for i in range(self.q):
            a={}
            for t,c in tup.items(): a[t[i]]=a.get(t[i],0)+c
            self.a.append(a)
        # entropy generalization part
        self.entgen=[]
        for i in range(self.q):
            e=[]
            for l in range(self.height[i]+1):
                b={}
                for v,c in self.a[i].items():
                    g=self.gen[i][v][l]; b[g]=b.get(g,0)+c
                e.append(-sum(c*math.log2(c/b[self.gen[i][v][l]]) for v,c in self.a[i].items()))
            self.entgen.append(e)

    def classes(self, node):
        d={}
        for t,c in self.tuples.items():
            key=tuple(self.gen[i][t[i]][node[i]] for i in range(self.q))
            d[key]=d.get(key,0)+c
        return d

    def metrics(self, node, d=None, sup=None):
        """sup: the keys of d suppressed (default: the classes smaller than k)."""
        if d is None: d=self.classes(node)
        k=self.k; n=self.N; q=self.q
        if sup is None: sup={key for key,c in d.items() if c<k}
        d={key:c for key,c in d.items() if c>0}
        S=sum(c for key,c in d.items() if key in sup)
        prec=sum(((n-S)*(node[i]/self.height[i] if self.height[i] else 0)+S)/n for i in range(q))/q
        Ls=[]
        for i in range(q):
            rows=self.dom[i]
            agg=sum(Fr(c*round(self.share[i][node[i]][key[i]]*rows),rows) for key,c in d.items() if key not in sup)+S
            lo=Fr(n,rows)
            L=max(Fr(0),(agg-lo)/(n-lo)) if n-lo>0 else Fr(0)
            Ls.append(math.floor(L*10**10)/1e10)
        p=1.0
        for L in Ls: p*=(1+L)**(1.0/q)
        loss=p-1
        dm=sum(c*c if key not in sup else n*c for key,c in d.items())
        ncls=sum(1 for key in d if key not in sup)
        den=ncls+(1 if S>0 else 0)
        aecs=n/den if den else 0
        ent=0.0
        for i in range(q):  # floored to 10 decimals per QI, as ARX
            e=self.entgen[i][node[i]]
            if S>0:
                cg={}
                for key,c in d.items():
                    if key in sup: cg[key[i]]=cg.get(key[i],0)+c
                e-=sum(c*math.log2(c/S) for c in cg.values())
            ent+=floor10(e)
        return dict(prec=prec,loss=loss,discernibility=float(dm),aecs=aecs,entropy=ent,height=float(sum(node)),
                    S=S,classes=ncls)

    # ---- quality models (ARX's options) ----
    @staticmethod
    def factors(gs):
        """ARX's generalization and suppression factors for a gs-factor."""
        gs = Fr(gs)
        s = 2 * gs if gs < Fr(1, 2) else Fr(1)
        g = Fr(1) if gs <= Fr(1, 2) else 1 - 2 * (gs - Fr(1, 2))
        return g, s

    def weights(self, raw):
        """ARX: 0.5 for an unweighted QI, all divided by the largest (all 1 if it is 0)."""
        w = [Fr(x) for x in raw] if raw else [Fr(1, 2)] * self.q
        m = max(w) if w else 0
        return [Fr(1)] * self.q if m == 0 else [x / m for x in w]

    def suppressed(self, d, sup):
        """d without empty (population-only) classes, and the suppressed keys
        (sup, default the classes smaller than k)."""
        if sup is None: sup = {key for key, c in d.items() if c < self.k}
        return {key: c for key, c in d.items() if c > 0}, sup

    def attributes(self, node, cfg, d=None, sup=None):
        """Per-QI values of prec, loss, entropy or height before weighting."""
        if d is None: d = self.classes(node)
        d, sup = self.suppressed(d, sup)
        k = self.k; n = self.N; met = cfg['metric']; mono = cfg.get('monotonic', False)
        g, s = self.factors(cfg.get('gs', 0.5))
        S = sum(c for key, c in d.items() if key in sup)
        out = []
        for i in range(self.q):
            l = node[i]; h = self.height[i]
            if met == 'height':
                out.append(float(l)); continue
            if met == 'prec':
                r = Fr(l, h) if h else Fr(0)
                out.append(float(r * g if mono else ((n - S) * r * g + S * s) / n)); continue
            if met == 'loss':
                rows = self.dom[i]
                X = Fr(0)  # in units of 1/|dom|
                for key, c in d.items():
                    leaves = round(self.share[i][l][key[i]] * rows)
                    if key not in sup: X += g * leaves * c
                    elif s == 1: X += rows * c
                    else: X += (leaves + s * (rows - leaves)) * c
                lo = g * n; hi = Fr(n * rows)
                L = max(Fr(0), (X - lo) / (hi - lo)) if hi - lo > 0 else Fr(0)
                out.append(math.floor(L * 10**10) / 1e10); continue
            # entropy: generalization part, plus the suppressed rows' unless monotonic
            e = float(g) * self.entgen[i][l]
            if S > 0 and not mono:
                cg = {}
                for key, c in d.items():
                    if key in sup: cg[key[i]] = cg.get(key[i], 0) + c
                e -= float(s) * sum(c * math.log2(c / S) for c in cg.values())
            out.append(floor10(e))
        return out

    def objective(self, node, cfg, d=None, sup=None):
        """The score as a list: one value, or the sorted weighted vector for rank."""
        if d is None: d = self.classes(node)
        d, sup = self.suppressed(d, sup)
        n = self.N; met = cfg['metric']
        g, s = self.factors(cfg.get('gs', 0.5))
        if met in ('dm', 'discernibility'):
            if cfg.get('monotonic'): return [float(sum(c * c for c in d.values()))]
            return [float(sum(c * c if key not in sup else n * c for key, c in d.items()))]
        if met == 'aecs':  # ARX swaps the factors here
            big = sum(1 for key in d if key not in sup); S = sum(c for key, c in d.items() if key in sup)
            den = big * s + (g if S > 0 else 0)
            return [float(Fr(n) / den) if den else math.inf]
        w = self.weights(cfg.get('weights'))
        v = [a * float(wi) for a, wi in zip(self.attributes(node, cfg, d, sup), w)]
        agg = cfg.get('aggregate') or {'prec': 'arithmetic', 'loss': 'geometric'}.get(met, 'sum')
        if agg == 'rank': return sorted(v, reverse=True)
        if agg == 'sum': return [math.fsum(v)]
        if agg == 'max': return [max([0.0] + v)]
        if agg == 'arithmetic': return [math.fsum(v) / self.q]
        return [math.expm1(math.fsum(math.log1p(x) for x in v) / self.q)]

    def scan_objective(self, cfg):
        """(score, node) of every feasible node, best first."""
        res = []
        for node in itertools.product(*[range(h + 1) for h in self.height]):
            d = self.classes(node)
            if sum(c for c in d.values() if c < self.k) > self.limit: continue
            res.append((self.objective(node, cfg, d), node))
        res.sort()
        return res

    def scan(self, metric):
        best=None; res=[]
        for node in itertools.product(*[range(h+1) for h in self.height]):
            d=self.classes(node)
            S=sum(c for c in d.values() if c<self.k)
            if S>self.limit: continue
            m=self.metrics(node,d)
            res.append((m[metric],node))
        res.sort()
        return res

# ---- shared by the oracles that draw quality models ----
def close(a,b):
    return a==b or abs(a-b)<=1e-9*(1+abs(a)+abs(b))
def cmp_tol(a,b):
    """Lexicographic; values within rounding are equal."""
    for x,y in zip(a,b):
        if not close(x,y): return -1 if x<y else 1
    return 0
def random_model(rnd,q):
    """A random quality model ARX offers, as an oracle config and keps flags."""
    metric=rnd.choice(['prec','loss','dm','aecs','entropy','height'])
    cfg={'metric':metric}; flags=['--metric',metric]
    if metric in ('prec','loss','entropy','aecs') and rnd.uniform(0, 1)<0.7:
        cfg['gs']=rnd.choice([0,0.1,0.25,0.33,0.5,0.66,0.9,1])
        flags+=['--gs-factor',str(cfg['gs'])]
    if metric in ('prec','dm','entropy','height') and rnd.uniform(0, 1)<0.5:
        cfg['monotonic']=metric!='height'; flags+=['--monotonic']
    if metric in ('prec','loss','entropy','height'):
        if rnd.uniform(0, 1)<0.7:
            cfg['aggregate']=rnd.choice(['geometric','arithmetic','sum','max','rank'])
            flags+=['--aggregate',cfg['aggregate']]
        if rnd.uniform(0, 1)<0.5:
            w=[0.5]*q
            for i in rnd.sample(range(q),rnd.randint(1,q)):
                w[i]=rnd.choice([0,0.1,0.5,1,2,7])
                flags+=['--weight',f'c{i}={w[i]}']
            cfg['weights']=w
    return cfg,flags

if __name__=='__main__':
    a=sys.argv[1:]
    data,delim,k,s=a[0],a[1],int(a[2]),float(a[3])
    qis=[x for x in a[4:] if ':' in x and not x.startswith('--')]
    P=Problem(data,delim,k,s,qis)
    if '--node' in a:
        node=tuple(int(x) for x in a[a.index('--node')+1].split(','))
        print(json.dumps(P.metrics(node)))
    if '--scan' in a:
        met=a[a.index('--scan')+1]
        r=P.scan(met)
        print(len(r),'feasible; best:',r[:5])

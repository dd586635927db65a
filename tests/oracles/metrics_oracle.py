#!/usr/bin/env python3
"""Independent oracle for SPEC 2 metrics (exhaustive scan; Loss in exact fractions). Usage:
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
    def __init__(self, data, delim, k, s, qis):
        with open(data, newline='') as f:
            r=list(csv.reader(f, delimiter=delim))
        hdr=r[0]; body=r[1:]
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

    def metrics(self, node, d=None):
        if d is None: d=self.classes(node)
        k=self.k; n=self.N; q=self.q
        S=sum(c for c in d.values() if c<k)
        prec=sum(((n-S)*(node[i]/self.height[i] if self.height[i] else 0)+S)/n for i in range(q))/q
        Ls=[]
        for i in range(q):
            rows=self.dom[i]
            agg=sum(Fr(c*round(self.share[i][node[i]][key[i]]*rows),rows) for key,c in d.items() if c>=k)+S
            lo=Fr(n,rows)
            L=max(Fr(0),(agg-lo)/(n-lo)) if n-lo>0 else Fr(0)
            Ls.append(math.floor(L*10**10)/1e10)
        p=1.0
        for L in Ls: p*=(1+L)**(1.0/q)
        loss=p-1
        dm=sum(c*c if c>=k else n*c for c in d.values())
        ncls=sum(1 for c in d.values() if c>=k)
        den=ncls+(1 if S>0 else 0)
        aecs=n/den if den else 0
        ent=0.0
        for i in range(q):
            ent+=self.entgen[i][node[i]]
            if S>0:
                cg={}
                for key,c in d.items():
                    if c<k: cg[key[i]]=cg.get(key[i],0)+c
                ent-=sum(c*math.log2(c/S) for c in cg.values())
        return dict(prec=prec,loss=loss,discernibility=float(dm),aecs=aecs,entropy=ent,S=S,classes=ncls)

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

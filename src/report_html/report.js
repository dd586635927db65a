/* keps HTML report: draws the report embedded in this page (the JSON in
 * #keps-report) as text, tables and inline SVG charts. Sections the report
 * lacks are left out. Every chart is a <figure class="chart" data-chart=NAME>
 * whose drawn marks carry the class "mark" (the browser test counts them).
 * Top-level keys no section draws are listed under "Further figures", so
 * nothing in the report goes unseen. */
(function () {
  'use strict';
  var R = JSON.parse(document.getElementById('keps-report').textContent);
  var page = document.getElementById('page');
  var SVG = 'http://www.w3.org/2000/svg';
  var used = {};

  /* ---- small helpers ---- */
  function use() { for (var i = 0; i < arguments.length; i++) used[arguments[i]] = true; }
  function has(o, k) { return o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k); }
  function isObj(x) { return x !== null && typeof x === 'object' && !Array.isArray(x); }
  function isNum(x) { return typeof x === 'number' && isFinite(x); }
  function add(parent, kids) {
    if (kids === undefined || kids === null) return parent;
    if (!Array.isArray(kids)) kids = [kids];
    kids.forEach(function (k) {
      if (k === null || k === undefined || k === false) return;
      parent.appendChild(typeof k === 'string' || typeof k === 'number' ? document.createTextNode(String(k)) : k);
    });
    return parent;
  }
  function h(tag, attrs, kids) {
    var e = document.createElement(tag);
    for (var a in attrs || {}) if (attrs[a] !== undefined && attrs[a] !== null) e.setAttribute(a, attrs[a]);
    return add(e, kids);
  }
  function s(tag, attrs, kids) {
    var e = document.createElementNS(SVG, tag);
    /* a number that is not finite (a hand-edited report) is left out */
    for (var a in attrs || {})
      if (attrs[a] !== undefined && attrs[a] !== null && !(typeof attrs[a] === 'number' && !isFinite(attrs[a])))
        e.setAttribute(a, attrs[a]);
    return add(e, kids);
  }
  function tip(el, text) { el.appendChild(s('title', {}, text)); return el; }
  function fmt(x) {
    if (x === null || x === undefined) return '—';
    if (typeof x === 'boolean') return x ? 'yes' : 'no';
    if (typeof x !== 'number') return String(x);
    if (!isFinite(x)) return String(x);
    if (Number.isInteger(x) && Math.abs(x) < 1e15) return x.toLocaleString('en-US');
    var a = Math.abs(x);
    if (a !== 0 && (a < 1e-3 || a >= 1e6)) return x.toExponential(3).replace(/\.?0+e/, 'e');
    return String(Number(x.toPrecision(4)));
  }
  /* Short form for axes and labels: 3 significant digits, k and M. */
  function short(x) {
    if (!isNum(x)) return fmt(x);
    var a = Math.abs(x);
    if (a >= 1e6) return Number((x / 1e6).toPrecision(3)) + 'M';
    if (a >= 1e3) return Number((x / 1e3).toPrecision(3)) + 'k';
    if (a !== 0 && a < 1e-3) return x.toExponential(1);
    return String(Number(x.toPrecision(3)));
  }
  /* The axis end: x rounded up to 1, 2, 2.5 or 5 times a power of ten. */
  function niceCeil(x) {
    if (!(x > 0)) return 1;
    var e = Math.pow(10, Math.floor(Math.log10(x))), f = x / e;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * e;
  }
  function full(x) { return typeof x === 'number' ? String(x) : fmt(x); }
  function pct(x) {
    if (!isNum(x)) return '—';
    var p = x * 100;
    if (p === 0) return '0%';
    if (p === 100) return '100%';
    return (Math.abs(p) < 0.01 ? p.toExponential(2) : String(Number(p.toPrecision(3)))) + '%';
  }
  function words(key) { return String(key).replace(/_/g, ' '); }
  function cut(t, n) { t = String(t); return t.length > n ? t.slice(0, n - 1) + '…' : t; }

  function section(title, intro) {
    var sec = h('section', {}, [h('h2', {}, title)]);
    if (intro) add(sec, h('p', { 'class': 'sub' }, intro));
    page.appendChild(sec);
    return sec;
  }
  function kv(pairs) {
    var g = h('div', { 'class': 'kv' });
    pairs.forEach(function (p) {
      if (p[1] === undefined) return;
      add(g, h('div', { title: p[2] || null }, [h('span', { 'class': 'k' }, p[0]), h('span', { 'class': 'v' }, p[1])]));
    });
    return g;
  }
  function table(head, rows, numericCols) {
    var t = h('table');
    add(t, h('tr', {}, head.map(function (x) { return h('th', {}, x); })));
    rows.forEach(function (r) {
      add(t, h('tr', {}, r.map(function (c, i) {
        var isN = numericCols ? numericCols.indexOf(i) >= 0 : typeof c === 'number';
        return h('td', isN ? { 'class': 'n' } : {}, c instanceof Node ? c : (typeof c === 'number' ? fmt(c) : String(c)));
      })));
    });
    return t;
  }
  function value(v) {
    if (Array.isArray(v)) {
      if (v.every(function (x) { return !isObj(x) && !Array.isArray(x); })) return v.map(fmt).join(', ');
      return h('code', {}, JSON.stringify(v));
    }
    if (isObj(v)) return h('code', {}, JSON.stringify(v));
    return typeof v === 'number' ? fmt(v) : fmt(v);
  }
  /* A generic table of an object's members, nested objects flattened to a.b. */
  function flatRows(o, prefix, rows, depth) {
    Object.keys(o).forEach(function (k) {
      var v = o[k], name = prefix ? prefix + '.' + k : k;
      if (isObj(v) && depth < 2 && Object.keys(v).length <= 40) flatRows(v, name, rows, depth + 1);
      else rows.push([name, value(v)]);
    });
    return rows;
  }
  function chart(name, title, svg, note) {
    var f = h('figure', { 'class': 'chart', 'data-chart': name }, [h('figcaption', {}, title), svg]);
    if (note) add(f, h('div', { 'class': 'note' }, note));
    return f;
  }
  function legend(names, cls) {
    var l = h('div', { 'class': 'legend' });
    names.forEach(function (n, i) {
      var sw = h('i');
      sw.style.background = ['var(--before)', 'var(--after)', 'var(--warn)'][cls ? cls[i] : i];
      add(l, h('span', {}, [sw, n]));
    });
    return l;
  }
  function textWidth(t) { return String(t).length * 6.2; }

  /* Horizontal bars: items [{label, values: [v per series], text: [labels]}]. */
  function barsH(items, o) {
    o = o || {};
    var ns = o.series ? o.series.length : 1, bh = o.barHeight || 14, gap = 6;
    var lw = Math.min(o.labelWidth || 200, Math.max(40, Math.max.apply(null, items.map(function (d) { return textWidth(cut(d.label, 34)); })) + 8));
    var W = o.width || 360, tw = 70;
    var max = o.max || Math.max.apply(null, items.map(function (d) { return Math.max.apply(null, d.values.map(function (v) { return isNum(v) ? v : 0; })); }));
    if (!(max > 0)) max = 1;
    var H = items.length * (ns * bh + gap) + 4;
    var svg = s('svg', { width: lw + W + tw, height: H, viewBox: '0 0 ' + (lw + W + tw) + ' ' + H, role: 'img' });
    items.forEach(function (d, i) {
      var y0 = 2 + i * (ns * bh + gap);
      add(svg, tip(s('text', { x: lw - 6, y: y0 + ns * bh / 2 + 4, 'text-anchor': 'end' }, cut(d.label, 34)), String(d.label)));
      d.values.forEach(function (v, j) {
        if (!isNum(v)) return; /* no value: no bar (0 is a value: a hairline) */
        var w = Math.max(v / max * W, 1.5), y = y0 + j * bh;
        var cls = 'mark s' + (o.classes ? o.classes[j] : (ns === 1 ? 1 : j));
        add(svg, tip(s('rect', { 'class': cls, x: lw, y: y + 1, width: w, height: bh - 2 }),
          (o.series ? o.series[j] + ': ' : '') + d.label + ': ' + (o.fmt || fmt)(v)));
        var t = d.text ? d.text[j] : (o.fmt || fmt)(v);
        add(svg, s('text', { x: lw + w + 4, y: y + bh - 3, 'class': 'lbl-muted' }, t));
      });
    });
    add(svg, s('line', { 'class': 'axis', x1: lw, x2: lw, y1: 0, y2: H }));
    return svg;
  }

  /* Vertical bars (histograms): items [{label, values: [v per series]}]. */
  function bars(items, o) {
    o = o || {};
    var ns = o.series ? o.series.length : 1;
    var n = items.length, ml = 52, mb = o.rotate ? 70 : 34, mt = 10;
    var bw = o.barWidth || Math.max(3, Math.min(26, Math.floor((o.width || 520) / Math.max(1, n) / ns) - 1));
    var gw = ns * bw + Math.max(2, Math.round(bw / 2));
    var W = Math.max(o.minWidth || 200, n * gw), Hh = o.height || 150;
    var max = o.max || niceCeil(Math.max.apply(null, items.map(function (d) { return Math.max.apply(null, d.values.map(function (v) { return isNum(v) ? v : 0; })); })));
    if (o.fmt === pct) max = Math.min(max, 1);
    var svg = s('svg', { width: ml + W + 10, height: mt + Hh + mb, viewBox: '0 0 ' + (ml + W + 10) + ' ' + (mt + Hh + mb), role: 'img' });
    for (var g = 0; g <= 4; g++) {
      var gy = mt + Hh - g / 4 * Hh;
      add(svg, s('line', { 'class': 'grid', x1: ml, x2: ml + W, y1: gy, y2: gy }));
      add(svg, s('text', { x: ml - 4, y: gy + 4, 'text-anchor': 'end', 'class': 'lbl-muted' }, (o.fmtAxis || (o.fmt === pct ? pct : short))(max * g / 4)));
    }
    var every = Math.max(1, Math.ceil(n * (o.rotate ? 13 : 44) / W));
    items.forEach(function (d, i) {
      var x0 = ml + i * gw;
      d.values.forEach(function (v, j) {
        if (!isNum(v)) return;
        var hh = Math.max(v / max * Hh, v > 0 ? 1 : 0.75);
        var cls = 'mark s' + (o.classes ? o.classes[j] : (ns === 1 ? 1 : j));
        add(svg, tip(s('rect', { 'class': cls, x: x0 + j * bw, y: mt + Hh - hh, width: bw - 1, height: hh }),
          (o.series ? o.series[j] + ', ' : '') + d.label + ': ' + (o.fmt || fmt)(v)));
      });
      if (i % every === 0) {
        var cx = x0 + ns * bw / 2;
        if (o.rotate) add(svg, s('text', { x: cx, y: mt + Hh + 8, transform: 'rotate(50 ' + cx + ' ' + (mt + Hh + 8) + ')' }, cut(d.label, 14)));
        else add(svg, s('text', { x: cx, y: mt + Hh + 14, 'text-anchor': 'middle' }, cut(d.label, 10)));
      }
    });
    add(svg, s('line', { 'class': 'axis', x1: ml, x2: ml + W, y1: mt + Hh, y2: mt + Hh }));
    if (o.xlabel) add(svg, s('text', { x: ml + W / 2, y: mt + Hh + mb - 4, 'text-anchor': 'middle', 'class': 'lbl-muted' }, o.xlabel));
    return svg;
  }

  /* ---- what the method is ---- */
  var METHODS = {
    ola: 'k-anonymity by optimal full-domain generalization with suppression (OLA, El Emam et al. 2009)',
    mondrian: 'k-anonymity by strict multidimensional partitioning (Mondrian, LeFevre et al. 2006)',
    mdav: 'k-anonymity by microaggregation (MDAV, Domingo-Ferrer and Torra 2005)',
    kepsilon: '(k,ε)-anonymity: k-anonymization, then Laplace noise per class (Holohan et al. 2017)',
    dpmicro: 'ε-differentially private microaggregation (Soria-Comas et al. 2013)',
    safela: 'ε-safe lattice anonymization under sampling (Li, Qardaji and Su 2012)',
    rr: 'randomized response on a sensitive column, with ε-LDP and t-closeness (Ekenstedt et al. 2022)',
    verify: 'independent check of a release: k-anonymity, l-diversity, t-closeness',
    risk: 're-identification risk of a table, as ARX and sdcMicro measure it',
    evaluate: 'information loss and classifier accuracy of a release',
    noise: 'noisy releases of a value by the Laplace or geometric mechanism',
    audit: 'empirical privacy-loss audit of a mechanism on neighbouring inputs'
  };

  function header() {
    use('keps_version', 'method', 'seeded', 'timing_ms');
    var m = R.method;
    var ANON = { ola: 'OLA', mondrian: 'Mondrian', mdav: 'MDAV' };
    var title = ANON[m] ? 'keps anonymize report: ' + ANON[m] : m ? 'keps ' + m + ' report' : 'keps report';
    if (!m && has(R, 'result')) { title = 'keps privacy ' + (R.calculator || 'calculator') + ' report'; use('calculator'); }
    add(page, h('h1', {}, title));
    var sub = [];
    if (m && METHODS[m]) sub.push(METHODS[m]);
    if (R.keps_version) sub.push('keps ' + R.keps_version);
    if (R.timing_ms && isNum(R.timing_ms.total)) sub.push('ran in ' + fmt(R.timing_ms.total) + ' ms');
    add(page, h('p', { 'class': 'sub' }, sub.join(' · ')));
    if (isNum(R.input_rows) || isNum(R.original_rows))
      add(page, h('p', { 'class': 'sub' }, 'For the data\'s curator: this page shows figures read from the input data. Publish the release, not this page or its report.'));
    if (R.seeded === true)
      add(page, h('div', { 'class': 'alert' }, 'This run used --seed: its randomness is reproducible, so the output is NOT private. Use seeded runs for tests only.'));
  }

  /* ---- the guarantee in words and numbers ---- */
  function guaranteeWords(g) {
    var model = String(g.model || '').replace(/ \(data-dependent\)$/, '');
    var k = g.k, e = g.epsilon;
    switch (model) {
      case 'k-anonymity':
        return 'Every released record shares its quasi-identifier values with at least ' + fmt(k - 1) +
          ' other released records (k = ' + fmt(k) + ').';
      case '(k,epsilon)-anonymity':
        return 'k-anonymity with k = ' + fmt(k) + ', and Laplace noise with ε = ' + fmt(e) +
          ' on the noisy columns of each class.';
      case 'epsilon-DP':
        return 'ε-differential privacy with ε = ' + fmt(e) + ': one person\'s record changes the probability of any output by a factor of at most e^ε = ' + fmt(Math.exp(e)) + '.';
      case '(beta,epsilon,delta)-DPS':
        return '(β,ε,δ)-differential privacy under sampling: each record enters the sample with probability β = ' + fmt(g.beta) +
          ', and the release is (ε,δ)-differentially private with ε = ' + fmt(e) + ' and δ = ' + fmt(g.delta) + '.';
      case 'epsilon-LDP':
        return 'ε-local differential privacy with ε = ' + fmt(e) + ': each randomized value, seen alone, changes in probability by a factor of at most e^ε = ' + fmt(Math.exp(e)) + ' whatever the true value.';
      case 'multiplicative-t-closeness':
        return 'Multiplicative t-closeness with t = ' + fmt(g.t) + ': in every class, the released distribution of the sensitive value is within a factor t of the whole table\'s.';
      default:
        return model ? 'Guarantee: ' + g.model + '.' : '';
    }
  }
  function guarantee() {
    var g = R.guarantee;
    if (!isObj(g)) {
      var verdict = null, ok = true;
      if (isObj(R.holds) && typeof R.holds.all === 'boolean') {
        ok = R.holds.all;
        var failed = Object.keys(R.holds).filter(function (k) { return k !== 'all' && !R.holds[k]; }).map(function (k) { return k.replace(/_/g, '-'); });
        verdict = ok ? 'The release satisfies every property checked.' : 'The release FAILS the check: ' + failed.join(', ') + ' does not hold (exit 1).';
      } else if (isObj(R.audit) && typeof R.audit.violation === 'boolean') {
        ok = !R.audit.violation;
        verdict = ok ? 'No violation found: the measured privacy loss is consistent with the claimed ε.' : 'VIOLATION: the measured privacy loss exceeds the claimed ε (exit 1).';
      } else if (R.method) {
        verdict = 'This command releases no data and states no privacy guarantee.';
      }
      if (verdict) add(page, h('div', { 'class': 'guarantee ' + (ok ? 'none' : 'fail') }, [h('div', { 'class': 'words' }, verdict)]));
      return;
    }
    use('guarantee');
    var model = String(g.model || '');
    var dd = Array.isArray(g.data_dependent) ? g.data_dependent : [];
    var nc = Array.isArray(g.not_covered) ? g.not_covered : [];
    var weak = dd.length || nc.length || /heuristic|not DP/i.test(model) || R.seeded === true || g.bounds_from_data === true;
    var box = h('div', { 'class': 'guarantee' + (weak ? ' weak' : '') });
    add(box, h('div', { 'class': 'words' }, guaranteeWords(g)));
    var items = h('ul');
    add(items, h('li', {}, [h('span', { 'class': 'tag' }, 'model'), model]));
    if (isNum(g.suppression_limit))
      add(items, h('li', {}, [h('span', { 'class': 'tag' }, 'suppression'), 'up to ' + pct(g.suppression_limit) + ' of the rows' +
        (isNum(g.suppression_limit_rows) ? ' (' + fmt(g.suppression_limit_rows) + ' rows)' : '') + ' may be suppressed to reach it']));
    if (typeof g.covers === 'string') add(items, h('li', {}, [h('span', { 'class': 'tag covers' }, 'covers'), g.covers]));
    if (nc.length) add(items, h('li', {}, [h('span', { 'class': 'tag not' }, 'does not cover'), 'these released columns: ' + nc.join(', ')]));
    else if (Array.isArray(g.not_covered)) add(items, h('li', {}, [h('span', { 'class': 'tag covers' }, 'covers'), 'every released column']));
    dd.forEach(function (d) { add(items, h('li', {}, [h('span', { 'class': 'tag data' }, 'from the data'), String(d) + ' (read from the data: not covered by the guarantee)'])); });
    if (g.bounds_from_data === true && !dd.length) add(items, h('li', {}, [h('span', { 'class': 'tag data' }, 'from the data'), 'the bounds were read from the data']));
    if (typeof g.note === 'string') add(items, h('li', {}, [h('span', { 'class': 'tag data' }, 'note'), g.note]));
    if (typeof g.neighbours === 'string') add(items, h('li', {}, [h('span', { 'class': 'tag' }, 'neighbours'), g.neighbours]));
    if (typeof R.report_note === 'string') { use('report_note'); add(items, h('li', {}, [h('span', { 'class': 'tag data' }, 'curator only'), R.report_note])); }
    if (R.seeded === true) add(items, h('li', {}, [h('span', { 'class': 'tag not' }, 'seeded'), 'reproducible randomness: not private']));
    add(box, items);
    var nums = [];
    Object.keys(g).forEach(function (k) {
      if (k === 'k' || isNum(g[k])) nums.push([words(k), full(g[k])]);
      else if (isObj(g[k])) Object.keys(g[k]).forEach(function (k2) { if (isNum(g[k][k2])) nums.push([words(k) + ' ' + words(k2), full(g[k][k2])]); });
      else if (Array.isArray(g[k]) && k === 'models') nums.push(['models', g[k].join(', ')]);
      else if (typeof g[k] === 'string' && ['model', 'note', 'covers', 'neighbours'].indexOf(k) < 0) nums.push([words(k), g[k]]);
    });
    if (nums.length) add(box, kv(nums));
    add(page, box);
  }

  function parameters() {
    if (!isObj(R.parameters)) return;
    use('parameters');
    var sec = section('Parameters', 'The options of the run, as given.');
    add(sec, table(['option', 'value'], Object.keys(R.parameters).map(function (k) {
      var v = R.parameters[k];
      return ['--' + k, Array.isArray(v) ? v.map(String).join('\n') : fmt(v)];
    }), []));
    sec.querySelectorAll('td').forEach(function (td) { td.style.whiteSpace = 'pre-wrap'; });
    if (isObj(R.missing_values)) {
      use('missing_values');
      var mv = Object.keys(R.missing_values);
      add(sec, h('p', {}, mv.length ? 'Missing values in the input: ' + mv.map(function (k) { return k + ' ' + fmt(R.missing_values[k]); }).join(', ') + '.' : 'The input has no missing values.'));
    }
  }

  /* ---- rows: input = released + suppressed + not sampled ---- */
  function rows() {
    if (!isNum(R.input_rows) || !isNum(R.released_rows)) return;
    use('input_rows', 'output_rows', 'released_rows', 'suppressed_rows', 'removed_rows', 'unsampled_rows', 'sample_size');
    var sec = section('Rows', 'Every input row is released, suppressed or not sampled; none is lost.');
    var parts = [['released', R.released_rows, 1], ['suppressed', R.suppressed_rows || 0, 2], ['not sampled', R.unsampled_rows || 0, 0]];
    add(sec, kv([['input rows', fmt(R.input_rows)], ['released', fmt(R.released_rows) + ' (' + pct(R.released_rows / R.input_rows) + ')'],
      ['suppressed', fmt(R.suppressed_rows) + ' (' + pct(R.suppressed_rows / R.input_rows) + ')'],
      ['not sampled', fmt(R.unsampled_rows)], ['rows in the output file', fmt(R.output_rows)],
      R.removed_rows ? ['suppressed rows left out', fmt(R.removed_rows)] : ['suppressed rows left out', undefined],
      isNum(R.sample_size) ? ['sample size', fmt(R.sample_size)] : ['', undefined]]));
    var W = 640, svg = s('svg', { width: W, height: 34, viewBox: '0 0 ' + W + ' 34', role: 'img' }), x = 0;
    parts.forEach(function (p) {
      if (!(p[1] > 0)) return;
      var w = p[1] / R.input_rows * W;
      add(svg, tip(s('rect', { 'class': 'mark s' + p[2], x: x, y: 4, width: Math.max(w, 1), height: 24 }), p[0] + ': ' + fmt(p[1])));
      if (w > 90) add(svg, s('text', { x: x + 6, y: 21, style: 'fill:#fff' }, p[0] + ' ' + fmt(p[1])));
      x += w;
    });
    add(sec, chart('rows', 'Input rows by fate', svg));
    add(sec, legend(['not sampled', 'released', 'suppressed']));
  }

  /* ---- class sizes, risk bands ---- */
  var SIZE_BUCKETS = [1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 1e5, 1e6, Infinity];
  function sizeLabel(i) {
    var lo = SIZE_BUCKETS[i], hi = SIZE_BUCKETS[i + 1] - 1;
    if (hi === Infinity) return '≥' + short(lo);
    return lo === hi ? String(lo) : short(lo) + '–' + short(hi);
  }
  /* Share of records in classes of each size bucket. */
  function sizeShares(classes) {
    var rec = new Array(SIZE_BUCKETS.length - 1).fill(0), tot = 0;
    /* {size: classes} (keps risk) or [[size, classes], ...] (before_after) */
    var pairs = Array.isArray(classes) ? classes : Object.keys(classes || {}).map(function (k) { return [Number(k), classes[k]]; });
    pairs.forEach(function (p) {
      var size = p[0], n = p[1] * size;
      for (var i = 0; i < rec.length; i++) if (size < SIZE_BUCKETS[i + 1]) { rec[i] += n; break; }
      tot += n;
    });
    return rec.map(function (r) { return tot ? r / tot : 0; });
  }
  function classChart(name, title, sets, series) {
    var sh = sets.map(sizeShares), last = 0, first = sh[0].length;
    sh.forEach(function (a) { a.forEach(function (v, i) { if (v > 0) { last = Math.max(last, i); first = Math.min(first, i); } }); });
    var items = [];
    for (var i = Math.min(first, 0); i <= last; i++) items.push({ label: sizeLabel(i), values: sh.map(function (a) { return a[i]; }) });
    return chart(name, title, bars(items, { series: series, fmt: pct, xlabel: 'class size (records sharing their quasi-identifier values)', classes: series && series.length === 1 ? [1] : null }),
      'Share of records in classes of each size. A class of size 1 is a record unique on its quasi-identifiers.');
  }
  function bandLabel(b) { return b.up_to >= 1 ? '100%' : '≤' + pct(b.up_to); }
  function bandChart(name, title, sets, series, what) {
    var lo = sets[0].length, hi = 0;
    sets.forEach(function (a) { a.forEach(function (b, i) { if (b.records > 0) { lo = Math.min(lo, i); hi = Math.max(hi, i); } }); });
    if (hi < lo) { lo = 0; hi = sets[0].length - 1; }
    var items = [];
    for (var i = lo; i <= hi; i++) items.push({ label: bandLabel(sets[0][i]), values: sets.map(function (a) { return a[i].records; }) });
    return chart(name, title, bars(items, { series: series, fmt: pct, rotate: items.length > 8, xlabel: what || 'prosecutor risk of a record (1 / its class size)', classes: series && series.length === 1 ? [1] : null }),
      'Share of records per ' + (what ? 'risk' : 'prosecutor-risk') + ' band (ARX\'s bands).');
  }

  /* ---- risk before and after (release commands) and keps risk ---- */
  function riskPair(sec, input, release, qis) {
    var series = ['input', 'release'];
    add(sec, h('p', { 'class': 'sub' }, 'Measured on the quasi-identifiers ' + qis.join(', ') + ', with suppressed records left out, in the input and in the release.'));
    add(sec, table(['', 'input', 'release'], [
      ['highest prosecutor risk', pct(input.prosecutor.highest), pct(release.prosecutor.highest)],
      ['records at the highest risk', pct(input.prosecutor.share_at_highest), pct(release.prosecutor.share_at_highest)],
      ['average prosecutor risk', pct(input.prosecutor.average), pct(release.prosecutor.average)],
      ['sample uniques (records unique in the file)', pct(input.sample_uniques), pct(release.sample_uniques)],
      ['classes', fmt(input.class_count), fmt(release.class_count)],
      ['records in classes', fmt(input.records), fmt(release.records)],
      ['suppressed records (left out)', fmt(input.suppressed), fmt(release.suppressed)]
    ], [1, 2]));
    var c = h('div', { 'class': 'charts' });
    add(c, classChart('risk-class-sizes', 'Class sizes, input vs release', [input.class_sizes, release.class_sizes], series));
    add(c, bandChart('risk-prosecutor', 'Prosecutor risk, input vs release', [input.risk_distribution, release.risk_distribution], series));
    add(c, chart('risk-highest', 'Highest-risk records and uniques', barsH([
      { label: 'records at the highest risk', values: [input.prosecutor.share_at_highest, release.prosecutor.share_at_highest] },
      { label: 'sample uniques', values: [input.sample_uniques, release.sample_uniques] },
      { label: 'average prosecutor risk', values: [input.prosecutor.average, release.prosecutor.average] }
    ], { series: series, fmt: pct, width: 260 })));
    add(sec, legend(series));
    add(sec, c);
  }

  function beforeAfter() {
    var b = R.before_after;
    if (!isObj(b)) return;
    use('before_after');
    if (isObj(b.risk) && isObj(b.risk.input) && isObj(b.risk.release)) {
      var sec = section('Risk before and after', 'Re-identification risk of the input and of the release (as keps risk computes it). Population uniqueness needs a population size: run keps risk --sampling-fraction F on the release.');
      riskPair(sec, b.risk.input, b.risk.release, b.qis || []);
    }
    if (isObj(b.distributions) && Object.keys(b.distributions).length) distributions(b);
    if (isObj(b.suppressed_values) && Object.keys(b.suppressed_values).length) suppressedValues(b.suppressed_values);
  }

  function distSide(d) {
    /* numeric: {bins: [edges], counts: [...]}; categorical: {values: [[v, n]], other: n} */
    return d;
  }
  function distributions(b) {
    var sec = section('Distributions, input vs release', 'Each attribute the method changed: its values in the input and in the release (the most frequent values, the rest as "other"; numbers as histograms).');
    if (b.unchanged && b.unchanged.length) add(sec, h('p', { 'class': 'sub' }, 'Released unchanged: ' + b.unchanged.join(', ') + '.'));
    if (b.columns_left_off) add(sec, h('p', { 'class': 'sub' }, fmt(b.columns_left_off) + ' more columns left off (the report keeps the first ones).'));
    var grid = h('div', { 'class': 'charts' });
    Object.keys(b.distributions).forEach(function (col) {
      var d = b.distributions[col];
      var box = h('div', {}, [h('h3', {}, col)]);
      /* both sides on one scale, so that their bars compare */
      var top = 0;
      [d.input, d.release].forEach(function (x) {
        if (!isObj(x)) return;
        (Array.isArray(x.bins) ? x.counts : (x.values || []).map(function (p) { return p[1]; }).concat([x.other || 0]))
          .forEach(function (v) { top = Math.max(top, v); });
      });
      [['input', d.input, 0], ['release', d.release, 1]].forEach(function (side) {
        var x = distSide(side[1]);
        if (!isObj(x)) return;
        var svg;
        if (Array.isArray(x.bins)) {
          var items = x.counts.map(function (n, i) { return { label: short(x.bins[i]), values: [n] }; });
          svg = bars(items, { classes: [side[2]], width: 300, height: 110, max: niceCeil(top), xlabel: col + (x.missing ? ' (' + fmt(x.missing) + ' missing)' : '') });
        } else {
          var it = (x.values || []).map(function (p) { return { label: p[0] === '' ? '(empty)' : p[0], values: [p[1]] }; });
          if (x.other) it.push({ label: 'other (' + fmt(x.other_values) + ' values)', values: [x.other] });
          svg = barsH(it, { classes: [side[2]], width: 200, barHeight: 13, labelWidth: 150, max: top });
        }
        add(box, chart('dist-' + side[0] + '-' + col, side[0] + ' (' + fmt(x.distinct) + ' distinct)', svg));
      });
      add(grid, box);
    });
    add(sec, grid);
  }

  function suppressedValues(sv) {
    var sec = section('Suppression per attribute value', 'For each quasi-identifier, the input values whose records were suppressed most, and how many of their records were.');
    var grid = h('div', { 'class': 'charts' });
    Object.keys(sv).forEach(function (col) {
      var d = sv[col];
      var it = d.values.map(function (p) { return { label: p[0] === '' ? '(empty)' : p[0], values: [p[2]], text: [fmt(p[2]) + ' of ' + fmt(p[1])] }; });
      if (d.other && d.other[1] > 0) it.push({ label: 'other values', values: [d.other[1]], text: [fmt(d.other[1]) + ' of ' + fmt(d.other[0])] });
      if (!it.length) return;
      add(grid, chart('suppressed-' + col, col, barsH(it, { classes: [2], width: 180, labelWidth: 150 })));
    });
    add(sec, grid);
  }

  /* ---- utility ---- */
  function generalization() {
    if (!isObj(R.transformation)) return;
    use('transformation', 'heights', 'metric', 'metrics', 'classes', 'k_anonymization_metrics');
    var sec = section('Utility', 'How far each quasi-identifier was generalized (level 0 = original values, the top level = fully generalized), and the information-loss metrics of the release.');
    var heights = R.heights || {};
    if (!R.heights && isObj(R.lattice) && Array.isArray(R.lattice.heights))
      R.lattice.qis.forEach(function (q, i) { heights[q] = R.lattice.heights[i]; });
    var hasH = Object.keys(heights).length > 0;
    var it = Object.keys(R.transformation).map(function (q) {
      var l = R.transformation[q], hgt = hasH ? heights[q] : null;
      return { label: q, values: [hgt ? l / hgt : l], text: [fmt(l) + (hgt !== null && hgt !== undefined ? ' of ' + fmt(hgt) : '')] };
    });
    var row = h('div', { 'class': 'charts' });
    add(row, chart('generalization', 'Generalization level per attribute', barsH(it, { max: hasH ? 1 : null, width: 260 }), hasH ? 'Bar length: level / height of the hierarchy.' : null));
    var o = R.objective;
    use('objective', 'score', 'score_attributes');
    if (isObj(R.score_attributes)) {
      var ia = Object.keys(R.score_attributes).map(function (q) { return { label: q, values: [R.score_attributes[q]] }; });
      add(row, chart('information-loss', 'Information loss per attribute (' + (isObj(o) ? o.metric : 'metric') + ')', barsH(ia, { width: 260 }),
        'Each attribute\'s loss before weighting and aggregation, as ARX\'s quality model computes it; 0 = no loss.'));
    }
    add(sec, row);
    if (isObj(o)) {
      var desc = o.metric + (isNum(o.gs_factor) ? ', gs-factor ' + fmt(o.gs_factor) : '') + (o.monotonic ? ', monotonic' : '') +
        (o.aggregate ? ', ' + o.aggregate + ' aggregate' : '');
      var sc = Array.isArray(R.score) ? '(' + R.score.map(fmt).join(', ') + ')' : fmt(R.score);
      add(sec, h('p', {}, 'The search minimized ' + desc + (R.score !== undefined ? ': the chosen node scores ' + sc : '') + '.'));
    }
    metricsTable(sec);
  }
  var METRIC_WORDS = {
    prec: 'Precision loss (Sweeney): mean generalization level / height, 0 best',
    loss: 'Loss (ARX\'s Iyengar loss metric), 0 best',
    discernibility: 'Discernibility: sum of squared class sizes (suppressed rows count n each)',
    aecs: 'Average equivalence class size',
    entropy: 'Non-uniform entropy (bits lost)',
    ncp: 'Normalized certainty penalty, 0 best',
    sse: 'Sum of squared errors',
    sse_standardized: 'Sum of squared errors on standardized values',
    expected_are: 'Expected absolute relative error of the noisy columns',
    measured_are: 'Measured absolute relative error',
    linking_risk: 'Share of rows linked back to their original by their noisy values',
    record_linkage: 'Record linkage: share of records re-identified by distance',
    good_node_probability: 'Probability that the mechanism picks a good node',
    utility: 'Utility of the chosen node, -(G + f·S)',
    generalization: 'Mean generalization G of the chosen node',
    suppression: 'Share of sampled rows suppressed S'
  };
  function metricsTable(sec) {
    var sets = [];
    if (isObj(R.metrics)) { use('metrics'); sets.push(['', R.metrics]); }
    if (isObj(R.k_anonymization_metrics)) { use('k_anonymization_metrics'); sets.push(['k-anonymization: ', R.k_anonymization_metrics]); }
    var rowsT = [];
    sets.forEach(function (st) {
      Object.keys(st[1]).forEach(function (k) {
        var v = st[1][k];
        rowsT.push([st[0] + words(k) + (R.metric === k ? ' (optimized)' : ''), isNum(v) || v === null ? fmt(v) : value(v), METRIC_WORDS[k] || '']);
      });
    });
    if (rowsT.length) add(sec, table(['metric', 'value', 'meaning'], rowsT, [1]));
  }
  function metricsSection() {
    if (used.metrics || !isObj(R.metrics)) return;
    var sec = section('Metrics', 'Information loss and risk figures of the release.');
    metricsTable(sec);
  }

  function groupSizes() {
    if (!isObj(R.group_sizes)) return;
    use('group_sizes', 'columns');
    var sec = section('Groups', 'Sizes of the groups the records were aggregated into.');
    add(sec, classChart('group-sizes', 'Group sizes', [R.group_sizes], ['groups']));
  }

  /* ---- lattice ---- */
  function lattice() {
    var L = R.lattice;
    if (!isObj(L) || !Array.isArray(L.nodes)) return;
    use('lattice', 'nodes_total', 'nodes_evaluated', 'k_minimal_nodes');
    var sec = section('Generalization lattice', 'Every node is one generalization: a level per quasi-identifier (' + (L.qis || []).join(', ') + '); nodes are drawn level by level, the original data at the bottom, full generalization at the top.');
    add(sec, kv([['nodes in the lattice', fmt(L.nodes_total)], ['nodes drawn', fmt(L.nodes.length)],
      ['drawn', L.drawn === 'all' ? 'every node' : L.drawn === 'frontier' ? 'the frontier' : 'the likeliest'],
      isNum(R.nodes_evaluated) ? ['nodes evaluated by the search', fmt(R.nodes_evaluated)] : ['', undefined],
      isNum(R.k_minimal_nodes) ? ['frontier (minimal anonymous) nodes', fmt(R.k_minimal_nodes)] : ['', undefined]]));
    if (L.drawn === 'frontier') add(sec, h('p', { 'class': 'sub' }, 'The lattice has more than ' + fmt(L.max_nodes) + ' nodes: only its anonymous frontier (the minimal anonymous nodes) and the chosen node are drawn.'));
    if (L.drawn === 'likeliest') add(sec, h('p', { 'class': 'sub' }, 'The lattice has more than ' + fmt(L.max_nodes) + ' nodes: the ' + fmt(L.max_nodes - 1) + ' most likely to be selected and the chosen node are drawn.'));
    var byLevel = {}, maxLevel = 0, hasProb = false;
    L.nodes.forEach(function (n) {
      var lv = n.levels.reduce(function (a, b) { return a + b; }, 0);
      (byLevel[lv] = byLevel[lv] || []).push(n);
      maxLevel = Math.max(maxLevel, lv);
      if (isNum(n.probability)) hasProb = true;
    });
    var totalH = (L.heights || []).reduce(function (a, b) { return a + b; }, 0) || maxLevel;
    /* A level with many nodes wraps onto several rows; an empty level gets
     * a thin row, so that the frontier shows where it sits. */
    var W = 900, ml = 60, minGap = 9, perRow = Math.floor(W / minGap);
    var widest = 1;
    Object.keys(byLevel).forEach(function (k) { widest = Math.max(widest, Math.min(perRow, byLevel[k].length)); });
    var r = Math.max(2.5, Math.min(9, (W / widest) * 0.3));
    var rowH = widest > 60 ? 2 * r + 8 : (L.nodes.length <= 40 ? 46 : 34), emptyH = 16;
    var pos = {}, y = 10, rowsOut = [];
    for (var lv = totalH; lv >= 0; lv--) {
      var row = byLevel[lv] || [];
      var nrows = Math.max(1, Math.ceil(row.length / perRow));
      rowsOut.push([lv, y, row.length ? nrows * rowH : emptyH]);
      row.forEach(function (n, i) {
        var sub = Math.floor(i / perRow), inRow = Math.min(perRow, row.length - sub * perRow);
        pos[n.levels.join(',')] = [ml + ((i % perRow) + 0.5) * W / inRow, y + sub * rowH + r + 2];
      });
      y += row.length ? nrows * rowH : emptyH;
    }
    var H = y + 10;
    var svg = s('svg', { width: ml + W + 20, height: H, viewBox: '0 0 ' + (ml + W + 20) + ' ' + H, role: 'img' });
    var maxP = 0;
    L.nodes.forEach(function (n) { if (isNum(n.probability)) maxP = Math.max(maxP, n.probability); });
    rowsOut.forEach(function (ro) {
      if (ro[0] % 2 === 0) add(svg, s('rect', { x: ml - 4, y: ro[1], width: W + 8, height: ro[2], fill: '#f4f6f9' }));
      add(svg, s('text', { x: 0, y: ro[1] + Math.min(ro[2], rowH) / 2 + 3, 'class': 'lbl-muted' }, 'level ' + ro[0]));
    });
    if (L.drawn === 'all' && L.nodes.length <= 400) {
      L.nodes.forEach(function (n) {
        var p = pos[n.levels.join(',')];
        n.levels.forEach(function (l, i) {
          var up = n.levels.slice(); up[i] = l + 1;
          var q = pos[up.join(',')];
          if (q) add(svg, s('line', { 'class': 'edge', x1: p[0], y1: p[1], x2: q[0], y2: q[1] }));
        });
      });
    }
    var chosenKey = (L.chosen || []).join(',');
    L.nodes.forEach(function (n) {
      var p = pos[n.levels.join(',')];
      var cls = hasProb ? 'node-prob' : n.anonymous === true ? 'node-anon' : n.anonymous === false ? 'node-not' : 'node-unknown';
      if (n.frontier) cls += ' node-frontier';
      var isChosen = n.levels.join(',') === chosenKey;
      if (isChosen) cls += ' node-chosen';
      var c = s('circle', { 'class': 'mark ' + cls, cx: p[0], cy: p[1], r: isChosen ? r + 2 : r });
      if (hasProb && isNum(n.probability) && maxP > 0) { c.setAttribute('fill-opacity', String(0.15 + 0.85 * n.probability / maxP)); }
      var t = (L.qis || []).map(function (q, i) { return q + '=' + n.levels[i]; }).join(', ');
      t += n.anonymous === true ? ': anonymous' : n.anonymous === false ? ': not anonymous' : '';
      if (n.frontier) t += ', on the frontier';
      if (isNum(n.generalization)) t += ', G ' + fmt(n.generalization) + ', S ' + fmt(n.suppression) + (n.good ? ', good' : '');
      if (isNum(n.score)) t += ', ' + (L.score || 'score') + ' ' + fmt(n.score);
      else if (Array.isArray(n.score)) t += ', ' + (L.score || 'score') + ' (' + n.score.map(fmt).join(', ') + ')';
      if (isNum(n.probability)) t += ', selection probability ' + pct(n.probability);
      if (isChosen) t += ' (chosen)';
      add(svg, tip(c, t));
      if (L.nodes.length <= 40 || isChosen) add(svg, s('text', { x: p[0], y: p[1] + r + 11, 'text-anchor': 'middle', 'class': isChosen ? '' : 'lbl-muted' }, '(' + n.levels.join(',') + ')'));
    });
    var lg = h('div', { 'class': 'legend' });
    (hasProb ? [['var(--after)', 'darker: more likely to be selected'], ['var(--chosen)', 'chosen node (ring)']] :
      [['var(--good)', 'anonymous'], ['#e8d5d3', 'not anonymous'], ['#ffffff', 'not evaluated'], ['var(--chosen)', 'chosen node (ring)']]).forEach(function (x) {
      var sw = h('i'); sw.style.background = x[0]; sw.style.border = '1px solid #999'; add(lg, h('span', {}, [sw, x[1]]));
    });
    if (!hasProb) add(lg, h('span', {}, 'thick dark outline: frontier (minimal anonymous node)'));
    add(sec, chart('lattice', 'Lattice' + (L.chosen ? ', chosen node (' + L.chosen.join(',') + ')' : ''), svg));
    add(sec, lg);
    /* a rank aggregate's score is a vector, compared element by element */
    var cmpScore = function (a, b) {
      var x = [].concat(a.score), y = [].concat(b.score);
      for (var i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    };
    var scored = L.nodes.filter(function (n) { return isNum(n.probability) || isNum(n.score) || Array.isArray(n.score); });
    if (scored.length) {
      scored.sort(function (a, b) { return hasProb ? b.probability - a.probability : cmpScore(a, b); });
      var top = scored.slice(0, 15).map(function (n) {
        var first = [].concat(n.score)[0];
        return { label: '(' + n.levels.join(',') + ')' + (n.levels.join(',') === chosenKey ? ' chosen' : ''), values: [hasProb ? n.probability : first],
          text: [hasProb ? pct(n.probability) + ' · utility ' + fmt(n.score) : Array.isArray(n.score) ? '(' + n.score.map(fmt).join(', ') + ')' : fmt(n.score)] };
      });
      add(sec, chart('lattice-scores', hasProb ? 'Selection probability of the most likely nodes' : 'Score (' + (L.score || 'metric') + ') of the best anonymous nodes, lower is better',
        barsH(top, { width: 280, fmt: hasProb ? pct : fmt, labelWidth: 150 }),
        hasProb ? 'The exponential mechanism picks a node with probability proportional to exp(ε′·utility / (2·sensitivity)); utility = −(G + f·S), G the mean generalization, S the share of sampled rows suppressed. These figures are read from the sample: the curator\'s, not for publication.' : null));
    }
  }

  /* ---- noise and budget ---- */
  function noise() {
    var ns = R.noise_scale;
    if (ns === undefined) return;
    use('noise_scale', 'noise_scale_formula', 'sensitivity_l1', 'sensitivity_l1_per_column', 'bounds', 'scale', 'granularity', 'noiseless_rows');
    var sec = section('Noise and privacy budget', 'The Laplace scale b actually used per column: noise of standard deviation √2·b.');
    var g = R.guarantee || {};
    var budget = [];
    ['epsilon', 'epsilon_requested', 'delta', 'beta', 'epsilon_prime'].forEach(function (k) { if (isNum(g[k])) budget.push(['guarantee ' + words(k), full(g[k])]); });
    if (isNum(R.sensitivity_l1)) budget.push(['L1 sensitivity', fmt(R.sensitivity_l1)]);
    if (isNum(R.granularity)) budget.push(['grid granularity', fmt(R.granularity)]);
    if (typeof R.scale === 'string') budget.push(['scale', R.scale]);
    add(sec, kv(budget));
    if (isObj(ns)) {
      var it = Object.keys(ns).map(function (k) { return { label: k, values: [ns[k]] }; });
      add(sec, chart('noise-scale', 'Noise scale per column', barsH(it, { width: 300 })));
    } else if (isNum(ns)) add(sec, kv([['noise scale', fmt(ns)]]));
    if (typeof R.noise_scale_formula === 'string') add(sec, h('p', { 'class': 'sub' }, 'Formula: ' + R.noise_scale_formula));
    if (isObj(R.bounds)) add(sec, table(['column', 'lower bound', 'upper bound'], Object.keys(R.bounds).map(function (k) { return [k, R.bounds[k][0], R.bounds[k][1]]; })));
    if (isObj(R.noiseless_rows)) add(sec, h('p', {}, 'Rows released without noise (their class holds one value): ' + Object.keys(R.noiseless_rows).map(function (k) { return k + ' ' + fmt(R.noiseless_rows[k]); }).join(', ') + '.'));
    if (Array.isArray(R.releases)) {
      use('releases', 'mechanism');
      var v = R.parameters && isNum(R.parameters.value) ? R.parameters.value : null;
      var it2 = R.releases.slice(0, 50).map(function (x, i) { return { label: '#' + (i + 1), values: [x] }; });
      add(sec, chart('noise-releases', 'The noisy releases' + (v !== null ? ' of ' + fmt(v) : ''), barsH(it2, { width: 300 })));
    }
  }

  /* ---- safela's mechanism ---- */
  function mechanism() {
    if (!isObj(R.mechanism)) return;
    use('mechanism', 'good_node_probability');
    var sec = section('Exponential mechanism', 'How the node was chosen.');
    add(sec, table(['', 'value'], Object.keys(R.mechanism).map(function (k) { return [words(k), fmt(R.mechanism[k])]; }), [1]));
  }

  /* ---- rr ---- */
  function rr() {
    if (R.method !== 'rr') return;
    use('closed_form', 'verified', 'changed_rows', 'mechanism', 'categories', 'partition', 'classes', 'smallest_class', 'p', 'pt');
    var sec = section('Randomized response', 'Each sensitive value is kept with probability p, else replaced by a random category.');
    add(sec, kv([['keep probability p', fmt(R.p)], isNum(R.pt) ? ['p_t', fmt(R.pt)] : ['', undefined], ['categories', fmt(R.categories)],
      ['classes', fmt(R.classes)], ['smallest class', fmt(R.smallest_class)], ['rows changed', fmt(R.changed_rows)]]));
    if (isObj(R.closed_form) && isObj(R.verified)) {
      var keys = Object.keys(R.closed_form);
      var flat = function (v) { return isObj(v) ? Object.keys(v).map(function (k) { return k + ' = ' + fmt(v[k]); }).join(', ') : fmt(v); };
      add(sec, table(['level', 'closed form (worst case)', 'verified on this data'], keys.map(function (k) { return [words(k), flat(R.closed_form[k]), flat(R.verified[k])]; })));
      var it = keys.filter(function (k) { return isNum(R.closed_form[k]) && isNum(R.verified[k]); }).map(function (k) { return { label: words(k), values: [R.closed_form[k], R.verified[k]] }; });
      if (it.length) { add(sec, chart('rr-levels', 'Privacy levels: stated vs verified on this data', barsH(it, { series: ['closed form', 'verified'], width: 260 }))); add(sec, legend(['closed form', 'verified'])); }
    }
  }

  /* ---- verify ---- */
  function verify() {
    if (!isObj(R.holds)) return;
    use('holds', 'k_anonymity', 'l_diversity', 't_closeness', 'input_rows');
    var sec = section('Checks', 'Each property asked for, checked on the release as it stands.');
    var names = { k_anonymity: 'k-anonymity', l_diversity: 'l-diversity', t_closeness: 't-closeness' };
    add(sec, table(['property', 'result'], Object.keys(R.holds).filter(function (k) { return k !== 'all'; }).map(function (k) {
      return [names[k] || words(k), h('span', { 'class': R.holds[k] ? 'pass' : 'fail' }, R.holds[k] ? 'holds' : 'does not hold')];
    })));
    var ka = R.k_anonymity;
    if (isObj(ka)) {
      add(sec, h('h3', {}, 'k-anonymity'));
      add(sec, kv([['k asked', fmt(ka.k)], ['smallest class', fmt(ka.min_class)], ['classes', fmt(ka.classes)], ['classes below k', fmt(ka.classes_below_k)], ['records below k', fmt(ka.records_below_k)], ['suppressed rows', fmt(ka.suppressed_rows)]]));
      if (Array.isArray(ka.smallest) && ka.smallest.length) {
        var it = ka.smallest.slice(0, 12).map(function (c) { return { label: Object.keys(c.qi).map(function (q) { return q + '=' + c.qi[q]; }).join(', '), values: [c.size] }; });
        add(sec, chart('verify-smallest', 'The smallest classes', barsH(it, { width: 260, labelWidth: 220 })));
      }
    }
    var cls = function (w) { return w && isObj(w.qi) ? 'size ' + fmt(w.size) + ': ' + Object.keys(w.qi).map(function (q) { return q + '=' + w.qi[q]; }).join(', ') : '—'; };
    var ld = R.l_diversity;
    if (isObj(ld) && isObj(ld.columns)) {
      add(sec, h('h3', {}, 'l-diversity (l = ' + fmt(ld.l) + ')'));
      add(sec, table(['sensitive column', 'values', 'fewest distinct in a class', 'worst class (distinct)', 'smallest entropy l', 'worst class (entropy)'],
        Object.keys(ld.columns).map(function (c) {
          var x = ld.columns[c];
          return [c, fmt(x.distinct_values), fmt(x.min_distinct), cls(x.worst_distinct), fmt(x.min_entropy_l), cls(x.worst_entropy)];
        }), [1, 2, 4]));
      if (ld.entropy_log) add(sec, h('p', { 'class': 'sub' }, 'Entropy l-diversity holds when exp(H) ≥ l in every class (H with the ' + ld.entropy_log + ' logarithm).'));
    }
    var tc = R.t_closeness;
    if (isObj(tc) && isObj(tc.columns)) {
      add(sec, h('h3', {}, 't-closeness (t = ' + fmt(tc.t) + ')'));
      add(sec, table(['sensitive column', 'ground distance', 'largest distance of a class', 'worst class'],
        Object.keys(tc.columns).map(function (c) {
          var x = tc.columns[c];
          return [c, String(x.ground_distance), fmt(x.max_emd), cls(x.worst)];
        }), [2]));
      if (tc.distance) add(sec, h('p', { 'class': 'sub' }, 'Distance: ' + tc.distance + '.'));
    }
  }

  /* ---- evaluate ---- */
  function evaluate() {
    if (R.method !== 'evaluate') return;
    use('classifier', 'attributes', 'original_rows', 'release_rows');
    var sec = section('Utility of the release', 'Measured against the original ' + fmt(R.original_rows) + ' rows; the release has ' + fmt(R.release_rows) + ' rows.');
    var c = R.classifier;
    if (isObj(c)) {
      add(sec, h('p', {}, 'A ' + c.model + ' classifier predicts ' + c.target + ' (trained on ' + fmt(c.train_rows) + ' rows, tested on ' + fmt(c.test_rows) + ' held-out original rows).'));
      add(sec, chart('classifier', 'Classifier accuracy', barsH([
        { label: 'trained on the release', values: [c.accuracy] },
        { label: 'trained on the original', values: [c.accuracy_original] },
        { label: 'majority class (' + c.majority_class + ')', values: [c.baseline] }], { fmt: pct, max: 1, width: 300 })));
    }
    var at = R.attributes;
    if (isObj(at)) {
      var names = Object.keys(at);
      add(sec, table(['attribute', 'level', 'generalization', 'precision loss', 'suppressed', 'values not in the original'], names.map(function (n) {
        var a = at[n];
        return [n, a.level === null ? (a.height === null ? 'no hierarchy' : 'mixed/' + a.height) : a.level + '/' + a.height, fmt(a.generalization), fmt(a.prec), pct(a.suppressed_share), pct(a.non_original_share)];
      }), [2, 3, 4, 5]));
      /* the attributes the release changed */
      var it = names.filter(function (n) { return at[n].non_original_share > 0 || at[n].suppressed_share > 0; }).map(function (n) {
        return { label: n, values: [at[n].generalization, at[n].suppressed_share] };
      });
      if (it.length) { add(sec, chart('evaluate-attributes', 'Generalization and suppression per attribute', barsH(it, { series: ['generalization', 'suppressed share'], classes: [1, 2], fmt: pct, max: 1, width: 260 }))); add(sec, legend(['generalization (level/height)', 'suppressed share'], [1, 2])); }
    }
  }

  /* ---- keps risk ---- */
  function risk() {
    if (R.method !== 'risk' || !isObj(R.prosecutor)) return;
    use('prosecutor', 'journalist', 'marketer', 'sample_uniques', 'sample_unique_records', 'classes', 'class_count', 'records', 'suppressed_rows', 'suppressed', 'risk_distribution', 'records_in_classes');
    var sec = section('Re-identification risk', 'Of the table ' + (R.parameters && (R.parameters.input || R.parameters.release) || '') + ' on its quasi-identifiers' + (R.parameters && R.parameters.qi ? ' ' + [].concat(R.parameters.qi).join(', ') : '') + '.');
    add(sec, kv([['highest prosecutor risk', pct(R.prosecutor.highest)], ['records at the highest risk', pct(R.prosecutor.share_at_highest)], ['average prosecutor risk', pct(R.prosecutor.average)],
      ['journalist risk, highest', pct(R.journalist.highest)], ['journalist risk, average', pct(R.journalist.average)], ['marketer risk', pct(R.marketer.average)],
      ['sample uniques', pct(R.sample_uniques) + ' (' + fmt(R.sample_unique_records) + ')'], ['classes', fmt(R.class_count)], ['records', fmt(R.records)], ['suppressed rows', fmt(R.suppressed_rows)]]));
    var c = h('div', { 'class': 'charts' });
    add(c, classChart('risk-class-sizes', 'Class sizes', [R.classes], ['records']));
    if (Array.isArray(R.risk_distribution)) add(c, bandChart('risk-prosecutor', 'Prosecutor risk', [R.risk_distribution], ['records']));
    add(sec, c);
    var pu = R.population_uniques;
    if (pu !== undefined) use('population_uniques');
    if (isObj(pu)) {
      var sub = section('Population uniqueness', 'Share of the population (' + fmt(pu.population_size) + ' records, sampling fraction ' + fmt(pu.sampling_fraction) + ') estimated to be unique on the quasi-identifiers, by each model; Dankar\'s rule picks ' + (pu.model || 'none (no sample unique)') + '.');
      var it = ['pitman', 'zayatz', 'snb', 'dankar'].map(function (m) { return { label: m + (m === pu.model ? ' (picked)' : ''), values: [pu[m]], text: [pu[m] === null ? 'no estimate' : pct(pu[m]) + (pu.records && isNum(pu.records[m]) ? ' (' + fmt(Math.round(pu.records[m])) + ' records)' : '')] }; });
      add(sub, chart('population-uniques', 'Estimated population uniques', barsH(it, { fmt: pct, width: 260 })));
    }
    var ir = R.individual_risk;
    if (ir !== undefined) use('individual_risk');
    if (isObj(ir)) {
      var s2 = section('Individual risk', 'Benedetti–Franconi individual risk (as sdcMicro\'s indivRisk)' + (ir.weights ? ' with the sampling weights in ' + ir.weights : ', without weights (every record\'s risk is 1 / its class size)') + '.');
      add(s2, kv([['highest', pct(ir.highest)], ['mean', pct(ir.mean)], ['expected re-identifications', fmt(ir.expected_reidentifications)], ['records', fmt(ir.records)]]));
      if (Array.isArray(ir.distribution)) add(s2, bandChart('individual-risk', 'Individual risk', [ir.distribution], ['records'], 'individual risk of a record (Benedetti–Franconi)'));
    }
    if (Array.isArray(R.attributes)) {
      use('attributes');
      var s3 = section('Risk per combination of quasi-identifiers', 'Distinction: share of records a key on these attributes keeps apart; separation: share of record pairs they tell apart (as ARX\'s quasi-identifier view).');
      var top = R.attributes.slice().sort(function (a, b) { return b.distinction - a.distinction; }).slice(0, 20);
      add(s3, chart('attribute-risk', 'Distinction and separation (the ' + top.length + ' most distinguishing combinations)', barsH(top.map(function (a) { return { label: a.qis.join(' + '), values: [a.distinction, a.separation] }; }), { series: ['distinction', 'separation'], fmt: pct, max: 1, width: 240, labelWidth: 220 })));
      add(s3, legend(['distinction', 'separation']));
      add(s3, table(['attributes', 'distinction', 'separation', 'classes', 'sample uniques', 'expected re-identifications'], R.attributes.map(function (a) { return [a.qis.join(' + '), pct(a.distinction), pct(a.separation), a.classes, a.sample_uniques, fmt(a.expected_reidentifications)]; }), [1, 2, 3, 4, 5]));
    }
    var su = R.suda2;
    if (su !== undefined) use('suda2');
    if (isObj(su)) {
      var s4 = section('Special uniques (SUDA2)', 'Minimal sample uniques up to size ' + fmt(su.max_size) + ', with sdcMicro\'s SUDA and DIS scores.');
      add(s4, kv([['records with a special unique', fmt(su.special_uniques)], ['highest SUDA score', fmt(su.score && su.score.highest)], ['mean SUDA score', fmt(su.score && su.score.mean)], ['highest DIS score', fmt(su.dis && su.dis.highest)]]));
      var c4 = h('div', { 'class': 'charts' });
      if (su.dis && Array.isArray(su.dis.histogram)) {
        add(c4, chart('suda-dis', 'DIS scores', bars(su.dis.histogram.map(function (b) { return { label: isObj(b) ? (b.interval || (fmt(b.above !== undefined ? b.above : b.lo) + '–' + fmt(b.up_to !== undefined ? b.up_to : b.hi))) : String(b), values: [isObj(b) ? (b.records !== undefined ? b.records : b.count) : b] }; }), { rotate: true })));
      }
      var nonzero = function (o) { return isObj(o) && Object.keys(o).some(function (k) { return o[k] > 0; }); };
      if (nonzero(su.attribute_contributions)) {
        add(c4, chart('suda-contributions', 'Contribution of each attribute (%)', barsH(Object.keys(su.attribute_contributions).map(function (k) { return { label: k, values: [su.attribute_contributions[k]] }; }), { width: 240 })));
      }
      if (nonzero(su.msus)) {
        add(c4, chart('suda-msus', 'Minimal sample uniques by size', bars(Object.keys(su.msus).map(function (k) { return { label: k, values: [su.msus[k]] }; }), { xlabel: 'attributes in the MSU' })));
      }
      add(s4, c4);
    }
    if (R.record_linkage !== undefined || (isObj(R.metrics) && has(R.metrics, 'record_linkage'))) {
      /* drawn by metricsSection */
    }
  }

  /* ---- audit ---- */
  function audit() {
    var a = R.audit;
    if (!isObj(a) || !isNum(a.epsilon_claimed)) return;
    use('audit', 'mechanism');
    var sec = section('Audit', 'The privacy loss measured on ' + fmt(a.trials) + ' trials per input: an interval for ε that the claimed ε must not fall below.');
    add(sec, h('p', {}, [h('span', { 'class': a.violation ? 'fail' : 'pass' }, a.violation ? 'Violation: the measured privacy loss exceeds the claim.' : 'No violation: the claim stands within the interval.')]));
    add(sec, kv([['claimed ε', full(a.epsilon_claimed)], ['measured ε', fmt(a.epsilon_hat)], ['lower bound', fmt(a.epsilon_lower)], ['upper bound', fmt(a.epsilon_upper)], ['bins', fmt(a.bins)], ['one-sided bins', fmt(a.one_sided_bins)]]));
    var max = Math.max(a.epsilon_claimed, a.epsilon_upper || 0, a.epsilon_hat || 0) * 1.15, W = 520;
    var svg = s('svg', { width: W + 40, height: 70, viewBox: '0 0 ' + (W + 40) + ' 70', role: 'img' });
    var X = function (v) { return 20 + v / max * W; };
    add(svg, s('line', { 'class': 'axis', x1: 20, x2: 20 + W, y1: 50, y2: 50 }));
    for (var t = 0; t <= 4; t++) add(svg, s('text', { x: X(max * t / 4), y: 64, 'text-anchor': 'middle', 'class': 'lbl-muted' }, fmt(max * t / 4)));
    if (isNum(a.epsilon_lower) && isNum(a.epsilon_upper))
      add(svg, tip(s('rect', { 'class': 'mark s0', x: X(a.epsilon_lower), y: 22, width: Math.max(2, X(a.epsilon_upper) - X(a.epsilon_lower)), height: 14 }), 'interval ' + fmt(a.epsilon_lower) + ' – ' + fmt(a.epsilon_upper)));
    if (isNum(a.epsilon_hat)) add(svg, tip(s('circle', { 'class': 'mark s1', cx: X(a.epsilon_hat), cy: 29, r: 5 }), 'measured ' + fmt(a.epsilon_hat)));
    add(svg, s('line', { x1: X(a.epsilon_claimed), x2: X(a.epsilon_claimed), y1: 8, y2: 50, stroke: 'var(--bad)', 'stroke-width': 2 }));
    add(svg, s('text', { x: X(a.epsilon_claimed) + 4, y: 14 }, 'claimed ε ' + fmt(a.epsilon_claimed)));
    add(sec, chart('audit-epsilon', 'Measured privacy loss and its interval vs the claim', svg));
    if (isObj(a.worst_bin)) add(sec, table(['worst bin', 'value'], Object.keys(a.worst_bin).map(function (k) { return [words(k), fmt(a.worst_bin[k])]; }), [1]));
  }

  /* ---- keps privacy calculators ---- */
  function calculator() {
    if (R.method || !has(R, 'result')) return;
    use('result', 'formula', 'rule', 'holds_when');
    var sec = section('Result', typeof R.formula === 'string' ? R.formula : typeof R.rule === 'string' ? R.rule : '');
    add(sec, kv([['result', isObj(R.result) ? JSON.stringify(R.result) : full(R.result)]]));
    if (typeof R.holds_when === 'string') add(sec, h('p', {}, 'Holds when ' + R.holds_when + '.'));
    var keys = Object.keys(R).filter(function (k) { return !used[k] && k !== 'timing_ms'; });
    keys.forEach(function (k) { use(k); });
    add(sec, h('h3', {}, 'Inputs and intermediate values'));
    add(sec, table(['', 'value'], flatRows(keys.reduce(function (o, k) { o[k] = R[k]; return o; }, {}), '', [], 0).map(function (r) {
      return [words(r[0]), r[1]];
    }), [1]));
  }

  /* ---- everything else in the report ---- */
  function rest() {
    var keys = Object.keys(R).filter(function (k) { return !used[k]; });
    if (!keys.length) return;
    var sec = section('Further figures', 'Everything else the report holds.');
    var o = {};
    keys.forEach(function (k) { o[k] = R[k]; });
    add(sec, table(['figure', 'value'], flatRows(o, '', [], 0)));
  }

  function footer() {
    var pre = h('pre', { 'class': 'json' }, JSON.stringify(R, null, 2));
    add(page, h('details', {}, [h('summary', {}, 'The report as JSON'), pre]));
    add(page, h('footer', {}, 'Drawn by keps' + (R.keps_version ? ' ' + R.keps_version : '') + ' from the report embedded in this page. The figures computed from the input data are the curator\'s: keep this page with the report, not with the release.'));
  }

  /* A section that cannot be drawn (a report edited by hand, say) says so
   * in the page and leaves the others; keps's own reports never get here,
   * and the browser test fails on the mark it leaves (data-section-error). */
  function guarded(name, fn) {
    try {
      fn();
    } catch (e) {
      document.documentElement.setAttribute('data-section-error', name + ': ' + e.message);
      add(page, h('p', { 'class': 'alert' }, 'The ' + name + ' section could not be drawn from this report (' + e.message + ').'));
    }
  }
  [['header', header], ['guarantee', guarantee], ['rows', rows], ['parameters', parameters], ['result', calculator],
    ['checks', verify], ['audit', audit], ['risk', risk], ['evaluation', evaluate], ['utility', generalization],
    ['groups', groupSizes], ['lattice', lattice], ['mechanism', mechanism], ['noise', noise], ['randomized response', rr],
    ['before and after', beforeAfter], ['metrics', metricsSection], ['further figures', rest], ['footer', footer]
  ].forEach(function (x) { guarded(x[0], x[1]); });
  /* For the browser test: drawn to the end, and the page's height (its
   * screenshot is taken at that size). */
  document.documentElement.setAttribute('data-height', String(document.documentElement.scrollHeight));
  document.documentElement.setAttribute('data-rendered', 'yes');
})();

// Ridgeline's page: controls -> POST /api/<command> (the command line's --json) -> hand-written
// SVG charts. No library and no request outside this server's origin.

const $ = (id) => document.getElementById(id);
const SVG_NS = 'http://www.w3.org/2000/svg';
const COLORS = ['#1f6fb4', '#d4651a', '#2a9d4a', '#c23b3b', '#7b55b0', '#8a5a44', '#cc4fa6',
  '#5f6b73', '#a1a620', '#1fa8b8'];
const PRECISIONS = ['fp32', 'tf32', 'bf16', 'fp16', 'fp8', 'int8', 'fp4', 'mxfp4', 'int4'];
const MAX_CHIPS = 8;

// what the URL holds (uploads are not in it: they stay in this tab)
const DEFAULTS = {
  view: 'frontier', model: 'llama-3.1-70b', chips: 'h100-sxm', count: '8', strategy: 'colocated',
  isl: '1024', osl: '1024', cached: '0', turns: '0', think: '0', weights: '', kv: '', efficiency: 'calibrated',
  ttft: '', ttftUnit: 'ms', tpot: '', tpotUnit: 'ms', bw: '1', peak: '1', batch: '8', rate: '10',
};
const state = { ...DEFAULTS };
const uploads = { chipFiles: [], chipIds: [], modelName: null, modelConfig: null };
let last = null; // {view, request, response}
let inflight = null;
let timer = null;

// ---------- state <-> URL and controls ----------

function readHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  for (const k of Object.keys(DEFAULTS)) {
    if (params.has(k)) state[k] = params.get(k);
  }
  if (!['frontier', 'roofline', 'plan'].includes(state.view)) state.view = DEFAULTS.view;
}

function writeHash() {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) {
    if (v !== DEFAULTS[k]) params.set(k, v);
  }
  const hash = params.toString();
  history.replaceState(null, '', hash ? '#' + hash : location.pathname);
}

function selectedChips() {
  return state.chips.split(',').filter((c) => c);
}

function toControls() {
  for (const k of ['count', 'strategy', 'isl', 'osl', 'cached', 'turns', 'think', 'weights', 'kv',
    'efficiency', 'ttft', 'tpot', 'bw', 'peak', 'batch', 'rate']) {
    $(k).value = state[k];
  }
  $('ttft-unit').value = state.ttftUnit;
  $('tpot-unit').value = state.tpotUnit;
  if (uploads.modelName === null || state.model !== uploads.modelName) $('model').value = state.model;
  const chips = new Set(selectedChips());
  for (const o of $('chips').options) o.selected = chips.has(o.value);
  showFactors();
  for (const b of document.querySelectorAll('[role=tab]')) {
    const on = b.dataset.view === state.view;
    b.setAttribute('aria-selected', String(on));
    b.tabIndex = on ? 0 : -1;
  }
  $('opts-roofline').hidden = state.view !== 'roofline';
  $('opts-plan').hidden = state.view !== 'plan';
  $('count').disabled = state.view === 'plan';
  $('strategy').disabled = state.view === 'roofline';
  // conversations are a frontier's and a plan's, not one step's
  $('turns').disabled = state.view === 'roofline';
  $('think').disabled = state.view === 'roofline';
}

function showFactors() {
  $('bw-out').textContent = Number(state.bw).toFixed(2) + 'x';
  $('peak-out').textContent = Number(state.peak).toFixed(2) + 'x';
}

function fromControls() {
  for (const k of ['count', 'strategy', 'isl', 'osl', 'cached', 'turns', 'think', 'weights', 'kv',
    'efficiency', 'ttft', 'tpot', 'bw', 'peak', 'batch', 'rate']) {
    state[k] = $(k).value.trim();
  }
  state.ttftUnit = $('ttft-unit').value;
  state.tpotUnit = $('tpot-unit').value;
  state.model = $('model').value;
  state.chips = [...$('chips').selectedOptions].map((o) => o.value).join(',');
  showFactors();
}

// ---------- requests ----------

function clearErrors() {
  for (const e of document.querySelectorAll('.err')) e.textContent = '';
}

// where an API error's field is shown: next to its control
const FIELD_ERRORS = {
  model: 'err-model', architecture: 'err-model', model_configs: 'err-model',
  chip: 'err-chip', chips: 'err-chip', chip_files: 'err-chip',
  count: 'err-count', strategy: 'err-count', strategies: 'err-count',
  isl: 'err-workload', osl: 'err-workload', cached: 'err-workload', turns: 'err-workload',
  think: 'err-workload',
  weights: 'err-precision', kv: 'err-precision', efficiency: 'err-precision',
  ttft: 'err-slo', tpot: 'err-slo', 'chip-set': 'err-whatif',
};

function showError(field, message) {
  const id = FIELD_ERRORS[field] || 'err-view';
  $(id).textContent = message;
}

function duration(value, unit) {
  return value === '' ? null : value + unit;
}

// the chips the command names: each chosen chip, and CHIP* beside it when a what-if is set
function chipRequest() {
  const chips = selectedChips();
  const bw = Number(state.bw);
  const peak = Number(state.peak);
  const whatIf = bw !== 1 || peak !== 1;
  if (!whatIf) return { chips, sets: null };
  const sets = [];
  for (const c of chips) {
    if (bw !== 1) sets.push(`${c}:bandwidth_gbps=${bw}x`);
    if (peak !== 1) sets.push(`${c}:peak_tflops=${peak}x`);
  }
  return { chips: chips.flatMap((c) => [c, c + '*']), sets };
}

function buildRequest() {
  const { chips, sets } = chipRequest();
  if (chips.length === 0) return { problem: ['chip', 'choose at least one chip'] };
  if (chips.length > MAX_CHIPS) {
    return sets
      ? { problem: ['chip-set', `a what-if compares each chip with its change: choose at most ${MAX_CHIPS / 2} chips`] }
      : { problem: ['chip', `choose at most ${MAX_CHIPS} chips`] };
  }
  const body = {
    model: state.model,
    weights: state.weights || null,
    kv: state.kv || null,
    efficiency: state.efficiency,
    cached: state.cached || null,
    'chip-set': sets,
  };
  if (uploads.chipFiles.length) body.chip_files = uploads.chipFiles;
  if (uploads.modelConfig && state.model === uploads.modelName) {
    body.model_configs = { [uploads.modelName]: uploads.modelConfig };
  }
  const ttft = duration(state.ttft, state.ttftUnit);
  const tpot = duration(state.tpot, state.tpotUnit);
  // multi-turn conversations (frontier and plan): --isl and --osl per turn, hits from the KV cache
  if (Number(state.turns) > 0 && state.view !== 'roofline') {
    Object.assign(body, { turns: state.turns, think: (state.think || '0') + 's' });
  }
  if (state.view === 'frontier') {
    Object.assign(body, { chip: chips, count: state.count || null, strategy: state.strategy,
      isl: state.isl, osl: state.osl, ttft, tpot });
  } else if (state.view === 'roofline') {
    const isl = Number(state.isl);
    const context = isl + Number(state.cached || 0) + Math.floor(Number(state.osl) / 2);
    Object.assign(body, { chip: chips, count: state.count || null, batch: state.batch,
      prompt: state.isl, context: Number.isFinite(context) ? String(context) : state.isl });
  } else {
    if (ttft === null || tpot === null) {
      return { problem: ['ttft', 'the plan needs both a TTFT and a TPOT objective'] };
    }
    Object.assign(body, { chips, strategies: state.strategy === 'all' ? null : state.strategy,
      isl: state.isl, osl: state.osl, rate: state.rate, ttft, tpot });
  }
  return { command: state.view, body };
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(refresh, 250);
}

async function refresh() {
  writeHash();
  clearErrors();
  const req = buildRequest();
  if (req.problem) {
    showError(req.problem[0], req.problem[1]);
    $('status').textContent = '';
    return;
  }
  if (inflight) inflight.abort();
  const controller = new AbortController();
  inflight = controller;
  $('status').textContent = 'updating...';
  const started = performance.now();
  let response;
  let json;
  try {
    response = await fetch('api/' + req.command, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(req.body),
      signal: controller.signal,
    });
    json = await response.json();
  } catch (e) {
    if (e.name === 'AbortError') return;
    showError(null, 'the server did not answer: ' + e.message);
    $('status').textContent = '';
    return;
  } finally {
    if (inflight === controller) inflight = null;
  }
  if (!response.ok) {
    showError(json.field, json.error || `HTTP ${response.status}`);
    $('status').textContent = '';
    return;
  }
  const ms = Math.round(performance.now() - started);
  last = { view: req.command, request: req.body, response: json };
  render();
  const warnings = (json.warnings || []).concat(...(json.systems || []).map((s) => s.warnings || []));
  $('status').textContent = `${req.command}: answered in ${ms} ms` +
    (warnings.length ? ' | ' + [...new Set(warnings)].join(' | ') : '');
}

// ---------- SVG helpers ----------

function el(name, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function niceTicks(lo, hi, n = 6) {
  const span = hi - lo || 1;
  const raw = span / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= n) || 10 * mag;
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(t);
  return ticks;
}

function fmt(x, digits = 3) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '-';
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return x.toExponential(2);
  return Number(x.toPrecision(digits)).toLocaleString('en-US');
}

function si(x) {
  const units = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [f, u] of units) if (Math.abs(x) >= f) return fmt(x / f) + ' ' + u;
  return fmt(x);
}

function chart(width, height) {
  const svg = el('svg', { xmlns: SVG_NS, width, height, viewBox: `0 0 ${width} ${height}`,
    role: 'img', class: 'chart', 'font-family': 'Helvetica, Arial, sans-serif', 'font-size': '15' });
  el('rect', { x: 0, y: 0, width, height, fill: '#ffffff' }, svg);
  return svg;
}

function axes(svg, box, xs, ys, xLabel, yLabel, xTickText, yTickText) {
  const g = el('g', { class: 'axes' }, svg);
  for (const t of xs.ticks) {
    const x = xs.map(t);
    el('line', { x1: x, x2: x, y1: box.top, y2: box.bottom, stroke: '#e3e3e3' }, g);
    el('text', { x, y: box.bottom + 20, 'text-anchor': 'middle', fill: '#333' }, g, xTickText(t));
  }
  for (const t of ys.ticks) {
    const y = ys.map(t);
    el('line', { x1: box.left, x2: box.right, y1: y, y2: y, stroke: '#e3e3e3' }, g);
    el('text', { x: box.left - 8, y: y + 5, 'text-anchor': 'end', fill: '#333' }, g, yTickText(t));
  }
  el('rect', { x: box.left, y: box.top, width: box.right - box.left, height: box.bottom - box.top,
    fill: 'none', stroke: '#888' }, g);
  el('text', { x: (box.left + box.right) / 2, y: box.bottom + 46, 'text-anchor': 'middle',
    'font-size': '16', fill: '#111' }, g, xLabel);
  el('text', { x: 18, y: (box.top + box.bottom) / 2, 'text-anchor': 'middle', 'font-size': '16',
    fill: '#111', transform: `rotate(-90 18 ${(box.top + box.bottom) / 2})` }, g, yLabel);
}

function linear(lo, hi, a, b) {
  const ticks = niceTicks(lo, hi);
  const tlo = Math.min(lo, ticks[0]);
  const thi = Math.max(hi, ticks[ticks.length - 1]);
  return { ticks, map: (v) => a + ((v - tlo) / (thi - tlo || 1)) * (b - a) };
}

function logScale(lo, hi, a, b) {
  const l0 = Math.floor(Math.log10(lo));
  const l1 = Math.ceil(Math.log10(hi));
  const ticks = [];
  for (let e = l0; e <= l1; e++) ticks.push(Math.pow(10, e));
  return { ticks, map: (v) => a + ((Math.log10(v) - l0) / (l1 - l0 || 1)) * (b - a) };
}

function legend(svg, box, entries) {
  const g = el('g', { class: 'legend' }, svg);
  let y = box.top + 10;
  for (const [label, color] of entries) {
    el('rect', { x: box.right + 14, y: y - 10, width: 14, height: 14, fill: color }, g);
    el('text', { x: box.right + 34, y: y + 2, fill: '#111' }, g, label);
    y += 24;
  }
}

// ---------- tooltip ----------

function tooltip(target, lines) {
  const tip = $('tooltip');
  const show = () => {
    tip.textContent = '';
    for (const l of lines) {
      const d = document.createElement('div');
      d.textContent = l;
      tip.appendChild(d);
    }
    tip.hidden = false;
    const r = target.getBoundingClientRect();
    tip.style.left = `${Math.min(r.right + 12, window.innerWidth - 260)}px`;
    tip.style.top = `${Math.max(4, r.top - 10)}px`;
  };
  const hide = () => { tip.hidden = true; };
  target.addEventListener('mouseenter', show);
  target.addEventListener('focus', show);
  target.addEventListener('mouseleave', hide);
  target.addEventListener('blur', hide);
}

// ---------- views ----------

function systemsOf(response) {
  return response.systems ? response.systems : [response];
}

function renderFrontier(out, response) {
  const systems = systemsOf(response);
  const series = [];
  systems.forEach((s, i) => {
    const labels = s.deployment_labels || [];
    const byDeployment = new Map();
    for (const p of s.points || []) {
      const key = labels.length > 1 ? p.deployment : '';
      if (!byDeployment.has(key)) byDeployment.set(key, []);
      byDeployment.get(key).push(p);
    }
    for (const [dep, points] of byDeployment) {
      const name = (s.system || `${s.chip} x${s.chips}`) + (dep ? ' ' + dep : '');
      series.push({ name, points, band: s.error_band, color: COLORS[series.length % COLORS.length], slo: s.slo });
    }
    if (!(s.points || []).length) series.push({ name: (s.system || s.chip) + ' (does not fit)', points: [], color: '#999' });
  });
  const all = series.flatMap((s) => s.points);
  const width = 1000;
  const height = 560;
  const box = { left: 90, right: 700, top: 30, bottom: height - 70 };
  const svg = chart(width, height);
  svg.setAttribute('aria-label', 'Frontier: tokens per second per chip against tokens per second per user');
  if (!all.length) {
    el('text', { x: 300, y: 200, fill: '#c23b3b' }, svg, 'no configuration fits in memory');
    out.appendChild(svg);
    return;
  }
  const bandOf = (s) => (s.band ? s.band.tokens_per_second_per_chip || 0 : 0);
  const xMax = Math.max(...all.map((p) => p.tokens_per_second_per_user)) * 1.05;
  const yMax = Math.max(...series.flatMap((s) => s.points.map((p) => p.tokens_per_second_per_chip * (1 + bandOf(s))))) * 1.05;
  const xs = linear(0, xMax, box.left, box.right);
  const ys = linear(0, yMax, box.bottom, box.top);
  axes(svg, box, xs, ys, 'interactivity (tokens/s per user)', 'throughput (tokens/s per chip)', fmt, fmt);
  const tpot = duration(state.tpot, state.tpotUnit);
  if (tpot !== null && Number(state.tpot) > 0) {
    // the TPOT objective's guide: 1 / TPOT tokens/s per user
    const seconds = Number(state.tpot) / (state.tpotUnit === 'ms' ? 1000 : 1);
    const x = xs.map(1 / seconds);
    if (x >= box.left && x <= box.right) {
      el('line', { x1: x, x2: x, y1: box.top, y2: box.bottom, stroke: '#c23b3b', 'stroke-dasharray': '6 4' }, svg);
      el('text', { x: x + 4, y: box.top + 16, fill: '#c23b3b' }, svg, `TPOT ${tpot}`);
    }
  }
  const points = el('g', { class: 'points' }, svg);
  for (const s of series) {
    const g = el('g', { class: 'series', 'data-series': s.name }, points);
    const front = s.points.filter((p) => p.pareto)
      .sort((a, b) => a.tokens_per_second_per_user - b.tokens_per_second_per_user);
    if (front.length > 1) {
      el('polyline', { points: front.map((p) => `${xs.map(p.tokens_per_second_per_user)},${ys.map(p.tokens_per_second_per_chip)}`).join(' '),
        fill: 'none', stroke: s.color, 'stroke-width': 2.5 }, g);
    }
    const band = bandOf(s);
    for (const p of s.points) {
      const x = xs.map(p.tokens_per_second_per_user);
      const y = ys.map(p.tokens_per_second_per_chip);
      if (band > 0) {
        // error band: +- the typical tok/s/chip error around the point
        el('line', { x1: x, x2: x, y1: ys.map(p.tokens_per_second_per_chip * (1 + band)),
          y2: ys.map(Math.max(0, p.tokens_per_second_per_chip * (1 - band))), stroke: s.color,
          'stroke-opacity': 0.35, 'stroke-width': 3 }, g);
      }
      const c = el('circle', { class: 'pt', cx: x, cy: y, r: 6, tabindex: 0,
        fill: p.pareto ? s.color : '#ffffff', stroke: s.color, 'stroke-width': 2,
        'data-batch': p.batch }, g);
      el('title', {}, c, `${s.name} batch ${p.batch}`);
      const lines = [
        `${s.name}${p.deployment && s.name.indexOf(p.deployment) < 0 ? ' ' + p.deployment : ''}`,
        `batch ${p.batch}${p.pareto ? ' (Pareto)' : ''}${p.meets_slo === false ? ', misses the objectives' : ''}`,
        `TTFT ${fmt(p.ttft_seconds * 1000)} ms`,
        `TPOT ${fmt(p.tpot_seconds * 1000)} ms`,
        `${fmt(p.tokens_per_second_per_user)} tok/s/user`,
        `${fmt(p.tokens_per_second_per_chip)} tok/s/chip`,
        `$${fmt(p.dollars_per_million_tokens)} per Mtok`,
      ];
      if (band > 0) lines.push(`error band +-${Math.round(band * 100)}% tok/s/chip`);
      if (p.note) lines.push(p.note);
      tooltip(c, lines);
    }
  }
  legend(svg, box, series.map((s) => [s.name, s.color]));
  const note = el('text', { x: box.right + 14, y: box.top + 24 * series.length + 24, fill: '#555', 'font-size': '13' }, svg);
  el('tspan', { x: box.right + 14 }, note, 'filled: on the Pareto frontier');
  el('tspan', { x: box.right + 14, dy: 18 }, note, 'bars: the error band');
  out.appendChild(svg);
}

function renderRoofline(out, response) {
  for (const [i, s] of systemsOf(response).entries()) {
    const width = 1080;
    const height = 520;
    const box = { left: 130, right: 700, top: 40, bottom: height - 70 };
    const svg = chart(width, height);
    svg.setAttribute('aria-label', `Roofline of ${s.chip}`);
    el('text', { x: box.left, y: 24, 'font-size': '17', fill: '#111' }, svg,
      `${s.model} on ${s.chips}x ${s.chip}: batch ${s.batch}, context ${s.context} (per chip)`);
    const roofs = s.roofs || [];
    const pts = s.roof_points || [];
    if (!roofs.length) {
      el('text', { x: 300, y: 200, fill: '#c23b3b' }, svg, s.memory && !s.memory.fits ? 'does not fit in memory' : 'no roofline');
      out.appendChild(svg);
      continue;
    }
    const intensities = pts.map((p) => p.intensity).concat(roofs.map((r) => r.ridge_flops_per_byte));
    const xlo = Math.max(1e-2, Math.min(...intensities) / 4);
    const xhi = Math.max(...intensities) * 4;
    const peak = Math.max(...roofs.map((r) => r.peak_flops_per_second_per_chip));
    const ylo = Math.max(1, Math.min(...pts.map((p) => p.achieved_flops_per_second_per_chip), ...roofs.map((r) => r.bandwidth_bytes_per_second_per_chip * xlo)) / 2);
    const xs = logScale(xlo, xhi, box.left, box.right);
    const ys = logScale(ylo, peak * 2, box.bottom, box.top);
    axes(svg, box, xs, ys, 'arithmetic intensity (FLOP/B)', 'FLOP/s per chip', si, (t) => si(t) + 'FLOP/s');
    const clip = `clip${i}`;
    const defs = el('defs', {}, svg);
    const cp = el('clipPath', { id: clip }, defs);
    el('rect', { x: box.left, y: box.top, width: box.right - box.left, height: box.bottom - box.top }, cp);
    const lines = el('g', { 'clip-path': `url(#${clip})` }, svg);
    const x0 = Math.pow(10, Math.log10(xlo) - 1);
    const x1 = Math.pow(10, Math.log10(xhi) + 1);
    roofs.forEach((r, k) => {
      // a roof: attainable FLOP/s = min(peak, bandwidth x intensity), bent at the ridge point
      const color = k === 0 ? '#333' : COLORS[k % COLORS.length];
      const ridge = r.ridge_flops_per_byte;
      const d = [[x0, r.bandwidth_bytes_per_second_per_chip * x0], [ridge, r.peak_flops_per_second_per_chip], [x1, r.peak_flops_per_second_per_chip]]
        .map(([x, y]) => `${xs.map(x)},${ys.map(Math.max(y, ylo / 10))}`).join(' ');
      el('polyline', { class: 'roof', points: d, fill: 'none', stroke: color, 'stroke-width': 2.5,
        'stroke-dasharray': r.kind === 'datasheet' ? '' : '7 4' }, lines);
      r.color = color;
    });
    const g = el('g', { class: 'points' }, svg);
    pts.forEach((p, k) => {
      const color = COLORS[(k + 3) % COLORS.length];
      const c = el('circle', { class: 'pt', cx: xs.map(p.intensity), cy: ys.map(p.achieved_flops_per_second_per_chip),
        r: 7, fill: color, stroke: '#111', tabindex: 0 }, g);
      el('title', {}, c, p.label);
      const roof = roofs[p.roof];
      tooltip(c, [p.label, `intensity ${fmt(p.intensity)} FLOP/B`,
        `achieved ${si(p.achieved_flops_per_second_per_chip)}FLOP/s per chip`, `time ${fmt(p.seconds * 1000)} ms`,
        roof ? `roof: ${roof.precision} ${roof.kind} (${roof.kernels})` : '']);
      p.color = color;
    });
    legend(svg, box, roofs.map((r) => [`roof: ${r.precision} ${r.kind}, ${r.kernels}`, r.color])
      .concat(pts.map((p) => [p.label, p.color])));
    out.appendChild(svg);
    // the phases table: each phase's time, bound and utilisation
    const table = document.createElement('table');
    table.className = 'phases';
    table.innerHTML = '<caption>Phases (FLOPs and bytes are totals across all chips)</caption>' +
      '<tr><th>phase</th><th>bound</th><th>time (ms)</th><th>intensity (FLOP/B)</th><th>MFU</th><th>bandwidth used</th></tr>';
    for (const ph of s.phases || []) {
      const tr = table.insertRow();
      for (const v of [ph.phase, ph.bound, fmt(ph.seconds * 1000), fmt(ph.intensity),
        fmt(ph.mfu * 100) + '%', fmt(ph.bandwidth_utilisation * 100) + '%']) {
        tr.insertCell().textContent = v;
      }
    }
    out.appendChild(table);
  }
}

function renderPlan(out, response) {
  const configs = response.configurations || [];
  const p = document.createElement('p');
  p.className = 'summary';
  p.textContent = `${response.model}: ${fmt(response.rate_requests_per_second)} requests/s, ` +
    `ISL ${response.isl}, OSL ${response.osl}; ${response.meeting} of ${response.candidates} ` +
    'candidate configurations meet the objectives.';
  out.appendChild(p);
  if (!configs.length) {
    const c = document.createElement('p');
    c.className = 'err';
    c.textContent = 'No configuration meets the objectives. Closest: ' +
      (response.closest || []).map((x) => `${x.chips} ${x.strategy} tp ${x.tp} batch ${x.batch}: ${x.detail}`).join('; ');
    out.appendChild(c);
    return;
  }
  const table = document.createElement('table');
  table.className = 'plan';
  table.innerHTML = '<caption>Configurations, best first</caption><tr><th>chip</th><th>strategy</th>' +
    '<th>tp / pp / ep</th><th>batch</th><th>weights / kv</th><th>replicas</th><th>total chips</th>' +
    '<th>TTFT p50 (ms)</th><th>TPOT (ms)</th><th>tok/s/chip</th><th>$/Mtok</th><th>launch</th></tr>';
  for (const c of configs) {
    const tr = table.insertRow();
    for (const v of [c.chip, c.strategy, `${c.tp} / ${c.pp} / ${c.ep}`, c.batch,
      `${c.weights} / ${c.kv_cache}`, c.replicas, c.total_chips, fmt(c.ttft_seconds * 1000),
      fmt(c.tpot_seconds * 1000), fmt(c.tokens_per_second_per_chip), fmt(c.dollars_per_million_tokens)]) {
      tr.insertCell().textContent = v;
    }
    const cell = tr.insertCell();
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = 'commands';
    details.appendChild(summary);
    for (const [engine, lines] of Object.entries(c.launch || {})) {
      const pre = document.createElement('pre');
      pre.textContent = `# ${engine}\n` + lines.join('\n');
      details.appendChild(pre);
    }
    cell.appendChild(details);
  }
  out.appendChild(table);
}

function render() {
  const out = $('output');
  out.textContent = '';
  $('tooltip').hidden = true;
  if (!last) return;
  out.dataset.view = last.view;
  if (last.view === 'frontier') renderFrontier(out, last.response);
  else if (last.view === 'roofline') renderRoofline(out, last.response);
  else renderPlan(out, last.response);
}

// ---------- downloads ----------

function save(name, type, data) {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function csvRows() {
  const r = last.response;
  if (last.view === 'frontier') {
    const head = ['system', 'strategy', 'deployment', 'batch', 'ttft_seconds', 'tpot_seconds',
      'tokens_per_second_per_user', 'tokens_per_second_per_chip', 'dollars_per_million_tokens', 'pareto'];
    return [head].concat(systemsOf(r).flatMap((s) => (s.points || []).map((p) =>
      [s.system || `${s.chip} x${s.chips}`].concat(head.slice(1).map((k) => p[k])))));
  }
  if (last.view === 'roofline') {
    const head = ['phase', 'label', 'roof', 'intensity', 'achieved_flops_per_second_per_chip', 'seconds'];
    return [['chip'].concat(head)].concat(systemsOf(r).flatMap((s) => (s.roof_points || []).map((p) =>
      [s.chip].concat(head.map((k) => p[k])))));
  }
  const head = ['chip', 'strategy', 'tp', 'pp', 'ep', 'batch', 'weights', 'kv_cache', 'replicas',
    'total_chips', 'ttft_seconds', 'tpot_seconds', 'tokens_per_second_per_chip', 'dollars_per_million_tokens'];
  return [head].concat((r.configurations || []).map((c) => head.map((k) => c[k])));
}

function csv() {
  const cell = (v) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  };
  return csvRows().map((row) => row.map(cell).join(',')).join('\n') + '\n';
}

function svgText() {
  const svgs = [...$('output').querySelectorAll('svg')];
  if (!svgs.length) return null;
  return new XMLSerializer().serializeToString(svgs[0]);
}

function baseName() {
  return `ridgeline-${last.view}-${state.model}-${selectedChips().join('+')}`.replace(/[^A-Za-z0-9.+_-]/g, '_');
}

function download(kind) {
  if (!last) return;
  if (kind === 'csv') save(baseName() + '.csv', 'text/csv', csv());
  else if (kind === 'json') save(baseName() + '.json', 'application/json', JSON.stringify(last.response, null, 2));
  else {
    const text = svgText();
    if (text === null) { showError(null, 'this view has no chart; download its CSV or JSON'); return; }
    if (kind === 'svg') { save(baseName() + '.svg', 'image/svg+xml', text); return; }
    const svg = $('output').querySelector('svg');
    const img = new Image();
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = svg.width.baseVal.value * 2;
      canvas.height = svg.height.baseVal.value * 2;
      const ctx = canvas.getContext('2d');
      ctx.scale(2, 2);
      ctx.drawImage(img, 0, 0);
      canvas.toBlob((blob) => save(baseName() + '.png', 'image/png', blob), 'image/png');
    };
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
  }
}

// ---------- uploads ----------

function readJsonFile(input) {
  const file = input.files[0];
  if (!file) return Promise.resolve(null);
  return file.text().then((text) => {
    try {
      return { name: file.name, json: JSON.parse(text) };
    } catch (e) {
      throw new Error(`${file.name} is not JSON: ${e.message}`);
    }
  });
}

async function uploadChip() {
  clearErrors();
  let file;
  try {
    file = await readJsonFile($('chip-file'));
  } catch (e) {
    showError('chip_files', e.message);
    return;
  }
  if (!file) return;
  const chips = Array.isArray(file.json) ? file.json : [file.json];
  const ids = chips.map((c) => (c && typeof c === 'object' ? c.id : undefined));
  if (!ids.length || ids.some((id) => typeof id !== 'string' || !id)) {
    showError('chip_files', `${file.name}: a chip file is a chip object (or an array of them) with an "id"`);
    return;
  }
  // the server checks every field: try the chip before keeping it
  const probe = await fetch('api/roofline', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'llama-3.1-8b', chip: ids[0], batch: 1, context: 128, chip_files: chips }),
  });
  if (!probe.ok) {
    const err = await probe.json();
    showError('chip_files', `${file.name}: ${err.error}`);
    return;
  }
  for (const [k, c] of chips.entries()) {
    const at = uploads.chipIds.indexOf(ids[k]);
    if (at >= 0) uploads.chipFiles[at] = c;
    else { uploads.chipFiles.push(c); uploads.chipIds.push(ids[k]); }
    if (![...$('chips').options].some((o) => o.value === ids[k])) {
      const o = new Option(`${ids[k]} (uploaded)`, ids[k]);
      $('chips').add(o, 0);
    }
  }
  const chosen = selectedChips().filter((c) => !ids.includes(c)).concat(ids);
  state.chips = chosen.join(',');
  toControls();
  schedule();
}

async function uploadModel() {
  clearErrors();
  let file;
  try {
    file = await readJsonFile($('model-file'));
  } catch (e) {
    showError('model_configs', e.message);
    return;
  }
  if (!file) return;
  if (!file.json || typeof file.json !== 'object' || Array.isArray(file.json)) {
    showError('model_configs', `${file.name}: a config.json is a JSON object`);
    return;
  }
  let name = file.name.replace(/\.json$/i, '').replace(/[^A-Za-z0-9._-]/g, '-');
  if (!name || name === 'config') name = 'uploaded-model';
  if ([...$('model').options].some((o) => o.value === name && !o.dataset.uploaded)) name += '-uploaded';
  uploads.modelName = name;
  uploads.modelConfig = file.json;
  let o = [...$('model').options].find((x) => x.dataset.uploaded);
  if (!o) {
    o = new Option('', name);
    o.dataset.uploaded = 'true';
    $('model').add(o, 0);
  }
  o.value = name;
  o.textContent = `${name} (uploaded)`;
  $('model').value = name;
  state.model = name;
  schedule();
}

// ---------- start ----------

async function loadCatalogs() {
  const [chips, models] = await Promise.all([fetch('api/chips'), fetch('api/models')]
    .map((p) => p.then((r) => r.json())));
  for (const m of models) $('model').add(new Option(m.id, m.id));
  for (const c of chips) $('chips').add(new Option(`${c.id}: ${c.name}`, c.id));
  for (const id of ['weights', 'kv']) {
    $(id).add(new Option('default', ''));
    for (const p of PRECISIONS) $(id).add(new Option(p, p));
  }
}

function wire() {
  const form = $('controls');
  form.addEventListener('input', (e) => {
    if (e.target.type === 'file') return;
    fromControls();
    schedule();
  });
  form.addEventListener('change', (e) => {
    if (e.target.id === 'chip-file') uploadChip();
    else if (e.target.id === 'model-file') uploadModel();
  });
  for (const id of ['batch', 'rate']) $(id).addEventListener('input', () => { fromControls(); schedule(); });
  const tabs = [...document.querySelectorAll('[role=tab]')];
  tabs.forEach((b, i) => {
    b.addEventListener('click', () => { state.view = b.dataset.view; toControls(); schedule(); });
    b.addEventListener('keydown', (e) => {
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!d) return;
      const next = tabs[(i + d + tabs.length) % tabs.length];
      next.focus();
      next.click();
    });
  });
  $('dl-csv').addEventListener('click', () => download('csv'));
  $('dl-json').addEventListener('click', () => download('json'));
  $('dl-svg').addEventListener('click', () => download('svg'));
  $('dl-png').addEventListener('click', () => download('png'));
  $('copy-link').addEventListener('click', () => {
    writeHash();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
    $('status').textContent = 'link: ' + location.href;
  });
  window.addEventListener('hashchange', () => { readHash(); toControls(); schedule(); });
}

async function start() {
  readHash();
  try {
    await loadCatalogs();
  } catch (e) {
    showError(null, 'the catalogs did not load: ' + e.message);
    return;
  }
  toControls();
  wire();
  document.body.dataset.ready = 'true';
  refresh();
}

start();

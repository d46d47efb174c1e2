// app.js - the page of `slide serve`: a board to play, and the engine's
// answers from the JSON API (/api/*).  No framework, no network but this
// server.  Boards travel as slide's text: rows separated by '/', blank 0.
'use strict';

const MAX_GRID = 8;        // bigger boards are shown as text
const MAX_SIDE_CHOICE = 12;
const COLOURS = { d: '#c0392b', misplaced: '#8e44ad', manhattan: '#2980b9',
                  lc: '#27ae60', 'lc-pairs': '#95a5a6', wd: '#d35400' };

const $ = (id) => document.getElementById(id);

const state = {
  rows: 4, cols: 4, goalKind: 'last',
  cells: [], goal: [], moves: 0,
  info: null,                  // /api/info
  anim: null,                  // { moves, i, timer, paused, length }
  histogram: null,             // /api/histogram of the current size and goal
  generation: 0,               // drops answers to stale requests
};

// ---- boards -------------------------------------------------------------

function goalCells(rows, cols, kind) {
  const n = rows * cols;
  const g = [];
  for (let i = 0; i < n; i++) g.push(kind === 'first' ? i : (i + 1) % n);
  return g;
}

function boardText(cells, rows, cols) {
  const out = [];
  for (let r = 0; r < rows; r++) out.push(cells.slice(r * cols, (r + 1) * cols).join(' '));
  return out.join('/');
}

function parseBoard(text) {
  return text.split('/').map((row) => row.trim().split(/\s+/).map(Number)).flat();
}

const blankOf = () => state.cells.indexOf(0);
const sameCells = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

// The cell the blank reaches by move m ('U','D','L','R'), or -1.
function step(blank, m) {
  const { rows, cols } = state;
  const r = Math.floor(blank / cols), c = blank % cols;
  if (m === 'U') return r > 0 ? blank - cols : -1;
  if (m === 'D') return r < rows - 1 ? blank + cols : -1;
  if (m === 'L') return c > 0 ? blank - 1 : -1;
  if (m === 'R') return c < cols - 1 ? blank + 1 : -1;
  return -1;
}

// Apply one blank move; false if it leaves the board.
function applyMove(m) {
  const z = blankOf(), to = step(z, m);
  if (to < 0) return false;
  state.cells[z] = state.cells[to];
  state.cells[to] = 0;
  state.moves++;
  return true;
}

// ---- API ----------------------------------------------------------------

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  let data = {};
  try { data = await res.json(); } catch (e) { data = { error: 'no JSON in the answer' }; }
  return { status: res.status, data };
}

function currentRequest() {
  return { board: boardText(state.cells, state.rows, state.cols),
           goal: boardText(state.goal, state.rows, state.cols) };
}

function databaseHere() {
  if (!state.info) return null;
  const goal = boardText(state.goal, state.rows, state.cols);
  return state.info.databases.find((d) => d.rows === state.rows && d.cols === state.cols &&
                                          d.goal === goal) || null;
}

// ---- drawing the board --------------------------------------------------

function tileSize() {
  const side = Math.max(state.rows, state.cols);
  return Math.max(36, Math.min(72, Math.floor(340 / side)));
}

function renderBoard() {
  const board = $('board'), text = $('board-text');
  const { rows, cols } = state;
  board.dataset.board = boardText(state.cells, rows, cols);
  board.dataset.goal = boardText(state.goal, rows, cols);
  board.dataset.solved = String(sameCells(state.cells, state.goal));
  $('move-count').textContent = String(state.moves);
  if (rows > MAX_GRID || cols > MAX_GRID) {
    board.hidden = true;
    text.hidden = false;
    const w = String(rows * cols - 1).length;
    text.textContent = Array.from({ length: rows }, (_, r) => state.cells
      .slice(r * cols, (r + 1) * cols).map((v) => (v ? String(v) : '.').padStart(w)).join(' '))
      .join('\n');
    text.setAttribute('aria-label', `Board, ${rows} by ${cols}, as text`);
    return;
  }
  board.hidden = false;
  text.hidden = true;
  const size = tileSize(), gap = 4;
  board.style.setProperty('--tile', size + 'px');
  board.style.width = cols * (size + gap) - gap + 'px';
  board.style.height = rows * (size + gap) - gap + 'px';
  board.setAttribute('aria-label', `Board, ${rows} by ${cols}, ${state.moves} moves made`);
  const tiles = new Map();
  for (const el of board.querySelectorAll('.tile')) tiles.set(Number(el.dataset.tile), el);
  if (tiles.size !== rows * cols - 1) {
    board.textContent = '';
    tiles.clear();
  }
  state.cells.forEach((t, cell) => {
    if (!t) return;
    let el = tiles.get(t);
    if (!el) {
      el = document.createElement('button');
      el.type = 'button';
      el.className = 'tile';
      el.dataset.tile = String(t);
      el.textContent = String(t);
      el.addEventListener('click', () => clickTile(Number(el.dataset.tile)));
      board.appendChild(el);
    }
    const r = Math.floor(cell / cols), c = cell % cols;
    el.style.transform = `translate(${c * (size + gap)}px, ${r * (size + gap)}px)`;
    el.dataset.cell = String(cell);
    el.classList.toggle('home', state.goal[cell] === t);
    el.setAttribute('aria-label', `Tile ${t}, row ${r + 1}, column ${c + 1}`);
  });
}

// ---- playing --------------------------------------------------------------

function userMoved() {
  stopAnimation();
  renderBoard();
  refresh();
}

// A tile in the blank's row or column slides, with the ones between it and
// the blank.
function clickTile(t) {
  const cell = state.cells.indexOf(t), z = blankOf(), { cols } = state;
  let m = null;
  if (Math.floor(cell / cols) === Math.floor(z / cols)) m = cell < z ? 'L' : 'R';
  else if (cell % cols === z % cols) m = cell < z ? 'U' : 'D';
  if (!m) return;
  while (state.cells[cell] !== 0) applyMove(m);
  userMoved();
}

// Arrow keys: the tile next to the blank moves in the arrow's direction, so
// the blank moves the other way.
const KEY_MOVES = { ArrowUp: 'D', ArrowDown: 'U', ArrowLeft: 'R', ArrowRight: 'L' };

function onKey(e) {
  const m = KEY_MOVES[e.key];
  const tag = e.target && e.target.tagName;
  if (!m || tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
  e.preventDefault();
  if (applyMove(m)) userMoved();
}

// ---- verdict, distance, histogram -----------------------------------------

async function refresh() {
  const gen = ++state.generation;
  const req = currentRequest();
  const verdict = await api('/api/solvable', req);
  if (gen !== state.generation) return;
  showVerdict(verdict);
  const db = databaseHere();
  if (!db || !verdict.data.solvable) {
    $('distance').textContent = db ? 'Exact distance: none (this board cannot reach the goal).' : '';
    drawHistogram(null);
    return;
  }
  const ev = await api('/api/eval', req);
  if (gen !== state.generation || ev.status !== 200) return;
  const h = Object.entries(ev.data.h).filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`).join(', ');
  $('distance').textContent = '';
  const strong = document.createElement('strong');
  strong.id = 'exact-distance';
  strong.textContent = String(ev.data.distance);
  $('distance').append('Exact distance: ', strong, ` moves from the goal (database). Heuristics: ${h}.`);
  drawHistogram(ev.data.distance);
}

function showVerdict({ status, data }) {
  const v = $('verdict');
  v.textContent = '';
  const s = document.createElement('strong');
  const why = document.createElement('span');
  why.className = 'why';
  if (status !== 200) {
    s.textContent = 'No verdict';
    why.textContent = data.error;
  } else {
    s.textContent = data.solvable ? 'Solvable.' : 'Unsolvable, provably: no search needed.';
    s.className = data.solvable ? 'good' : 'bad';
    // the engine's own line: the width rule, then the numbers behind it
    const words = data.explanation.replace(/^(un)?solvable: /, '');
    why.textContent = words.charAt(0).toUpperCase() + words.slice(1) + '.';
  }
  v.dataset.solvable = status === 200 ? String(data.solvable) : '';
  v.append(s, why);
}

async function loadHistogram() {
  state.histogram = null;
  const db = databaseHere();
  $('hist-note').hidden = !!db;
  $('hist-figure').hidden = !db;
  if (!db) return;
  const q = new URLSearchParams({ size: `${state.rows}x${state.cols}`,
                                  goal: boardText(state.goal, state.rows, state.cols) });
  const res = await api('/api/histogram?' + q.toString());
  if (res.status === 200) state.histogram = res.data;
}

const SVG = 'http://www.w3.org/2000/svg';

function svgEl(name, attrs, text) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function drawHistogram(here) {
  const svg = $('histogram'), h = state.histogram;
  svg.textContent = '';
  if (!h) return;
  const W = 640, H = 200, L = 56, B = 28, T = 12;
  const max = Math.max(...h.histogram);
  const bw = (W - L - 8) / h.histogram.length;
  svg.append(svgEl('line', { x1: L, y1: H - B, x2: W - 4, y2: H - B, class: 'axis' }));
  svg.append(svgEl('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' }));
  svg.append(svgEl('text', { x: L - 4, y: T + 8, 'text-anchor': 'end' }, max.toLocaleString('en')));
  svg.append(svgEl('text', { x: L - 4, y: H - B, 'text-anchor': 'end' }, '0'));
  h.histogram.forEach((count, d) => {
    const bh = (H - B - T) * count / max;
    const bar = svgEl('rect', { x: L + d * bw + 1, y: H - B - bh, width: Math.max(1, bw - 2),
                                height: bh, class: d === here ? 'bar here' : 'bar',
                                'data-distance': d });
    bar.append(svgEl('title', {}, `distance ${d}: ${count.toLocaleString('en')} boards`));
    svg.append(bar);
    if (d === here) { // a marker, since the layers near the goal are too thin to see
      const x = L + (d + 0.5) * bw;
      svg.append(svgEl('line', { x1: x, y1: T, x2: x, y2: H - B, class: 'marker' }));
      svg.append(svgEl('text', { x: x + (d < h.radius / 2 ? 4 : -4), y: T + 10, class: 'marker-label',
                                 'text-anchor': d < h.radius / 2 ? 'start' : 'end' }, `your board: d = ${d}`));
    }
    if (d % 5 === 0 || d === h.radius)
      svg.append(svgEl('text', { x: L + (d + 0.5) * bw, y: H - B + 14, 'text-anchor': 'middle' }, d));
  });
  svg.append(svgEl('text', { x: (W + L) / 2, y: H - 2, 'text-anchor': 'middle' }, 'distance from the goal (moves)'));
  const where = here === null || here === undefined ? ''
    : ` Your board is at distance ${here}, one of ${h.histogram[here].toLocaleString('en')} boards there (highlighted).`;
  $('hist-caption').textContent = `${h.rows}x${h.cols}: ${h.reachable.toLocaleString('en')} ` +
    `boards reach the goal; radius ${h.radius}.` + where;
  svg.setAttribute('aria-label', $('hist-caption').textContent);
}

// ---- solving ----------------------------------------------------------------

function setStatus(text, warn) {
  $('status').textContent = text;
  $('status').classList.toggle('warn', !!warn);
}

async function solve() {
  stopAnimation();
  const req = currentRequest();
  const start = state.cells.slice();
  req.method = $('method').value;
  setStatus('Solving...');
  $('hd-figure').hidden = true;
  const { status, data } = await api('/api/solve', req);
  if (status === 422) {
    setStatus(`Provably unsolvable: no node searched (0 nodes). ${data.error}`, true);
    return;
  }
  if (status !== 200) {
    setStatus(`${status === 503 ? 'Busy' : 'Error'}: ${data.error}`, true);
    return;
  }
  const figures = [`method ${data.method}` + (data.heuristic ? ` (h = ${data.heuristic})` : '')];
  if (data.status === 'stopped') {
    figures.push(`stopped: ${data.reason}`);
    if (data.expanded !== null) figures.push(`${data.expanded.toLocaleString('en')} nodes`);
    figures.push(duration(data.seconds));
    setStatus(figures.join(' | '), true);
    return;
  }
  figures.push(data.optimal ? `optimal, ${data.length} moves` : `${data.length} moves (not optimal)`);
  if (data.expanded !== null) figures.push(`${data.expanded.toLocaleString('en')} nodes`);
  figures.push(duration(data.seconds));
  const line = figures.join(' | ');
  setStatus(line);
  $('status').dataset.length = String(data.length);
  $('status').dataset.method = data.method;
  startAnimation(data.moves, line);
  drawSolutionChart(start, data);
}

function duration(s) {
  if (s < 1e-3) return `${(s * 1e6).toFixed(0)} \u00b5s`;
  if (s < 1) return `${(s * 1e3).toFixed(1)} ms`;
  return `${s.toFixed(2)} s`;
}

// The animation's position on the chart of h and d.
function markChart(i) {
  const line = document.getElementById('hd-now');
  if (!line || !state.chartX) return;
  const x = state.chartX(i).toFixed(1);
  line.setAttribute('x1', x);
  line.setAttribute('x2', x);
}

// A new board: the last solution's status and chart no longer apply.
function forgetSolution(status) {
  setStatus(status);
  delete $('status').dataset.length;
  delete $('status').dataset.method;
  $('hd-figure').hidden = true;
  $('hd-chart').textContent = '';
  state.chartX = null;
}

function speed() { return Number($('speed').value); }

function startAnimation(moves, line) {
  state.moves = 0;
  state.anim = { moves, i: 0, timer: null, paused: false, line };
  $('pause').disabled = false;
  $('pause').textContent = 'Pause';
  $('step').disabled = false;
  renderBoard();
  schedule();
}

function schedule() {
  const a = state.anim;
  if (!a || a.paused) return;
  a.timer = setTimeout(() => { advance(); schedule(); }, 1000 / speed());
}

function advance() {
  const a = state.anim;
  if (!a) return;
  if (a.i < a.moves.length) {
    applyMove(a.moves[a.i++]);
    renderBoard();
    if (a.i < a.moves.length) refresh(); // the distance and its layer, live
    markChart(a.i);
  }
  if (a.i >= a.moves.length) finishAnimation();
}

function finishAnimation() {
  const a = state.anim;
  stopAnimation();
  const at = sameCells(state.cells, state.goal);
  setStatus(`${a.line} | ${at ? 'on the goal' : 'NOT on the goal'} after ${a.moves.length} moves`, !at);
  $('status').dataset.done = 'true';
  refresh();
}

function stopAnimation() {
  const a = state.anim;
  if (a && a.timer) clearTimeout(a.timer);
  state.anim = null;
  $('pause').disabled = true;
  $('pause').textContent = 'Pause';
  $('step').disabled = true;
  delete $('status').dataset.done;
}

function togglePause() {
  const a = state.anim;
  if (!a) return;
  a.paused = !a.paused;
  $('pause').textContent = a.paused ? 'Resume' : 'Pause';
  if (a.paused) clearTimeout(a.timer);
  else schedule();
}

function stepOnce() {
  const a = state.anim;
  if (!a) return;
  if (!a.paused) togglePause();
  advance();
}

// h of each heuristic and d along the solution: d from the database, or,
// for an optimal solution, the moves still to go (exact on an optimal path).
async function drawSolutionChart(start, sol) {
  if (!sol.moves || sol.moves.length === 0 || sol.moves.length > 2000) return;
  const { status, data } = await api('/api/eval', {
    board: boardText(start, state.rows, state.cols),
    goal: boardText(state.goal, state.rows, state.cols), moves: sol.moves });
  if (status !== 200) return;
  const series = {};
  data.path.forEach((p, i) => {
    const d = p.distance !== null ? p.distance : sol.optimal ? sol.length - i : null;
    if (d !== null) (series.d = series.d || []).push(d);
    for (const [k, v] of Object.entries(p.h))
      if (v !== null && k !== 'lc-pairs') (series[k] = series[k] || []).push(v);
  });
  const svg = $('hd-chart');
  svg.textContent = '';
  const W = 640, H = 240, L = 40, B = 26, T = 10, R = 140;
  const n = data.path.length - 1;
  const max = Math.max(1, ...Object.values(series).flat());
  const x = (i) => L + (W - L - R) * (n ? i / n : 0);
  const y = (v) => H - B - (H - B - T) * v / max;
  svg.append(svgEl('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis' }));
  svg.append(svgEl('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' }));
  svg.append(svgEl('text', { x: L - 4, y: T + 8, 'text-anchor': 'end' }, max));
  svg.append(svgEl('text', { x: L - 4, y: H - B, 'text-anchor': 'end' }, 0));
  svg.append(svgEl('text', { x: (W - R + L) / 2, y: H - 4, 'text-anchor': 'middle' },
                   `moves made along the solution (0..${n})`));
  let row = 0;
  for (const [name, vals] of Object.entries(series)) {
    const pts = vals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    svg.append(svgEl('polyline', { points: pts, class: 'line', stroke: COLOURS[name] || '#333',
                                   'data-series': name }));
    const ly = T + 14 + 16 * row++;
    svg.append(svgEl('line', { x1: W - R + 10, y1: ly - 4, x2: W - R + 30, y2: ly - 4,
                               stroke: COLOURS[name] || '#333', 'stroke-width': 3 }));
    svg.append(svgEl('text', { x: W - R + 34, y: ly }, name === 'd' ? 'd (exact)' : name));
  }
  state.chartX = x;
  svg.append(svgEl('line', { id: 'hd-now', x1: x(0), y1: T, x2: x(0), y2: H - B, class: 'marker' }));
  markChart(state.anim ? state.anim.i : 0);
  $('hd-caption').textContent = series.d
    ? `h of each heuristic and the exact distance d along the ${n}-move solution; ` +
      'h never exceeds d for an admissible heuristic.'
    : `h of each heuristic along the ${n}-move solution (not optimal, and no database ` +
      'for this size: the exact distance is not known).';
  $('hd-figure').hidden = false;
}

// ---- setup ------------------------------------------------------------------

async function newSize(cells) {
  stopAnimation();
  state.rows = Number($('rows').value);
  state.cols = Number($('cols').value);
  state.goalKind = $('goal').value;
  state.goal = goalCells(state.rows, state.cols, state.goalKind);
  state.cells = cells || state.goal.slice();
  state.moves = 0;
  $('board').textContent = '';
  forgetSolution('Ready.');
  renderBoard();
  await loadHistogram();
  await refresh();
}

async function scramble(walk) {
  const body = { size: `${state.rows}x${state.cols}`,
                 goal: boardText(state.goal, state.rows, state.cols) };
  if (walk) body.walk = Number($('walk').value);
  if ($('seed').value.trim()) body.seed = $('seed').value.trim();
  const { status, data } = await api('/api/scramble', body);
  if (status !== 200) {
    setStatus(`Error: ${data.error}`, true);
    return;
  }
  stopAnimation();
  state.cells = parseBoard(data.board);
  state.moves = 0;
  forgetSolution('');
  setStatus(`Scrambled (${walk ? `random walk of ${data.walk} moves` : 'uniform'}, seed ${data.seed}).`);
  renderBoard();
  await refresh();
}

// Sam Loyd's puzzle: the 4x4 goal with 14 and 15 swapped.
async function loyd() {
  $('rows').value = '4';
  $('cols').value = '4';
  $('goal').value = 'last';
  const cells = goalCells(4, 4, 'last');
  cells[13] = 15;
  cells[14] = 14;
  await newSize(cells);
  await solve();
}

function fillSizes() {
  for (const id of ['rows', 'cols']) {
    const sel = $(id);
    for (let i = 2; i <= MAX_SIDE_CHOICE; i++) sel.append(new Option(String(i), String(i)));
    sel.value = '4';
  }
}

async function main() {
  fillSizes();
  const info = await api('/api/info');
  if (info.status === 200) {
    state.info = info.data;
    $('version').textContent = `slide ${info.data.version} (${info.data.commit})`;
    const db = info.data.databases[0];
    if (db) { // open on the size the database covers
      $('rows').value = String(db.rows);
      $('cols').value = String(db.cols);
      $('goal').value = db.goal.startsWith('0') ? 'first' : 'last';
    }
  }
  for (const id of ['rows', 'cols', 'goal']) $(id).addEventListener('change', () => newSize());
  $('reset').addEventListener('click', () => newSize());
  $('scramble').addEventListener('click', () => scramble(false));
  $('walk-scramble').addEventListener('click', () => scramble(true));
  $('loyd').addEventListener('click', loyd);
  $('solve').addEventListener('click', solve);
  $('pause').addEventListener('click', togglePause);
  $('step').addEventListener('click', stepOnce);
  $('speed').addEventListener('input', () =>
    $('speed').setAttribute('aria-valuetext', `${speed()} moves per second`));
  document.addEventListener('keydown', onKey);
  await newSize();
  document.body.dataset.ready = 'true';
}

main();

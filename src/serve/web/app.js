// app.js - the page of `slide serve`: a board to play, and the engine's
// answers from the JSON API (/api/*).  No framework, no network but this
// server.  Boards travel as slide's text: rows separated by '/', blank 0;
// a board typed or pasted (or given as ?board=...&size=...&goal=...) is
// parsed by the server with slide's own parser (/api/solvable).
'use strict';

const MAX_GRID = 8;        // bigger boards are shown as text
const MAX_SIDE_CHOICE = 12;
const COLOURS = { d: '#c0392b', misplaced: '#8e44ad', manhattan: '#2980b9',
                  lc: '#27ae60', 'lc-pairs': '#95a5a6', wd: '#d35400', pdb: '#16a085' };
const NARROW = '(max-width: 760px)';

const $ = (id) => document.getElementById(id);

const state = {
  rows: 4, cols: 4,
  goalKind: 'last',            // 'last', 'first' or 'custom'
  metric: 'stm',               // 'stm' or 'mtm': what one move is (the API's metric)
  cells: [], goal: [], moves: 0,
  info: null,                  // /api/info
  anim: null,                  // { moves, i, timer, paused, line }
  solving: null,               // the AbortController of a search in flight
  histogram: null,             // /api/histogram of the current size and goal
  here: null,                  // the board's distance on the histogram
  chart: null,                 // the last solution chart's data, for redraws
  hint: null,                  // the reading the board field's hint offers
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

// Only for text the server wrote (normalised: '/' rows, spaces, 0 blank).
function parseBoard(text) {
  return text.split('/').map((row) => row.trim().split(/\s+/).map(Number)).flat();
}

const blankOf = () => state.cells.indexOf(0);
const sameCells = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const plural = (n, one, many) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const narrow = () => window.matchMedia(NARROW).matches;

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

// Take the blank one cell in direction m; false if it leaves the board.
function stepBlank(m) {
  const z = blankOf(), to = step(z, m);
  if (to < 0) return false;
  state.cells[z] = state.cells[to];
  state.cells[to] = 0;
  return true;
}

// Slide a group: the blank travels `letters` (one letter, repeated once per
// cell), counted as one move in the multi-tile metric and one per cell in
// the single-tile one.  false (nothing moved) if it leaves the board.
function applyGroup(letters) {
  const keep = state.cells.slice();
  for (const m of letters)
    if (!stepBlank(m)) {
      state.cells = keep;
      return false;
    }
  state.moves += state.metric === 'mtm' ? 1 : letters.length;
  return true;
}

// A solution's moves (the API's text in the metric's notation) as groups:
// one letter each in STM, 'UU L' -> ['UU', 'L'] in MTM.
function moveGroups(text) {
  if (!text) return [];
  return state.metric === 'mtm' ? text.split(' ') : text.split('');
}

// ---- API ----------------------------------------------------------------

async function api(path, body, signal) {
  const opts = body === undefined ? { signal } : {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body), signal,
  };
  const res = await fetch(path, opts);
  let data = {};
  try { data = await res.json(); } catch (e) { data = { error: 'no JSON in the answer' }; }
  return { status: res.status, data };
}

const goalTextNow = () => boardText(state.goal, state.rows, state.cols);

function currentRequest() {
  return { board: boardText(state.cells, state.rows, state.cols), goal: goalTextNow(),
           metric: state.metric };
}

// The loaded database of this size, goal and metric.
function databaseHere() {
  if (!state.info) return null;
  const goal = goalTextNow();
  return state.info.databases.find((d) => d.rows === state.rows && d.cols === state.cols &&
                                          d.goal === goal && d.metric === state.metric) || null;
}

// The pattern database set IDA* takes here (any admissible set bounds
// single-tile moves; multi-tile ones need tables of kind mtm).
function pdbHere() {
  if (!state.info) return null;
  const goal = goalTextNow();
  return (state.info.pattern_databases || []).find((p) => p.rows === state.rows &&
    p.cols === state.cols && p.goal === goal && p.admissible &&
    (state.metric === 'stm' || p.metric === 'mtm')) || null;
}

// ---- drawing the board --------------------------------------------------

function tileSize() {
  const side = Math.max(state.rows, state.cols);
  // the width the board may take: the page's on a phone, 340 px beside the rest
  const room = Math.min(340, document.documentElement.clientWidth - 40);
  return Math.max(28, Math.min(72, Math.floor(room / side) - 4));
}

function renderBoard() {
  const board = $('board'), text = $('board-text');
  const { rows, cols } = state;
  board.dataset.board = boardText(state.cells, rows, cols);
  board.dataset.goal = goalTextNow();
  board.dataset.solved = String(sameCells(state.cells, state.goal));
  board.dataset.metric = state.metric;
  $('move-count').textContent = String(state.moves);
  updateLink();
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

// The page's address names the board (and a goal other than the standard
// one), so that it can be sent to someone: ?board=...&goal=first.
function boardQuery() {
  const q = new URLSearchParams({ board: boardText(state.cells, state.rows, state.cols) });
  if (state.goalKind === 'first') q.set('goal', 'first');
  else if (state.goalKind === 'custom') q.set('goal', goalTextNow());
  if (state.metric === 'mtm') q.set('metric', 'mtm');
  // '/' may stand in a query as it is (RFC 3986): the rows stay readable
  return '?' + q.toString().replace(/%2F/gi, '/');
}

function updateLink() {
  const query = boardQuery(), link = $('board-link');
  link.href = query;
  link.textContent = location.pathname + query;
  if (location.search !== query) history.replaceState(null, '', query);
}

// ---- playing --------------------------------------------------------------

function userMoved() {
  stopAnimation();
  renderBoard();
  refresh();
}

// A tile in the blank's row or column slides, with the ones between it and
// the blank: one move in the multi-tile metric, one per tile in the other.
function clickTile(t) {
  const cell = state.cells.indexOf(t), z = blankOf(), { cols } = state;
  let m = null, k = 0;
  if (Math.floor(cell / cols) === Math.floor(z / cols)) {
    m = cell < z ? 'L' : 'R';
    k = Math.abs(cell - z);
  } else if (cell % cols === z % cols) {
    m = cell < z ? 'U' : 'D';
    k = Math.abs(cell - z) / cols;
  }
  if (!m) return;
  applyGroup(m.repeat(k));
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
  if (applyGroup(m)) userMoved();
}

// ---- the board field ---------------------------------------------------------

function fieldError(text) {
  $('board-error').textContent = text || '';
  $('board-input').setAttribute('aria-invalid', text ? 'true' : 'false');
}

const GOAL_WORDS = { standard: 'the standard goal (blank last)',
                     'blank-first': "the blank-first goal of Korf's convention" };

// What /api/solvable's hint offers, next to the field, with a button.
function showHint(hint, data) {
  state.hint = hint;
  $('board-hint').hidden = !hint;
  if (!hint) return;
  const shape = `${data.rows}x${data.cols}`, goal = GOAL_WORDS[hint.goal_kind] || 'its goal';
  let text;
  if (hint.size !== shape)
    text = data.solvable
      ? `Read as one row (${shape}), a path. As ${hint.size} it can reach ${goal}.`
      : `Read as one row (${shape}) it cannot reach the goal; as ${hint.size} it can reach ${goal}.`;
  else
    text = `It cannot reach this goal, but it can reach ${goal}.`;
  $('board-hint-text').textContent = text;
  $('board-hint-use').textContent = hint.size !== shape
    ? `Use ${hint.size}${hint.goal_kind === 'blank-first' ? ', blank first' : ''}`
    : `Use ${hint.goal_kind === 'blank-first' ? 'the blank-first goal' : 'the standard goal'}`;
}

function ensureOption(sel, value) {
  if ([...sel.options].some((o) => o.value === value)) return;
  sel.append(new Option(value, value));
  [...sel.options].sort((a, b) => Number(a.value) - Number(b.value)).forEach((o) => sel.append(o));
}

function setGoalSelect(kind, text) {
  const sel = $('goal');
  let custom = [...sel.options].find((o) => o.value === 'custom');
  if (kind === 'custom') {
    if (!custom) sel.append(custom = new Option('', 'custom'));
    custom.textContent = `given: ${text.length > 40 ? text.slice(0, 37) + '...' : text}`;
  } else if (custom) {
    custom.remove();
  }
  sel.value = kind;
}

// Parse text (any syntax the command line takes) on the server and show it:
// its size is the parsed one.  goal: 'first', 'last', a board text, or
// undefined for the goal now chosen.  true when the board was taken.
async function loadBoard(text, size, goal) {
  const body = { board: text };
  if (size) body.size = size;
  const kind = goal === undefined ? state.goalKind : goal === 'first' || goal === 'last' ? goal : 'custom';
  if (kind === 'first') body.blank_first = true;
  else if (kind === 'custom') body.goal = goal === undefined ? goalTextNow() : goal;
  const { status, data } = await api('/api/solvable', body);
  if (status !== 200) {
    fieldError(data.error || `the server answered ${status}`);
    showHint(null);
    return false;
  }
  const max = state.info ? state.info.limits.max_side : 32;
  if (data.rows > max || data.cols > max) {
    fieldError(`the board is ${data.rows}x${data.cols}; the page takes boards up to ` +
               `${max}x${max} (slide solvable and slide solve take up to 1000x1000)`);
    showHint(null);
    return false;
  }
  fieldError('');
  stopAnimation();
  ensureOption($('rows'), String(data.rows));
  ensureOption($('cols'), String(data.cols));
  $('rows').value = String(data.rows);
  $('cols').value = String(data.cols);
  state.rows = data.rows;
  state.cols = data.cols;
  state.goalKind = data.goal_kind === 'standard' ? 'last'
    : data.goal_kind === 'blank-first' ? 'first' : 'custom';
  setGoalSelect(state.goalKind, data.goal);
  state.goal = parseBoard(data.goal);
  state.cells = parseBoard(data.board);
  state.moves = 0;
  $('board').textContent = '';
  $('board-input').value = data.board;
  $('board-size').value = '';
  showHint(data.hint, data);
  forgetSolution('Ready.');
  renderBoard();
  await sizeChanged();
  await refresh();
  return true;
}

async function submitBoard(e) {
  e.preventDefault();
  const text = $('board-input').value.trim(), size = $('board-size').value.trim();
  if (!text) {
    fieldError('type a board first, e.g. 8 6 7/2 5 4/3 0 1');
    return;
  }
  await loadBoard(text, size || undefined);
}

async function useHint() {
  const h = state.hint;
  if (h) await loadBoard(h.board, undefined, h.goal_kind === 'blank-first' ? 'first' : 'last');
}

// ---- verdict, live h, distance, histogram ------------------------------------

async function refresh() {
  const gen = ++state.generation;
  const req = currentRequest();
  const verdict = await api('/api/solvable', { board: req.board, goal: req.goal });
  if (gen !== state.generation) return;
  showVerdict(verdict);
  const db = databaseHere();
  if (verdict.status !== 200 || !verdict.data.solvable) {
    $('distance').textContent = db ? 'Exact distance: none (this board cannot reach the goal).' : '';
    showLiveH(null);
    state.here = null;
    drawHistogram();
    return;
  }
  const ev = await api('/api/eval', req);
  if (gen !== state.generation || ev.status !== 200) return;
  showLiveH(ev.data.h);
  $('distance').textContent = '';
  state.here = db ? ev.data.distance : null;
  if (db) {
    const strong = document.createElement('strong');
    strong.id = 'exact-distance';
    strong.textContent = String(ev.data.distance);
    $('distance').append('Exact distance: ', strong, ' moves from the goal (database).');
  }
  drawHistogram();
}

// "h now: misplaced 7 · manhattan 12 · ..." - the heuristics built for this
// size (wd up to 4x4, pdb where tables are loaded), each also a data-*
// attribute of #live-h.
function showLiveH(h) {
  const el = $('live-h');
  for (const k of Object.keys(el.dataset)) delete el.dataset[k];
  el.textContent = '';
  if (!h) return;
  const parts = Object.entries(h).filter(([, v]) => v !== null);
  if (!parts.length) return;
  el.append('h now: ');
  parts.forEach(([k, v], i) => {
    const name = document.createElement('a');
    name.href = `#h-${k}`;
    name.textContent = k;
    if (i) el.append(' \u00b7 ');
    el.append(name, ` ${v}`);
    el.dataset[k.replace(/-(.)/g, (_, c) => c.toUpperCase())] = String(v);
  });
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
    const h = data.hint;
    if (!data.solvable && h && h.size === `${data.rows}x${data.cols}` && h.solvable)
      why.textContent += ` It can reach ${GOAL_WORDS[h.goal_kind]} instead.`;
  }
  v.dataset.solvable = status === 200 ? String(data.solvable) : '';
  v.append(s, why);
}

// What computes this size's histogram when no database of it is loaded:
// slide bfs up to 14 cells, a cluster or frontier search's first layers up
// to 34 cells (slide frontier), nothing beyond.
function histogramNote() {
  const { rows, cols } = state, n = rows * cols, size = `${rows}x${cols}`;
  let boards = 1n;
  for (let k = 2n; k <= BigInt(n); k++) boards *= k;
  boards /= 2n;
  const bytes = Number(boards) / 4;
  const goal = (state.goalKind === 'last' ? '' : ' --goal G') +
    (state.metric === 'mtm' ? ' --metric mtm' : '');
  const units = [['TB', 1e12], ['GB', 1e9], ['MB', 1e6], ['kB', 1e3]];
  const [unit, scale] = units.find(([, s]) => bytes >= s) || ['bytes', 1];
  const mem = `${(bytes / scale).toPrecision(3)} ${unit}`;
  const count = boards.toLocaleString('en');
  if (n <= 14)
    return `No database of ${size} boards with this goal${state.metric === 'mtm'
      ? ' in the multi-tile metric' : ''} is loaded.  slide bfs ${size}${goal} ` +
      `--save FILE enumerates all ${count} boards (${mem} at 2 bits each); start slide serve ` +
      'with --db FILE to see the exact distance and the histogram here.';
  if (n <= 34)
    return `No exact histogram of ${size} fits one machine: its ${count} boards need ${mem} ` +
      `at 2 bits each${n <= 16 ? ' (slide bfs --mpi spreads that over a cluster)' : ''}.  ` +
      `slide frontier ${size} --max-depth D${goal} counts the boards at distances 0 to D ` +
      '(frontier search, up to 34 cells).';
  return `No histogram of ${size} can be computed: ${count} boards, and slide's frontier ` +
    'search takes boards up to 34 cells.';
}

async function loadHistogram() {
  state.histogram = null;
  const db = databaseHere();
  $('hist-note').hidden = !!db;
  $('hist-note').textContent = db ? '' : histogramNote();
  $('hist-figure').hidden = !db;
  if (!db) return;
  const q = new URLSearchParams({ size: `${state.rows}x${state.cols}`, goal: goalTextNow(),
                                  metric: state.metric });
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

// A chart is drawn in its own pixels (the viewBox is its width on the
// screen), so its text keeps its size on a phone.
function chartWidth(svg, fallback) {
  const w = Math.round(svg.getBoundingClientRect().width);
  return Math.max(280, w || fallback);
}

function drawHistogram() {
  const svg = $('histogram'), h = state.histogram, here = state.here;
  svg.textContent = '';
  if (!h || $('hist-figure').hidden) return;
  const W = chartWidth(svg, 640), H = W < 480 ? 180 : 200, L = 56, B = 28, T = 12;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const max = Math.max(...h.histogram);
  const bw = (W - L - 8) / h.histogram.length;
  const every = bw * 5 < 24 ? 10 : 5; // distance labels that do not collide
  // ...and the radius's label takes the place of a round one too close to it
  const ticks = new Set();
  for (let d = 0; d <= h.radius; d += every) ticks.add(d);
  const lastRound = Math.floor(h.radius / every) * every;
  if (lastRound !== h.radius && (h.radius - lastRound) * bw < 24) ticks.delete(lastRound);
  ticks.add(h.radius);
  svg.append(svgEl('line', { x1: L, y1: H - B, x2: W - 4, y2: H - B, class: 'axis' }));
  svg.append(svgEl('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' }));
  svg.append(svgEl('text', { x: L - 4, y: T + 8, 'text-anchor': 'end' }, max.toLocaleString('en')));
  svg.append(svgEl('text', { x: L - 4, y: H - B, 'text-anchor': 'end' }, '0'));
  h.histogram.forEach((count, d) => {
    const bh = (H - B - T) * count / max;
    const bar = svgEl('rect', { x: L + d * bw + 1, y: H - B - bh, width: Math.max(1, bw - 2),
                                height: bh, class: d === here ? 'bar here' : 'bar',
                                'data-distance': d });
    bar.append(svgEl('title', {}, `distance ${d}: ${plural(count, 'board', 'boards')}`));
    svg.append(bar);
    if (d === here) { // a marker, since the layers near the goal are too thin to see
      const x = L + (d + 0.5) * bw, left = d < h.radius / 2;
      svg.append(svgEl('line', { x1: x, y1: T, x2: x, y2: H - B, class: 'marker' }));
      svg.append(svgEl('text', { x: x + (left ? 4 : -4), y: T + 10, class: 'marker-label',
                                 'text-anchor': left ? 'start' : 'end' }, `your board: d = ${d}`));
    }
    if (ticks.has(d))
      svg.append(svgEl('text', { x: L + (d + 0.5) * bw, y: H - B + 14, 'text-anchor': 'middle',
                                 class: 'tick' }, d));
  });
  svg.append(svgEl('text', { x: (W + L) / 2, y: H - 2, 'text-anchor': 'middle' },
    `distance from the goal (${state.metric === 'mtm' ? 'multi-tile ' : ''}moves)`));
  let where = '';
  if (here !== null && here !== undefined) {
    const there = h.histogram[here];
    where = ` Your board is at distance ${here}, ` + (there === 1 ? 'the only board there'
      : `one of ${plural(there, 'board', 'boards')} there`) + ' (highlighted).';
  }
  $('hist-caption').textContent = `${h.rows}x${h.cols}${state.metric === 'mtm'
    ? ', multi-tile metric' : ''}: ${plural(h.reachable, 'board reaches',
    'boards reach')} the goal; radius ${h.radius}.` + where;
  svg.setAttribute('aria-label', $('hist-caption').textContent);
}

// ---- solving ----------------------------------------------------------------

function setStatus(text, warn) {
  $('status').textContent = text;
  $('status').classList.toggle('warn', !!warn);
}

function solvingNow(ctl) {
  state.solving = ctl;
  $('solve').disabled = !!ctl;
  $('cancel').disabled = !ctl;
  $('status').dataset.solving = String(!!ctl);
  busy(!!ctl || !!state.anim);
}

// A search or its animation is on: on a phone the solve controls stay in
// view at the bottom of the screen (style.css), under the board.
function busy(on) {
  document.body.classList.toggle('solving', on);
}

function cancelSolve() {
  if (state.solving) state.solving.abort();
}

async function solve() {
  if (state.solving) return;
  stopAnimation();
  const req = currentRequest();
  const start = state.cells.slice();
  req.method = $('method').value;
  setStatus('Solving...');
  $('hd-figure').hidden = true;
  const ctl = new AbortController();
  solvingNow(ctl);
  // on a phone the board and these controls share the screen while it runs
  if (narrow()) window.scrollBy(0, $('board-wrap').getBoundingClientRect().top - 8);
  let status, data;
  try {
    ({ status, data } = await api('/api/solve', req, ctl.signal));
  } catch (e) {
    // the dropped connection stops the search on the server
    setStatus(e.name === 'AbortError' ? 'Cancelled: the search was stopped.'
      : `Error: ${e.message}`, e.name !== 'AbortError');
    return;
  } finally {
    solvingNow(null);
  }
  if (status === 422) {
    const why = data.error.replace(/^unsolvable: /, '');
    setStatus(`Provably unsolvable, no search (0 nodes): ${why}`, true);
    return;
  }
  if (status !== 200) {
    setStatus(`${status === 503 ? 'Busy' : 'Error'}: ${data.error}`, true);
    return;
  }
  const figures = [`method ${data.method}` + (data.heuristic ? ` (h = ${data.heuristic})` : '')];
  if (data.status === 'stopped') {
    // the reason is a sentence of its own ("stopped at the time limit ...")
    figures.push(/^stopped\b/.test(data.reason) ? data.reason : `stopped: ${data.reason}`);
    if (data.expanded !== null) figures.push(plural(data.expanded, 'node', 'nodes'));
    figures.push(duration(data.seconds));
    setStatus(figures.join(' | '), true);
    $('status').dataset.stopped = 'true';
    return;
  }
  figures.push(data.optimal ? `optimal, ${plural(data.length, 'move', 'moves')}`
    : `${plural(data.length, 'move', 'moves')} (not optimal)`);
  if (data.expanded !== null) figures.push(plural(data.expanded, 'node', 'nodes'));
  figures.push(duration(data.seconds));
  const line = figures.join(' | ');
  setStatus(line);
  $('status').dataset.length = String(data.length);
  $('status').dataset.method = data.method;
  $('status').dataset.metric = data.metric;
  startAnimation(moveGroups(data.moves), line);
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
  for (const k of ['length', 'method', 'metric', 'stopped', 'done']) delete $('status').dataset[k];
  $('hd-figure').hidden = true;
  $('hd-chart').textContent = '';
  state.chartX = null;
  state.chart = null;
}

function speed() { return Number($('speed').value); }

// moves: the groups of moveGroups, one animation step (and one move) each.
function startAnimation(moves, line) {
  state.moves = 0;
  state.anim = { moves, i: 0, timer: null, paused: false, line };
  busy(true);
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
    applyGroup(a.moves[a.i++]);
    renderBoard();
    if (a.i < a.moves.length) refresh(); // the distance, h and its layer, live
    markChart(a.i);
  }
  if (a.i >= a.moves.length) finishAnimation();
}

function finishAnimation() {
  const a = state.anim;
  stopAnimation();
  const at = sameCells(state.cells, state.goal);
  setStatus(`${a.line} | ${at ? 'replayed: on the goal' : `NOT on the goal after ${a.moves.length} moves`}`, !at);
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
  busy(!!state.solving);
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
    board: boardText(start, state.rows, state.cols), goal: goalTextNow(), moves: sol.moves,
    metric: state.metric });
  if (status !== 200) return;
  const series = {};
  data.path.forEach((p, i) => {
    const d = p.distance !== null ? p.distance : sol.optimal ? sol.length - i : null;
    if (d !== null) (series.d = series.d || []).push(d);
    for (const [k, v] of Object.entries(p.h))
      if (v !== null && k !== 'lc-pairs') (series[k] = series[k] || []).push(v);
  });
  state.chart = { series, n: data.path.length - 1 };
  $('hd-figure').hidden = false;
  renderChart();
}

// The chart of state.chart at the figure's width: the legend beside the
// lines, or under them where the figure is narrow.
function renderChart() {
  const svg = $('hd-chart'), c = state.chart;
  if (!c) return;
  svg.textContent = '';
  const { series, n } = c, names = Object.keys(series);
  const W = chartWidth(svg, 640), below = W < 480;
  const L = 40, B = 30, T = 10, R = below ? 12 : 140;
  const legendRows = below ? Math.ceil(names.length / 3) : 0;
  const plotH = below ? 200 : 230, H = plotH + legendRows * 18;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const max = Math.max(1, ...Object.values(series).flat());
  const x = (i) => L + (W - L - R) * (n ? i / n : 0);
  const y = (v) => plotH - B - (plotH - B - T) * v / max;
  svg.append(svgEl('line', { x1: L, y1: plotH - B, x2: W - R, y2: plotH - B, class: 'axis' }));
  svg.append(svgEl('line', { x1: L, y1: T, x2: L, y2: plotH - B, class: 'axis' }));
  svg.append(svgEl('text', { x: L - 4, y: T + 8, 'text-anchor': 'end' }, max));
  svg.append(svgEl('text', { x: L - 4, y: plotH - B, 'text-anchor': 'end' }, 0));
  svg.append(svgEl('text', { x: (W - R + L) / 2, y: plotH - 8, 'text-anchor': 'middle' },
                   `moves made along the solution (0..${n})`));
  names.forEach((name, row) => {
    const pts = series[name].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    const colour = COLOURS[name] || '#333';
    svg.append(svgEl('polyline', { points: pts, class: 'line', stroke: colour, 'data-series': name }));
    const lx = below ? L + (row % 3) * ((W - L) / 3) : W - R + 10;
    const ly = below ? plotH + 14 + 18 * Math.floor(row / 3) : T + 14 + 16 * row;
    svg.append(svgEl('line', { x1: lx, y1: ly - 4, x2: lx + 20, y2: ly - 4, stroke: colour,
                               'stroke-width': 3 }));
    svg.append(svgEl('text', { x: lx + 24, y: ly, class: 'legend' }, name === 'd' ? 'd (exact)' : name));
  });
  state.chartX = x;
  svg.append(svgEl('line', { id: 'hd-now', x1: x(0), y1: T, x2: x(0), y2: plotH - B, class: 'marker' }));
  markChart(state.anim ? state.anim.i : n);
  $('hd-caption').textContent = series.d
    ? `h of each heuristic and the exact distance d along the ${n}-move solution; ` +
      'h never exceeds d for an admissible heuristic.'
    : `h of each heuristic along the ${n}-move solution (not optimal, and no database ` +
      'for this size: the exact distance is not known).';
}

// ---- setup ------------------------------------------------------------------

// What depends on the size and goal alone: the methods offered, the
// pattern database note, the histogram.
async function sizeChanged() {
  const db = databaseHere(), sel = $('method');
  const dbOption = [...sel.options].find((o) => o.value === 'db');
  dbOption.hidden = dbOption.disabled = !db;
  if (!db && sel.value === 'db') sel.value = 'auto';
  // layer by layer counts single-tile moves only
  const layers = [...sel.options].find((o) => o.value === 'layers');
  layers.hidden = layers.disabled = state.metric === 'mtm';
  if (state.metric === 'mtm' && sel.value === 'layers') sel.value = 'auto';
  showPdbNote();
  await loadHistogram();
}

function tileRanges(tiles) {
  const t = tiles.slice().sort((a, b) => a - b), out = [];
  for (let i = 0; i < t.length;) {
    let j = i;
    while (j + 1 < t.length && t[j + 1] === t[j] + 1) j++;
    out.push(j > i ? `${t[i]}-${t[j]}` : `${t[i]}`);
    i = j + 1;
  }
  return out.join(',');
}

// A set's goal in words where it is not the usual one (blank last), so
// that two sets of one size tell apart.
function pdbGoalWords(p) {
  const text = (kind) => boardText(goalCells(p.rows, p.cols, kind), p.rows, p.cols);
  if (!p.goal || p.goal === text('last')) return '';
  return p.goal === text('first') ? ', blank-first goal' : `, goal ${p.goal}`;
}

function showPdbNote() {
  const sets = state.info ? state.info.pattern_databases || [] : [];
  const note = $('pdb-note');
  note.textContent = '';
  delete note.dataset.here;
  if (!sets.length) return;
  const here = pdbHere();
  const list = sets.map((p) => `${p.rows}x${p.cols} (tiles ${p.tables.map((t) =>
    tileRanges(t.tiles)).join(' + ')}${p.tables.length > 1 ? `, ${p.tables[0].kind}` : ''}` +
    `${pdbGoalWords(p)}${p.reflect ? ', mirrored too' : ''})`).join('; ');
  note.append(`Pattern databases loaded: ${list}. `);
  // Without a set here, say what still answers exactly: a distance database
  // of this size and goal (by descent), else IDA* with lc (optimal, slower).
  const base = state.metric === 'mtm' ? 'wd' : 'lc';
  note.append(here ? `For this size and goal IDA* uses h = max(${base}, pdb), and h now shows pdb.`
    : databaseHere() ? 'None is built for this size and goal, but the distance database is: ' +
      `Solve answers exactly from it (IDA*, if chosen, uses ${base}).`
      : `None is built for this size and goal: IDA* uses ${base} here (still optimal, slower).`);
  note.dataset.here = String(!!here);
}

// The other metric: the board stays, the move count starts again, and
// everything the page shows is asked again in the new metric.
async function newMetric() {
  stopAnimation();
  state.metric = $('metric').value === 'mtm' ? 'mtm' : 'stm';
  state.moves = 0;
  forgetSolution('Ready.');
  renderBoard();
  await sizeChanged();
  await refresh();
}

async function newSize(cells) {
  stopAnimation();
  state.rows = Number($('rows').value);
  state.cols = Number($('cols').value);
  const kind = $('goal').value;
  if (kind !== 'custom' || !cells) {
    state.goalKind = kind === 'custom' ? 'last' : kind;
    setGoalSelect(state.goalKind);
    state.goal = goalCells(state.rows, state.cols, state.goalKind);
  }
  state.cells = cells || state.goal.slice();
  state.moves = 0;
  $('board').textContent = '';
  showHint(null);
  fieldError('');
  forgetSolution('Ready.');
  renderBoard();
  await sizeChanged();
  await refresh();
}

async function scramble(walk) {
  const body = { size: `${state.rows}x${state.cols}`, goal: goalTextNow() };
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
  setStatus(`Scrambled (${walk ? `random walk of ${plural(data.walk, 'move', 'moves')}` : 'uniform'}, seed ${data.seed}).`);
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

// ?board=TEXT[&size=RxC][&goal=first|last|TEXT]: the page opens on that board.
async function fromAddress() {
  const q = new URLSearchParams(location.search);
  const board = q.get('board');
  if (q.get('metric') === 'mtm') {
    state.metric = 'mtm';
    $('metric').value = 'mtm';
  }
  if (!board) return false;
  $('board-input').value = board;
  $('board-size').value = q.get('size') || '';
  return loadBoard(board, q.get('size') || undefined, q.get('goal') || 'last');
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
  $('metric').addEventListener('change', newMetric);
  $('reset').addEventListener('click', () => newSize());
  $('board-form').addEventListener('submit', submitBoard);
  $('board-hint-use').addEventListener('click', useHint);
  $('scramble').addEventListener('click', () => scramble(false));
  $('walk-scramble').addEventListener('click', () => scramble(true));
  $('loyd').addEventListener('click', loyd);
  $('solve').addEventListener('click', solve);
  $('cancel').addEventListener('click', cancelSolve);
  $('pause').addEventListener('click', togglePause);
  $('step').addEventListener('click', stepOnce);
  $('speed').addEventListener('input', () =>
    $('speed').setAttribute('aria-valuetext', `${speed()} moves per second`));
  document.addEventListener('keydown', onKey);
  let resize = null;
  window.addEventListener('resize', () => {
    clearTimeout(resize);
    resize = setTimeout(() => { renderBoard(); drawHistogram(); renderChart(); }, 100);
  });
  if (!(await fromAddress())) {
    const why = $('board-error').textContent; // a bad board in the address
    await newSize();
    fieldError(why);
  }
  document.body.dataset.ready = 'true';
}

main();

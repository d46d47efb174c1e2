// serve.test.mjs - the page of `slide serve` in a real browser: headless
// Debian chromium driven by puppeteer-core (no browser download).
//
//   SLIDE=build/slide CHROMIUM=/usr/bin/chromium SHOTS=DIR node serve.test.mjs
//
// Starts slide serve on an ephemeral loopback port with a 3x3 distance
// database and 3x3 pattern databases it builds first (searches capped at
// 2 s), plays, traps, solves, charts, types and links boards, saves a
// screenshot per test in SHOTS, and ends with "browser: N passed, N failed".
// A 3x3 database of the multi-tile metric is loaded too: the metric switch
// is checked against solve --metric mtm's length.
// The truths: the goal is checked cell by cell in the page's own board, the
// animation's length against the length /api/solve gives for the same
// board, the 3x3 histogram against the published counts (Reinefeld 1993),
// misplaced and Manhattan counted here from their definitions, the pdb
// value between Manhattan and the database's exact distance (admissible
// additive tables), Korf's instance 1 in his blank-first convention (Korf
// 1985), boards parsed written out here; the phone layout by the element
// boxes on a 390x844 screen.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';

const SLIDE = process.env.SLIDE;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = process.env.SHOTS || 'browser-shots';
// The 8-puzzle's boards per distance, standard goal (blank in a corner):
// Reinefeld 1993, also OEIS A089473; tests/data/histograms.tsv has them too.
const HIST_3X3 = [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485,
  5638, 9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2];

let passed = 0, failed = 0;

function check(cond, what) {
  if (!cond) throw new Error(what);
}

// Korf's instance 1 as he printed it: blank first, one line.
const KORF1 = '14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3';
const KORF1_4X4 = '14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3';

// The page's resources (not the API) that did not answer 200, and whether
// it asked for an icon.
const badResources = [];
let iconAnswered = false;

function watch(page) {
  page.on('response', (res) => {
    const path = new URL(res.url()).pathname;
    if (path.startsWith('/api/')) return;
    if (res.status() !== 200) badResources.push(`${path} ${res.status()}`);
    if (path.startsWith('/favicon') && res.status() === 200) iconAnswered = true;
  });
}

async function startServer(dbs, pdb) {
  const child = spawn(SLIDE, ['serve', '--port', '0', '--db', ...dbs, '--pdb', pdb, '--max-seconds', '2'],
                      { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    child.on('exit', (code) => reject(new Error(`slide serve exited with ${code}`)));
    setTimeout(() => reject(new Error('slide serve printed no URL in 20 s')), 20000);
  });
  return { child, url };
}

async function post(url, path, body) {
  const res = await fetch(url + path.slice(1), { method: 'POST', body: JSON.stringify(body) });
  return { status: res.status, data: await res.json() };
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent);
const data = (page, sel, key) => page.$eval(sel, (e, k) => e.dataset[k], key);

async function boardIs(page, want) {
  await page.waitForFunction((w) => document.getElementById('board').dataset.board === w,
                             { timeout: 5000 }, want);
}

async function choose(page, rows, cols, goal = 'last') {
  await page.select('#goal', goal);
  await page.select('#rows', String(rows));
  await page.select('#cols', String(cols));
  await page.waitForFunction((r, c) => document.getElementById('board').dataset.goal
    .split('/').length === r && document.getElementById('board').dataset.goal.split('/')[0]
    .split(' ').length === c, { timeout: 5000 }, rows, cols);
}

// Solve what the page shows, wait for the animation to end, and compare.
async function solveAndCheck(page, url, speed) {
  const board = await data(page, '#board', 'board');
  const goal = await data(page, '#board', 'goal');
  const api = await post(url, '/api/solve', { board, goal });
  check(api.status === 200 && api.data.optimal, `the API did not solve ${board}: ${JSON.stringify(api.data)}`);
  await page.$eval('#speed', (e, v) => { e.value = v; }, String(speed));
  await page.click('#solve');
  await page.waitForFunction(() => document.getElementById('status').dataset.done === 'true',
                             { timeout: 90000 });
  check(await data(page, '#board', 'board') === goal, 'the animation did not end on the goal');
  check(await data(page, '#board', 'solved') === 'true', 'the page does not say solved');
  check(Number(await data(page, '#status', 'length')) === api.data.length,
        `the page's length ${await data(page, '#status', 'length')} is not the API's ${api.data.length}`);
  check(Number(await text(page, '#move-count')) === api.data.length,
        'the move counter does not show the solution length');
  const status = await text(page, '#status');
  check(/optimal, \d+ moves/.test(status) && status.includes('on the goal'), `status line: ${status}`);
  return api.data;
}

// Type (or paste) text into the board field, with a size, and set it.
// a wait named in its failure
async function step(label, fn) {
  try { return await fn(); } catch (e) { throw new Error(`${label}: ${e.message}`); }
}

async function typeBoard(page, text, size = '') {
  await page.$eval('#board-input', (e, v) => { e.value = v; }, text);
  await page.$eval('#board-size', (e, v) => { e.value = v; }, size);
  await page.click('#board-set');
}

// The heuristics counted here from their definitions, on board text.
function counted(board, goal) {
  const b = board.split('/').map((r) => r.split(' ').map(Number));
  const g = goal.split('/').map((r) => r.split(' ').map(Number));
  const at = new Map();
  g.forEach((row, r) => row.forEach((t, c) => at.set(t, [r, c])));
  let misplaced = 0, manhattan = 0;
  b.forEach((row, r) => row.forEach((t, c) => {
    if (!t) return;
    const [gr, gc] = at.get(t);
    misplaced += gr !== r || gc !== c ? 1 : 0;
    manhattan += Math.abs(gr - r) + Math.abs(gc - c);
  }));
  return { misplaced, manhattan };
}

// Every rect of a selector inside the viewport (0..height).
async function onScreen(page, selector, height) {
  const box = await page.$eval(selector, (e) => { const r = e.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, height: r.height }; });
  return box.height > 0 && box.top >= 0 && box.bottom <= height;
}

const tests = {
  async 'loads the page on the database size'(page) {
    check(await data(page, '#board', 'board') === '1 2 3/4 5 6/7 8 0', 'not the 3x3 goal');
    check((await page.$$('#board .tile')).length === 8, 'not 8 tiles');
    check((await text(page, '#verdict')).includes('Solvable'), 'no verdict');
  },

  async 'slides tiles by clicking and by keys'(page) {
    await page.click('#board .tile[data-tile="8"]');
    await boardIs(page, '1 2 3/4 5 6/7 0 8');
    check(await text(page, '#move-count') === '1', 'move counter after a click');
    await page.waitForFunction(() => document.getElementById('exact-distance')?.textContent === '1');
    await page.click('#board .tile[data-tile="7"]');
    await boardIs(page, '1 2 3/4 5 6/0 7 8');
    await page.focus('#board');
    await page.keyboard.press('ArrowUp');      // the tile below the blank: none
    await boardIs(page, '1 2 3/4 5 6/0 7 8');
    await page.keyboard.press('ArrowDown');    // 4 slides down
    await boardIs(page, '1 2 3/0 5 6/4 7 8');
    await page.keyboard.press('ArrowLeft');    // 5 slides left
    await boardIs(page, '1 2 3/5 0 6/4 7 8');
    check(await text(page, '#move-count') === '4', 'move counter after keys');
    await page.waitForFunction(() => document.getElementById('exact-distance')?.textContent === '4');
    await page.click('#board .tile[data-tile="1"]'); // not in the blank's line: no move
    await page.click('#board .tile[data-tile="2"]');
    await boardIs(page, '1 0 3/5 2 6/4 7 8');
    await page.click('#board .tile[data-tile="7"]'); // two tiles slide at once (2 and 7)
    await boardIs(page, '1 2 3/5 7 6/4 0 8');
    check(await text(page, '#move-count') === '7', 'move counter after sliding two tiles');
  },

  async 'the Loyd 14-15 trap is provably unsolvable'(page) {
    await page.click('#loyd');
    await boardIs(page, '1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0');
    await page.waitForFunction(() => document.getElementById('verdict').dataset.solvable === 'false');
    check((await text(page, '#verdict')).includes('Unsolvable'), 'verdict does not say Unsolvable');
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('unsolvable'));
    const s = await text(page, '#status');
    check(s.includes('0 nodes') && s.includes('inversions 1'), `status: ${s}`);
  },

  async 'solves a scrambled 3x3 and draws h and d'(page, url) {
    await choose(page, 3, 3);
    await page.$eval('#seed', (e) => { e.value = '2024'; });
    await page.click('#scramble');
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('seed 2024'));
    const sol = await solveAndCheck(page, url, 30);
    check(sol.method === 'db', `auto chose ${sol.method}, not the database`);
    await page.waitForFunction(() => !document.getElementById('hd-figure').hidden);
    const series = await page.$$eval('#hd-chart polyline', (ps) => ps.map((p) => p.dataset.series));
    check(series.includes('d') && series.includes('lc') && series.includes('manhattan'),
          `series drawn: ${series}`);
  },

  async 'solves a scrambled 4x4 with IDA*'(page, url) {
    await choose(page, 4, 4);
    await page.$eval('#seed', (e) => { e.value = '11'; });
    await page.$eval('#walk', (e) => { e.value = '60'; });
    await page.click('#walk-scramble');
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('seed 11'));
    const sol = await solveAndCheck(page, url, 30);
    check(sol.method === 'ida' && sol.heuristic === 'lc', `method ${sol.method}`);
    check((await text(page, '#status')).includes('nodes'), 'no node count in the status line');
  },

  async 'solves towards the other goal (blank first)'(page, url) {
    await choose(page, 3, 3, 'first');
    await page.waitForFunction(() => document.getElementById('board').dataset.goal === '0 1 2/3 4 5/6 7 8');
    check(!(await page.$eval('#hist-note', (e) => e.hidden)), 'the database of the other goal was used');
    await page.$eval('#seed', (e) => { e.value = '3'; });
    await page.$eval('#walk', (e) => { e.value = '25'; });
    await page.click('#walk-scramble');
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('seed 3'));
    const sol = await solveAndCheck(page, url, 30);
    check(sol.method === 'ida', `auto chose ${sol.method} for a goal no database covers`);
  },

  async 'labels a layer-by-layer solution not optimal'(page) {
    await choose(page, 5, 5);
    await page.$eval('#seed', (e) => { e.value = '5'; });
    await page.click('#scramble');
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('seed 5'));
    await page.select('#method', 'layers');
    await page.$eval('#speed', (e) => { e.value = '30'; });
    await page.click('#solve');
    await page.waitForFunction(() => document.getElementById('status').dataset.method === 'layers');
    const s = await text(page, '#status');
    check(s.includes('(not optimal)') && !s.includes('optimal,'), `status: ${s}`);
    await page.click('#pause'); // pause, then two single steps
    const before = Number(await text(page, '#move-count'));
    await page.click('#step');
    await page.click('#step');
    check(Number(await text(page, '#move-count')) === before + 2, 'Step did not advance by one move each');
    await page.select('#method', 'auto');
  },

  async 'is usable with the keyboard and labelled for screen readers'(page) {
    await choose(page, 3, 3);
    const unnamed = await page.$$eval('button, select, input', (els) => els.filter((e) => {
      const name = e.getAttribute('aria-label') || (e.labels && e.labels.length && e.labels[0].textContent)
        || e.textContent;
      return !name || !name.trim();
    }).map((e) => e.id || e.outerHTML.slice(0, 40)));
    check(unnamed.length === 0, `controls without a name: ${unnamed}`);
    const live = await page.$$eval('[aria-live]', (els) => els.map((e) => e.id));
    check(live.includes('verdict') && live.includes('status'), `live regions: ${live}`);
    await page.focus('#loyd');
    let focused = '';
    for (let i = 0; i < 3 && !focused.startsWith('tile'); i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => (document.activeElement.classList.contains('tile')
        ? 'tile ' + document.activeElement.dataset.tile : document.activeElement.id));
    }
    check(focused.startsWith('tile'), `Tab did not reach a tile (${focused})`);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    check(outline !== 'none', 'the focused tile shows no outline');
    const label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
    check(/^Tile \d, row \d, column \d$/.test(label), `tile label: ${label}`);
  },

  async 'draws the 3x3 histogram with the board\'s layer'(page) {
    await choose(page, 3, 3);
    await page.click('#board .tile[data-tile="6"]');
    // the goal's own layer (0) may be highlighted before the move's answer
    // arrives: wait for the answer, and let the checks below say what is wrong
    await page.waitForFunction(() => {
      const r = document.querySelector('#histogram rect.here');
      return r && r.dataset.distance === '1';
    }, { timeout: 10000 }).catch(() => {});
    const bars = await page.$$eval('#histogram rect', (rs) => rs.map((r) => ({
      d: Number(r.dataset.distance), h: Number(r.getAttribute('height')), here: r.classList.contains('here') })));
    check(bars.length === HIST_3X3.length, `${bars.length} bars, not ${HIST_3X3.length}`);
    const top = Math.max(...bars.map((b) => b.h));
    bars.forEach((b, d) => check(Math.abs(b.h / top - HIST_3X3[d] / 24047) < 1e-6,
                                 `bar ${d} is not ${HIST_3X3[d]} boards high`));
    check(bars.filter((b) => b.here).map((b) => b.d).join() === '1', 'the highlighted layer is not 1');
  },

  async 'takes a typed board in any syntax, the size inferred'(page) {
    await choose(page, 4, 4);
    await typeBoard(page, '8 6 7\n2 5 4\n3 0 1');   // rows on lines: 3x3
    await boardIs(page, '8 6 7/2 5 4/3 0 1');
    check(await page.$eval('#rows', (e) => e.value) === '3' &&
          await page.$eval('#cols', (e) => e.value) === '3', 'the size was not taken from the rows');
    await page.waitForFunction(() => document.getElementById('exact-distance')?.textContent === '31');
    await typeBoard(page, '1,2,3,4,5,6,7,_,8', '3x3'); // a flat list with a size, _ blank
    await boardIs(page, '1 2 3/4 5 6/7 0 8');
    check(await page.$eval('#board-input', (e) => e.value) === '1 2 3/4 5 6/7 0 8', 'field not normalised');
    await typeBoard(page, '1 2 3 4 5/6 7 8 9 10/11 12 13 14 0'); // 3x5, no database
    await boardIs(page, '1 2 3 4 5/6 7 8 9 10/11 12 13 14 0');
    check(await page.$eval('#cols', (e) => e.value) === '5', 'not 3x5');
  },

  async 'shows a bad board\'s error next to the field'(page) {
    await choose(page, 3, 3);
    const before = await data(page, '#board', 'board');
    const cases = [['1 2 3/4 5 6/7 8 8', 'tile 8 appears twice'],
                   ['1 2 3/4 5', 'row 2 has 2 cells but row 1 has 3'],
                   ['1 2 3/4 5 6/7 8 x', "unexpected character 'x'"]];
    for (const [text, want] of cases) {
      await typeBoard(page, text);
      await page.waitForFunction((w) => document.getElementById('board-error').textContent.includes(w),
                                 { timeout: 5000 }, want);
      check(await page.$eval('#board-input', (e) => e.getAttribute('aria-invalid')) === 'true',
            'the field is not marked invalid');
      check(await data(page, '#board', 'board') === before, 'a bad board changed the board');
    }
    // the error sits next to the field: between the field and the board
    const [field, error, board] = await Promise.all(['#board-input', '#board-error', '#board-wrap']
      .map((sel) => page.$eval(sel, (e) => e.getBoundingClientRect().top)));
    check(field < error && error < board, 'the error is not next to the field');
    await typeBoard(page, '1 2 3/4 5 6/7 8 0');
    await page.waitForFunction(() => document.getElementById('board-error').textContent === '');
  },

  async 'a one-line Korf board: the hint offers 4x4, blank first'(page) {
    await typeBoard(page, KORF1);                     // one line, no size: 1x16
    await boardIs(page, KORF1);
    await step('wait 1', () => page.waitForFunction(() => !document.getElementById('board-hint').hidden));
    const hint = await text(page, '#board-hint-text');
    check(hint.includes('Read as one row (1x16)') && hint.includes("as 4x4 it can reach the blank-first goal of Korf's convention"),
          `hint: ${hint}`);
    await page.click('#board-hint-use');
    await boardIs(page, KORF1_4X4);
    check(await data(page, '#board', 'goal') === '0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15', 'goal not blank first');
    check(await page.$eval('#goal', (e) => e.value) === 'first', 'goal select not blank first');
    await step('wait 2', () => page.waitForFunction(() => document.getElementById('verdict').dataset.solvable === 'true'));
    // as 4x4 towards the standard goal: unsolvable, and the verdict says which goal it can reach
    await typeBoard(page, KORF1, '4x4');
    await step('wait 3', () => page.waitForFunction(() => document.getElementById('verdict').dataset.solvable !== ''));
    // the field keeps the goal chosen (blank first): solvable
    check(await page.$eval('#verdict', (e) => e.dataset.solvable) === 'true', 'not solvable blank first');
    // the typed board's load sets the goal select when it ends: let it end
    // before the select changes (else it sets 'first' back)
    await page.waitForNetworkIdle({ idleTime: 300, timeout: 30000 });
    await page.select('#goal', 'last');
    // the goal's change resets the board and asks the server again: let it
    // finish before the next board is typed (typing during it races the reset)
    await page.waitForNetworkIdle({ idleTime: 300, timeout: 30000 });
    await typeBoard(page, KORF1, '4x4');
    await step('wait 4', () => page.waitForFunction(() => document.getElementById('verdict').dataset.solvable === 'false')).catch(async (e) => {
      const st = await page.evaluate(() => JSON.stringify({ v: document.getElementById('verdict').dataset, t: document.getElementById('verdict').textContent, g: document.getElementById('goal').value, b: document.getElementById('board').dataset.goal, f: document.getElementById('board-input').value, err: document.getElementById('board-error') && document.getElementById('board-error').textContent }));
      throw new Error(`${e.message} ${st}`);
    });
    check((await text(page, '#verdict')).includes("It can reach the blank-first goal of Korf's convention instead"),
          `verdict: ${await text(page, '#verdict')}`);
  },

  async 'opens the board of its address, and links to it'(page, url, browser) {
    const p = await browser.newPage();
    watch(p);
    try {
      await p.setViewport({ width: 1100, height: 900 });
      const q = new URLSearchParams({ board: KORF1, size: '4x4', goal: 'first' });
      await p.goto(url + '?' + q.toString(), { waitUntil: 'load' });
      await p.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
      await boardIs(p, KORF1_4X4);
      check(await data(p, '#board', 'goal') === '0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15', 'goal not blank first');
      await p.waitForFunction(() => document.getElementById('verdict').dataset.solvable === 'true');
      // the link names this board, and opens it
      const link = await p.$eval('#board-link', (e) => e.href);
      const lq = new URL(link).searchParams;
      check(lq.get('board') === KORF1_4X4 && lq.get('goal') === 'first', `link: ${link}`);
      check(link.endsWith('/?board=14+13+15+7/11+12+9+5/6+0+2+1/4+8+10+3&goal=first'),
            `the link does not read as the board's rows: ${link}`);
      await p.click('#board .tile[data-tile="2"]'); // the blank's row: 2 slides left
      await boardIs(p, '14 13 15 7/11 12 9 5/6 2 0 1/4 8 10 3');
      check(new URL(p.url()).searchParams.get('board') === '14 13 15 7/11 12 9 5/6 2 0 1/4 8 10 3',
            'the address does not follow the board');
      // a bad board in the address: the error by the field, the page usable
      await p.goto(url + '?board=1%202%203%2F4%205', { waitUntil: 'load' });
      await p.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
      check((await text(p, '#board-error')).includes('row 2 has 2 cells but row 1 has 3'), 'no error for a bad address');
    } finally {
      await p.close();
    }
  },

  async 'says what can compute the histogram of each size'(page) {
    await choose(page, 3, 4);
    let note = await text(page, '#hist-note');
    check(note.includes('slide bfs 3x4') && note.includes('239,500,800 boards'), `3x4: ${note}`);
    await choose(page, 4, 4);
    note = await text(page, '#hist-note');
    check(!note.includes('slide bfs 4x4') && note.includes('slide frontier 4x4 --max-depth D') &&
          note.includes('10,461,394,944,000 boards'), `4x4: ${note}`);
    await choose(page, 6, 6);
    note = await text(page, '#hist-note');
    check(!note.includes('slide bfs') && !note.includes('slide frontier 6x6') &&
          note.includes('up to 34 cells'), `6x6: ${note}`);
    check(!(await page.$eval('#hist-note', (e) => e.hidden)), 'no note');
  },

  async 'shows the live h, pattern databases and no db method without a database'(page) {
    await choose(page, 3, 3);
    await page.click('#board .tile[data-tile="6"]');
    await page.click('#board .tile[data-tile="5"]');
    await page.waitForFunction(() => document.getElementById('exact-distance')?.textContent === '2');
    await page.waitForFunction(() => document.getElementById('live-h').dataset.manhattan !== undefined);
    const board = await data(page, '#board', 'board'), goal = await data(page, '#board', 'goal');
    const want = counted(board, goal), h = await page.$eval('#live-h', (e) => ({ ...e.dataset }));
    check(Number(h.manhattan) === want.manhattan && Number(h.misplaced) === want.misplaced,
          `live h ${JSON.stringify(h)} on ${board}, counted ${JSON.stringify(want)}`);
    const d = Number(await text(page, '#exact-distance'));
    check(Number(h.pdb) >= want.manhattan && Number(h.pdb) <= d, `pdb ${h.pdb} not within [manhattan, d]`);
    check(Number(h.lc) >= want.manhattan && Number(h.lc) <= d && Number(h.wd) <= d, `lc ${h.lc}, wd ${h.wd}`);
    let pdb = await text(page, '#pdb-note');
    check(pdb.includes('Pattern databases loaded: 3x3 (tiles 1-4 + 5-8, additive); ' +
                       '3x3 (tiles 1-4, blank-first goal)') &&
          await page.$eval('#pdb-note', (e) => e.dataset.here) === 'true', `pdb note: ${pdb}`);
    // the blank-first set is the one for that goal
    await choose(page, 3, 3, 'first');
    await page.waitForFunction(() => document.getElementById('pdb-note').dataset.here === 'true');
    await choose(page, 3, 3);
    check(await page.$eval('#method option[value="db"]', (e) => !e.hidden && !e.disabled), 'db hidden on 3x3');
    // 4x4: no database, no tables; h live all the same
    await choose(page, 4, 4);
    await page.click('#board .tile[data-tile="12"]');
    // the goal's h (all 0) stands until the moved board's answer comes
    await page.waitForFunction(() => document.getElementById('live-h').dataset.manhattan === '1');
    const h4 = await page.$eval('#live-h', (e) => ({ ...e.dataset }));
    check(h4.manhattan === '1' && h4.wd === '1' && h4.pdb === undefined, `4x4 live h ${JSON.stringify(h4)}`);
    pdb = await text(page, '#pdb-note');
    check(pdb.includes('None is built for this size and goal'), `4x4 pdb note: ${pdb}`);
    // IDA* with lc is still exact: the note must not read as if nothing were
    check(pdb.includes('IDA* uses lc here (still optimal, slower)'), `4x4 pdb note: ${pdb}`);
    check(await page.$eval('#method option[value="db"]', (e) => e.hidden && e.disabled), 'db offered on 4x4');
    check(!(await page.$eval('#distance', (e) => e.textContent)).includes('database'), 'a database claimed on 4x4');
  },

  async 'explains the heuristics on the page'(page) {
    for (const name of ['lc', 'lc-pairs', 'wd', 'misplaced', 'manhattan', 'pdb']) {
      const dd = await page.$eval(`#h-${name}`, (dt) => dt.nextElementSibling.textContent);
      check(dd.length > 60, `no explanation of ${name}`);
    }
    check((await page.$eval('#h-lc-pairs', (dt) => dt.nextElementSibling.textContent)).includes('Not admissible'),
          'lc-pairs not marked inadmissible');
    const links = await page.$$eval('#live-h a', (as) => as.map((a) => a.getAttribute('href')));
    check(links.includes('#h-lc') && links.includes('#h-wd'), `live h links: ${links}`);
  },

  async 'disables Solve while solving, and cancels'(page) {
    await choose(page, 5, 5);
    await page.$eval('#seed', (e) => { e.value = '5'; });
    await page.click('#scramble');
    await page.waitForFunction(() => document.getElementById('status').textContent.includes('seed 5'));
    await page.select('#method', 'ida');
    await page.click('#solve');
    await page.waitForFunction(() => document.getElementById('solve').disabled &&
                               !document.getElementById('cancel').disabled, { timeout: 2000 });
    await page.click('#cancel');
    await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Cancelled'),
                               { timeout: 2000 });
    check(!(await page.$eval('#solve', (e) => e.disabled)) && await page.$eval('#cancel', (e) => e.disabled),
          'Solve not enabled again after Cancel');
    // the same search left to the server's 2 s limit: one "stopped", no repeats
    await page.click('#solve');
    await page.waitForFunction(() => document.getElementById('status').dataset.stopped === 'true',
                               { timeout: 10000 });
    const s = await text(page, '#status');
    check(s.includes('stopped at the time limit of 2 s') && !/stopped: stopped/.test(s), `status: ${s}`);
    await page.select('#method', 'auto');
  },

  async 'captions the only board at a distance without "one of 1"'(page) {
    await choose(page, 3, 3);
    await page.waitForFunction(() => document.getElementById('hist-caption').textContent.includes('distance 0'));
    let caption = await text(page, '#hist-caption');
    check(caption.includes('the only board there') && !caption.includes('one of 1 '), `caption: ${caption}`);
    await page.click('#board .tile[data-tile="8"]');
    await page.waitForFunction(() => document.getElementById('hist-caption').textContent.includes('distance 1'));
    caption = await text(page, '#hist-caption');
    check(caption.includes('one of 2 boards there'), `caption: ${caption}`);
  },

  async 'keeps board and controls on one phone screen, charts readable'(page, url, browser) {
    const p = await browser.newPage();
    watch(p);
    try {
      await p.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
      const walk = await post(url, '/api/scramble', { size: '4x4', walk: 40, seed: 7 });
      await p.goto(url + '?board=' + encodeURIComponent(walk.data.board), { waitUntil: 'load' });
      await p.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
      await p.$eval('#speed', (e) => { e.value = '2'; });
      await p.click('#solve');
      await p.waitForFunction(() => document.getElementById('status').dataset.length !== undefined,
                              { timeout: 10000 });
      await new Promise((r) => setTimeout(r, 600)); // mid-animation
      for (const sel of ['#board', '#pause', '#step', '#solve', '#status'])
        check(await onScreen(p, sel, 844), `${sel} is not on the 390x844 screen during the solve`);
      const wide = await p.evaluate(() => document.documentElement.scrollWidth);
      check(wide <= 390, `the page is ${wide} px wide on a 390 px screen`);
      await p.screenshot({ path: join(SHOTS, 'phone-solving.png') });
      // the chart of h and d: text at least 11 px on the screen, inside the figure
      await p.waitForFunction(() => !document.getElementById('hd-figure').hidden, { timeout: 10000 });
      const sizes = await p.$$eval('#hd-chart text', (ts) => ts.map((t) => t.getBoundingClientRect().height));
      check(sizes.length > 4 && Math.min(...sizes) >= 11, `chart text heights ${sizes}`);
      const fig = await p.$eval('#hd-chart', (e) => e.getBoundingClientRect().width);
      check(fig <= 370, `chart ${fig} px wide`);
      // and the histogram, on 3x3
      await p.select('#rows', '3');
      await p.select('#cols', '3');
      await p.waitForFunction(() => document.querySelectorAll('#histogram rect').length === 32);
      const hs = await p.$$eval('#histogram text', (ts) => ts.map((t) => t.getBoundingClientRect().height));
      check(Math.min(...hs) >= 11, `histogram text heights ${hs}`);
      // distance labels side by side, none over another, the radius (31) among them
      const ticks = await p.$$eval('#histogram text.tick', (ts) => ts.map((t) => {
        const b = t.getBoundingClientRect();
        return { d: t.textContent, left: b.left, right: b.right };
      }));
      check(ticks.some((t) => t.d === '31'), `no radius label: ${ticks.map((t) => t.d)}`);
      for (let i = 1; i < ticks.length; i++)
        check(ticks[i].left >= ticks[i - 1].right + 2,
              `distance labels ${ticks[i - 1].d} and ${ticks[i].d} overlap on a 390 px screen`);
      // the board's marker label has a white edge where it crosses the bars
      const edge = await p.$eval('#histogram text.marker-label', (t) => getComputedStyle(t).stroke);
      check(edge === 'rgb(255, 255, 255)', `marker label edge ${edge}`);
      await p.screenshot({ path: join(SHOTS, 'phone-histogram.png'), fullPage: true });
    } finally {
      await p.close();
    }
  },

  async 'shows boards above 8x8 as text'(page) {
    await choose(page, 10, 9);
    check(await page.$eval('#board-text', (e) => !e.hidden), 'no text board');
    const rows = (await text(page, '#board-text')).split('\n');
    check(rows.length === 10 && rows[9].trim().endsWith('.'), 'text board is not 10 rows ending in the blank');
  },

  async 'the multi-tile metric: a click slides a group as one move, Solve solves in it'(page) {
    await choose(page, 3, 3);
    await page.click('#reset');
    await boardIs(page, '1 2 3/4 5 6/7 8 0');
    await page.select('#metric', 'mtm');
    await page.waitForFunction(() => document.getElementById('board').dataset.metric === 'mtm');
    check(await text(page, '#move-count') === '0', 'the move counter did not start again');
    // tile 7 is two cells left of the blank: 7 and 8 slide right together, one move
    await page.click('#board .tile[data-tile="7"]');
    await boardIs(page, '1 2 3/4 5 6/0 7 8');
    check(await text(page, '#move-count') === '1', 'a group slide did not count one move');
    await step('the exact multi-tile distance 1, from the mtm database',
               () => page.waitForFunction(() =>
                 document.getElementById('exact-distance')?.textContent === '1', { timeout: 5000 }));
    // the 8-puzzle's hardest single-tile board: its MTM length by the command line
    const board = '8 6 7/2 5 4/3 0 1';
    const cli = Number(execFileSync(SLIDE, ['solve', '--metric', 'mtm', '--count', board])
      .toString().trim());
    await typeBoard(page, board);
    await boardIs(page, board);
    await page.$eval('#speed', (e) => { e.value = '30'; });
    await page.click('#solve');
    await step('the animation ends', () => page.waitForFunction(() =>
      document.getElementById('status').dataset.done === 'true', { timeout: 60000 }));
    check(await data(page, '#status', 'metric') === 'mtm', 'the page did not solve in mtm');
    check(Number(await data(page, '#status', 'length')) === cli,
          `the page's length ${await data(page, '#status', 'length')} is not solve --metric mtm's ${cli}`);
    check(Number(await text(page, '#move-count')) === cli,
          `the move counter says ${await text(page, '#move-count')}, not ${cli} group moves`);
    check(await data(page, '#board', 'solved') === 'true', 'the animation did not end on the goal');
    await page.select('#metric', 'stm');
    await page.waitForFunction(() => document.getElementById('board').dataset.metric === 'stm');
  },

  async 'every file of the page answered 200, its icon too'() {
    check(iconAnswered, 'the page asked for no icon, or it did not answer 200');
    check(badResources.length === 0, `failed requests: ${badResources.join(', ')}`);
  },
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'slide-browser-'));
  mkdirSync(SHOTS, { recursive: true });
  const db = join(dir, '3x3.db');
  execFileSync(SLIDE, ['bfs', '3x3', '--save', db], { stdio: 'ignore' });
  const dbm = join(dir, '3x3-mtm.db');
  execFileSync(SLIDE, ['bfs', '3x3', '--metric', 'mtm', '--save', dbm], { stdio: 'ignore' });
  for (const [tiles, name] of [['1-4', 'a'], ['5-8', 'b']])
    execFileSync(SLIDE, ['pdb', 'build', '3x3', '--pattern', tiles, '-o', join(dir, `${name}.pdb`)],
                 { stdio: 'ignore' });
  // a second set, for the blank-first goal: the page tells the two apart
  execFileSync(SLIDE, ['pdb', 'build', '3x3', '--goal', '0 1 2/3 4 5/6 7 8', '--pattern', '1-4',
                       '-o', join(dir, 'f.pdb')], { stdio: 'ignore' });
  const { child, url } = await startServer([db, dbm], `${join(dir, 'a.pdb')}+${join(dir, 'b.pdb')},` +
                                               join(dir, 'f.pdb'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 900 });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    watch(page);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
    let i = 0;
    for (const [name, fn] of Object.entries(tests)) {
      const shot = join(SHOTS, `${String(++i).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-')}.png`);
      try {
        await fn(page, url, browser);
        check(errors.length === 0, `script errors: ${errors.join('; ')}`);
        console.log(`ok   ${name}`);
        passed++;
      } catch (e) {
        console.log(`FAIL ${name}: ${e.message}`);
        failed++;
      }
      await page.screenshot({ path: shot, fullPage: true });
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`browser: ${passed} passed, ${failed} failed (screenshots in ${SHOTS})`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.log(`browser: error: ${e.message}`);
  process.exit(1);
});

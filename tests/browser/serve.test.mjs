// serve.test.mjs - the page of `slide serve` in a real browser: headless
// Debian chromium driven by puppeteer-core (no browser download).
//
//   SLIDE=build/slide CHROMIUM=/usr/bin/chromium SHOTS=DIR node serve.test.mjs
//
// Starts slide serve on an ephemeral loopback port with a 3x3 distance
// database it builds first, plays, traps, solves and charts, saves a
// screenshot per test in SHOTS, and ends with "browser: N passed, N failed".
// The truths: the goal is checked cell by cell in the page's own board, the
// animation's length against the length /api/solve gives for the same
// board, the 3x3 histogram against the published counts (Reinefeld 1993).
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

async function startServer(db) {
  const child = spawn(SLIDE, ['serve', '--port', '0', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'] });
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

  async 'shows boards above 8x8 as text'(page) {
    await choose(page, 10, 9);
    check(await page.$eval('#board-text', (e) => !e.hidden), 'no text board');
    const rows = (await text(page, '#board-text')).split('\n');
    check(rows.length === 10 && rows[9].trim().endsWith('.'), 'text board is not 10 rows ending in the blank');
  },
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'slide-browser-'));
  mkdirSync(SHOTS, { recursive: true });
  const db = join(dir, '3x3.db');
  execFileSync(SLIDE, ['bfs', '3x3', '--save', db], { stdio: 'ignore' });
  const { child, url } = await startServer(db);
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 900 });
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
    let i = 0;
    for (const [name, fn] of Object.entries(tests)) {
      const shot = join(SHOTS, `${String(++i).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-')}.png`);
      try {
        await fn(page, url);
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

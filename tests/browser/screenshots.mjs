// screenshots.mjs - the pictures of slide serve's page in docs/: the page at
// 1280 px wide and on a 390x844 phone, each in the middle of animating an
// optimal solution of the same 3x3 board (opened from its address), with
// a 3x3 distance database and 3x3 pattern databases loaded.
//
//   SLIDE=build/slide CHROMIUM=/usr/bin/chromium node screenshots.mjs OUTDIR
//
// Writes OUTDIR/slide-serve.png and OUTDIR/slide-serve-phone.png.  Run by
// scripts/screenshots.sh (make screenshots), which builds a clean commit.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';

const SLIDE = process.env.SLIDE;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const OUT = resolve(process.argv[2] || '.');
const BOARD = '8 6 7/2 5 4/3 0 1'; // an antipode of the 8-puzzle: 31 moves

async function startServer(args) {
  const child = spawn(SLIDE, ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((res, rej) => {
    child.stdout.on('data', (d) => res(String(d).split('\n')[0].trim()));
    child.on('exit', (code) => rej(new Error(`slide serve exited with ${code}`)));
  });
  return { child, url };
}

async function shot(browser, url, viewport, moves, file) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  await page.goto(`${url}?board=${encodeURIComponent(BOARD)}`, { waitUntil: 'load' });
  await page.waitForSelector('body[data-ready="true"]');
  await page.$eval('#speed', (e) => { e.value = '30'; });
  await page.click('#solve');
  await page.waitForFunction(() => !document.getElementById('hd-figure').hidden);
  // paused by the page itself on the move that reaches m: a round trip from
  // here can come too late on a busy machine (the animation ends first)
  await page.waitForFunction((m) => {
    if (Number(document.getElementById('move-count').textContent) < m) return false;
    const pause = document.getElementById('pause');
    if (pause.textContent === 'Pause') pause.click(); // once: the check may run again
    return true;
  }, { polling: 'mutation' }, moves);
  await page.waitForFunction(() => document.getElementById('pause').textContent === 'Resume');
  await page.waitForFunction(() => document.getElementById('live-h').textContent.includes('pdb'));
  await new Promise((r) => setTimeout(r, 300)); // the tiles' slide ends
  await page.screenshot({ path: join(OUT, file), fullPage: viewport.width > 500 });
  await page.close();
  console.log(`screenshots: wrote ${join(OUT, file)}`);
}

const dir = mkdtempSync(join(tmpdir(), 'slide-shots-'));
execFileSync(SLIDE, ['bfs', '3x3', '--save', join(dir, '3x3.db')], { stdio: 'ignore' });
for (const [tiles, name] of [['1-4', 'a'], ['5-8', 'b']])
  execFileSync(SLIDE, ['pdb', 'build', '3x3', '--pattern', tiles, '-o', join(dir, `${name}.pdb`)],
               { stdio: 'ignore' });
const { child, url } = await startServer(['--db', join(dir, '3x3.db'), '--pdb',
                                          `${join(dir, 'a.pdb')}+${join(dir, 'b.pdb')}`]);
const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true,
                                         args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  await shot(browser, url, { width: 1280, height: 900 }, 12, 'slide-serve.png');
  await shot(browser, url, { width: 390, height: 844, isMobile: true, hasTouch: true }, 12,
             'slide-serve-phone.png');
} finally {
  await browser.close();
  child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}

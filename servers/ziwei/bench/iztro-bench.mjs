#!/usr/bin/env node
// Times iztro 2.6.1 (the reference engine) on the same pseudo-random inputs as
// the Go benchmarks in this folder (bench_test.go): one astro.bySolar per
// birth, one chart.horoscope() per target. Not part of the tests.
//
//   node iztro-bench.mjs [--n 2000] [--warmup 500] [--print-cases 3]
//
// iztro is installed from npm into a temporary directory (or set IZTRO_DIR to
// a directory whose node_modules already holds iztro@2.6.1).
import { execSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf('--' + name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const N = opt('n', 2000);
const WARMUP = opt('warmup', 500);
const PRINT = opt('print-cases', 0);
const SEED = 20261121;

// mulberry32, identical to bench/inputs.go
function mulberry32(a) {
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const DAY = 86400000;
const EPOCH = Date.UTC(1900, 0, 1);
const LAST = Date.UTC(2100, 11, 31);
const fmt = (ms) => new Date(ms).toISOString().slice(0, 10);

function cases(seed, n) {
  const r = mulberry32(seed);
  const span = (LAST - EPOCH) / DAY + 1;
  const out = [];
  for (let i = 0; i < n; i++) {
    const d = EPOCH + (r() % span) * DAY;
    const timeIndex = r() % 13;
    const female = r() % 2 === 1;
    let t = d + (r() % (100 * 365)) * DAY;
    if (t > LAST) t = LAST;
    const targetTime = r() % 13;
    out.push({ date: fmt(d), timeIndex, gender: female ? '女' : '男', target: fmt(t), targetTime });
  }
  return out;
}

const all = cases(SEED, WARMUP + N);
if (PRINT > 0) {
  for (const c of all.slice(0, PRINT)) console.log(`${c.date} ${c.timeIndex} ${c.gender} ${c.target} ${c.targetTime}`);
  process.exit(0);
}

let dir = process.env.IZTRO_DIR;
if (!dir) {
  dir = mkdtempSync(join(tmpdir(), 'iztro-bench-'));
  process.stderr.write(`installing iztro@2.6.1 into ${dir} …\n`);
  execSync('npm init -y >/dev/null && npm install --no-audit --no-fund --silent iztro@2.6.1', { cwd: dir, stdio: 'inherit' });
}
const require = createRequire(join(dir, 'package.json'));
const { astro } = require('iztro');
const version = require('iztro/package.json').version;

const chartTimes = [];
const horoTimes = [];
for (let i = 0; i < all.length; i++) {
  const c = all[i];
  let t0 = process.hrtime.bigint();
  const chart = astro.bySolar(c.date, c.timeIndex, c.gender, true, 'zh-CN');
  let t1 = process.hrtime.bigint();
  chart.horoscope(c.target, c.targetTime);
  const t2 = process.hrtime.bigint();
  if (i >= WARMUP) {
    chartTimes.push(Number(t1 - t0) / 1000);
    horoTimes.push(Number(t2 - t1) / 1000);
  }
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { mean: mean.toFixed(0), median: q(0.5).toFixed(0), p90: q(0.9).toFixed(0), p99: q(0.99).toFixed(0) };
}

const rss = process.resourceUsage().maxRSS; // KiB
console.log(JSON.stringify({
  iztro: version, node: process.version, n: N, warmup: WARMUP, seed: SEED,
  bySolar_us: stats(chartTimes), horoscope_us: stats(horoTimes), peakRSS_MiB: (rss / 1024).toFixed(1),
}, null, 1));

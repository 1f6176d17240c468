// Generates golden-format cases with iztro 2.6.1 in all six of its locales
// (chart/zh zh-CN, chartEn/en en-US, chartTw/tw zh-TW, chartJa/ja ja-JP,
// chartKo/ko ko-KR, chartVi/vi vi-VN), for local checks beyond the public set.
// Not used at run time. Setup (package.json and package-lock.json pin iztro;
// node_modules is not committed):
//   cd servers/ziwei/golden/testdata && npm ci
//   node gen-iztro.js SEED COUNT > extra.jsonl        # random inputs (30% solar, 70% lunar/edge)
//   node gen-iztro.js replay < golden.jsonl > out.jsonl  # recompute given inputs/targets
//   node gen-iztro.js --config '{"mutagens":{...}}' SEED COUNT  # under other settings: passed to
//        astro.config on top of the defaults and written as each record's top-level "config"
//        (the format of the public settings sets); a replayed record's own "config" is used too.
//   node gen-iztro.js --astro earth|human SEED COUNT  # the 地盘/人盘 of astro.withOptions,
//        written as the record's top-level "astroType"; a replayed record's own is used too.
//   node gen-iztro.js --langs zh-CN,en-US SEED COUNT  # only these locales (default: all six)
// Charts are made with astro.withOptions({type, dateStr, timeIndex, gender, isLeapMonth,
// fixLeap, language, astroType}). iztro's language is global and horoscope() prints in the
// last one set, so each locale's horoscopes are taken right after its chart.
// Records where iztro throws carry "error"; when it throws in some locales only (2.6.1:
// every ko-KR human chart), those carry "errors": {locale: message} and no rendering.
// testdata/extra-iztro.jsonl.gz is 300 such cases (seeds 11 and 12, error-free,
// stratified by kind; zh-CN, en-US and zh-TW only).
const { astro } = require('iztro');
const { Solar, Lunar, LunarYear } = require('lunar-typescript');
astro.config({ yearDivide: 'normal', horoscopeDivide: 'normal', ageDivide: 'normal', dayDivide: 'forward', algorithm: 'default' });
// --config JSON: iztro's config is global, so one setting group per process.
let config = null;
const ci = process.argv.indexOf('--config');
if (ci >= 0) { config = JSON.parse(process.argv[ci + 1]); process.argv.splice(ci, 2); }
if (config) astro.config(config);
// --astro earth|human: the chart type of astro.withOptions.
let astroType = null;
const ai = process.argv.indexOf('--astro');
if (ai >= 0) { astroType = process.argv[ai + 1]; process.argv.splice(ai, 2); }
const LANGS = [['zh-CN', 'chart', 'zh', true], ['en-US', 'chartEn', 'en', false], ['zh-TW', 'chartTw', 'tw', true], ['ja-JP', 'chartJa', 'ja', true], ['ko-KR', 'chartKo', 'ko', true], ['vi-VN', 'chartVi', 'vi', true]];
let langs = LANGS;
const li = process.argv.indexOf('--langs');
if (li >= 0) { const want = process.argv[li + 1].split(','); langs = LANGS.filter(l => want.includes(l[0])); process.argv.splice(li, 2); }
const seed = +process.argv[2] || 7, N = +process.argv[3] || 100;
let s = seed >>> 0;
function rnd() { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; }
function ri(a, b) { return a + Math.floor(rnd() * (b - a + 1)); }
const pad = n => String(n).padStart(2, '0');
const ymd = so => `${so.getYear()}-${pad(so.getMonth())}-${pad(so.getDay())}`;
const star = st => [st.name, st.type, st.scope, st.brightness ?? '', st.mutagen ?? ''];
function chartOut(c, withRaw) {
  const o = { gender: c.gender, solarDate: c.solarDate, lunarDate: c.lunarDate, chineseDate: c.chineseDate, time: c.time, timeRange: c.timeRange, sign: c.sign, zodiac: c.zodiac, earthlyBranchOfSoulPalace: c.earthlyBranchOfSoulPalace, earthlyBranchOfBodyPalace: c.earthlyBranchOfBodyPalace, soul: c.soul, body: c.body, fiveElementsClass: c.fiveElementsClass };
  if (withRaw) o.rawDates = { lunarDate: { lunarYear: c.rawDates.lunarDate.lunarYear, lunarMonth: c.rawDates.lunarDate.lunarMonth, lunarDay: c.rawDates.lunarDate.lunarDay, isLeap: c.rawDates.lunarDate.isLeap }, chineseDate: { yearly: c.rawDates.chineseDate.yearly, monthly: c.rawDates.chineseDate.monthly, daily: c.rawDates.chineseDate.daily, hourly: c.rawDates.chineseDate.hourly } };
  o.palaces = c.palaces.map(p => ({ index: p.index, name: p.name, isBodyPalace: p.isBodyPalace, isOriginalPalace: p.isOriginalPalace, heavenlyStem: p.heavenlyStem, earthlyBranch: p.earthlyBranch, majorStars: p.majorStars.map(star), minorStars: p.minorStars.map(star), adjectiveStars: p.adjectiveStars.map(star), changsheng12: p.changsheng12, boshi12: p.boshi12, jiangqian12: p.jiangqian12, suiqian12: p.suiqian12, decadal: { range: p.decadal.range, heavenlyStem: p.decadal.heavenlyStem, earthlyBranch: p.decadal.earthlyBranch }, ages: p.ages }));
  return o;
}
function item(it, extra) {
  const o = { index: it.index, name: it.name, heavenlyStem: it.heavenlyStem, earthlyBranch: it.earthlyBranch, palaceNames: it.palaceNames, mutagen: it.mutagen };
  if (it.stars) o.stars = it.stars.map(list => list.map(st => [st.name, st.type]));
  return Object.assign(o, extra);
}
function horoOut(h) {
  return { solarDate: h.solarDate, lunarDate: h.lunarDate, decadal: item(h.decadal), age: item(h.age, { nominalAge: h.age.nominalAge }), yearly: item(h.yearly, { yearlyDecStar: { jiangqian12: h.yearly.yearlyDecStar.jiangqian12, suiqian12: h.yearly.yearlyDecStar.suiqian12 } }), monthly: item(h.monthly), daily: item(h.daily), hourly: item(h.hourly) };
}
function build(inp, lang, type) {
  return astro.withOptions({ type: inp.isLunar ? 'lunar' : 'solar', dateStr: inp.date, timeIndex: inp.timeIndex, gender: inp.gender, isLeapMonth: inp.isLeapMonth, fixLeap: inp.fixLeap, language: lang, astroType: type || undefined });
}
const MIN = Solar.fromYmd(1900, 1, 1).getJulianDay(), MAX = Solar.fromYmd(2100, 12, 31).getJulianDay();
function solarFromJD(jd) { return Solar.fromJulianDay(jd); }
function randomInput(i) {
  const kind = ['random-solar', 'random-solar', 'random-solar', 'lunar', 'lunar-leap', 'lunar-leap-flag-ignored', 'edge-cny', 'edge-month-end', 'edge-leap-month', 'edge-jieqi'][i % 10];
  const inp = { date: '', isLunar: false, isLeapMonth: false, fixLeap: rnd() < 0.6, timeIndex: ri(0, 12), gender: rnd() < 0.5 ? '男' : '女' };
  if (kind === 'random-solar') {
    inp.date = ymd(solarFromJD(ri(MIN, MAX)));
  } else if (kind === 'lunar' || kind === 'lunar-leap' || kind === 'lunar-leap-flag-ignored') {
    let y = ri(1900, 2099), m = ri(1, 12);
    inp.isLunar = true;
    if (kind === 'lunar-leap') { for (let k = 0; k < 50; k++) { const lm = LunarYear.fromYear(y).getLeapMonth(); if (lm) { m = lm; break; } y = ri(1900, 2099); } inp.isLeapMonth = true; }
    if (kind === 'lunar-leap-flag-ignored') { inp.isLeapMonth = true; }
    inp.date = `${y}-${pad(m)}-${pad(ri(1, 30))}`;
  } else if (kind === 'edge-cny') {
    const y = ri(1901, 2100);
    let so = Lunar.fromYmd(y, 1, 1).getSolar();
    if (rnd() < 0.5) so = so.next(-1);
    inp.date = ymd(so); inp.timeIndex = [0, 11, 12, ri(0, 12)][ri(0, 3)];
  } else if (kind === 'edge-month-end') {
    const so = solarFromJD(ri(MIN + 40, MAX - 40));
    const lu = so.getLunar();
    const mm = require('lunar-typescript').LunarMonth.fromYm(lu.getYear(), lu.getMonth());
    const last = Lunar.fromYmd(lu.getYear(), lu.getMonth(), mm.getDayCount()).getSolar();
    inp.date = ymd(rnd() < 0.7 ? last : last.next(1)); inp.timeIndex = [0, 12, 12, 11][ri(0, 3)];
  } else if (kind === 'edge-leap-month') {
    let y; let lm = 0; for (let k = 0; k < 100 && !lm; k++) { y = ri(1900, 2099); lm = LunarYear.fromYear(y).getLeapMonth(); }
    const d = [14, 15, 16, 17, 1, 29, 30][ri(0, 6)];
    try { inp.date = ymd(Lunar.fromYmd(y, -lm, d).getSolar()); } catch (e) { inp.date = ymd(Lunar.fromYmd(y, -lm, 15).getSolar()); }
    inp.timeIndex = [0, 11, 12, ri(0, 12)][ri(0, 3)];
  } else {
    const y = ri(1900, 2100);
    const tab = Solar.fromYmd(y, 6, 1).getLunar().getJieQiTable();
    const names = Object.keys(tab);
    const so = tab[names[ri(0, names.length - 1)]];
    let day = solarFromJD(Math.floor(so.getJulianDay() + 0.5) + ri(-1, 1));
    if (day.getYear() < 1900) day = Solar.fromYmd(1900, 1, 1); if (day.getYear() > 2100) day = Solar.fromYmd(2100, 12, 31);
    inp.date = ymd(day);
    const h = so.getHour(); inp.timeIndex = h === 0 ? 0 : h === 23 ? 12 : Math.floor((h + 1) / 2);
  }
  return { kind, inp };
}
function targets(birthSolar) {
  const b = Solar.fromYmd(...birthSolar.split('-').map(Number)).getJulianDay();
  const t1 = Math.min(MAX, b + ri(0, 12 * 365));
  let t2 = Math.min(MAX, b + ri(0, 100 * 365));
  if (rnd() < 0.2) { // on CNY day or eve
    const y = solarFromJD(t2).getYear();
    if (y > 1900 && y <= 2100) { let so = Lunar.fromYmd(y, 1, 1).getSolar(); if (rnd() < 0.5) so = so.next(-1); if (so.getJulianDay() >= b && so.getJulianDay() <= MAX) t2 = so.getJulianDay(); }
  }
  return [[ymd(solarFromJD(t1)), ri(0, 12)], [ymd(solarFromJD(t2)), ri(0, 12)]];
}
let replay = null;
if (process.argv[2] === 'replay') replay = require('fs').readFileSync(0, 'utf8').trim().split('\n').map(l => JSON.parse(l));
if (replay && !config && replay[0].config) { config = replay[0].config; astro.config(config); }
if (replay && !astroType && replay[0].astroType) astroType = replay[0].astroType;
const total = replay ? replay.length : N;
for (let i = 0; i < total; i++) {
  let kind, inp, id;
  if (replay) { kind = replay[i].kind; inp = replay[i].input; id = replay[i].id; } else { ({ kind, inp } = randomInput(i)); id = `g${seed}-${String(i + 1).padStart(5, '0')}`; }
  let rec = { id, kind, input: inp };
  if (config) rec.config = config;
  if (astroType) rec.astroType = astroType;
  try {
    let tg = replay ? replay[i].horoscope.map(h => [h.date, h.timeIndex]) : null;
    const horo = tg ? tg.map(([d, t]) => ({ date: d, timeIndex: t })) : null;
    for (const [lang, field, hk, withRaw] of langs) {
      let c;
      try { c = build(inp, lang, astroType); } catch (e) {
        if (lang === 'zh-CN') throw e;
        (rec.errors = rec.errors || {})[lang] = String(e && e.message || e);
        continue;
      }
      if (!tg) tg = targets(c.solarDate);
      rec[field] = chartOut(c, withRaw);
      const hs = tg.map(([d, t]) => horoOut(c.horoscope(d, t)));
      rec.horoscope = rec.horoscope || tg.map(([d, t]) => ({ date: d, timeIndex: t }));
      hs.forEach((h, k) => { rec.horoscope[k][hk] = h; });
    }
    if (horo && !rec.horoscope) rec.horoscope = horo;
  } catch (e) { rec.error = String(e && e.message || e); delete rec.chart; delete rec.horoscope; }
  process.stdout.write(JSON.stringify(rec) + '\n');
}

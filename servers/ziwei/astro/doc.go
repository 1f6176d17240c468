// Package astro computes Zi Wei Dou Shu (紫微斗数) charts natively in Go,
// reproducing the JavaScript reference engine iztro 2.6.1 with its default
// settings: yearDivide, horoscopeDivide and ageDivide "normal" (years change
// at 正月初一), dayDivide "forward" (the late Rat hour counts as the next day),
// algorithm "default" (通行版), heaven chart, built-in 四化 and brightness tables.
//
// # Use
//
//	c, err := astro.NewChart(astro.Input{Date: "1990-05-17", TimeIndex: 6, Gender: astro.Female, FixLeap: true})
//	h, err := c.Horoscope("2026-11-21", 5)
//	c.Render(astro.ZhCN) // iztro-shaped JSON values, names in zh-CN / zh-TW / en-US
//
// Charts and horoscopes hold IDs (StarID, PalaceRole, Stem, Branch,
// Brightness, Mutagen …), not strings; names are produced by Name(Lang) and
// the Render methods. Board positions are iztro's: 0 = 寅, 1 = 卯 … 11 = 丑.
// A Chart is immutable and safe for concurrent use.
//
// # Calendar
//
// Lunar months come from github.com/6tail/lunar-go (the Go twin of
// lunar-typescript, which iztro uses). lunar-go recomputes a whole year of new
// moons and solar terms (~4 ms) whenever the year changes, so each lunar
// year's month table is read once into a lock-free cache; a chart then costs
// one solar→lunar lookup instead of iztro's ~29 conversions.
//
// Pillars follow iztro's rules, not plain 八字 rules: the year changes at lunar
// New Year, the month follows the lunar month (the second half of a leap
// month, day 16 on, is the next month), the day changes at 23:00, the hour is
// the slot's.
//
// # Supported range and validation
//
// Solar dates 1900-01-01 … 2100-12-31 (births and horoscope targets); lunar
// input years 1900-2100 whose solar date falls in that range. NewChart and
// Horoscope return *InputError (Field, Message naming the fix) for impossible
// dates (iztro accepts 2023-02-30), out-of-range years, time index outside
// 0-12, unknown gender, a lunar day past the month's end, horoscope targets
// before the birth date (iztro returns index -1) and targets whose nominal age
// exceeds 120 (iztro's 小限 table ends there).
//
// # iztro behaviours reproduced
//
//   - isLeapMonth is ignored when the lunar year has no leap month of that number.
//   - Late Rat hour (12): day pillar of the next day; 紫微 uses the next lunar
//     day, wrapping to day 1 of the same month; the life palace month does not
//     move on; the displayed lunar date stays the birth day.
//   - fixLeap: from day 16 of a leap month the next month places the palaces,
//     except at the late Rat hour; the month pillar moves on from day 16 whatever fixLeap is.
//   - Horoscope: nominal age = target lunar year − birth lunar year + 1; 童限
//     (childhood) before the first decade: ages 1-6 in 命宫 财帛 疾厄 夫妻 福德 官禄.
//   - en-US: the decade's stem 丙 prints "sick" (iztro re-translates the stem
//     name as a key, and "bing" is also the key of 病); 午 is "woo"; en-US has
//     no "childhood" entry, so the key itself is printed.
//   - zh-TW names are iztro's zh-TW table as published (some entries, such as
//     来因, are simplified there).
//
// Deliberate difference: the 30th of a 30-day leap month whose ordinary month
// has 29 days is accepted (iztro throws because it validates the day against
// the ordinary month first).
package astro

package main

import "testing"

// TestLunar1914LeapFifthMonthThirtieth: 1914's leap fifth month has 30 days
// (lunar-go v1.4.6; new moons 1914-06-23 and 1914-07-23), so 闰五月三十 is
// 1914-07-22 and is charted. iztro 2.6.1 refuses it: its lunar-lite checks
// the day against the ordinary fifth month (29 days) first. This server
// keeps the calendar's answer, and the README says so.
func TestLunar1914LeapFifthMonthThirtieth(t *testing.T) {
	c := conn(t)
	r := structured(t, c, "initialize_chart", map[string]any{"birthDate": "1914-05-30", "isLunar": true, "isLeapMonth": true,
		"birthTimeIndex": 3, "gender": "女"})
	if r["solarDate"] != "1914-07-22" || r["lunarDate"] != "一九一四年闰五月三十" {
		t.Errorf("1914 闰五月三十 = %v %v, want 1914-07-22", r["solarDate"], r["lunarDate"])
	}
}

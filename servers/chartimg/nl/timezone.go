package nl

// Timezones: "in New York time", "Tokyo time", "EST", "timezone Asia/Tokyo" →
// a zone on the docs' closed "Supported Timezone" list. The cities come from
// the list itself; chart.ZoneAbbreviations and chart.ZoneNames add the
// abbreviations and names people write for the same clocks.

import (
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

var (
	zoneBefore = []string{"timezone", "time zone", "tz"}
	zoneAfter  = []string{"time", "timezone", "time zone", "tz", "hours"}
)

// addZones adds the timezone phrases: each listed zone's full name, its city
// and the extra names with a cue word ("Tokyo time", "timezone Tokyo"), and
// the abbreviations, alone when three letters or more ("EST", "UTC").
func addZones(d dict, zones []docsparse.Timezone) {
	add := func(name, zone string, alone bool) {
		e := entry{kind: kTimezone, value: zone}
		if alone {
			d.add(name, e)
		}
		for _, c := range zoneBefore {
			d.add(c+" "+name, e)
		}
		for _, c := range zoneAfter {
			d.add(name+" "+c, e)
		}
	}
	for _, z := range zones {
		add(z.Name, z.Name, true)
		_, city, _ := strings.Cut(z.Name, "/")
		if i := strings.LastIndexByte(city, '/'); i >= 0 {
			city = city[i+1:]
		}
		city = strings.ToLower(strings.ReplaceAll(city, "_", " "))
		if len(city) > 3 && city != "mountain" { // not ACT; "mountain" is also a chart style
			add(city, z.Name, false)
		}
	}
	add(chart.DefaultTimezone, chart.DefaultTimezone, true)
	for name, zone := range chart.ZoneNames {
		add(name, zone, false)
	}
	for abbr, zone := range chart.ZoneAbbreviations {
		add(abbr, zone, len(abbr) >= 3)
	}
}

// zone sets the timezone read from said.
func (s *state) zone(zone, said string) {
	if s.timezone != "" && s.timezone != zone {
		s.warn("several timezones stated; %s is used, %q ignored", s.timezone, said)
		return
	}
	if s.timezone != "" {
		return
	}
	s.timezone = zone
	switch {
	case zone == chart.DefaultTimezone:
		s.reasonQuoted("timezone: ", said, zone+" (also the API's default)")
	default:
		s.reasonQuoted("timezone: ", said, zone)
	}
	if w := strings.ToLower(said); w == "ist" || strings.HasPrefix(w, "ist ") || strings.HasSuffix(w, " ist") {
		s.warn("IST is read as India (Asia/Kolkata); for Israel write Asia/Jerusalem, for Ireland Europe/Dublin")
	}
}

// zoneAreas are the IANA areas a city written with a cue ("Denver time") is
// looked up in when it is not a listed zone's city.
var zoneAreas = []string{"America", "Europe", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian"}

// cityTime reads "<city> time" for a city that is an IANA zone but not a
// listed one's: the listed zone on the same clock with a warning, or a
// warning and no timezone when none keeps its clock all year.
func (s *state) cityTime(i int, it *item) bool {
	next := s.at(i + 1)
	if next.kind != kWord || (next.tok.word != "time" && next.tok.word != "timezone") || !onlyLetters(it.tok.orig) || len(it.tok.orig) < 4 {
		return false
	}
	city := strings.ToUpper(it.tok.orig[:1]) + strings.ToLower(it.tok.orig[1:])
	for _, a := range zoneAreas {
		name := a + "/" + city
		if _, err := time.LoadLocation(name); err != nil {
			continue
		}
		said := it.tok.orig + " " + next.tok.orig
		next.used = true
		near, exact, ok := chart.NearestTimezone(s.b.zones, name)
		if ok && exact {
			s.warn("%s's zone %s is not on chart-img's list of supported timezones; %s, on the same clock all year, is used", it.tok.orig, name, near)
			s.zone(near, said)
		} else {
			s.warn("%s's zone %s is not on chart-img's list of supported timezones and no listed zone keeps its clock all year (nearest: %s); no timezone was set", it.tok.orig, name, near)
		}
		return true
	}
	return false
}

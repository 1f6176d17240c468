package nl

// Drawings (price levels), sizes, themes, styles, scale, session, format and the leftovers that become warnings.

import (
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// drawingsAndSize reads "horizontal line at 65000", "support at 60k and 58k",
// "1080p", "width 1000".
func (s *state) drawingsAndSize() {
	for i := range s.items {
		it := &s.items[i]
		switch {
		case it.kind == kDrawing && s.studyLevels(i, it):
		case it.kind == kDrawing:
			j := i + 1
			for s.at(j).kind == kAt || s.at(j).kind == kFiller {
				j++
			}
			found := false
			for s.at(j).kind == kNum && !s.at(j).used {
				p := s.at(j).tok.num
				s.at(j).used = true
				in := map[string]any{"price": p}
				if it.value != "" {
					in["text"] = it.value
				}
				s.res.Config.Drawings = append(s.res.Config.Drawings, chart.Drawing{Name: "Horizontal Line", Input: in})
				s.reason("drawing: %q → Horizontal Line at %g", it.tok.orig, p)
				found = true
				j++
				if s.at(j).kind == kAnd && s.at(j+1).kind == kNum {
					j++
				}
			}
			it.used = true
			if !found && it.value == "" && it.tok.word != "level" {
				s.warn("%q needs a price (e.g. \"horizontal line at 65000\"); no drawing added", it.tok.orig)
			}
		case it.kind == kSizeWord:
			it.used = true
			w, h, _ := strings.Cut(it.value, "x")
			s.width, _ = strconv.Atoi(w)
			s.height, _ = strconv.Atoi(h)
			s.sizeWhy = it.tok.orig
		case it.kind == kNum && !it.used && screenK[strings.ToLower(it.tok.orig)] != "" && !priceCue(s.at(i-1)):
			// "4K" is a screen size unless a price cue precedes it ("support at 4k", "above 4k")
			it.used = true
			w, h, _ := strings.Cut(screenK[strings.ToLower(it.tok.orig)], "x")
			s.width, _ = strconv.Atoi(w)
			s.height, _ = strconv.Atoi(h)
			s.sizeWhy = it.tok.orig
		case it.kind == kWord && (it.tok.word == "width" || it.tok.word == "height"):
			j := i + 1
			for s.at(j).kind == kFiller || s.at(j).kind == kAt {
				j++
			}
			if n := s.at(j); n.kind == kNum && !n.used {
				n.used = true
				if it.tok.word == "width" {
					s.width = int(n.tok.num)
				} else {
					s.height = int(n.tok.num)
				}
				s.sizeWhy = it.tok.word + " " + n.tok.orig
			}
		case it.kind == kNum && !it.used && (s.at(i+1).tok.word == "wide" || s.at(i+1).tok.word == "tall"):
			it.used = true
			if s.at(i+1).tok.word == "wide" {
				s.width = int(it.tok.num)
			} else {
				s.height = int(it.tok.num)
			}
			s.sizeWhy = it.tok.orig + " " + s.at(i+1).tok.word
		}
	}
}

// screenK are display resolutions written as "NK"; 2K is left out, it reads as a price too often.
var screenK = map[string]string{"4k": "3840x2160", "5k": "5120x2880", "8k": "7680x4320"}

// priceCue is a word after which a number is a price, not a screen size.
func priceCue(it *item) bool {
	if it.kind == kAt || it.kind == kDrawing {
		return true
	}
	switch it.tok.word {
	case "above", "below", "over", "under", "to", "from", "reach", "reaches", "hit", "hits", "target", "break", "breaks", "between", "and", "or", "$":
		return true
	}
	return false
}

func (s *state) rest() {
	for i := range s.items {
		it := &s.items[i]
		if it.used {
			continue
		}
		switch it.kind {
		case kSymbol:
			s.symObjs = append(s.symObjs, it.sym)
			s.symbols = append(s.symbols, hit{value: it.sym.full, phrase: it.tok.orig})
		case kExchange:
			s.exchanges = append(s.exchanges, it.value)
		case kTheme:
			s.setOnce(&s.theme, it.value, "theme", it.tok.orig)
		case kStyle:
			s.setOnce(&s.style, it.value, "style", it.tok.orig)
		case kStyleWeak:
			next, prev := s.at(i+1), s.at(i-1)
			alone := (prev.kind == kAnd || prev.kind == kNone) && (next.kind == kAnd || next.kind == kNone) // "…, line, …"
			labelled := prev.kind == kChart && (prev.tok.word == "style" || prev.tok.word == "type")        // "Style: line"
			if (next.kind == kChart || prev.kind == kOn || alone || labelled) && !(s.style != "" && it.value == "candle") {
				s.setOnce(&s.style, it.value, "style", strings.TrimSpace(it.tok.orig+" "+next.tok.orig))
			}
		case kScale:
			s.setOnce(&s.scale, it.value, "scale", it.tok.orig)
		case kSession:
			s.setOnce(&s.session, it.value, "session", it.tok.orig)
		case kTimezone:
			s.zone(it.value, it.tok.orig)
		case kFormat:
			s.setOnce(&s.format, it.value, "format", it.tok.orig)
		case kUnsupported:
			switch {
			case strings.HasPrefix(it.value, "drawing:"):
				s.warn("%s is a chart-img drawing that needs dates and prices; add it to config.drawings (see fetch_chart_documentation)", strings.TrimPrefix(it.value, "drawing:"))
			case it.value == "size":
				if s.width == 0 && s.height == 0 {
					s.warn("%q names no size; %dx%d (the API default) is used: give pixels (e.g. 1920x1080, PRO and up) or a name such as 1080p", it.tok.orig, chart.DefaultWidth, chart.DefaultHeight)
				}
			case it.value == "style":
				s.warn("%q is not a chart-img style; use one of %s", it.tok.orig, strings.Join(chart.Styles, ", "))
			default:
				s.warn("%q is not a documented chart-img indicator; nothing was added for it", it.tok.orig)
			}
		case kWord:
			if s.cityTime(i, it) {
				continue
			}
			s.word(i, it)
		case kNum:
			if v := it.tok.num; it.tok.isInt && v >= 1990 && v <= 2100 && len(it.tok.orig) == 4 {
				s.warn("a year alone such as %s is not read as a span; write the dates, e.g. \"from %s-01-01 to %s-12-31\"", it.tok.orig, it.tok.orig, it.tok.orig)
			} else {
				s.warn("the number %s was not attached to an indicator, range, interval, size or price level; it was ignored", it.tok.orig)
			}
		}
	}
}

func (s *state) setOnce(dst *string, v, what, said string) {
	if *dst != "" && *dst != v {
		s.warn("several %ss stated; %s is used, %q ignored", what, *dst, said)
		return
	}
	if *dst == "" {
		*dst = v
		s.reasonQuoted(what+": ", said, v)
	}
}

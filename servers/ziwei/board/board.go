// Package board renders a natal chart as the 4×4 text board people read: the
// twelve palaces around the edge (巳午未申 on top, 寅丑子亥 at the bottom) and
// the chart's basics in the centre.
package board

import (
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// CellWidth is the display width of one palace cell (CJK characters count 2).
const CellWidth = 24

// grid lists the board position in each cell; -1 is the centre.
var grid = [4][4]int{
	{3, 4, 5, 6},
	{2, -1, -1, 7},
	{1, -1, -1, 8},
	{0, 11, 10, 9},
}

// Render draws the chart with names in language l. header lines (basics) go in the centre.
func Render(c *astro.Chart, l astro.Lang, header []string) string {
	var cells [12][]string
	for i := 0; i < 12; i++ {
		cells[i] = cell(c, l, i)
	}
	heights := [4]int{}
	for r := 0; r < 4; r++ {
		heights[r] = 5
		for _, i := range grid[r] {
			if i >= 0 && len(cells[i]) > heights[r] {
				heights[r] = len(cells[i])
			}
		}
	}
	centreW := 2*CellWidth + 1
	var centre []string
	for _, h := range header {
		centre = append(centre, wrap(h, centreW)...)
	}
	if need := len(centre) - (heights[1] + heights[2] + 1); need > 0 {
		heights[1] += (need + 1) / 2
		heights[2] += need / 2
	}
	var b strings.Builder
	sep := func(full bool) {
		b.WriteString("+")
		for col := 0; col < 4; col++ {
			if !full && (col == 1 || col == 2) {
				if col == 1 {
					b.WriteString(strings.Repeat(" ", centreW) + "+")
				}
				continue
			}
			b.WriteString(strings.Repeat("-", CellWidth) + "+")
		}
		b.WriteString("\n")
	}
	sep(true)
	centreLine := 0
	for r := 0; r < 4; r++ {
		for line := 0; line < heights[r]; line++ {
			b.WriteString("|")
			for col := 0; col < 4; col++ {
				i := grid[r][col]
				if i < 0 {
					if col == 1 {
						b.WriteString(pad(at(centre, centreLine), centreW) + "|")
						centreLine++
					}
					continue
				}
				b.WriteString(pad(at(cells[i], line), CellWidth) + "|")
			}
			b.WriteString("\n")
		}
		if r == 1 {
			// the centre continues across the separator
			b.WriteString("+" + strings.Repeat("-", CellWidth) + "+" + pad(at(centre, centreLine), centreW) + "+" + strings.Repeat("-", CellWidth) + "+\n")
			centreLine++
			continue
		}
		sep(true)
	}
	return b.String()
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// Labels are the few words the board writes around iztro's names, in the
// chart's language. iztro has none of them; the Japanese, Korean and
// Vietnamese ones are the usual terms of Zi Wei Dou Shu books in those
// languages (assumed: no locale table of iztro to copy).
type Labels struct {
	BodyMark                             string // after the body palace's role
	Bureau, SoulRuler, BodyRuler, Zodiac string
	Join                                 string // between two basics on one line
}

var labels = [...]Labels{
	astro.ZhCN: {"·身", "五行局", "命主", "身主", "生肖", "  "},
	astro.ZhTW: {"·身", "五行局", "命主", "身主", "生肖", "  "},
	astro.EnUS: {" (body)", "bureau", "soul ruler", "body ruler", "zodiac", ", "},
	astro.JaJP: {"·身", "五行局", "命主", "身主", "十二支", "  "},
	astro.KoKR: {" (신궁)", "오행국", "명주", "신주", "띠", ", "},
	astro.ViVN: {" (Thân)", "Cục", "Mệnh chủ", "Thân chủ", "Con giáp", ", "},
}

// LabelsFor returns the board's words in language l.
func LabelsFor(l astro.Lang) Labels {
	if int(l) < len(labels) {
		return labels[l]
	}
	return labels[astro.ZhCN]
}

func cell(c *astro.Chart, l astro.Lang, i int) []string {
	title := c.PalaceRole(i).Name(l)
	if i == c.BodyIndex() {
		title += LabelsFor(l).BodyMark
	}
	title += " " + astro.GanZhiName(c.PalaceStem(i), astro.BranchOfBoard(i), l)
	var major, minor, adj []string
	for _, s := range c.Stars(i) {
		name := s.Name(l) + c.StarBrightness(s).Name(l)
		if m := c.StarMutagen(s); m != astro.MutagenNone {
			name += "[" + m.Name(l) + "]"
		}
		switch s.Group() {
		case astro.GroupMajor:
			major = append(major, name)
		case astro.GroupMinor:
			minor = append(minor, name)
		default:
			adj = append(adj, s.Name(l))
		}
	}
	out := wrap(title, CellWidth)
	out = append(out, wrap(strings.Join(major, " "), CellWidth)...)
	out = append(out, wrap(strings.Join(minor, " "), CellWidth)...)
	out = append(out, wrap(strings.Join(adj, " "), CellWidth)...)
	d := c.DecadeAt(i)
	out = append(out, strconv.Itoa(d.From)+"-"+strconv.Itoa(d.To)+" "+astro.Changsheng12Name(c.Changsheng12(i), l))
	return out
}

// wrap splits s into lines of display width ≤ w, breaking at spaces when it can.
func wrap(s string, w int) []string {
	if s == "" {
		return []string{""}
	}
	var lines []string
	var cur strings.Builder
	curW := 0
	for _, word := range strings.Split(s, " ") {
		ww := Width(word)
		if curW > 0 && curW+1+ww > w {
			lines = append(lines, cur.String())
			cur.Reset()
			curW = 0
		}
		for ww > w { // a single word wider than the cell: hard break
			head, rest := cut(word, w)
			lines = append(lines, head)
			word, ww = rest, Width(rest)
		}
		if curW > 0 {
			cur.WriteByte(' ')
			curW++
		}
		cur.WriteString(word)
		curW += ww
	}
	return append(lines, cur.String())
}

func cut(s string, w int) (string, string) {
	n := 0
	for i, r := range s {
		rw := runeWidth(r)
		if n+rw > w {
			return s[:i], s[i:]
		}
		n += rw
	}
	return s, ""
}

func pad(s string, w int) string {
	if d := w - Width(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// Width is the display width of s in a monospace terminal.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0xA4CF, r >= 0xAC00 && r <= 0xD7A3,
		r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F, r >= 0xFF00 && r <= 0xFF60,
		r >= 0xFFE0 && r <= 0xFFE6, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}

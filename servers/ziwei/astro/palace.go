package astro

// Palace is a read-only view of one natal palace.
type Palace struct {
	Index            int // board position, 0 = 寅 … 11 = 丑
	Role             PalaceRole
	Stem             Stem
	Branch           Branch
	IsBodyPalace     bool
	IsOriginalPalace bool     // 来因宫
	Stars            []StarID // iztro's order; aliases the chart, do not modify
	Changsheng12     int      // index into the 长生 cycle (Changsheng12Name)
	Boshi12          int      // index into the 博士 cycle (Boshi12Name)
	Jiangqian12      int      // index into the 将前 cycle (Jiangqian12Name)
	Suiqian12        int      // index into the 岁前 cycle (Suiqian12Name)
	Decade           Decade
	Ages             [10]int // nominal ages of the 小限 in this palace
}

// Palace returns the palace at board position i (taken modulo 12).
func (c *Chart) Palace(i int) Palace {
	i = mod12(i)
	return Palace{
		Index:            i,
		Role:             c.PalaceRole(i),
		Stem:             c.PalaceStem(i),
		Branch:           BranchOfBoard(i),
		IsBodyPalace:     i == c.body,
		IsOriginalPalace: c.IsOriginalPalace(i),
		Stars:            c.Stars(i),
		Changsheng12:     c.Changsheng12(i),
		Boshi12:          c.Boshi12(i),
		Jiangqian12:      c.Jiangqian12(i),
		Suiqian12:        c.Suiqian12(i),
		Decade:           c.DecadeAt(i),
		Ages:             c.Ages(i),
	}
}

// Palaces returns the 12 palaces in board order.
func (c *Chart) Palaces() [12]Palace {
	var out [12]Palace
	for i := range out {
		out[i] = c.Palace(i)
	}
	return out
}

// PalaceByRole returns the natal palace playing role r.
func (c *Chart) PalaceByRole(r PalaceRole) Palace { return c.Palace(c.PalaceOfRole(r)) }

// PalaceByBranch returns the palace on branch b.
func (c *Chart) PalaceByBranch(b Branch) Palace { return c.Palace(b.BoardIndex()) }

// Surrounded is a palace's 三方四正: the palace itself, its opposite (对宫,
// +6) and its two trines, iztro's "wealth" (+8) and "career" (+4) positions.
type Surrounded struct {
	Target, Opposite, Wealth, Career int // board positions
}

// SurroundedPalaces returns the 三方四正 of board position i (iztro's surroundedPalaces).
func SurroundedPalaces(i int) Surrounded {
	i = mod12(i)
	return Surrounded{Target: i, Opposite: mod12(i + 6), Wealth: mod12(i + 8), Career: mod12(i + 4)}
}

// FlankingPalaces returns the two neighbours of board position i (夹宫;
// iztro's flankingPalaces: previous = i-1, next = i+1, wrapping).
func FlankingPalaces(i int) (previous, next int) {
	i = mod12(i)
	return mod12(i - 1), mod12(i + 1)
}

// HasStar reports whether board position i holds star s.
func (c *Chart) HasStar(i int, s StarID) bool { return s.Valid() && int(c.starPos[s]) == mod12(i) }

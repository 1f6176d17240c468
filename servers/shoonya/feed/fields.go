package feed

// Numeric feed fields (ShoonyaApi-py README touchline and depth tables). Each has a
// fixed slot so a merge is an array write, not a map insert.
const (
	fLP = iota
	fPC
	fV
	fO
	fH
	fL
	fC
	fAP
	fOI
	fPOI
	fTOI
	fLTQ
	fTBQ
	fTSQ
	fUC
	fLC
	f52H
	f52L
	fFT
	fPP
	fTI
	fLS
	fBP1
	fBP2
	fBP3
	fBP4
	fBP5
	fSP1
	fSP2
	fSP3
	fSP4
	fSP5
	fBQ1
	fBQ2
	fBQ3
	fBQ4
	fBQ5
	fSQ1
	fSQ2
	fSQ3
	fSQ4
	fSQ5
	fBO1
	fBO2
	fBO3
	fBO4
	fBO5
	fSO1
	fSO2
	fSO3
	fSO4
	fSO5
	nFields
)

// slotOf maps a wire key to its slot, -1 if unknown. A switch on length and
// bytes keeps it allocation-free and faster than a map on the hot path.
func slotOf(k []byte) int {
	switch len(k) {
	case 1:
		switch k[0] {
		case 'v':
			return fV
		case 'o':
			return fO
		case 'h':
			return fH
		case 'l':
			return fL
		case 'c':
			return fC
		}
	case 2:
		switch string(k) {
		case "lp":
			return fLP
		case "pc":
			return fPC
		case "ap":
			return fAP
		case "oi":
			return fOI
		case "uc":
			return fUC
		case "lc":
			return fLC
		case "ft":
			return fFT
		case "pp":
			return fPP
		case "ti":
			return fTI
		case "ls":
			return fLS
		}
	case 3:
		switch string(k) {
		case "poi":
			return fPOI
		case "toi":
			return fTOI
		case "ltq":
			return fLTQ
		case "tbq":
			return fTBQ
		case "tsq":
			return fTSQ
		case "52h":
			return f52H
		case "52l":
			return f52L
		}
		if k[2] >= '1' && k[2] <= '5' {
			n := int(k[2] - '1')
			switch string(k[:2]) {
			case "bp":
				return fBP1 + n
			case "sp":
				return fSP1 + n
			case "bq":
				return fBQ1 + n
			case "sq":
				return fSQ1 + n
			case "bo":
				return fBO1 + n
			case "so":
				return fSO1 + n
			}
		}
	}
	return -1
}

package feed

// Numeric feed fields (ShoonyaApi-py README touchline and depth tables). Each has a
// fixed slot so a merge is an array write, not a map insert; wire.nums (msg.go)
// lists the decoded fields in this order.
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

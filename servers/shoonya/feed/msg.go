package feed

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/bits"
	"strconv"
)

// Msg is one decoded websocket frame: its string fields (T, E, TK, TS, LTT,
// S, UID, from wire) and its numeric fields by slot. Decode reuses it: one
// Msg per reader.
type Msg struct {
	wire
	has  uint64 // bit per slot (fields.go): the frame carried the field
	vals [nFields]float64
}

// Fields returns how many numeric fields the frame carried.
func (m *Msg) Fields() int { return bits.OnesCount64(m.has) }

var errBadFrame = errors.New("feed: frame is not a JSON object of strings and numbers")

// Decode parses a Noren frame: a JSON object whose values are strings
// (numbers as strings) or plain numbers. Unknown keys are skipped; a numeric
// field that does not parse is an error (the frame is dropped, not merged).
// A numeric field that is absent, null or "" is left unset, so a merge keeps
// the value stored before (tf/df frames carry only what changed).
func (m *Msg) Decode(b []byte) error {
	m.wire = wire{}
	m.has = 0
	// Unmarshal takes a null frame as "nothing to set"; a frame must be an
	// object (anything else not an object is a type error below).
	if string(bytes.TrimSpace(b)) == "null" {
		return errBadFrame
	}
	if err := json.Unmarshal(b, &m.wire); err != nil {
		return err
	}
	for slot, n := range m.nums() {
		if n.set {
			m.vals[slot] = n.v
			m.has |= 1 << slot
		}
	}
	return nil
}

// num is a numeric feed field: Noren sends numbers as JSON strings ("118.45"),
// sometimes as plain numbers; null and "" mean "not in this frame".
type num struct {
	v   float64
	set bool
}

// UnmarshalJSON takes a JSON string or number; an unparsable, NaN or
// infinite value is an error, which drops the frame.
func (n *num) UnmarshalJSON(b []byte) error {
	s := string(b)
	switch {
	case s == "null":
		return nil
	case b[0] == '"':
		// encoding/json has checked the string already: without a backslash
		// its text is the bytes between the quotes. Escapes are rare and
		// cost a second Unmarshal.
		if bytes.IndexByte(b, '\\') < 0 {
			s = s[1 : len(s)-1]
		} else {
			var text string
			if err := json.Unmarshal(b, &text); err != nil {
				return err
			}
			s = text
		}
		if s == "" {
			return nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return errBadFrame
	}
	n.v, n.set = f, true
	return nil
}

// wire is the frame as encoding/json sees it. The numeric fields are the
// touchline and depth keys of the ShoonyaApi-py README, in slot order.
type wire struct {
	T   string `json:"t"`   // message type
	E   string `json:"e"`   // exchange
	TK  string `json:"tk"`  // token
	TS  string `json:"ts"`  // trading symbol
	LTT string `json:"ltt"` // last trade time
	S   string `json:"s"`   // ack status (ck / ak)
	UID string `json:"uid"` // user id (ck / ak)

	LP  num `json:"lp"`
	PC  num `json:"pc"`
	V   num `json:"v"`
	O   num `json:"o"`
	H   num `json:"h"`
	L   num `json:"l"`
	C   num `json:"c"`
	AP  num `json:"ap"`
	OI  num `json:"oi"`
	POI num `json:"poi"`
	TOI num `json:"toi"`
	LTQ num `json:"ltq"`
	TBQ num `json:"tbq"`
	TSQ num `json:"tsq"`
	UC  num `json:"uc"`
	LC  num `json:"lc"`
	H52 num `json:"52h"`
	L52 num `json:"52l"`
	FT  num `json:"ft"`
	PP  num `json:"pp"`
	TI  num `json:"ti"`
	LS  num `json:"ls"`
	BP1 num `json:"bp1"`
	BP2 num `json:"bp2"`
	BP3 num `json:"bp3"`
	BP4 num `json:"bp4"`
	BP5 num `json:"bp5"`
	SP1 num `json:"sp1"`
	SP2 num `json:"sp2"`
	SP3 num `json:"sp3"`
	SP4 num `json:"sp4"`
	SP5 num `json:"sp5"`
	BQ1 num `json:"bq1"`
	BQ2 num `json:"bq2"`
	BQ3 num `json:"bq3"`
	BQ4 num `json:"bq4"`
	BQ5 num `json:"bq5"`
	SQ1 num `json:"sq1"`
	SQ2 num `json:"sq2"`
	SQ3 num `json:"sq3"`
	SQ4 num `json:"sq4"`
	SQ5 num `json:"sq5"`
	BO1 num `json:"bo1"`
	BO2 num `json:"bo2"`
	BO3 num `json:"bo3"`
	BO4 num `json:"bo4"`
	BO5 num `json:"bo5"`
	SO1 num `json:"so1"`
	SO2 num `json:"so2"`
	SO3 num `json:"so3"`
	SO4 num `json:"so4"`
	SO5 num `json:"so5"`
}

// nums lists the numeric fields in slot order (fields.go).
func (w *wire) nums() [nFields]*num {
	return [nFields]*num{
		&w.LP, &w.PC, &w.V, &w.O, &w.H, &w.L, &w.C, &w.AP,
		&w.OI, &w.POI, &w.TOI, &w.LTQ, &w.TBQ, &w.TSQ, &w.UC, &w.LC,
		&w.H52, &w.L52, &w.FT, &w.PP, &w.TI, &w.LS, &w.BP1, &w.BP2,
		&w.BP3, &w.BP4, &w.BP5, &w.SP1, &w.SP2, &w.SP3, &w.SP4, &w.SP5,
		&w.BQ1, &w.BQ2, &w.BQ3, &w.BQ4, &w.BQ5, &w.SQ1, &w.SQ2, &w.SQ3,
		&w.SQ4, &w.SQ5, &w.BO1, &w.BO2, &w.BO3, &w.BO4, &w.BO5, &w.SO1,
		&w.SO2, &w.SO3, &w.SO4, &w.SO5,
	}
}

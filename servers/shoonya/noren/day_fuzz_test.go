package noren

import "testing"

// FuzzDayAnswers: whatever Noren answers the margin and order-history
// routes with decodes to a value or an envelope error, never a panic.
func FuzzDayAnswers(f *testing.F) {
	for _, s := range []string{
		`{"stat":"Ok","cash":"4950.30","marginused":"171296.19","remarks":"Insufficient Balance","marginusedprev":"0.00","ordermargin":"176246.49"}`,
		`{"stat":"Ok","marginused":"196915.48","marginusedtrade":"75406.56","remarks":""}`,
		`[{"stat":"Ok","norenordno":"1","status":"COMPLETE","rpt":"Fill","fillshares":"180","avgprc":"800.00"}]`,
		`{"stat":"Not_Ok","emsg":"Error Occurred : 5 \"no data\""}`, `{"stat":"Ok","cash":{}}`, `[{"stat":"Not_Ok"}]`, `[`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m OrderMargin
		_, herr := DecodeList[HistoryRow]("SingleOrdHist", b)
		for _, err := range []error{DecodeObject("GetOrderMargin", b, &m), herr} {
			if err != nil && err.Error() == "" {
				t.Fatal("empty error text")
			}
		}
	})
}

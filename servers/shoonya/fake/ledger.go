package fake

import "time"

// LedgerEntry is one PlaceOrder request that reached the OMS, whatever its
// outcome (accepted, Not_Ok, or answered through a fault such as timeout).
// Requests refused before the OMS (HTTP status, session-expiry or rate-limit
// faults, the 429 limiter) are not recorded.
type LedgerEntry struct {
	Seq        int
	Time       time.Time
	Era        Era
	UID        string
	Raw        string            // jData JSON exactly as received
	Fields     map[string]string // decoded jData, values as strings (null → "")
	Remarks    string
	NorenOrdNo string    // set when the OMS accepted the order
	Emsg       string    // set when it answered Not_Ok
	Fault      FaultKind // fault that disturbed the reply, if any
}

// Ledger returns a copy of every PlaceOrder received, oldest first.
func (s *Server) Ledger() []LedgerEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]LedgerEntry, len(s.ledger))
	copy(out, s.ledger)
	return out
}

// OrdersWithRemarks counts PlaceOrder requests received with these remarks;
// a client that never sends an order twice keeps it at 1 per intent.
func (s *Server) OrdersWithRemarks(r string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, e := range s.ledger {
		if e.Remarks == r {
			n++
		}
	}
	return n
}

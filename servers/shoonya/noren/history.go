package noren

import "context"

// HistoryRow is one SingleOrdHist element: an order's state at one report
// (rpt: NewAck, PendingNew, New, Fill, Rejected, ...), newest first.
// source: ShoonyaApi-py README "single order history" (fields and sample).
type HistoryRow struct {
	Order
	Report  string `json:"rpt"`
	FillID  string `json:"flid"` // assumed: the fill's fields as in om updates (README subscribe_orders)
	FillQty Num    `json:"flqty"`
	FillPrc Num    `json:"flprc"`
	FillTm  string `json:"fltm"`
}

// SingleOrdHist lists every state of one order, newest first. A Not_Ok
// answer is an error; "no data" (an unknown order) is ErrNoData's not_found,
// not an empty history.
func (c *Client) SingleOrdHist(ctx context.Context, a *Auth, orderNo string) ([]HistoryRow, error) {
	body, err := c.post(ctx, "SingleOrdHist", a, map[string]any{"ordersource": "API", "uid": a.UID, "norenordno": orderNo}, true)
	if err != nil {
		return nil, err
	}
	rows, err := DecodeList[HistoryRow]("SingleOrdHist", body)
	if err == nil && len(rows) == 0 {
		return nil, EmsgError("SingleOrdHist", `Error Occurred : 5 "no data"`)
	}
	return rows, err
}

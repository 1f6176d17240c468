package feed

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// Frame types of the order-update subscription.
//
// source: ShoonyaApi-py README "subscribe_orders()" ({"t":"o"} is answered
// {"t":"ok"}; each order event is a "om" frame) and NorenApi.py
// (subscribe_orders sends {'t': 'o'}; __on_data_callback hands every
// res['t'] == 'om' to order_update_callback).
//
// assumed: a price alert that fires arrives on the same socket as a frame
// {"t":"am"} carrying al_id, ai_t, d, exch, tsym, tk, lp and remarks; no
// public SDK or sample shows the alert frame (the Noren web API lists the
// alert routes only).
const (
	frameOrder      = "om"
	frameAlert      = "am"
	frameOrdersAck  = "ok"
	frameOrdersStop = "uok"
)

// IST is the zone of every Noren timestamp (exch_tm, fltm).
var IST = time.FixedZone("IST", 5*3600+1800)

// Zone names the zone the update times are given in.
const Zone = "Asia/Kolkata (IST, UTC+05:30)"

// text is a frame field Noren sends as a JSON string, sometimes as a number;
// anything else (an object, an array) is kept empty rather than dropping the
// order update that carries it.
type text string

func (t *text) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0 || string(b) == "null":
		*t = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = text(s)
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		*t = text(b)
	default:
		*t = ""
	}
	return nil
}

// num parses the field as a finite number; "" or garbage is absent.
func (t text) num() *float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(string(t)), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// updateWire is an "om" or "am" frame; field names from the ShoonyaApi-py
// README "Order Update subscription Updates" table (om) and, for am, the
// assumed alert fields named above.
type updateWire struct {
	T          text `json:"t"`
	NorenOrdNo text `json:"norenordno"`
	UID        text `json:"uid"`
	ActID      text `json:"actid"`
	Exch       text `json:"exch"`
	TSym       text `json:"tsym"`
	Qty        text `json:"qty"`
	Prc        text `json:"prc"`
	Prd        text `json:"prd"`
	Status     text `json:"status"`
	ReportType text `json:"reporttype"`
	TranType   text `json:"trantype"`
	PrcTyp     text `json:"prctyp"`
	Ret        text `json:"ret"`
	FillShares text `json:"fillshares"`
	AvgPrc     text `json:"avgprc"`
	FlTm       text `json:"fltm"`
	FlID       text `json:"flid"`
	FlQty      text `json:"flqty"`
	FlPrc      text `json:"flprc"`
	RejReason  text `json:"rejreason"`
	ExchOrdID  text `json:"exchordid"`
	CancelQty  text `json:"cancelqty"`
	Remarks    text `json:"remarks"`
	TrgPrc     text `json:"trgprc"`
	ExchTm     text `json:"exch_tm"`
	// am (assumed)
	AlID  text `json:"al_id"`
	AiT   text `json:"ai_t"`
	D     text `json:"d"`
	Token text `json:"tk"`
	LP    text `json:"lp"`
}

// Fill is one execution reported by an update (reporttype Fill).
type Fill struct {
	ID       string   `json:"id,omitempty"`
	Quantity *float64 `json:"quantity,omitempty"`
	Price    *float64 `json:"price,omitempty"`
	Time     string   `json:"time,omitempty"`
}

// Update is one order update or alert firing, readable: codes mapped to the
// tools' values, times in IST (RFC 3339 with +05:30).
type Update struct {
	Kind            string   `json:"kind"` // order | alert
	OrderID         string   `json:"order_id,omitempty"`
	Status          string   `json:"status,omitempty"`
	Event           string   `json:"event,omitempty"` // reporttype: NewAck, Fill, Rejected, Canceled...
	Exchange        string   `json:"exchange,omitempty"`
	TradingSymbol   string   `json:"trading_symbol,omitempty"`
	Side            string   `json:"side,omitempty"`
	Product         string   `json:"product,omitempty"`
	OrderType       string   `json:"order_type,omitempty"`
	Validity        string   `json:"validity,omitempty"`
	Quantity        *float64 `json:"quantity,omitempty"`
	Price           *float64 `json:"price,omitempty"`
	TriggerPrice    *float64 `json:"trigger_price,omitempty"`
	FilledQuantity  *float64 `json:"filled_quantity,omitempty"`
	PendingQuantity *float64 `json:"pending_quantity,omitempty"`
	AveragePrice    *float64 `json:"average_price,omitempty"`
	Fill            *Fill    `json:"fill,omitempty"`
	CancelledQty    *float64 `json:"cancelled_quantity,omitempty"`
	RejectReason    string   `json:"reject_reason,omitempty"`
	ExchangeOrderID string   `json:"exchange_order_id,omitempty"`
	ExchangeTime    string   `json:"exchange_time,omitempty"`
	Remarks         string   `json:"remarks,omitempty"`
	AlertID         string   `json:"alert_id,omitempty"`
	Condition       string   `json:"condition,omitempty"`
	Threshold       *float64 `json:"threshold,omitempty"`
	LastPrice       *float64 `json:"last_price,omitempty"`
	ReceivedAt      string   `json:"received_at"`
}

var errNotUpdate = errors.New("feed: not an order update or alert frame")

// ParseUpdate reads one websocket frame as an order update ("om") or an alert
// firing ("am"); any other frame, or one that is not a JSON object, is an
// error. Fields that do not parse are left out, never guessed.
func ParseUpdate(b []byte, received time.Time) (Update, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return Update{}, errNotUpdate
	}
	var w updateWire
	if err := json.Unmarshal(b, &w); err != nil {
		return Update{}, err
	}
	u := Update{ReceivedAt: received.In(IST).Format(time.RFC3339)}
	switch w.T {
	case frameOrder:
		if w.NorenOrdNo == "" {
			return Update{}, errNotUpdate
		}
		u.Kind = "order"
		u.OrderID = string(w.NorenOrdNo)
		u.Status = orders.Status(string(w.Status))
		u.Event = string(w.ReportType)
		u.Side = orders.SideName(string(w.TranType))
		u.Product = orders.ProductName(string(w.Prd))
		u.OrderType = orders.OrderTypeName(string(w.PrcTyp))
		u.Validity = string(w.Ret)
		u.Quantity, u.Price, u.TriggerPrice = w.Qty.num(), w.Prc.num(), w.TrgPrc.num()
		u.FilledQuantity, u.AveragePrice, u.CancelledQty = w.FillShares.num(), w.AvgPrc.num(), w.CancelQty.num()
		if u.Quantity != nil && u.FilledQuantity != nil {
			rest := *u.Quantity - *u.FilledQuantity
			if u.CancelledQty != nil {
				rest -= *u.CancelledQty
			}
			if isFinal(u.Status) || rest < 0 {
				rest = 0
			}
			u.PendingQuantity = &rest
		}
		if w.FlQty != "" || w.FlPrc != "" || w.FlID != "" {
			u.Fill = &Fill{ID: string(w.FlID), Quantity: w.FlQty.num(), Price: w.FlPrc.num(), Time: istTime(string(w.FlTm))}
		}
		u.RejectReason = envelope.CleanThirdParty(string(w.RejReason))
		u.ExchangeOrderID = string(w.ExchOrdID)
		u.ExchangeTime = istTime(string(w.ExchTm))
	case frameAlert:
		if w.AlID == "" {
			return Update{}, errNotUpdate
		}
		u.Kind = "alert"
		u.AlertID = string(w.AlID)
		u.Condition = AlertConditionName(string(w.AiT))
		u.Threshold, u.LastPrice = w.D.num(), w.LP.num()
		u.Event = "Triggered"
	default:
		return Update{}, errNotUpdate
	}
	u.Exchange, u.TradingSymbol = string(w.Exch), string(w.TSym)
	u.Remarks = envelope.CleanThirdParty(string(w.Remarks))
	return u, nil
}

func isFinal(status string) bool {
	switch status {
	case "COMPLETE", "CANCELED", "REJECTED":
		return true
	}
	return false
}

// istTime turns Noren's "DD-MM-YYYY HH:MM:SS" (exch_tm, fltm; ShoonyaApi-py
// README samples) or "HH:MM:SS DD-MM-YYYY" (norentm) into RFC 3339 in IST;
// another shape passes through, "" stays "".
func istTime(s string) string {
	s = strings.TrimSpace(s)
	for _, l := range []string{"02-01-2006 15:04:05", "15:04:05 02-01-2006"} {
		if t, err := time.ParseInLocation(l, s, IST); err == nil {
			return t.Format(time.RFC3339)
		}
	}
	return s
}

// Alert conditions: the tools' values and Noren's ai_t codes.
// assumed: the codes LTP_A (last price above) and LTP_B (below) and the
// percent-change pair CH_PER_A / CH_PER_B are the Noren web API's alert
// types; no public SDK sample shows them.
var AlertConditions = map[string]string{
	"LTP_ABOVE": "LTP_A", "LTP_BELOW": "LTP_B",
	"CHANGE_PERCENT_ABOVE": "CH_PER_A", "CHANGE_PERCENT_BELOW": "CH_PER_B",
}

// AlertConditionEnum is the schema enum of the alert conditions.
const AlertConditionEnum = "LTP_ABOVE|LTP_BELOW|CHANGE_PERCENT_ABOVE|CHANGE_PERCENT_BELOW"

// AlertConditionName maps an ai_t code back to the tools' value (unknown passes through).
func AlertConditionName(code string) string {
	for k, v := range AlertConditions {
		if strings.EqualFold(v, code) {
			return k
		}
	}
	return code
}

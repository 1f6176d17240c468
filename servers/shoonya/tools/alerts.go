package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
)

// Price alerts move no money: no confirmation, no account guards; they are
// validated (the instrument exists, the value fits the condition) and set
// once per idempotency key. Their firings arrive on feed.OrdersURI.

// AlertIn is set_price_alert's input.
type AlertIn struct {
	Exchange  string  `json:"exchange" mcp:"enum=NSE|BSE|NFO|BFO|CDS|BCD|MCX|NCX"`
	TSym      string  `json:"trading_symbol" jsonschema:"exact, e.g. RELIANCE-EQ" mcp:"minLength=1;maxLength=40"`
	Condition string  `json:"condition" jsonschema:"LTP: last price; CHANGE_PERCENT: % from previous close" mcp:"enum=LTP_ABOVE|LTP_BELOW|CHANGE_PERCENT_ABOVE|CHANGE_PERCENT_BELOW"`
	Value     float64 `json:"value" jsonschema:"price in rupees (LTP), or percent" mcp:"min=-100;max=10000000"`
	Key       string  `json:"idempotency_key,omitempty" jsonschema:"same key, same alert; default from the arguments" mcp:"pattern=^[A-Za-z0-9_.:-]{4,40}$"`
}

// AlertOut is the alert after set or modify.
type AlertOut struct {
	AlertID     string   `json:"alert_id"`
	Status      string   `json:"status" mcp:"enum=set|already_set|modified"`
	Key         string   `json:"idempotency_key,omitempty"`
	Exchange    string   `json:"exchange"`
	TSym        string   `json:"trading_symbol"`
	Condition   string   `json:"condition"`
	Value       float64  `json:"value"`
	LastPrice   *float64 `json:"last_price,omitempty"`
	Distance    *float64 `json:"distance,omitempty"`         // value − last price, rupees (LTP conditions)
	DistancePct *float64 `json:"distance_percent,omitempty"` // of the last price
	AlreadyMet  bool     `json:"already_met,omitempty"`      // it fires on the next tick
	FiresOn     string   `json:"fires_on"`
}

func alertCode(cond string) (string, error) {
	return orders.Code("condition", feed.AlertConditions, cond)
}

func isLTP(code string) bool { return code == "LTP_A" || code == "LTP_B" }

// checkAlertValue refuses what no alert can mean: a price ≤ 0, a percent
// outside ±100 or 0.
func checkAlertValue(code string, v float64) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return envelope.Invalid("value", "value must be a number")
	case isLTP(code) && v <= 0:
		return envelope.Invalid("value", "value is a price for LTP conditions and must be > 0, not %g", v)
	case !isLTP(code) && (v == 0 || v <= -100 || v > 100):
		return envelope.Invalid("value", "value is a change percent for CHANGE_PERCENT conditions: between -100 and 100, not 0; got %g", v)
	}
	return nil
}

func alertKey(user, exch, tsym, code string, v float64) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%s|%s|%s|%g", user, exch, tsym, code, v)))
	return "al-" + hex.EncodeToString(sum[:])[:16]
}

// describe fills the last price and the distance to the threshold.
func (o *AlertOut) describe(code string, ltp float64) {
	if ltp <= 0 || !isLTP(code) {
		return
	}
	o.LastPrice = &ltp
	d := math.Round((o.Value-ltp)*100) / 100
	pct := math.Round(d/ltp*10000) / 100
	o.Distance, o.DistancePct = &d, &pct
	o.AlreadyMet = (code == "LTP_A" && ltp >= o.Value) || (code == "LTP_B" && ltp <= o.Value)
}

// alertClaims records keys already used, in the shared state (a key set on
// one replica is set on all).
func (d *Deps) alertClaims() kv.State {
	if d.Tickets != nil && d.Tickets.State != nil {
		return d.Tickets.State
	}
	return nil // Deps built by hand: keys are checked against the pending list only
}

var errKeyBusy = errors.New("alert key in flight")

type alertClaim struct {
	ID    string `json:"id,omitempty"`
	Until int64  `json:"until,omitempty"` // a set in flight until then (unix s)
}

func setAlertTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "set_price_alert", Title: "Set price alert", Toolset: "alerts",
		Description: "Alert when last price or day change % crosses value; moves no money. Idempotent per key. Fires on resource " + feed.OrdersURI + " (subscribe). Result: distance from last price.",
		Hints:       toolkit.Hints{Idempotent: true, OpenWorld: true},
	}, func(ctx context.Context, in AlertIn) (AlertOut, error) {
		code, err := alertCode(in.Condition)
		if err != nil {
			return AlertOut{}, err
		}
		if err := checkAlertValue(code, in.Value); err != nil {
			return AlertOut{}, err
		}
		exch, tsym := strings.ToUpper(in.Exchange), strings.ToUpper(strings.TrimSpace(in.TSym))
		key := in.Key
		if key == "" {
			key = alertKey(user(ctx), exch, tsym, code, in.Value)
		}
		out := AlertOut{Key: key, Exchange: exch, TSym: tsym, Condition: feed.AlertConditionName(code), Value: in.Value, FiresOn: feed.OrdersURI, Status: "set"}
		st := d.alertClaims()
		claimKey := "shoonya:alertkey:" + user(ctx) + ":" + key
		if st != nil {
			var prior alertClaim
			err := st.Update(ctx, claimKey, 24*time.Hour, func(cur []byte) ([]byte, error) {
				if cur != nil && json.Unmarshal(cur, &prior) == nil && (prior.ID != "" || prior.Until > d.now().Unix()) {
					return nil, errKeyBusy
				}
				return json.Marshal(alertClaim{Until: d.now().Add(30 * time.Second).Unix()})
			})
			switch {
			case errors.Is(err, errKeyBusy) && prior.ID != "":
				out.AlertID, out.Status = prior.ID, "already_set"
				return out, nil
			case errors.Is(err, errKeyBusy):
				return AlertOut{}, envelope.New(envelope.Conflict, "an alert with idempotency_key %s is being set right now; call again in a few seconds for its id", key).
					WithRetryable(true).WithRetryAfter(2 * time.Second)
			case err != nil:
				return AlertOut{}, envelope.New(envelope.UpstreamUnavailable, "the shared state (%s) did not answer, so no alert was set; try again", st.Where()).WithRetryable(true).WithCause(err)
			}
		}
		release := func() {
			if st != nil {
				_ = st.Update(context.WithoutCancel(ctx), claimKey, time.Minute, func([]byte) ([]byte, error) { return nil, nil })
			}
		}
		res, err := do(ctx, d, func(a *noren.Auth) (alertSet, error) {
			inst, err := d.instrument(ctx, a, exch, tsym)
			if err != nil {
				return alertSet{}, err
			}
			// The key rides in remarks: a pending alert with it is this alert,
			// whoever set it (a lost answer, another process without shared state).
			if id, ok := pendingWithRemarks(ctx, d, a, key); ok {
				return alertSet{id: id, ltp: inst.LTP, found: true}, nil
			}
			id, err := d.client().SetAlert(ctx, a, noren.AlertRequest{Exch: exch, TSym: inst.TSym, Type: code, Value: in.Value, Decimals: inst.Decimals, Remarks: key})
			if noren.IsOutcomeUnknown(err) {
				if id, ok := pendingWithRemarks(ctx, d, a, key); ok {
					return alertSet{id: id, ltp: inst.LTP}, nil
				}
				return alertSet{}, envelope.New(envelope.OutcomeUnknown, "SetAlert was sent but the answer was lost; list_price_alerts shows whether alert %s exists (remarks), or call again with the same idempotency_key", key).WithCause(err)
			}
			return alertSet{id: id, ltp: inst.LTP}, err
		})
		if err != nil {
			if !noren.IsOutcomeUnknown(err) {
				release()
			}
			return AlertOut{}, err
		}
		if res.found {
			out.Status = "already_set"
		}
		out.AlertID = res.id
		out.describe(code, res.ltp)
		if st != nil {
			_ = st.Update(context.WithoutCancel(ctx), claimKey, 24*time.Hour, func([]byte) ([]byte, error) {
				return json.Marshal(alertClaim{ID: res.id})
			})
		}
		return out, nil
	})
}

type alertSet struct {
	id    string
	ltp   float64
	found bool
}

func pendingWithRemarks(ctx context.Context, d *Deps, a *noren.Auth, key string) (string, bool) {
	list, err := d.client().PendingAlerts(ctx, a)
	if err != nil {
		return "", false
	}
	for _, al := range list {
		if al.Remarks == key {
			return al.ID, true
		}
	}
	return "", false
}

// AlertIDIn names one alert.
type AlertIDIn struct {
	AlertID string `json:"alert_id" jsonschema:"from set_price_alert or list_price_alerts" mcp:"pattern=^[0-9A-Za-z_-]{1,32}$"`
}

// ModifyAlertIn changes an alert's condition or value; what is left out stays.
type ModifyAlertIn struct {
	AlertID   string   `json:"alert_id" mcp:"pattern=^[0-9A-Za-z_-]{1,32}$"`
	Condition string   `json:"condition,omitempty" mcp:"enum=LTP_ABOVE|LTP_BELOW|CHANGE_PERCENT_ABOVE|CHANGE_PERCENT_BELOW"`
	Value     *float64 `json:"value,omitempty" mcp:"min=-100;max=10000000"`
}

func notPending(id string) error {
	return envelope.New(envelope.NotFound, "no pending alert %s (fired, cancelled or never set); list_price_alerts shows the pending ones", id)
}

func findPending(ctx context.Context, d *Deps, a *noren.Auth, id string) (noren.Alert, error) {
	list, err := d.client().PendingAlerts(ctx, a)
	if err != nil {
		return noren.Alert{}, err
	}
	for _, al := range list {
		if al.ID == id {
			return al, nil
		}
	}
	return noren.Alert{}, notPending(id)
}

func modifyAlertTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "modify_price_alert", Title: "Modify price alert", Toolset: "alerts",
		Description: "Change a pending alert's condition or value (pass only what changes). Errors: not_found (see list_price_alerts).",
		Hints:       toolkit.Hints{Destructive: true, Idempotent: true, OpenWorld: true},
	}, func(ctx context.Context, in ModifyAlertIn) (AlertOut, error) {
		if in.Condition == "" && in.Value == nil {
			return AlertOut{}, envelope.Invalid("value", "pass condition or value (or both): nothing to change")
		}
		return do(ctx, d, func(a *noren.Auth) (AlertOut, error) {
			cur, err := findPending(ctx, d, a, in.AlertID)
			if err != nil {
				return AlertOut{}, err
			}
			code, v := cur.Type, float64(cur.Value)
			if in.Condition != "" {
				if code, err = alertCode(in.Condition); err != nil {
					return AlertOut{}, err
				}
			}
			if in.Value != nil {
				v = *in.Value
			}
			if err := checkAlertValue(code, v); err != nil {
				return AlertOut{}, err
			}
			inst, err := d.instrument(ctx, a, cur.Exch, cur.TSym)
			if err != nil {
				return AlertOut{}, err
			}
			id, err := d.client().ModifyAlert(ctx, a, noren.AlertRequest{ID: cur.ID, Exch: cur.Exch, TSym: cur.TSym, Type: code, Value: v, Decimals: inst.Decimals, Remarks: cur.Remarks})
			if err != nil {
				if noren.IsOutcomeUnknown(err) {
					return AlertOut{}, envelope.New(envelope.OutcomeUnknown, "ModifyAlert was sent but the answer was lost; list_price_alerts shows the alert's value now").WithCause(err)
				}
				return AlertOut{}, err
			}
			out := AlertOut{AlertID: firstNonEmpty(id, cur.ID), Status: "modified", Exchange: cur.Exch, TSym: cur.TSym,
				Condition: feed.AlertConditionName(code), Value: v, FiresOn: feed.OrdersURI}
			out.describe(code, inst.LTP)
			return out, nil
		})
	})
}

// CancelAlertOut acknowledges a cancellation.
type CancelAlertOut struct {
	AlertID string `json:"alert_id"`
	Status  string `json:"status" mcp:"enum=cancelled"`
}

func cancelAlertTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "cancel_price_alert", Title: "Cancel price alert", Toolset: "alerts",
		Description: "Delete a pending alert. Errors: not_found (fired, cancelled or unknown; see list_price_alerts).",
		Hints:       toolkit.Hints{Destructive: true, Idempotent: true, OpenWorld: true},
	}, func(ctx context.Context, in AlertIDIn) (CancelAlertOut, error) {
		id, err := do(ctx, d, func(a *noren.Auth) (string, error) { return d.client().CancelAlert(ctx, a, in.AlertID) })
		if err != nil {
			if noren.IsOutcomeUnknown(err) {
				return CancelAlertOut{}, envelope.New(envelope.OutcomeUnknown, "CancelAlert was sent but the answer was lost; list_price_alerts shows whether %s is still pending", in.AlertID).WithCause(err)
			}
			return CancelAlertOut{}, err
		}
		return CancelAlertOut{AlertID: firstNonEmpty(id, in.AlertID), Status: "cancelled"}, nil
	})
}

// AlertRow is one pending alert.
type AlertRow struct {
	AlertID   string  `json:"alert_id"`
	Exchange  string  `json:"exchange"`
	TSym      string  `json:"trading_symbol"`
	Condition string  `json:"condition"`
	Value     float64 `json:"value"`
	Remarks   string  `json:"remarks,omitempty"`
	SetAt     string  `json:"set_at,omitempty"`
}

// AlertsOut is the pending alerts, newest first as Noren lists them.
type AlertsOut struct {
	envelope.Coverage
	Alerts     []AlertRow          `json:"alerts"`
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func listAlertsTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "list_price_alerts", Title: "Pending price alerts", Toolset: "alerts",
		Description: "Alerts not yet fired (GetPendingAlert). Fired ones: resource " + feed.OrdersURI + ".",
		Hints:       toolkit.RemoteRead,
	}, func(ctx context.Context, _ struct{}) (AlertsOut, error) {
		list, err := do(ctx, d, func(a *noren.Auth) ([]noren.Alert, error) { return d.client().PendingAlerts(ctx, a) })
		if err != nil {
			return AlertsOut{}, err
		}
		out := AlertsOut{Alerts: make([]AlertRow, 0, len(list)), ThirdParty: envelope.ThirdParty{"alerts[].remarks"},
			Coverage: bookCoverage(len(list), "no pending alerts")}
		for _, al := range list {
			out.Alerts = append(out.Alerts, AlertRow{AlertID: al.ID, Exchange: al.Exch, TSym: al.TSym, Condition: feed.AlertConditionName(al.Type),
				Value: float64(al.Value), Remarks: envelope.CleanThirdParty(al.Remarks), SetAt: norenTime(al.Time)})
		}
		return out, nil
	})
}

// alertTools are the alerts toolset.
func alertTools(d *Deps) []toolkit.Tool {
	return []toolkit.Tool{setAlertTool(d), modifyAlertTool(d), cancelAlertTool(d), listAlertsTool(d)}
}

package noren

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Price alerts: SetAlert, ModifyAlert, CancelAlert and GetPendingAlert.
// source: the route names are in Shoonya's OAuth-era API catalogue
// (shoonya.com API documentation, /NorenWClientAPI/ routes).
// assumed: the fields (uid, exch, tsym, ai_t, d, validity, remarks; al_id in
// answers and pending rows) follow the Noren web API the GTT routes share;
// no public SDK (ShoonyaApi-py, NorenRestApiWrapper-Py 0.0.33) wraps these
// routes or shows a sample.

// Alert is a GetPendingAlert element.
type Alert struct {
	ID       string `json:"al_id"`
	Exch     string `json:"exch"`
	TSym     string `json:"tsym"`
	Token    string `json:"token"`
	Type     string `json:"ai_t"`
	Value    Num    `json:"d"`
	Validity string `json:"validity"`
	Remarks  string `json:"remarks"`
	Time     string `json:"norentm"`
}

// AlertRequest is SetAlert's and ModifyAlert's payload.
type AlertRequest struct {
	ID       string // ModifyAlert only
	Exch     string
	TSym     string
	Type     string // ai_t, e.g. LTP_A
	Value    float64
	Decimals int
	Remarks  string
}

// AlertValidity is sent with every alert: it stays until it fires or is
// cancelled. assumed: Noren's "GTT" validity, as its GTT orders use.
const AlertValidity = "GTT"

func (r AlertRequest) jdata(a *Auth) map[string]any {
	m := map[string]any{"uid": a.UID, "exch": r.Exch, "tsym": r.TSym, "ai_t": r.Type,
		"validity": AlertValidity, "d": FormatPrice(r.Value, r.Decimals), "remarks": r.Remarks}
	if r.ID != "" {
		m["al_id"] = r.ID
	}
	return m
}

// SetAlert sends SetAlert once and returns the alert id.
func (c *Client) SetAlert(ctx context.Context, a *Auth, r AlertRequest) (string, error) {
	r.ID = ""
	return c.alertWrite(ctx, "SetAlert", a, r.jdata(a))
}

// ModifyAlert sends ModifyAlert once.
func (c *Client) ModifyAlert(ctx context.Context, a *Auth, r AlertRequest) (string, error) {
	return c.alertWrite(ctx, "ModifyAlert", a, r.jdata(a))
}

// CancelAlert sends CancelAlert once.
func (c *Client) CancelAlert(ctx context.Context, a *Auth, id string) (string, error) {
	return c.alertWrite(ctx, "CancelAlert", a, map[string]any{"uid": a.UID, "al_id": id})
}

// PendingAlerts lists the alerts that have not fired; Noren's "no data"
// answer is an empty list, any other refusal an error (DecodeList).
func (c *Client) PendingAlerts(ctx context.Context, a *Auth) ([]Alert, error) {
	return list[Alert](ctx, c, "GetPendingAlert", a, map[string]any{"uid": a.UID})
}

// alertWrite posts an alert change: a Not_Ok answer is the broker's refusal;
// any other stat that names the alert is success (Noren's GTT routes answer
// "OI created" / "OI replaced" rather than "Ok", and the alert routes may too).
func (c *Client) alertWrite(ctx context.Context, route string, a *Auth, jdata map[string]any) (string, error) {
	body, err := c.post(ctx, route, a, jdata, false)
	if err != nil {
		return "", err
	}
	var res struct {
		Status
		ID string `json:"al_id"`
	}
	if firstByte(body) != '{' {
		return "", outcomeUnknown(route, unreadable(route, fmt.Errorf("want a JSON object, got %q", extract.Clip(string(body), 40))))
	}
	if err := json.Unmarshal(body, &res); err != nil {
		return "", outcomeUnknown(route, unreadable(route, err))
	}
	switch {
	case strings.EqualFold(res.Stat, "Not_Ok"):
		return "", refusal(route, res.Emsg)
	case res.ID == "" && !res.OK():
		return "", outcomeUnknown(route, unreadable(route, errors.New("answer without stat Ok or al_id")))
	}
	return res.ID, nil
}

package noren

import "context"

// OptionGreekRequest is GetOptionGreek's input: the route computes Greeks
// from the volatility it is given. source: NorenApi.py option_greek (fields
// source, actid, exd, strprc, sptprc, int_rate, volatility, optt) and
// ShoonyaApi-py README get_option_greek (exd "24-NOV-2022").
type OptionGreekRequest struct {
	Expiry     string  // DD-MMM-YYYY
	Strike     float64 // strprc
	Spot       float64 // sptprc
	Rate       float64 // int_rate, percent (assumed: the README's sample sends '100' with no unit)
	Volatility float64 // volatility, percent (assumed likewise)
	OptType    string  // CE or PE
}

// OptionGreek is GetOptionGreek's answer; the README spells vega "vego" and
// answers stat "OK" (Status.OK ignores case). Units are as Noren sends them.
type OptionGreek struct {
	Status
	CallPrice Num `json:"cal_price"`
	PutPrice  Num `json:"put_price"`
	CallDelta Num `json:"cal_delta"`
	PutDelta  Num `json:"put_delta"`
	CallGamma Num `json:"cal_gamma"`
	PutGamma  Num `json:"put_gamma"`
	CallTheta Num `json:"cal_theta"`
	PutTheta  Num `json:"put_theta"`
	CallRho   Num `json:"cal_rho"`
	PutRho    Num `json:"put_rho"`
	CallVega  Num `json:"cal_vego"`
	PutVega   Num `json:"put_vego"`
}

// GetOptionGreek asks Noren's Greeks for one option at a given volatility.
func (c *Client) GetOptionGreek(ctx context.Context, a *Auth, r OptionGreekRequest) (OptionGreek, error) {
	var g OptionGreek
	err := c.object(ctx, "GetOptionGreek", a, map[string]any{"source": "API", "actid": a.ActID, "exd": r.Expiry,
		"strprc": fnum(r.Strike), "sptprc": fnum(r.Spot), "int_rate": fnum(r.Rate), "volatility": fnum(r.Volatility), "optt": r.OptType}, true, &g)
	return g, err
}

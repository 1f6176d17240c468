package fake

import "fmt"

// searchScrip (source: ShoonyaApi-py README SearchScrip): every word of stext
// must occur in tsym (assumed).
func (s *Server) searchScrip(c *call) reply {
	found := s.cat.search(c.str("exch"), c.symbol("stext"))
	if len(found) == 0 {
		return s.notOk(EmsgSearchNoData)
	}
	if len(found) > 50 {
		found = found[:50]
	}
	vals := make([]map[string]any, 0, len(found))
	for _, in := range found {
		v := map[string]any{"exch": in.Exch, "token": in.Token, "tsym": in.TSym, "cname": in.CName,
			"instname": in.InstName, "pp": fmt.Sprint(in.PP), "ti": fmtPx(in.TI, in.PP), "ls": fmt.Sprint(in.LS)}
		if in.OptType != "" {
			v["optt"], v["dname"] = in.OptType, in.CName
		}
		vals = append(vals, v)
	}
	return s.ok(map[string]any{"values": vals})
}

// staticFields are the scrip-master fields shared by GetQuotes and GetSecurityInfo.
// source: ShoonyaApi-py README GetQuotes/GetSecurityInfo (scrip-master fields: pp, ls, ti, uc, lc).
func (s *Server) staticFields(in *Instrument) map[string]any {
	q, _ := s.mkt.snapshot(in.Key())
	uc, lc := circuit(in, q.c)
	m := map[string]any{
		"exch": in.Exch, "tsym": in.TSym, "cname": in.CName, "symname": in.Symbol, "seg": in.Seg,
		"instname": in.InstName, "pp": fmt.Sprint(in.PP), "ls": fmt.Sprint(in.LS), "ti": fmtPx(in.TI, in.PP),
		"mult": fmt.Sprint(in.Mult), "prcftr_d": "(1 / 1 ) * (1 / 1)", "token": in.Token,
	}
	if in.ISIN != "" {
		m["isin"] = in.ISIN
	}
	if !in.isIndex() {
		m["uc"], m["lc"] = fmtPx(uc, in.PP), fmtPx(lc, in.PP)
	}
	return m
}

// securityInfo (source: ShoonyaApi-py README GetSecurityInfo).
func (s *Server) securityInfo(c *call) reply {
	in := s.cat.byToken(c.str("exch"), c.str("token"))
	if in == nil {
		return s.notOk(EmsgNoData)
	}
	m := s.staticFields(in)
	m["frzqty"] = fmt.Sprint(in.FreezeQty)
	m["gp_nd"], m["prcunt"], m["prcqqty"], m["trdunt"], m["delunt"] = "1/1", "", "1", "", ""
	m["gsmind"] = "0"
	m["varmrg"], m["elmmrg"], m["expmrg"] = "20.00", "3.50", "0.00"
	if !in.Expiry.IsZero() {
		m["exd"] = in.Expiry.In(IST).Format("02-Jan-2006")
	}
	if in.OptType != "" {
		m["strprc"], m["optt"] = fmtPx(in.Strike, in.PP), in.OptType
	}
	return s.ok(m)
}

// getQuotes (source: ShoonyaApi-py README GetQuotes): static fields plus the live depth snapshot.
func (s *Server) getQuotes(c *call) reply {
	in := s.cat.byToken(c.str("exch"), c.str("token"))
	if in == nil {
		return s.notOk(EmsgNoData)
	}
	m := s.staticFields(in)
	for k, v := range s.mkt.fields(in.Key(), true) {
		switch k {
		case "e", "tk", "ts", "pc", "ft", "tbq", "tsq", "52h", "52l", "toi", "poi", "ltt":
			continue
		}
		m[k] = v
	}
	q, _ := s.mkt.snapshot(in.Key())
	m["ltt"] = q.ltt.In(IST).Format("15:04:05")
	m["ltd"] = q.ltt.In(IST).Format("02-01-2006")
	if in.isIndex() {
		m["ltq"], m["v"] = "0", "0"
	}
	return s.ok(m)
}

package noren

// Raw Noren records, field names as Noren sends them (ShoonyaApi-py README field tables). Numbers
// are Num (Noren sends strings). Tools map these to readable results.

// Order is an OrderBook / SingleOrdHist element.
type Order struct {
	Exch       string `json:"exch"`
	TSym       string `json:"tsym"`
	Token      string `json:"token"`
	OrderNo    string `json:"norenordno"`
	Price      Num    `json:"prc"`
	Qty        Num    `json:"qty"`
	Product    string `json:"prd"`
	Status     string `json:"status"`
	TranType   string `json:"trantype"`
	PriceType  string `json:"prctyp"`
	FillShares Num    `json:"fillshares"`
	AvgPrice   Num    `json:"avgprc"`
	RejReason  string `json:"rejreason"`
	ExchOrdID  string `json:"exchordid"`
	CancelQty  Num    `json:"cancelqty"`
	Remarks    Str    `json:"remarks"`
	DisclosedQ Num    `json:"dscqty"`
	Trigger    Num    `json:"trgprc"`
	Retention  string `json:"ret"`
	AMO        string `json:"amo"`
	NorenTime  string `json:"norentm"`
	ExchTime   string `json:"exch_tm"`
}

// Trade is a TradeBook element (one fill).
type Trade struct {
	Exch      string `json:"exch"`
	TSym      string `json:"tsym"`
	Token     string `json:"token"`
	OrderNo   string `json:"norenordno"`
	Qty       Num    `json:"qty"`
	Product   string `json:"prd"`
	TranType  string `json:"trantype"`
	PriceType string `json:"prctyp"`
	FillID    string `json:"flid"`
	FillTime  string `json:"fltm"`
	FillQty   Num    `json:"flqty"`
	FillPrice Num    `json:"flprc"`
	AvgPrice  Num    `json:"avgprc"`
	Remarks   Str    `json:"remarks"`
	ExchTime  string `json:"exch_tm"`
	NorenTime string `json:"norentm"`
}

// Position is a PositionBook element.
type Position struct {
	Exch          string `json:"exch"`
	TSym          string `json:"tsym"`
	Token         string `json:"token"`
	Product       string `json:"prd"`
	NetQty        Num    `json:"netqty"`
	NetAvgPrice   Num    `json:"netavgprc"`
	DayBuyQty     Num    `json:"daybuyqty"`
	DaySellQty    Num    `json:"daysellqty"`
	DayBuyAvg     Num    `json:"daybuyavgprc"`
	DaySellAvg    Num    `json:"daysellavgprc"`
	CFBuyQty      Num    `json:"cfbuyqty"`
	CFSellQty     Num    `json:"cfsellqty"`
	DayBuyAmt     Num    `json:"daybuyamt"`
	DaySellAmt    Num    `json:"daysellamt"`
	CFBuyAmt      Num    `json:"cfbuyamt"`
	CFSellAmt     Num    `json:"cfsellamt"`
	LastPrice     Num    `json:"lp"`
	RealisedPnL   Num    `json:"rpnl"`
	UnrealisedMTM Num    `json:"urmtom"`
	Multiplier    Num    `json:"mult"`
}

// ScripRef is one element of a holding's exch_tsym list.
type ScripRef struct {
	Exch  string `json:"exch"`
	TSym  string `json:"tsym"`
	Token string `json:"token"`
}

// Holding is a Holdings element.
type Holding struct {
	Scrips    []ScripRef `json:"exch_tsym"`
	HoldQty   Num        `json:"holdqty"`
	DPQty     Num        `json:"dpqty"`
	NPOADQty  Num        `json:"npoadqty"`
	ColQty    Num        `json:"colqty"`
	BenQty    Num        `json:"benqty"`
	UnplgdQty Num        `json:"unplgdqty"`
	BrkColQty Num        `json:"brkcolqty"`
	BTSTQty   Num        `json:"btstqty"`
	UsedQty   Num        `json:"usedqty"`
	UploadPrc Num        `json:"upldprc"`
}

// Limits is the Limits object (the sample uses urmtom, the table unmtom).
type Limits struct {
	Cash          Num `json:"cash"`
	Payin         Num `json:"payin"`
	Payout        Num `json:"payout"`
	BrkCollAmt    Num `json:"brkcollamt"`
	UnclearedCash Num `json:"unclearedcash"`
	DayCash       Num `json:"daycash"`
	MarginUsed    Num `json:"marginused"`
	URMTOM        Num `json:"urmtom"`
	UNMTOM        Num `json:"unmtom"`
	RPnL          Num `json:"rpnl"`
	Span          Num `json:"span"`
	Expo          Num `json:"expo"`
	Premium       Num `json:"premium"`
	Collateral    Num `json:"collateral"`
	TurnoverLmt   Num `json:"turnoverlmt"`
	PendOrdValLmt Num `json:"pendordvallmt"`
	Turnover      Num `json:"turnover"`
	PendOrdVal    Num `json:"pendordval"`
}

// Scrip is a SearchScrip / GetOptionChain value.
type Scrip struct {
	Exch     string `json:"exch"`
	TSym     string `json:"tsym"`
	Token    string `json:"token"`
	OptType  string `json:"optt"`
	Strike   Num    `json:"strprc"`
	PP       Num    `json:"pp"`
	TickSize Num    `json:"ti"`
	LotSize  Num    `json:"ls"`
	InstName string `json:"instname"`
	Symbol   string `json:"symname"`
	CName    string `json:"cname"`
}

// Quote is the GetQuotes object.
type Quote struct {
	Exch     string `json:"exch"`
	TSym     string `json:"tsym"`
	Token    string `json:"token"`
	CName    string `json:"cname"`
	Symbol   string `json:"symname"`
	InstName string `json:"instname"`
	PP       Num    `json:"pp"`
	TickSize Num    `json:"ti"`
	LotSize  Num    `json:"ls"`
	Mult     Num    `json:"mult"`
	Upper    Num    `json:"uc"`
	Lower    Num    `json:"lc"`
	LP       Num    `json:"lp"`
	Open     Num    `json:"o"`
	High     Num    `json:"h"`
	Low      Num    `json:"l"`
	Close    Num    `json:"c"`
	AvgPrice Num    `json:"ap"`
	Volume   Num    `json:"v"`
	OI       Num    `json:"oi"`
	LTQ      Num    `json:"ltq"`
	LTT      string `json:"ltt"`
	BP1      Num    `json:"bp1"`
	BP2      Num    `json:"bp2"`
	BP3      Num    `json:"bp3"`
	BP4      Num    `json:"bp4"`
	BP5      Num    `json:"bp5"`
	SP1      Num    `json:"sp1"`
	SP2      Num    `json:"sp2"`
	SP3      Num    `json:"sp3"`
	SP4      Num    `json:"sp4"`
	SP5      Num    `json:"sp5"`
	BQ1      Num    `json:"bq1"`
	BQ2      Num    `json:"bq2"`
	BQ3      Num    `json:"bq3"`
	BQ4      Num    `json:"bq4"`
	BQ5      Num    `json:"bq5"`
	SQ1      Num    `json:"sq1"`
	SQ2      Num    `json:"sq2"`
	SQ3      Num    `json:"sq3"`
	SQ4      Num    `json:"sq4"`
	SQ5      Num    `json:"sq5"`
}

// Candle is a TPSeries element or a decoded EODChartData string.
type Candle struct {
	Time   string `json:"time"`
	SSBoE  Str    `json:"ssboe"`
	Open   Num    `json:"into"`
	High   Num    `json:"inth"`
	Low    Num    `json:"intl"`
	Close  Num    `json:"intc"`
	VWAP   Num    `json:"intvwap"`
	Volume Num    `json:"intv"`
	OI     Num    `json:"intoi"`
}

// LoginResult is what QuickAuth and GenAcsTok answer (the fields we use).
type LoginResult struct {
	Status
	SUserToken  string   `json:"susertoken"`
	AccessToken string   `json:"access_token"`
	UserID      string   `json:"USERID"`
	UID         string   `json:"uid"`
	ActID       string   `json:"actid"`
	UName       string   `json:"uname"`
	ExpiresIn   Str      `json:"expires_in"`
	Exchanges   []string `json:"exarr"`
	BrokerName  string   `json:"brkname"`
}

package fake

// Reply texts, copied exactly (double spaces included) from public samples:
// Shoonya-Dev/ShoonyaApi-py README.md and issues (#13, #131, #145, #218),
// ShoonyaApi-js#16, other brokers' Noren doc pages (docs.infinn.in,
// star.prostocks.com). Texts marked "fake-chosen" are not shown in public material.
const (
	EmsgWrongPassword    = "Invalid Input : Wrong Password"
	EmsgPasswordExpired  = "Invalid Input : Password Expired"
	EmsgInvalidOTP       = "Invalid Input : Invalid OTP"
	EmsgInvalidVendor    = "Invalid Input :  Invalid Vendor code"
	EmsgNotEnabledAPI    = "Invalid Input : User Not enabled on : API"
	EmsgInvalidAccess    = "Invalid Input :  Invalid Access Type"
	EmsgInvalidVerifier  = "Invalid Input : INVALID_VERIFIER"
	EmsgAPIOnlyUsers     = "Access Restricted for API Only Users"
	EmsgSessionExpired   = "Session Expired : Invalid Session Key"
	EmsgNoData           = `Error Occurred : 5 "no data"`
	EmsgSearchNoData     = "No Data :  "
	EmsgInvalidInput     = `Error Occurred : 2 "invalid input"`
	EmsgOrderNotFound    = "Rejected : ORA:Order not found"
	EmsgCancelNotFound   = "Rejected : ORA:Order not found to Cancel"
	EmsgHoldingsMissing  = "Invalid Input : Missing uid or actid or prd."
	EmsgJDataMissing     = "Invalid Input :  jData is Missing."
	EmsgJDataInvalid     = "Invalid Input : jData is not valid json object" // marketcalls/openalgo broker/shoonya/api/data.py
	EmsgServerTimeout    = "Server Timeout :  "
	EmsgTriggerInvalidFm = "Trigger price invalid - %.2f" // openalgo: trgprc "0" on an LMT modify

	// fake-chosen texts (assumed: no public sample):
	EmsgUnknownUser   = "Invalid Input : Invalid User Id"
	EmsgRateLimited   = "Too Many Requests"
	RejInsufficient   = "Insufficient funds"                      // OrderBook rejreason sample
	RejLotSize        = "Quantity should be multiple of lot size" // the broker's rejreason as a user met it on an NFO order of 10 for a lot of 75 (NIFTY's lot before 2025-12-30); also the text Noren's web clients show for a quantity that is not a multiple of ls
	RejTickSize       = "Price should be multiple of tick size"
	RejMarketBlocked  = "Market orders are not allowed for API"
	RejCircuit        = "Price is outside the circuit limits"
	RejExchangeDenied = "Exchange not enabled for the user"
)

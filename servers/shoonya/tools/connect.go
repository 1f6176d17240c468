package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// ConnectIn overrides the environment's credentials; every field is optional.
type ConnectIn struct {
	UserID     string `json:"user_id,omitempty" mcp:"maxLength=32"`
	Password   string `json:"password,omitempty" jsonschema:"legacy" mcp:"maxLength=128"`
	TOTP       string `json:"totp,omitempty" jsonschema:"legacy; default from SHOONYA_TOTP_SECRET" mcp:"pattern=^[0-9]{6}$"`
	VendorCode string `json:"vendor_code,omitempty" jsonschema:"legacy; default <user_id>_U" mcp:"maxLength=64"`
	APISecret  string `json:"api_secret,omitempty" jsonschema:"legacy" mcp:"maxLength=256"`
	IMEI       string `json:"imei,omitempty" jsonschema:"legacy" mcp:"maxLength=64"`
	AuthCode   string `json:"auth_code,omitempty" jsonschema:"OAuth: from the redirect" mcp:"maxLength=512"`
}

// ConnectOut never carries a secret.
type ConnectOut struct {
	Status       string `json:"status" mcp:"enum=connected|authorization_required"`
	Auth         string `json:"auth"`
	UserID       string `json:"user_id,omitempty"`
	AccountID    string `json:"account_id,omitempty"`
	AuthorizeURL string `json:"authorize_url,omitempty"`
	Next         string `json:"next"`
}

func connectTool(d *Deps) toolkit.Tool {
	return toolkit.New(toolkit.Def{
		Name: "connect_shoonya_broker", Title: "Connect to Shoonya", Toolset: "account",
		Description: "Log in to the Shoonya (Finvasia) broker (again when a tool says the session expired). " +
			"No arguments needed with SHOONYA_* env credentials; arguments override them. " +
			"OAuth (default): without auth_code it returns authorize_url; the user opens it and logs in, then call again with auth_code from the redirect. " +
			"Legacy password+TOTP login (SHOONYA_AUTH=legacy) is closed by Shoonya since 2026-04-01. Secrets are never echoed. " +
			"Errors name the setting to fix.",
		Hints: toolkit.Hints{ReadOnly: true, Idempotent: true, OpenWorld: true},
	}, func(ctx context.Context, in ConnectIn) (ConnectOut, error) {
		cr := merge(d.Sessions.Env, in)
		era := d.Sessions.Era()
		if era == noren.OAuth {
			if in.AuthCode == "" {
				if a, err := d.Sessions.Auth(ctx); err == nil && (in.UserID == "" || in.UserID == a.UID) {
					return connected(era, a), nil // e.g. finished through the callback
				}
				if cr.UID == "" {
					return ConnectOut{}, envelope.Invalid("user_id", "set SHOONYA_USER_ID or pass user_id")
				}
				clientID := cr.ClientID
				if clientID == "" {
					clientID = cr.UID + "_U"
				}
				out := ConnectOut{Status: "authorization_required", Auth: string(era), UserID: cr.UID,
					Next: "ask the user to open authorize_url and log in; the redirect carries ?code=...; call connect_shoonya_broker with auth_code set to it"}
				if d.Callback != nil {
					redirect, state, err := d.Callback.Begin(user(ctx), cr)
					if err != nil {
						return ConnectOut{}, err
					}
					out.AuthorizeURL = d.client().AuthorizeURL(clientID, redirect, state)
					out.Next = "ask the user to open authorize_url and log in; this server receives the code itself, so afterwards call connect_shoonya_broker again (no arguments) to confirm"
				} else {
					out.AuthorizeURL = d.client().AuthorizeURL(clientID, "", "")
				}
				return out, nil
			}
			a, err := d.Sessions.LoginOAuth(ctx, user(ctx), cr, in.AuthCode)
			if err != nil {
				return ConnectOut{}, err
			}
			return connected(era, a), nil
		}
		a, err := d.Sessions.LoginLegacy(ctx, cr, in.TOTP)
		if err != nil {
			return ConnectOut{}, err
		}
		return connected(era, a), nil
	})
}

func connected(era noren.Era, a *noren.Auth) ConnectOut {
	return ConnectOut{Status: "connected", Auth: string(era), UserID: a.UID, AccountID: a.ActID,
		Next: "trading tools are ready; orders are real: place_order asks for confirmation where the client supports it and enforces the pre-trade limits"}
}

func merge(env noren.Credentials, in ConnectIn) noren.Credentials {
	cr := env
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&cr.UID, in.UserID)
	set(&cr.Password, in.Password)
	set(&cr.VendorCode, in.VendorCode)
	set(&cr.APISecret, in.APISecret)
	set(&cr.IMEI, in.IMEI)
	return cr
}

package main

import "github.com/mcpfleet/mcpfleet/pkg/serve"

// envVars is what the ktrdr server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "KTRDR_API_URL", Help: "backend base URL, e.g. http://localhost:8000/api/v1"},
	{Name: "KTRDR_API_KEY", Help: "API key when the backend requires one", Secret: true},
	{Name: "KTRDR_PASSWORD", Help: "backend password when it requires one", Secret: true},
	{Name: "KTRDR_TIMEOUT", Help: "per-request timeout, e.g. 30s"},
	{Name: "KTRDR_DATA_LOAD_ROUTE", Help: "auto (probe), acquire or load: which data-loading route the backend has"},
}

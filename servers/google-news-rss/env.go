package main

import "github.com/mcpfleet/mcpfleet/pkg/serve"

// envVars is what the google-news-rss server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "MCPFLEET_FETCH_USER_AGENT", Help: "user agent of read_article's page reads (its product token is what robots.txt rules match)"},
	{Name: "MCPFLEET_FETCH_ALLOW_LOOPBACK", Help: "1 lets read_article read 127.0.0.0/8 and ::1 (tests and local fakes only)"},
	{Name: "GOOGLE_NEWS_BASE_URL", Help: "feed host (default https://news.google.com); point it at bin/fake-google-news-rss to try offline"},
}

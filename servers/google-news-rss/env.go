package main

import "github.com/mcpfleet/mcpfleet/pkg/serve"

// envVars is what the google-news-rss server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "GOOGLE_NEWS_BASE_URL", Help: "feed host (default https://news.google.com); point it at bin/fake-google-news-rss to try offline"},
}

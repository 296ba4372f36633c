# Bulkdesk build, test and benchmark targets. "make run" and "make test"
# are the two commands a newcomer needs; the rest are their parts.

GO        ?= go
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
BIN       := bin
# The console's four WebAssembly programs (the page; its first worker,
# which reads and validates; the second, which calls the API and writes
# workbooks, started by the first when needed; and the OpenAPI reader loaded only when
# an operator loads a contract) are built here, then bundled into the
# folder the bulkdesk binary embeds.
WASM_OUT  := build/wasm
CONSOLE   := cmd/bulkdesk/internal/console/dist
WASMBUILD := GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w'
# axe-core, the accessibility engine the browser tests run on every page,
# installed by npm from its lock file.
AXE       := cmd/bulkdesk/internal/browsertest/testdata/axe

.PHONY: all build console axe run test test-short vet test-native test-wasm bench bench-native bench-wasm bench-browser bench-ingest fuzz screenshot clean

all: build

## build: the console and the bulkdesk binary that embeds it
build: console
	$(GO) build -o $(BIN)/bulkdesk ./cmd/bulkdesk

## console: the page's, the two workers' and the contract reader's
## WebAssembly, bundled for embedding
console:
	@mkdir -p $(WASM_OUT)
	$(WASMBUILD) -o $(WASM_OUT)/app.wasm ./wasm
	$(WASMBUILD) -o $(WASM_OUT)/worker.wasm ./wasm/worker
	$(WASMBUILD) -o $(WASM_OUT)/apiworker.wasm ./wasm/apiworker
	$(WASMBUILD) -o $(WASM_OUT)/contract.wasm ./wasm/contract
	$(GO) run ./cmd/bulkdesk/internal/console/bundle -web web -wasm $(WASM_OUT) -out $(CONSOLE)

## run: build everything and serve the console on 127.0.0.1:8080
run: build
	$(BIN)/bulkdesk serve -addr 127.0.0.1:8080 -sandbox

## test: the whole suite, natively, under WebAssembly and in Chromium
test: console axe vet test-native test-wasm

## axe: axe-core for the browser tests' accessibility checks (npm)
axe: $(AXE)/node_modules/axe-core/axe.min.js

$(AXE)/node_modules/axe-core/axe.min.js: $(AXE)/package-lock.json
	cd $(AXE) && npm ci --no-audit --no-fund
	@touch $@

## test-short: the unit tests, natively and under WebAssembly, without
## Chromium or the built console (under 2 minutes on 2 cores; make test
## about 13)
test-short: vet
	$(GO) test -short ./...
	GOOS=js GOARCH=wasm $(GO) test -short -exec $(WASM_EXEC) $(WASM_TEST_PKGS)

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./...

# The command line's package runs the console in Chromium in many
# languages and scenarios: on a loaded 2-core machine it can pass go
# test's default 10 minutes.
test-native:
	$(GO) test -timeout 25m ./...

# Packages whose logic also runs in the browser are tested under
# WebAssembly too, in Node.
WASM_TEST_PKGS += ./schema/...
WASM_TEST_PKGS += ./app/webhook/...
WASM_TEST_PKGS += ./app/bulkapi/...
WASM_TEST_PKGS += ./app/submission/...
WASM_TEST_PKGS += ./app/ingest/...
WASM_TEST_PKGS += ./app/money/...
WASM_TEST_PKGS += ./app/reading/...
WASM_TEST_PKGS += ./app/workbook/...
WASM_TEST_PKGS += ./app/draft/...
WASM_TEST_PKGS += ./app/mappingmemory/...
WASM_TEST_PKGS += ./app/wire/...
WASM_TEST_PKGS += ./app/worker/...
WASM_TEST_PKGS += ./app/review/...
WASM_TEST_PKGS += ./app/ui/...
WASM_TEST_PKGS += ./app/fixture/...
WASM_TEST_PKGS += ./app/fakeapi/...
WASM_TEST_PKGS += ./app/bulkreview/...
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -short -exec $(WASM_EXEC) $(WASM_TEST_PKGS)

## bench: the benchmarks behind BENCHMARKS.md
bench: bench-native bench-wasm bench-browser

bench-native:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./schema/
	$(GO) test -run '^$$' -bench . -benchmem -count 5 -benchtime 10x ./app/submission/ ./cmd/bulkdesk/internal/sandbox/
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./app/webhook/
	$(GO) test -run '^$$' -bench . -benchtime 3000x -count 5 ./cmd/bulkdesk/internal/receiver/

bench-wasm:
	GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -count 5 -exec $(WASM_EXEC) ./schema/
	GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -count 5 -benchtime 5x -exec $(WASM_EXEC) ./app/submission/...
	GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -count 5 -exec $(WASM_EXEC) ./app/webhook/

## bench-ingest: the ingest figures of BENCHMARKS.md, natively and in Node
bench-ingest:
	$(GO) test -run '^$$' -bench 'Ingest|Stage|Baseline|Memory|Detect|Plausibility' -benchmem -count 5 ./app/ingest/
	$(GO) test -run '^$$' -bench . -benchtime 3x -count 3 ./app/workbook/
	GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench 'Ingest|Stage|Baseline|Memory|Detect|Plausibility' -count 5 -benchtime 5x -exec $(WASM_EXEC) ./app/ingest/

# The console in headless Chromium, alone and against a JavaScript
# importer of the same files (npm installs its libraries): each benchmark
# runs once and reports the medians of the trials it makes (-v: their
# tables, which go test cuts to 10 lines otherwise).
bench-browser: console
	cd cmd/bulkdesk/internal/server/testdata/jsref && npm ci && npm run build
	$(GO) test -v -run '^$$' -bench '^BenchmarkConsole' -benchtime 1x -timeout 30m ./cmd/bulkdesk/internal/server/
	$(GO) test -run '^$$' -bench '^BenchmarkConsole' -benchtime 1x -timeout 30m ./cmd/bulkdesk/

## fuzz: run each fuzz target for a while (FUZZTIME, default 60s)
FUZZTIME ?= 60s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeJSON$$' -fuzztime $(FUZZTIME) ./schema/
	$(GO) test -run '^$$' -fuzz '^FuzzPrecheck$$' -fuzztime $(FUZZTIME) ./schema/
	$(GO) test -run '^$$' -fuzz '^FuzzFlatPath$$' -fuzztime $(FUZZTIME) ./schema/
	$(GO) test -run '^$$' -fuzz '^FuzzCanonicalBody$$' -fuzztime $(FUZZTIME) ./app/submission/
	$(GO) test -run '^$$' -fuzz '^FuzzParseHeaders$$' -fuzztime $(FUZZTIME) ./app/webhook/
	$(GO) test -run '^$$' -fuzz '^FuzzParseTimestamp$$' -fuzztime $(FUZZTIME) ./app/webhook/
	$(GO) test -run '^$$' -fuzz '^FuzzSignVerify$$' -fuzztime $(FUZZTIME) ./app/webhook/
	$(GO) test -run '^$$' -fuzz '^FuzzReadReceipt$$' -fuzztime $(FUZZTIME) ./app/bulkreview/
	for f in FuzzCSV FuzzJSON FuzzMapping FuzzXLSXSheet FuzzOpen; do \
		$(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) ./app/ingest/ || exit 1; \
	done

## screenshot: the README's picture of the review screen, in headless Chromium
SCREENSHOT ?= web/docs/review.png
screenshot: console
	BULKDESK_SCREENSHOT=$(abspath $(SCREENSHOT)) $(GO) test -run '^TestReviewScreenshot$$' -count=1 -v ./cmd/bulkdesk/internal/server/

clean:
	rm -rf $(BIN) build
	find $(CONSOLE) -type f ! -name README.md -delete

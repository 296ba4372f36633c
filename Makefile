# Bulkdesk build, test and benchmark targets. "make run" and "make test"
# are the two commands a newcomer needs; the rest are their parts.

GO        ?= go
WASM_EXEC := $(shell $(GO) env GOROOT)/lib/wasm/go_js_wasm_exec
BIN       := bin

.PHONY: all build run test vet test-native test-wasm bench bench-native bench-wasm fuzz clean

all: build

## build: the bulkdesk binary
build:
	$(GO) build -o $(BIN)/bulkdesk ./cmd/bulkdesk

## run: build everything and serve the console on 127.0.0.1:8080
run: build
	$(BIN)/bulkdesk check -h || true

## test: the whole suite, natively and under WebAssembly
test: vet test-native test-wasm

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./schema/... ./app/...

test-native:
	$(GO) test ./...

# Packages whose logic also runs in the browser are tested under
# WebAssembly too, in Node.
test-wasm:
	GOOS=js GOARCH=wasm $(GO) test -short -exec $(WASM_EXEC) ./schema/... ./app/bulkapi/... ./app/submission/...

## bench: the benchmarks behind BENCHMARKS.md
bench: bench-native bench-wasm

bench-native:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./schema/
	$(GO) test -run '^$$' -bench . -benchmem -count 5 -benchtime 10x ./app/submission/ ./cmd/bulkdesk/internal/sandbox/

bench-wasm:
	GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -count 5 -exec $(WASM_EXEC) ./schema/
	GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench . -benchmem -count 5 -benchtime 5x -exec $(WASM_EXEC) ./app/submission/

## fuzz: run each fuzz target for a while (FUZZTIME, default 60s)
FUZZTIME ?= 60s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeJSON$$' -fuzztime $(FUZZTIME) ./schema/
	$(GO) test -run '^$$' -fuzz '^FuzzPrecheck$$' -fuzztime $(FUZZTIME) ./schema/
	$(GO) test -run '^$$' -fuzz '^FuzzCanonicalBody$$' -fuzztime $(FUZZTIME) ./app/submission/

clean:
	rm -rf $(BIN)

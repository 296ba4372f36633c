//go:build !js

package server_test

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/browsertest"
)

// wasmCacheCategories are the trace categories that say whether V8
// compiled a WebAssembly module or took its code from the cache: Blink
// puts its v8.wasm.* events in devtools.timeline, on the thread that
// streams the module (CrRendererMain for the page's, DedicatedWorker
// thread for a worker's): streamFromResponseCallback for each module
// streamed, moduleCacheHit (with the url) when a compiled module was
// found in the cache, moduleCacheInvalid or moduleCacheInvalidDigest
// when it could not be used, compileDigestForConsume while its bytes
// are checked against it, compileDigestForCreate while they are hashed
// to cache it later, compiledModule and cachedModule when it is cached;
// V8 its own (compilation, deserialization) in v8.wasm.
// (disabled-by-default-v8.wasm.detailed adds an event per function
// compiled, which weighs on the repeat visit's time.)
var wasmCacheCategories = []string{"v8.wasm", "disabled-by-default-devtools.timeline"}

// v8WasmShown are the prefixes of V8's own events logWasmCache prints:
// those that tell a module deserialized from the cache from one
// compiled.
var v8WasmShown = []string{"wasm.Deserialize", "wasm.Serialize", "wasm.CompileLazy", "wasm.TopTier", "wasm.AsyncCompileJob"}

// wasmEvent is what counts of a trace's WebAssembly event: when it was
// seen (the visit), its name, the module it names (the file of its url
// argument, its content hash left out) and its thread.
type wasmEvent struct{ visit, name, module, thread string }

// hashPart is the content hash in the name of a console's file.
var hashPart = regexp.MustCompile(`\.[0-9a-f]{10}\.`)

// countWasmEvents adds the WebAssembly events of a trace to counts.
func countWasmEvents(visit string, events []browsertest.TraceEvent, counts map[wasmEvent]int) {
	for _, e := range events {
		if e.Ph == "M" || !strings.Contains(strings.ToLower(e.Name+" "+e.Cat), "wasm") {
			continue
		}
		module := "-"
		if u, ok := e.Args["url"].(string); ok && u != "" {
			module = hashPart.ReplaceAllString(path.Base(u), ".")
		}
		thread := e.Thread
		if thread == "" {
			thread = fmt.Sprintf("pid %d tid %d", e.Pid, e.Tid)
		}
		counts[wasmEvent{visit, e.Name, module, thread}]++
	}
}

// logWasmCache prints the WebAssembly events counted over the trials:
// Blink's per module first (the cache evidence), then V8's by thread.
func logWasmCache(b *testing.B, trials int, counts map[wasmEvent]int) {
	keys := make([]wasmEvent, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b wasmEvent) int {
		return strings.Compare(a.visit+a.module+a.name+a.thread, b.visit+b.module+b.name+b.thread)
	})
	b.Logf("WebAssembly trace events of the console, counted over %d trials (%s)", trials, strings.Join(wasmCacheCategories, ", "))
	if len(keys) == 0 {
		b.Log("  none: the trace held no WebAssembly event")
	}
	shown := func(name string) bool {
		for _, p := range v8WasmShown {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
	for _, blink := range []bool{true, false} {
		for _, k := range keys {
			if strings.HasPrefix(k.name, "v8.wasm.") == blink && (blink || shown(k.name)) {
				b.Logf("  %-26s %-36s %-24s %-26s %5d", k.visit, k.name, k.module, k.thread, counts[k])
			}
		}
	}
	// The verdict of the later visits, by the thread that streams the
	// modules: how many it streamed, how many it found cached.
	for _, visit := range []string{"repeat visit", "third visit"} {
		for _, thread := range []string{"CrRendererMain", "DedicatedWorker thread"} {
			n := func(name string) int {
				sum := 0
				for k, c := range counts {
					if k.visit == visit && k.thread == thread && strings.HasPrefix(k.name, name) {
						sum += c
					}
				}
				return sum
			}
			b.Logf("%s, %s: %d modules streamed, %d compiled-code cache hits (%d unusable)",
				visit, thread, n("v8.wasm.streamFromResponseCallback"), n("v8.wasm.moduleCacheHit"), n("v8.wasm.moduleCacheInvalid"))
		}
	}
}

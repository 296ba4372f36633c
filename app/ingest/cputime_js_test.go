//go:build js

package ingest_test

import "time"

// cpuTime is not known under WebAssembly: the benchmarks report 0.
func cpuTime() time.Duration { return 0 }

//go:build !js

package ingest_test

import (
	"syscall"
	"time"
)

// cpuTime is the processor time the test process has used, in user and
// system mode: unlike the wall clock, other programs on the machine do
// not add to it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

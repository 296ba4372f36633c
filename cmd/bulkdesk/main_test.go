package main

import (
	"os"
	"testing"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/rogpeppe/go-internal/testscript"
)

// envChild makes the test binary act as the bulkdesk command, so that tests
// can run it as a separate process and kill it.
const envChild = "BULKDESK_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "1" {
		// Short pauses and many attempts: faults are frequent in tests.
		submitPolicy = submission.RetryPolicy{Attempts: 60, Base: 2 * time.Millisecond, Max: 20 * time.Millisecond}
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	// The scripts of testdata/script run "bulkdesk" as the command an
	// operator runs: this test binary, under that name, entering main.
	testscript.Main(m, map[string]func(){"bulkdesk": main})
}

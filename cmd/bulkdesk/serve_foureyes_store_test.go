//go:build !js

package main

import (
	"net/http"
	"testing"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/pgtest"
)

// TestTwoServersKeepAnExecuteFromOvertakingItsSubmission: two servers on
// one database; while the API holds its answer to alice's submission
// through the first, alice cannot execute the bulk it made through either
// server, nor once it is answered.
func TestTwoServersKeepAnExecuteFromOvertakingItsSubmission(t *testing.T) {
	dsn := pgtest.Start(t)
	api := startSlowAPI(t)
	args := []string{"-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-api-url", api.url + "/multi",
		"-four-eyes", "-four-eyes-unknown", "allow", "-store", dsn}
	one, two := startSecured(t, args...), startSecured(t, args...)
	waitHealthz(t, one, http.StatusOK)
	waitHealthz(t, two, http.StatusOK)
	checkNoOvertaking(t, api, one, one, two)
}

// TestServeFourEyesQueueOnTheDatabase: the approval queue and the
// server's receipts, kept in PostgreSQL (-store).
func TestServeFourEyesQueueOnTheDatabase(t *testing.T) {
	s := startSecured(t, "-auth", "header", "-trusted-proxies", "127.0.0.1/32", "-four-eyes", "-store", pgtest.Start(t))
	waitHealthz(t, s, http.StatusOK)
	checkApprovalQueue(t, s)
}

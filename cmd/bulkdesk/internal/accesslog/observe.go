package accesslog

import (
	"net/http"
	"time"
)

// Observe returns h calling f after each request with the status written
// (0 when the handler aborted the connection) and how long it took: for
// metrics, which count what the log lines say.
func Observe(h http.Handler, f func(r *http.Request, status int, d time.Duration)) http.Handler {
	if f == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		defer func() { f(r, sw.status, time.Since(start)) }()
		h.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
	})
}

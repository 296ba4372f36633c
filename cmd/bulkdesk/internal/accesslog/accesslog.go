// Package accesslog logs one line per HTTP request: method, path, status,
// duration and, behind the console's authentication, the user's name.
// Never a header value, a query or a body: requests to the API carry
// credentials and personal data.
package accesslog

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
)

// Wrap returns h logging each request to logger under msg; a nil logger
// returns h unchanged. A request whose handler aborts the connection
// (http.ErrAbortHandler) is logged with the status "dropped".
func Wrap(logger *slog.Logger, msg string, h http.Handler) http.Handler {
	if logger == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		status := "dropped"
		defer func() {
			if sw.status != 0 {
				status = strconv.Itoa(sw.status)
			}
			attrs := []any{"method", r.Method, "path", r.URL.Path, "status", status, "duration", time.Since(start).Round(time.Microsecond)}
			if user := auth.User(r.Context()); user != "" {
				// Who made each call to the API; the name alone, never
				// the credentials it was proved with.
				attrs = append(attrs, "user", user)
			}
			logger.Info(msg, attrs...)
		}()
		h.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
	})
}

// statusWriter remembers the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Flush lets streamed answers through.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

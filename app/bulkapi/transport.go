package bulkapi

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
)

// HandlerTransport returns a RoundTripper that serves every request with h
// in-process, without a network. Tests use it where no socket can be
// opened (WebAssembly under Node), with a fake or a real API handler.
func HandlerTransport(h http.Handler) http.RoundTripper {
	return handlerTransport{h}
}

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	// A handler expects the server's view of a request.
	in := req.Clone(req.Context())
	in.RequestURI = req.URL.RequestURI()
	in.RemoteAddr = "127.0.0.1:0"
	if in.Body == nil {
		in.Body = http.NoBody
	}
	w := &recorder{header: make(http.Header)}
	// A handler that aborts (http.ErrAbortHandler) is a dropped connection.
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			resp, err = nil, errors.New("the connection was closed before an answer")
		}
	}()
	t.h.ServeHTTP(w, in)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.header.Set("Content-Length", strconv.Itoa(w.body.Len()))
	return &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header,
		Body:          io.NopCloser(&w.body),
		ContentLength: int64(w.body.Len()),
		Request:       req,
	}, nil
}

// recorder is the ResponseWriter of an in-process call.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
		r.header = r.header.Clone()
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

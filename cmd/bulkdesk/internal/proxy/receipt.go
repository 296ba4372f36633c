package proxy

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/schema"
)

// A submission is a call on its way that may make a bulk: its flight,
// and what its receipt is made of.
type submission struct {
	flight   approvals.Flight
	fileName string
	// kind is the bulk kind its path submits, nil when it names none; then
	// body is nil too.
	kind       *schema.Kind
	backOffice bool
	body       *bodyCopy
}

// fileNameOf reads the file a submission names (bulkapi.HeaderFileName:
// percent-encoded UTF-8, at most bulkapi.MaxFileName bytes once decoded,
// without control characters); problem says why it is refused. Under
// the four-eyes rule it is recorded with the bulk; it never reaches the
// API (only requestHeaders cross).
func fileNameOf(h http.Header) (name, problem string) {
	values := h.Values(bulkapi.HeaderFileName)
	switch len(values) {
	case 0:
		return "", ""
	case 1:
	default:
		return "", bulkapi.HeaderFileName + " was sent more than once"
	}
	name, err := url.PathUnescape(values[0])
	switch {
	case err != nil, !utf8.ValidString(name):
		return "", bulkapi.HeaderFileName + " must be the file's name in UTF-8, percent-encoded"
	case len(name) > bulkapi.MaxFileName:
		return "", fmt.Sprintf("%s names a file of more than %d bytes", bulkapi.HeaderFileName, bulkapi.MaxFileName)
	}
	for _, c := range name {
		// Bidirectional controls could make a name read as another.
		if unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c) {
			return "", bulkapi.HeaderFileName + " must not hold control characters"
		}
	}
	return name, ""
}

// submissionKind returns the bulk kind a call submits: the kind whose
// endpoint is the method and the path from its "bulks" segment on (case
// ignored, as bulkAction does), preferring the endpoint of the API the
// path names, and whether that is the back-office API: below the
// back-office prefix, or below a "backoffice" segment of another API's
// base. nil when it submits none the server knows.
func submissionKind(method, path, rest string) (*schema.Kind, bool) {
	parts := strings.FieldsFunc(rest, func(r rune) bool { return r == '/' })
	at := -1
	for i, p := range parts {
		if strings.EqualFold(p, "bulks") {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, false
	}
	backOffice := apiName(path) == "backoffice"
	for _, p := range parts[:at] {
		backOffice = backOffice || strings.EqualFold(p, "backoffice")
	}
	tail := "/" + strings.Join(parts[at:], "/")
	var found *schema.Kind
	for _, k := range schema.Kinds() {
		for _, ep := range []*schema.Endpoint{k.BackOffice, &k.Standard} {
			if ep == nil || ep.Method != method || !strings.EqualFold(ep.Path, tail) {
				continue
			}
			if (ep == k.BackOffice) == backOffice {
				return k, backOffice
			}
			if found == nil {
				found = k
			}
		}
	}
	return found, backOffice
}

// receiptOf computes the receipt of what s sent, the bulk bulkID; nil,
// said in the log, when its body was not read whole or is not a bulk.
func (p *proxy) receiptOf(resp *http.Response, s *submission, bulkID string) *bulkreview.Receipt {
	body, whole := s.body.take()
	if !whole {
		p.warn("four eyes: the submission was answered before its body was sent whole; its bulk is recorded without a receipt", resp, nil)
		return nil
	}
	rc, err := bulkreview.ReceiptOfBody(s.kind, s.backOffice, body, bulkID, bulkreview.Declared{File: s.fileName})
	if err != nil {
		p.warn("four eyes: the submission's receipt could not be computed; its bulk is recorded without one", resp, err)
		return nil
	}
	return rc
}

// bodyCopy is a submission's body as it goes to the API, kept as it is
// read: the receipt is made of the very bytes sent, and the client's body
// is read once. The transport reads it on its own goroutine, maybe still
// while the answer is read: mu guards what it kept.
type bodyCopy struct {
	body io.ReadCloser
	mu   sync.Mutex
	kept bytes.Buffer
	// whole is set once the body was read to its end; released once what
	// it kept is given up.
	whole, released bool
}

// newBodyCopy copies body as it is read; size, when known (at most
// maxBody: ServeHTTP refuses more), is room made at once.
func newBodyCopy(body io.ReadCloser, size int64) *bodyCopy {
	c := &bodyCopy{body: body}
	if size > 0 && size <= maxBody {
		c.kept.Grow(int(size))
	}
	return c
}

func (c *bodyCopy) Read(p []byte) (int, error) {
	n, err := c.body.Read(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.released {
		c.kept.Write(p[:n])
		c.whole = c.whole || err == io.EOF
	}
	return n, err
}

func (c *bodyCopy) Close() error { return c.body.Close() }

// take returns what was read, and whether that is the whole body; it
// keeps nothing more.
func (c *bodyCopy) take() ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	data, whole := c.kept.Bytes(), c.whole && !c.released
	c.released, c.kept = true, bytes.Buffer{}
	return data, whole
}

// release gives up what was kept.
func (c *bodyCopy) release() { c.take() }

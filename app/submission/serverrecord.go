package submission

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/bulkdesk/bulkdesk/schema"
)

// A server that proxies the API and keeps a record of its bulks (bulkdesk
// serve with -store or -state-dir) runs UpdateRecord for the console: GET
// <console>/record/api (or /record/backoffice), with the caller's api-key
// and bearer token, lists the bulks as the caller and answers with the
// record of those its listing shows. Its bulks' operations are fetched
// once for every browser and every server sharing the database, and an
// operator cannot write fingerprints that would hide a repeat from another.

// RecordKindParam is the query parameter of GET record/{api} that names
// the kind a check is for (see UpdateRecord's kind).
const RecordKindParam = "kind"

// RecordLine is one line of the server's answer (JSON lines): progress
// while it fetches the bulks not seen before, then the record, or what
// failed once the answer had begun.
type RecordLine struct {
	Progress *RecordProgress `json:"progress,omitempty"`
	Record   *Record         `json:"record,omitempty"`
	Error    string          `json:"error,omitempty"`
}

// RecordProgress counts the bulks whose operations were fetched.
type RecordProgress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// maxRecordRefusal bounds the body of a refusal read.
const maxRecordRefusal = 4 << 10

// ServerRecord asks the server at recordURL (…/record/api) for the
// record, sending credentials (the api-key and Authorization headers the
// API takes). onFetch, when set, is told the server's progress.
func ServerRecord(ctx context.Context, hc *http.Client, recordURL string, credentials http.Header, kind *schema.Kind, onFetch func(done, total int)) (*Record, error) {
	u, err := url.Parse(recordURL)
	if err != nil {
		return nil, fmt.Errorf("the server's record of bulks %q: %w", recordURL, err)
	}
	if kind != nil {
		u.RawQuery = url.Values{RecordKindParam: {kind.ID}}.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	for k, v := range credentials {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("asking the server for its record of bulks: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var line RecordLine
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxRecordRefusal))
		why := strings.TrimSpace(string(body))
		if json.Unmarshal(body, &line) == nil && line.Error != "" {
			why = line.Error
		}
		return nil, fmt.Errorf("the server answered %d %s: %s", resp.StatusCode, http.StatusText(resp.StatusCode), why)
	}
	dec := json.NewDecoder(resp.Body)
	for {
		var line RecordLine
		if err := dec.Decode(&line); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("reading the server's record of bulks: %w", err)
		}
		switch {
		case line.Error != "":
			return nil, errors.New(line.Error)
		case line.Record != nil:
			return line.Record, nil
		case line.Progress != nil && onFetch != nil:
			onFetch(line.Progress.Done, line.Progress.Total)
		}
	}
}

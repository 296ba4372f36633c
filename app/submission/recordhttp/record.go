package recordhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/schema"
)

// Request is the body of POST record/{api}.
type Request struct {
	// Kind is the kind the check is for (see submission.UpdateRecord's
	// kind); "" for every kind.
	Kind string `json:"kind,omitempty"`
	// Held are the bulks whose fingerprints the caller holds.
	Held []string `json:"held,omitempty"`
}

// MaxRequest bounds the body of POST record/{api}: the ids of tens
// of thousands of bulks.
const MaxRequest = 1 << 20

// Line is one line of the server's answer (JSON lines): progress
// while it fetches the bulks not seen before, then the record, or what
// failed once the answer had begun.
type Line struct {
	Progress *Progress          `json:"progress,omitempty"`
	Record   *submission.Record `json:"record,omitempty"`
	// Held are the bulks of Record whose fingerprints were left out,
	// since the caller holds them.
	Held  []string `json:"held,omitempty"`
	Error string   `json:"error,omitempty"`
}

// Progress counts the bulks whose operations were fetched.
type Progress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// maxRefusal bounds the body of a refusal read.
const maxRefusal = 4 << 10

// LeaveOutHeld empties the fingerprints of the record's bulks that held
// names, and returns their ids, for the server's answer.
func LeaveOutHeld(r *submission.Record, held []string) []string {
	have := make(map[string]bool, len(held))
	for _, id := range held {
		have[id] = true
	}
	var out []string
	for i := range r.Bulks {
		if have[r.Bulks[i].BulkID] {
			r.Bulks[i].Fingerprints = nil
			out = append(out, r.Bulks[i].BulkID)
		}
	}
	return out
}

// Fetch asks the server at recordURL (…/record/api) for the record,
// sending credentials (the api-key and Authorization headers the API
// takes). cache, when set, keeps the fingerprints the server sent, under
// recordURL, so that the next check gets only the bulks made since.
// onFetch, when set, is told the server's progress.
func Fetch(ctx context.Context, hc *http.Client, recordURL string, credentials http.Header, kind *schema.Kind, cache submission.RecordCache, onFetch func(done, total int)) (*submission.Record, error) {
	var local map[string]submission.RecordedBulk
	if cache != nil {
		var err error
		if local, err = cache.Load(ctx, recordURL); err != nil {
			return nil, err
		}
	}
	req := Request{}
	if kind != nil {
		req.Kind = kind.ID
	}
	for id := range local {
		req.Held = append(req.Held, id)
	}
	slices.Sort(req.Held)
	line, err := askServer(ctx, hc, recordURL, credentials, req, onFetch)
	if err != nil {
		return nil, err
	}
	rec := line.Record
	held := make(map[string]bool, len(line.Held))
	for _, id := range line.Held {
		held[id] = true
	}
	var put []submission.RecordedBulk
	for i := range rec.Bulks {
		rb := &rec.Bulks[i]
		if !held[rb.BulkID] {
			put = append(put, *rb)
			continue
		}
		kept, ok := local[rb.BulkID]
		if !ok {
			return nil, fmt.Errorf("the server left out the fingerprints of bulk %s, which this browser does not hold", rb.BulkID)
		}
		rb.Fingerprints = kept.Fingerprints
		if kept.Status != rb.Status || kept.ExecutionStart != rb.ExecutionStart {
			put = append(put, *rb)
		}
	}
	if cache != nil {
		// Forget what the listing shows no longer counting.
		now := time.Now()
		var drop []string
		for id := range local {
			if b, ok := rec.Listed[id]; ok && !submission.Counts(&b, now) {
				drop = append(drop, id)
			}
		}
		if len(put) > 0 || len(drop) > 0 {
			if err := cache.Update(ctx, recordURL, put, drop); err != nil {
				return nil, fmt.Errorf("keeping the record of bulks: %w", err)
			}
		}
	}
	return rec, nil
}

// askServer posts req and reads the answer's lines up to the record.
func askServer(ctx context.Context, hc *http.Client, recordURL string, credentials http.Header, req Request, onFetch func(done, total int)) (*Line, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, recordURL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("the server's record of bulks %q: %w", recordURL, err)
	}
	for k, v := range credentials {
		hreq.Header[k] = v
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/x-ndjson")
	resp, err := hc.Do(hreq)
	if err != nil {
		return nil, fmt.Errorf("asking the server for its record of bulks: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var line Line
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxRefusal))
		why := strings.TrimSpace(string(b))
		if json.Unmarshal(b, &line) == nil && line.Error != "" {
			why = line.Error
		}
		return nil, fmt.Errorf("the server answered %d %s: %s", resp.StatusCode, http.StatusText(resp.StatusCode), why)
	}
	dec := json.NewDecoder(resp.Body)
	for {
		var line Line
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
			return &line, nil
		case line.Progress != nil && onFetch != nil:
			onFetch(line.Progress.Done, line.Progress.Total)
		}
	}
}

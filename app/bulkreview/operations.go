package bulkreview

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/schema"
)

// readers is how many pages of operations are read at once: a bulk of
// 10,000 is 100 pages, and one after the other their round trips add up.
const readers = 4

// Operations reads every operation of a bulk, page by page, in the API's
// order: the first page says how many there are, and the others are read
// a few at once. progress, when set, is called after each page with the
// operations read so far and how many the bulk holds. It stops as soon as
// ctx is done, or at the first page that fails.
func Operations(ctx context.Context, cl *bulkapi.Client, bulkID string, progress func(done, total int)) ([]bulkapi.Operation, error) {
	read := func(ctx context.Context, offset int) (*bulkapi.OperationPage, error) {
		page, err := cl.Operations(ctx, bulkID, bulkapi.OperationQuery{Offset: offset, Limit: bulkapi.MaxPageSize})
		if err != nil {
			return nil, fmt.Errorf("reading the operations of bulk %s from %d: %w", bulkID, offset, err)
		}
		return page, nil
	}
	first, err := read(ctx, 0)
	if err != nil {
		return nil, err
	}
	total, got := first.Count, len(first.Operations)
	// A bulk holds at most schema.MaxElements operations: a count beyond
	// it is the API's defect, not a reason to read on.
	if total > schema.MaxElements {
		return nil, fmt.Errorf("reading the operations of bulk %s: the API counts %d operations, more than a bulk holds (%d)", bulkID, total, schema.MaxElements)
	}
	if progress != nil {
		progress(got, max(total, got))
	}
	if got == 0 || got >= total {
		return first.Operations, nil
	}
	offsets := make([]int, 0, (total-got)/bulkapi.MaxPageSize+1)
	for off := got; off < total; off += bulkapi.MaxPageSize {
		offsets = append(offsets, off)
	}
	pages := make([][]bulkapi.Operation, len(offsets))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		fail error
		done = got
		next = make(chan int)
	)
	for range min(readers, len(offsets)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				page, err := read(ctx, offsets[i])
				mu.Lock()
				switch {
				case err != nil && fail == nil:
					fail = err
					cancel()
				case err == nil:
					pages[i] = page.Operations
					done += len(page.Operations)
					if progress != nil {
						progress(done, total)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range offsets {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if fail != nil {
		return nil, fail
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("reading the operations of bulk %s: %w", bulkID, err)
	}
	out := make([]bulkapi.Operation, 0, done)
	out = append(out, first.Operations...)
	for _, p := range pages {
		out = append(out, p...)
	}
	return out, nil
}

// KindOfOperation finds the kind whose single operation a bulk runs, such
// as "POST /transfers", among those the API (standard or back-office)
// takes.
func KindOfOperation(op string, backOffice bool) (*schema.Kind, error) {
	method, p, _ := strings.Cut(op, " ")
	for _, k := range schema.Kinds() {
		if k.Operation.Method == method && k.Operation.Path == p {
			if _, err := k.Endpoint(backOffice); err == nil {
				return k, nil
			}
		}
	}
	return nil, fmt.Errorf("no bulk kind runs %q", op)
}

// KindOfCall finds the kind whose single operation an operation of a bulk
// is, from its method and path ("POST /managed_cards/127/block"): how to
// read its key fields when the bulk itself was not read.
func KindOfCall(method, path string, backOffice bool) (*schema.Kind, error) {
	for _, k := range schema.Kinds() {
		if k.Operation.Method != method {
			continue
		}
		if _, err := k.Endpoint(backOffice); err != nil {
			continue
		}
		if _, ok := pathParam(k.Operation.Path, path); ok || k.Operation.Path == path {
			return k, nil
		}
	}
	return nil, fmt.Errorf("no bulk kind runs %s %s", method, path)
}

// ElementOf rebuilds the element an operation came from: its payload is
// the request body, and its path holds the path parameter.
func ElementOf(k *schema.Kind, op *bulkapi.Operation) (any, error) {
	el := make(map[string]any)
	if strings.TrimSpace(op.RequestPayload) != "" {
		body, _, err := schema.DecodeJSON([]byte(op.RequestPayload))
		if err != nil {
			return nil, fmt.Errorf("reading its payload: %w", err)
		}
		el["requestBody"] = body
	}
	if k.PathParam != "" {
		id, ok := pathParam(k.Operation.Path, op.Path)
		if !ok {
			return nil, fmt.Errorf("its path %q is not %s", op.Path, k.Operation.Path)
		}
		el["pathParams"] = map[string]any{k.PathParam: id}
	}
	return el, nil
}

// pathParam reads the parameter of a path made from a template such as
// "/managed_cards/{id}/block".
func pathParam(template, p string) (string, bool) {
	ts, ps := strings.Split(template, "/"), strings.Split(p, "/")
	if len(ts) != len(ps) {
		return "", false
	}
	param, found := "", false
	for i, t := range ts {
		switch {
		case strings.HasPrefix(t, "{"):
			param, found = ps[i], ps[i] != ""
		case t != ps[i]:
			return "", false
		}
	}
	return param, found
}

// RecordForm returns an element as the API's record of its operation can
// give it back (see ElementOf): the requestBody, left out when missing,
// null or empty, and the kind's path parameter alone. A file's element
// may carry more than its operation keeps ("pathParams": {} for a kind
// without a path parameter, or other keys): the record cannot show them,
// so the body hashes of a receipt and of a review are taken of this form,
// and agree for an unchanged bulk.
func RecordForm(k *schema.Kind, element any) any {
	obj, ok := element.(map[string]any)
	if !ok {
		return element
	}
	out := make(map[string]any, 2)
	switch rb := obj["requestBody"].(type) {
	case nil:
	case map[string]any:
		if len(rb) > 0 {
			out["requestBody"] = rb
		}
	default:
		out["requestBody"] = rb
	}
	if k.PathParam != "" {
		if params, ok := obj["pathParams"].(map[string]any); ok {
			if v, ok := params[k.PathParam]; ok && v != nil {
				out["pathParams"] = map[string]any{k.PathParam: v}
			}
		}
	}
	return out
}

// RecordBody returns the canonical body of elements in their record form
// (see RecordForm), in order: what BodySHA256 hashes.
func RecordBody(k *schema.Kind, elements []any) ([]byte, error) {
	forms := make([]any, len(elements))
	for i, el := range elements {
		forms[i] = RecordForm(k, el)
	}
	return schema.CanonicalArray(forms, nil)
}

// ChunkRecordSHA256 returns the SHA-256 of a sent chunk body's record
// form: equal to a review's BodySHA256 when the bulk holds what was sent.
func ChunkRecordSHA256(k *schema.Kind, body []byte) (string, error) {
	doc, _, err := schema.DecodeJSON(body)
	if err != nil {
		return "", fmt.Errorf("reading the chunk's body: %w", err)
	}
	elements, ok := doc.([]any)
	if !ok {
		return "", fmt.Errorf("the chunk's body is not an array of elements")
	}
	b, err := RecordBody(k, elements)
	if err != nil {
		return "", err
	}
	return SHA256(b), nil
}

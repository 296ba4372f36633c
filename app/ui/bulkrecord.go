package ui

import (
	"context"

	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// When the browser's journal does not know a bulk (submitted from another
// browser, or by another operator), the server's four-eyes record still
// says who submitted it, when, and from which file.

// known reports whether the server has a record of the bulk.
func (f *fourEyes) known() bool { return f != nil && f.Known != nil && *f.Known }

// submittedWords says when a bulk was submitted, as the journal recorded
// or else the server, and by whom, as the server recorded.
func submittedWords(b wire.BulkInfo, f *fourEyes) string {
	s := submittedAt(b)
	if !f.known() || f.SubmittedBy == "" {
		return s
	}
	if b.Submitted == 0 && f.SubmittedAt != nil {
		s = dateTime(f.SubmittedAt.Local())
	}
	return tf("%s by %s", s, f.SubmittedBy)
}

// sourceWords names the file a bulk came from, as the journal or else the
// server recorded it, or says neither knows it.
func sourceWords(b wire.BulkInfo, f *fourEyes) string {
	if bulkSource(b) == "" && f.known() && f.FileName != "" {
		return f.FileName
	}
	return sourceOf(b)
}

// sourceAndTime names the bulk's file and when it was submitted, or says
// it was submitted elsewhere.
func sourceAndTime(b wire.BulkInfo, f *fourEyes) string {
	if b.Submitted == 0 && (!f.known() || f.SubmittedAt == nil) {
		return sourceWords(b, f)
	}
	return tf("%s, submitted %s", sourceWords(b, f), submittedWords(b, f))
}

// bulkRecords are the server's records of the bulks a page lists, read
// one after the other once the list is shown.
type bulkRecords struct {
	got map[string]*fourEyes
	run int
}

// of returns the server's record of a bulk, nil while it is not read.
func (r *bulkRecords) of(backOffice bool, id string) *fourEyes {
	return r.got[totalsKey(backOffice, id)]
}

// want reads the records of the bulks ids, under the server's four-eyes
// rule, instead of those asked before.
func (r *bulkRecords) want(ctx app.Context, backOffice bool, ids []string) {
	if !app.IsClient || !loadConfig().API.FourEyes {
		return
	}
	r.run++
	run := r.run
	ctx.Async(func() {
		for _, id := range ids {
			f, err := loadFourEyes(context.Background(), id)
			if err != nil {
				continue
			}
			ctx.Dispatch(func(app.Context) {
				if run != r.run {
					return
				}
				if r.got == nil {
					r.got = make(map[string]*fourEyes)
				}
				r.got[totalsKey(backOffice, id)] = &f
			})
		}
	})
}

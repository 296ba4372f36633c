package submission_test

import (
	"testing"

	"github.com/bulkdesk/bulkdesk/app/submission"
)

func TestSubmissionStates(t *testing.T) {
	e := func(chunk int, s submission.State) submission.Entry {
		return submission.Entry{Ref: string(rune('a' + chunk)), Submission: "s", Chunk: chunk, Chunks: 2, State: s}
	}
	for _, tc := range []struct {
		entries []submission.Entry
		want    submission.State
	}{
		{[]submission.Entry{e(0, submission.Submitted), e(1, submission.Submitted)}, submission.Submitted},
		{[]submission.Entry{e(0, submission.Submitted)}, submission.Sending},
		{[]submission.Entry{e(0, submission.Submitted), e(1, submission.Failed)}, submission.Failed},
		{[]submission.Entry{e(1, submission.Planned), e(0, submission.Sending)}, submission.Sending},
	} {
		s := submission.Submissions(tc.entries)[0]
		if s.State() != tc.want || s.Entries[0].Chunk != 0 {
			t.Errorf("%v: %s", tc.entries, s.State())
		}
	}
}

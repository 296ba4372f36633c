package ui

import (
	"encoding/json"
	"errors"

	"github.com/bulkdesk/bulkdesk/app/ui/workerclient"
	"github.com/bulkdesk/bulkdesk/app/worker"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// errNoWorker is the failure of a job on a page without its worker.
var errNoWorker = errors.New("the console's background engine is not available in this page")

// runJob runs a job in the worker and hands its decoded result, its
// binary payload (or nil) and its error to done on the UI goroutine;
// progress, when set, receives its progress there too. It returns a
// function that cancels the job.
func runJob[T any](ctx app.Context, job string, req any, progress func(worker.Progress), done func(result T, data app.Value, err error)) (cancel func()) {
	work := background()
	if work == nil {
		var zero T
		done(zero, nil, errNoWorker)
		return func() {}
	}
	h := workerclient.Handlers{
		Done: func(body []byte, data app.Value, err error) {
			ctx.Dispatch(func(app.Context) {
				var v T
				if err == nil {
					if derr := json.Unmarshal(body, &v); derr != nil {
						err = errors.New("the engine's answer could not be read: " + derr.Error())
					}
				}
				done(v, data, err)
			})
		},
	}
	if progress != nil {
		h.Progress = func(p worker.Progress) { ctx.Dispatch(func(app.Context) { progress(p) }) }
	}
	id := work.Run(job, req, nil, h)
	return func() { work.Cancel(id) }
}

// jobCanceled reports whether a job ended because it was canceled.
func jobCanceled(err error) bool {
	var we *worker.Error
	return errors.As(err, &we) && we.Code == worker.CodeCanceled
}

// jobMessage is a job's error for people.
func jobMessage(err error) string {
	var we *worker.Error
	if errors.As(err, &we) {
		return we.Message
	}
	return err.Error()
}

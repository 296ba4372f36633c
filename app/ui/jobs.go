package ui

import (
	"errors"
	"fmt"

	"github.com/bulkdesk/bulkdesk/app/lang"
	"github.com/bulkdesk/bulkdesk/app/ui/workerclient"
	"github.com/bulkdesk/bulkdesk/app/wire"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Every page runs the worker's jobs through runJob, runFileJob and
// watchJob: the result's JSON is read in one place, into the type the
// job's documentation names (package wire), and the callbacks run on
// the UI goroutine.

// errNoWorker is the failure of a job on a page without its worker: the
// server's rendering of a page, or a browser that could not start it.
// It is said in the console's language (errorText), not logged.
var errNoWorker = lang.Errorf("the console's background engine is not available in this page")

// runJob runs a job in the worker and hands its decoded result, its
// binary payload (or nil) and its error to done on the UI goroutine;
// progress, when set, receives its progress there too. It returns a
// function that cancels the job.
func runJob[T any](ctx app.Context, job string, req any, progress func(wire.Progress), done func(result T, data app.Value, err error)) (cancel func()) {
	return sendJob(ctx, progress, done, func(w *workerclient.Client, h workerclient.Handlers) func() {
		id := w.Run(job, req, nil, h)
		return func() { w.Cancel(id) }
	})
}

// cancelJobByID cancels a job the page did not send itself: the one the
// early script sent before the page's program ran, when the page does not
// adopt it.
func cancelJobByID(id int) {
	if w := background(); w != nil {
		w.Cancel(id)
	}
}

// runFileJob is runJob with a File or Blob, which the browser reads
// first, as the job's binary payload.
func runFileJob[T any](ctx app.Context, job string, req any, file app.Value, progress func(wire.Progress), done func(result T, data app.Value, err error)) (cancel func()) {
	return sendJob(ctx, progress, done, func(w *workerclient.Client, h workerclient.Handlers) func() {
		return w.RunFile(job, req, file, h)
	})
}

// sendJob starts a job with send, decoding its result for done.
func sendJob[T any](ctx app.Context, progress func(wire.Progress), done func(T, app.Value, error), send func(*workerclient.Client, workerclient.Handlers) (cancel func())) (cancel func()) {
	work := background()
	if work == nil {
		var zero T
		done(zero, nil, errNoWorker)
		return func() {}
	}
	h := workerclient.Handlers{
		Done: func(body []byte, data app.Value, err error) {
			ctx.Dispatch(func(app.Context) {
				v, err := decodeResult[T](body, err)
				done(v, data, err)
			})
		},
	}
	if progress != nil {
		h.Progress = func(p wire.Progress) { ctx.Dispatch(func(app.Context) { progress(p) }) }
	}
	return send(work, h)
}

// watchJob calls f with the result of every job named job that succeeds,
// whoever ran it, from the browser's callback (f must not touch a
// component without its Dispatch).
func watchJob[T any](job string, f func(result T)) {
	if work := background(); work != nil {
		work.Watch(job, func(body []byte) {
			if v, err := decodeResult[T](body, nil); err == nil {
				f(v)
			}
		})
	}
}

// decodeResult reads a job's result, unless the job failed.
func decodeResult[T any](body []byte, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, err
	}
	v, derr := wire.DecodeBody[T](body)
	if derr != nil {
		return v, fmt.Errorf("the engine's answer could not be read: %w", derr)
	}
	return v, nil
}

// jobCanceled reports whether a job ended because it was canceled.
func jobCanceled(err error) bool {
	var we *wire.Error
	return errors.As(err, &we) && we.Code == wire.CodeCanceled
}

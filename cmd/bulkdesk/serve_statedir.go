package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bulkdesk/bulkdesk/app/bulkapi"
	"github.com/bulkdesk/bulkdesk/app/bulkreview"
	"github.com/bulkdesk/bulkdesk/app/submission"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/bulkrecord"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/statedir"
)

// errStateDirLost is what the records answer once the state folder is
// gone. It names no path: the record of bulks passes it to the operator;
// the log says what changed.
var errStateDirLost = errors.New("the server's state folder was removed or replaced while it ran: restart the server")

// watchStateDir guards what serve opened under -state-dir (the four-eyes
// record of rule, the record of bulks): from the first check that finds
// the folder or one of its databases removed, moved or replaced, it logs
// so once, /healthz answers 503, and both records answer errors, so that
// the rule refuses every execution (approvals.RefusedError) rather than
// decide on a record nobody keeps, until the server is restarted. The
// folder is checked every cfg.stateDirCheck, and whenever the records or
// the health check are read. It returns the function that stops the
// checks.
func (cfg *serveConfig) watchStateDir(ctx context.Context, rule *approvals.Rule, bulks *submission.RecordCache) (stop func(), err error) {
	var names []string
	if cfg.stateDir != "" && rule != nil {
		names = append(names, approvals.FileName)
	}
	if cfg.stateDir != "" && *bulks != nil {
		names = append(names, bulkrecord.FileName)
	}
	if len(names) == 0 {
		return func() {}, nil
	}
	guard, err := statedir.Watch(cfg.stateDir, names...)
	if err != nil {
		return nil, fmt.Errorf("-state-dir: %w", err)
	}
	if rule != nil {
		rule.Records = guardedRecords{records: rule.Records, guard: guard}
	}
	if *bulks != nil {
		*bulks = guardedBulks{bulks: *bulks, guard: guard}
	}
	health := cfg.options.Check
	cfg.options.Check = func(ctx context.Context) error {
		if err := guard.Check(); err != nil {
			return err
		}
		if health != nil {
			return health(ctx)
		}
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		guard.Run(ctx, cfg.stateDirCheck, func(err error) {
			if cfg.logger != nil {
				cfg.logger.Error("the state folder changed under the server: it refuses every execution and says it is unhealthy until it is restarted", "dir", cfg.stateDir, "err", err)
			}
		})
	}()
	return func() { cancel(); <-done }, nil
}

// guardedRecords are the four-eyes records while the state folder is the
// one opened, and errStateDirLost after: every method, since the rule's
// decisions rest on the record and on the calls in flight alike.
type guardedRecords struct {
	records approvals.Records
	guard   *statedir.Guard
}

func (r guardedRecords) Put(rec approvals.Record) (bool, error) {
	if r.guard.Check() != nil {
		return false, errStateDirLost
	}
	return r.records.Put(rec)
}

func (r guardedRecords) Get(bulkID string) (approvals.Record, bool, error) {
	if r.guard.Check() != nil {
		return approvals.Record{}, false, errStateDirLost
	}
	return r.records.Get(bulkID)
}

func (r guardedRecords) Executed(bulkID, user string, at time.Time) error {
	if r.guard.Check() != nil {
		return errStateDirLost
	}
	return r.records.Executed(bulkID, user, at)
}

func (r guardedRecords) Receipt(bulkID string) (*bulkreview.Receipt, bool, error) {
	if r.guard.Check() != nil {
		return nil, false, errStateDirLost
	}
	return r.records.Receipt(bulkID)
}

func (r guardedRecords) Cancelled(bulkID, user string, at time.Time) error {
	if r.guard.Check() != nil {
		return errStateDirLost
	}
	return r.records.Cancelled(bulkID, user, at)
}

func (r guardedRecords) Settled(bulkID string, apiStatus bulkapi.Status) error {
	if r.guard.Check() != nil {
		return errStateDirLost
	}
	return r.records.Settled(bulkID, apiStatus)
}

func (r guardedRecords) Awaiting(p approvals.Page) ([]approvals.Record, error) {
	if r.guard.Check() != nil {
		return nil, errStateDirLost
	}
	return r.records.Awaiting(p)
}

func (r guardedRecords) BeginFlight(f approvals.InFlight) error {
	if r.guard.Check() != nil {
		return errStateDirLost
	}
	return r.records.BeginFlight(f)
}

func (r guardedRecords) EndFlight(id string) error {
	if r.guard.Check() != nil {
		return errStateDirLost
	}
	return r.records.EndFlight(id)
}

func (r guardedRecords) Flights(at time.Time) ([]approvals.InFlight, error) {
	if r.guard.Check() != nil {
		return nil, errStateDirLost
	}
	return r.records.Flights(at)
}

// guardedBulks is the record of bulks while the state folder is the one
// opened, and errStateDirLost after.
type guardedBulks struct {
	bulks submission.RecordCache
	guard *statedir.Guard
}

func (b guardedBulks) Load(ctx context.Context, scope string) (map[string]submission.RecordedBulk, error) {
	if b.guard.Check() != nil {
		return nil, errStateDirLost
	}
	return b.bulks.Load(ctx, scope)
}

func (b guardedBulks) Update(ctx context.Context, scope string, put []submission.RecordedBulk, drop []string) error {
	if b.guard.Check() != nil {
		return errStateDirLost
	}
	return b.bulks.Update(ctx, scope, put, drop)
}

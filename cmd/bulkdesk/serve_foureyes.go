package main

import (
	"context"
	"fmt"
	"io"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/auth"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/postgres"
	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/server"
)

// The values of -four-eyes-unknown.
const (
	unknownRefuse = "refuse"
	unknownAllow  = "allow"
)

// fourEyes is the maker–checker rule serve was asked to enforce.
type fourEyes struct {
	on bool
	// allowUnknown lets bulks without a record be executed.
	allowUnknown bool
}

// parseFourEyes reads -four-eyes-unknown.
func parseFourEyes(on bool, unknown string) (fourEyes, error) {
	fe := fourEyes{on: on}
	switch unknown {
	case unknownRefuse:
	case unknownAllow:
		fe.allowUnknown = true
	default:
		return fourEyes{}, fmt.Errorf("-four-eyes-unknown %q: use %s or %s", unknown, unknownRefuse, unknownAllow)
	}
	return fe, nil
}

// checkFourEyes refuses a rule that could not tell operators apart, keep
// its record, or see the executions it is to gate.
func (cfg serveConfig) checkFourEyes() error {
	fe := cfg.fourEyes
	if !fe.on {
		if fe.allowUnknown {
			return fmt.Errorf("-four-eyes-unknown %s needs -four-eyes", unknownAllow)
		}
		return nil
	}
	if m := cfg.access.mode; m != authHeader && m != authBasic {
		return fmt.Errorf("-four-eyes needs -auth header or -auth basic: without signed-in operators there is nobody to tell the maker from the checker")
	}
	switch {
	case cfg.stateDir == "" && cfg.store == "":
		return fmt.Errorf("-four-eyes needs -state-dir, a folder where serve records who submitted each bulk, or -store, a database several servers share")
	}
	if cfg.apiURL == "" && !cfg.sandbox {
		return fmt.Errorf("-four-eyes needs -api-url (or -sandbox): the rule is enforced by the proxy the console's calls go through")
	}
	if len(cfg.options.ConnectSources) > len(origins(cfg.apiURL, cfg.backOfficeURL)) {
		return fmt.Errorf("-four-eyes cannot be combined with -connect-src: the console would call the API around the proxy that enforces the rule")
	}
	return nil
}

// openFourEyes opens the record of submissions, when the rule is on: in
// db when serve has one (-store), else under -state-dir. A nil rule with
// a nil error means it is off. The caller closes the closer, if any: the
// rule, then the file.
func (cfg serveConfig) openFourEyes(db *postgres.DB) (*approvals.Rule, io.Closer, error) {
	if !cfg.fourEyes.on {
		return nil, nil, nil
	}
	if db != nil {
		rule := &approvals.Rule{Records: db.Approvals(), AllowUnknown: cfg.fourEyes.allowUnknown}
		return rule, closeRule{rule, nil}, nil
	}
	store, err := approvals.Open(cfg.stateDir, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("-state-dir: %w", err)
	}
	rule := &approvals.Rule{Records: store, AllowUnknown: cfg.fourEyes.allowUnknown}
	return rule, closeRule{rule, store}, nil
}

// handleFourEyes serves the console's questions to the four-eyes record:
// whether its operator may execute a bulk, who submitted it and the
// receipt the server computed of it (four-eyes/bulks/{id}), and the bulks
// awaiting a second operator (four-eyes/bulks?state=awaiting), behind the
// sign-in. With the rule off (rule nil) both answer {"rule":false}.
func handleFourEyes(s *server.Server, rule *approvals.Rule) {
	s.Handle("GET four-eyes/bulks/{id}", approvals.Handler(rule, auth.User))
	s.Handle("GET four-eyes/bulks", approvals.QueueHandler(rule, auth.User))
}

// closeRule stops a rule's writes before its file, if any, is closed.
type closeRule struct {
	rule *approvals.Rule
	file io.Closer
}

func (c closeRule) Close() error {
	c.rule.Close()
	if c.file == nil {
		return nil
	}
	return c.file.Close()
}

// waitForStore brings the database up to date once it answers, saying in
// the log what it waits for, without a credential.
func (cfg serveConfig) waitForStore(ctx context.Context, db *postgres.DB) {
	logged := false
	err := db.Ready(ctx, func(err error) {
		if !logged && cfg.logger != nil {
			cfg.logger.Warn("waiting for the shared database; the server says it is unhealthy meanwhile", "err", err)
			logged = true
		}
	})
	if err == nil && cfg.logger != nil {
		cfg.logger.Info("what several servers share is in the database", "database", db.Where())
	}
}

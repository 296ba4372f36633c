package main

import (
	"fmt"

	"github.com/bulkdesk/bulkdesk/cmd/bulkdesk/internal/approvals"
)

// The values of -four-eyes-unknown.
const (
	unknownRefuse = "refuse"
	unknownAllow  = "allow"
)

// fourEyes is the maker–checker rule serve was asked to enforce.
type fourEyes struct {
	on bool
	// stateDir holds the record of who submitted each bulk.
	stateDir string
	// allowUnknown lets bulks without a record be executed.
	allowUnknown bool
}

// parseFourEyes reads -four-eyes-unknown.
func parseFourEyes(on bool, stateDir, unknown string) (fourEyes, error) {
	fe := fourEyes{on: on, stateDir: stateDir}
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
	if fe.stateDir == "" {
		return fmt.Errorf("-four-eyes needs -state-dir, a folder where serve records who submitted each bulk")
	}
	if cfg.apiURL == "" && !cfg.sandbox {
		return fmt.Errorf("-four-eyes needs -api-url (or -sandbox): the rule is enforced by the proxy the console's calls go through")
	}
	if len(cfg.options.ConnectSources) > len(origins(cfg.apiURL, cfg.backOfficeURL)) {
		return fmt.Errorf("-four-eyes cannot be combined with -connect-src: the console would call the API around the proxy that enforces the rule")
	}
	return nil
}

// openFourEyes opens the record of submissions, when the rule is on; a
// nil rule with a nil error means it is off. The caller closes the store.
func (cfg serveConfig) openFourEyes() (*approvals.Rule, error) {
	if !cfg.fourEyes.on {
		return nil, nil
	}
	store, err := approvals.Open(cfg.fourEyes.stateDir, 0)
	if err != nil {
		return nil, fmt.Errorf("-state-dir: %w", err)
	}
	return &approvals.Rule{Store: store, AllowUnknown: cfg.fourEyes.allowUnknown}, nil
}

package auth

import "log/slog"

// The reasons a sign-in is refused, as Refusals.Failed counts them.
const (
	// ReasonUnknownUser: Basic credentials for a name not in the file.
	ReasonUnknownUser = "unknown_user"
	// ReasonWrongPassword: Basic credentials of a known name with
	// another password.
	ReasonWrongPassword = "wrong_password"
	// ReasonBadName: Basic credentials whose name no account could have
	// (empty, too long, control characters).
	ReasonBadName = "bad_name"
	// ReasonBadUserHeader: a portal's user header that is not one
	// person's name (see Header).
	ReasonBadUserHeader = "bad_user_header"
)

// Refusals is where the sign-in middleware tells of what it refused: a
// log line for each refusal, never with a password, and counters for the
// metrics. Its zero value tells nobody.
type Refusals struct {
	// Logger receives a line for each sign-in refused.
	Logger *slog.Logger
	// Failed counts a sign-in refused, by reason (the Reason constants).
	Failed func(reason string)
	// Throttled counts an attempt answered 429 Too Many Requests
	// unchecked, by what had failed too often: "name" or "address".
	Throttled func(by string)
}

// failed logs and counts one refused sign-in.
func (f Refusals) failed(reason, msg string, attrs ...any) {
	if f.Failed != nil {
		f.Failed(reason)
	}
	if f.Logger != nil {
		f.Logger.Warn(msg, append([]any{"reason", reason}, attrs...)...)
	}
}

// throttled counts one attempt refused unchecked. It is not logged: such
// attempts cost nothing to send, and the failure that began the wait was.
func (f Refusals) throttled(by string) {
	if f.Throttled != nil {
		f.Throttled(by)
	}
}

// loggable cuts what a client sent to a length fit for a log line; the
// logger quotes it, so it cannot forge a line.
func loggable(s string) string {
	if len(s) > maxNameBytes {
		return s[:maxNameBytes] + "…"
	}
	return s
}

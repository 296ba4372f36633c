package bulkapi

// Status is the state of a bulk process.
type Status string

// The states of a bulk process.
const (
	// Submitted is the state after submission: the operations are stored
	// and wait for Execute.
	Submitted Status = "SUBMITTED"
	// Running means operations are being executed.
	Running Status = "RUNNING"
	// Paused means execution stopped on request and may resume.
	Paused Status = "PAUSED"
	// Completed means every operation succeeded.
	Completed Status = "COMPLETED"
	// PartiallyCompleted means execution ended with some operations failed.
	PartiallyCompleted Status = "PARTIALLY_COMPLETED"
	// Failed means no operation succeeded.
	Failed Status = "FAILED"
	// Cancelled means an operator stopped the process for good.
	Cancelled Status = "CANCELLED"
)

// Statuses lists every state, in lifecycle order, for filters and menus.
func Statuses() []Status {
	return []Status{Submitted, Running, Paused, Completed, PartiallyCompleted, Failed, Cancelled}
}

// Valid reports whether s is one of the known states.
func (s Status) Valid() bool {
	for _, t := range Statuses() {
		if s == t {
			return true
		}
	}
	return false
}

// Final reports whether no action can change the state any more.
func (s Status) Final() bool {
	switch s {
	case Completed, PartiallyCompleted, Failed, Cancelled:
		return true
	}
	return false
}

// An Action is what an operator can ask of a bulk process.
type Action string

// The actions on a bulk process, each a POST to /bulks/{bulk_id}/<action>.
const (
	Execute Action = "execute"
	Pause   Action = "pause"
	Resume  Action = "resume"
	Cancel  Action = "cancel"
)

// Actions lists every action, in the order buttons show them.
func Actions() []Action { return []Action{Execute, Pause, Resume, Cancel} }

// transitions says, for each action, the states it may start from.
//
// Cancel is allowed from SUBMITTED as well as RUNNING and PAUSED: the
// reference says a submission "can be cancelled" while it waits, and an
// operator must be able to withdraw a bulk that was never run.
var transitions = map[Action][]Status{
	Execute: {Submitted},
	Pause:   {Running},
	Resume:  {Paused},
	Cancel:  {Submitted, Running, Paused},
}

// Allows reports whether action a is allowed in state s.
func (s Status) Allows(a Action) bool {
	for _, from := range transitions[a] {
		if from == s {
			return true
		}
	}
	return false
}

// Actions returns the actions allowed in state s: what the console offers.
func (s Status) Actions() []Action {
	var out []Action
	for _, a := range Actions() {
		if s.Allows(a) {
			out = append(out, a)
		}
	}
	return out
}

// Target is the state a successful action leads to.
func (a Action) Target() Status {
	switch a {
	case Execute, Resume:
		return Running
	case Pause:
		return Paused
	case Cancel:
		return Cancelled
	}
	return ""
}

// OperationStatus is the state of one operation of a bulk process.
type OperationStatus string

// The states of an operation.
const (
	OpSubmitted OperationStatus = "SUBMITTED"
	OpRunning   OperationStatus = "RUNNING"
	OpCompleted OperationStatus = "COMPLETED"
	OpFailed    OperationStatus = "FAILED"
	OpCancelled OperationStatus = "CANCELLED"
)

// OperationStatuses lists every operation state.
func OperationStatuses() []OperationStatus {
	return []OperationStatus{OpSubmitted, OpRunning, OpCompleted, OpFailed, OpCancelled}
}

// Valid reports whether s is one of the known operation states.
func (s OperationStatus) Valid() bool {
	for _, t := range OperationStatuses() {
		if s == t {
			return true
		}
	}
	return false
}

// Mode says what execution does when an operation fails.
type Mode string

// The execution modes.
const (
	// OnFailureStop stops execution after the first failed operation.
	OnFailureStop Mode = "ON_FAILURE_STOP"
	// OnFailureContinue runs every operation whatever the others do.
	OnFailureContinue Mode = "ON_FAILURE_CONTINUE"
)

// Valid reports whether m is a known mode.
func (m Mode) Valid() bool { return m == OnFailureStop || m == OnFailureContinue }

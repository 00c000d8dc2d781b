package kernel

import (
	"time"

	"github.com/pa-toolkit/pa/locking/policy"
)

// Deadlines are the kernel lock's default deadlines (design: Acquisition
// Policies): 5 s for [policy.Mutation], 1 s for [policy.Monitor];
// [policy.SingleFlight] does not wait.
var Deadlines = policy.Deadlines{Mutation: 5 * time.Second, Monitor: time.Second}

// The defaults of [Options].
const (
	// DefaultRetry is the sleep between two attempts at a held lock.
	DefaultRetry = 25 * time.Millisecond
	// DefaultIncidentWait is how long a timeout waits for its incident
	// row to be appended before it returns (see [TimeoutError] Incident).
	DefaultIncidentWait = 250 * time.Millisecond
)

// Options are an acquisition's settings; the zero value is the mutation
// policy with the design's deadlines.
type Options struct {
	// Policy is how to wait for a held lock (zero: [policy.Mutation]).
	Policy policy.Policy
	// Deadline overrides the policy's default deadline ([Deadlines]), a
	// time.Duration measured on the monotonic clock from the first
	// attempt; 0 keeps the default. It is ignored by
	// [policy.SingleFlight], which never waits.
	Deadline time.Duration
	// Retry is the sleep between two attempts (0: [DefaultRetry]), cut
	// short by the deadline and by the context.
	Retry time.Duration
	// Agent and Operation are the holder's public-safe labels, written in
	// its record and in incident rows (for example "crow", "dispatch
	// open"): at most 64 bytes of letters, digits, space and ._:@+-, so
	// that a record never holds a path, an environment variable or a
	// command line. Another label fails with a *[LabelError]. Empty
	// labels are left out.
	Agent, Operation string
	// IncidentWait bounds how long a timeout waits for its incident row to
	// be appended (0: [DefaultIncidentWait]); past it the timeout is
	// returned and the append goes on, unwaited, on its own goroutine.
	IncidentWait time.Duration

	// Seams for the tests.
	layout      layout           // where the holder's record goes (0: the system's)
	onRetry     func(n int)      // called after the n-th refused attempt, before its sleep
	incidentCap int64            // the incidents file's cap (0: IncidentCap)
	now         func() time.Time // the wall clock of records (nil: time.Now)
}

func (o Options) deadline() time.Duration {
	if !o.Policy.Waits() {
		return 0
	}
	if o.Deadline > 0 {
		return o.Deadline
	}
	return Deadlines.Of(o.Policy)
}

func (o Options) retry() time.Duration {
	if o.Retry > 0 {
		return o.Retry
	}
	return DefaultRetry
}

func (o Options) incidentWait() time.Duration {
	if o.IncidentWait > 0 {
		return o.IncidentWait
	}
	return DefaultIncidentWait
}

func (o Options) cap() int64 {
	if o.incidentCap > 0 {
		return o.incidentCap
	}
	return IncidentCap
}

func (o Options) wallNow() time.Time {
	if o.now != nil {
		return o.now()
	}
	return time.Now()
}

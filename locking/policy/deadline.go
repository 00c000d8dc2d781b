package policy

import "time"

// Deadlines are a lock's default deadlines for the policies that wait, each
// a time.Duration measured on the monotonic clock from the first attempt
// (design: Acquisition Policies). Each lock says its own: the kernel lock's
// are 5 s and 1 s, the fail-safe lock's mutation deadline is 10 s.
type Deadlines struct {
	// Mutation is the [Mutation] policy's deadline.
	Mutation time.Duration
	// Monitor is the [Monitor] policy's deadline.
	Monitor time.Duration
}

// Of returns p's default deadline: d.Mutation or d.Monitor, and 0 for
// [SingleFlight] (no wait) and for a value that is no policy.
func (d Deadlines) Of(p Policy) time.Duration {
	switch p {
	case Mutation:
		return d.Mutation
	case Monitor:
		return d.Monitor
	}
	return 0
}

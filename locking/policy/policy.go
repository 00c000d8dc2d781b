package policy

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Policy is how an acquisition waits for a held lock (design: Acquisition
// Policies). The zero value is [Mutation], the default.
type Policy int

// The policies.
const (
	// Mutation waits up to the lock's mutation deadline, then times out.
	Mutation Policy = iota
	// Monitor waits up to the lock's monitor deadline (1 s), then times
	// out; the caller retries only on a later scheduled poll.
	Monitor
	// SingleFlight does not wait: a held lock is an ordinary result.
	SingleFlight
)

// ErrUnknown is wrapped by the error of [Parse] and [Policy.UnmarshalText]
// for a name that is no policy.
var ErrUnknown = errors.New("unknown lock policy")

var names = [...]string{Mutation: "mutation", Monitor: "monitor", SingleFlight: "single_flight"}

// String returns the policy's stable name: "mutation", "monitor" or
// "single_flight" (the design's names, as records and incident rows carry
// them); "Policy(N)" for a value that is no policy.
func (p Policy) String() string {
	if p.Valid() {
		return names[p]
	}
	return "Policy(" + strconv.Itoa(int(p)) + ")"
}

// Valid reports whether p is one of the three policies.
func (p Policy) Valid() bool { return p >= Mutation && p <= SingleFlight }

// Waits reports whether p waits for a held lock (Mutation and Monitor);
// SingleFlight does not.
func (p Policy) Waits() bool { return p == Mutation || p == Monitor }

// Parse returns the policy named s: "mutation", "monitor", "single_flight"
// or "single-flight" (the command-line spelling), case-sensitive. Any
// other s fails with an error wrapping [ErrUnknown] that quotes s.
func Parse(s string) (Policy, error) {
	switch s {
	case "mutation":
		return Mutation, nil
	case "monitor":
		return Monitor, nil
	case "single_flight", "single-flight":
		return SingleFlight, nil
	}
	return 0, fmt.Errorf("%w %q (want mutation, monitor or single-flight)", ErrUnknown, clip(s))
}

// clip keeps an error's quote of a bad name short.
func clip(s string) string {
	if len(s) > 40 {
		return strings.ToValidUTF8(s[:40], "") + "..."
	}
	return s
}

// MarshalText returns the policy's name ([Policy.String]); a value that is
// no policy fails with an error wrapping [ErrUnknown].
func (p Policy) MarshalText() ([]byte, error) {
	if !p.Valid() {
		return nil, fmt.Errorf("%w %d", ErrUnknown, int(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText sets p to the policy named by text, as [Parse] reads it.
func (p *Policy) UnmarshalText(text []byte) error {
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// Package lockview words package locking's data for pa's lines (cmd/pa,
// board): a [locking.Holder] and a [locking.ClaimOwner], as
// internal/display words them, the same bytes as locking's own errors
// show.
package lockview

import (
	"github.com/pa-toolkit/pa/internal/display"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// Describe returns h in one line for messages ([display.Holder.Describe]):
// `pid 1234 on host "h" (alive, age 3s, acquiredAt ...)`, or `an empty
// lock (0 bytes, age 3s)` for a lock that does not parse.
func Describe(h locking.Holder) string { return shown(h).Describe() }

// HeldBy returns lock and its holder h as the lead of a message
// ([display.Holder.HeldBy]): `<lock> held by pid 1234 ...`, or `<lock> is
// an empty lock (...)`. lock is shown as given: cap it for display before.
func HeldBy(lock string, h locking.Holder) string { return shown(h).HeldBy(lock) }

// Claim names a breaker's claim ([display.Claim]): `pid 4242 (host
// 0a1b2c3d, claim <its name, escaped>)`.
func Claim(c locking.ClaimOwner) string { return display.Claim(c.PID, c.HostHash, c.Claim) }

// shown is h as display words it (internal/lockspec words its errors'
// holders the same way, with the same function).
func shown(h locking.Holder) display.Holder { return lockspec.Shown(h) }

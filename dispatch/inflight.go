package dispatch

import (
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// DefaultInFlightGrace is how long [Check] waits, at most, for a holder
// of the spawn-log lock that may still be writing a dispatch's board item
// (CheckOptions.InFlightGrace zero): 1 s. Spec: Hold and commit (`pa
// dispatch` writes the board while the lock is still held).
const DefaultInFlightGrace = time.Second

// inFlightPoll is how often [Check] reads the lock again while it waits.
const inFlightPoll = 5 * time.Millisecond

// waitInFlight waits, up to grace, until no hold that was on the lock that
// guards logName when it is called is on it any more, so that the board
// read after it sees every board item of a dispatch committed before the
// call (spec: Hold and commit: pa dispatch writes the board before it
// releases the lock). It is called once both the spawn-log and the board
// have been read and a dispatch was missing from the board.
//
// Each record read was committed by a writer W holding the lock before the
// spawn-log was read. When the lock is free now, or held by another hold,
// or by a holder that will not release it by itself (dead, an empty or
// unreadable lock, a name that is no lock), W has released (its board
// write done) or will never write: no wait. Only a hold that may still be
// W's and may still release, a holder alive on this host, one on another
// host (whose pid cannot be asked, as it may be alive) or one in another
// pid namespace of this host (whose pid means nothing here, and whose
// kernel lock does not prove it dead), is waited for:
// until it is gone, or another hold or a dead or unreadable holder is there
// instead, or grace has passed (a negative grace: no wait). It reads the
// lock only (locking.Inspect): it never writes, breaks or sweeps.
func waitInFlight(fsys vfs.FS, logName string, lock locking.Options, grace time.Duration) {
	if grace < 0 {
		return
	}
	h, err := locking.Inspect(fsys, logName, lock)
	if err != nil || !mayRelease(h) {
		return
	}
	deadline := time.Now().Add(grace)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		time.Sleep(min(inFlightPoll, left))
		now, err := locking.Inspect(fsys, logName, lock)
		if err != nil || !mayRelease(now) || !sameHold(h, now) {
			return
		}
	}
}

// mayRelease reports whether h is a hold whose holder may still be
// writing and release the lock by itself: alive on this host, on another
// host, or in another pid namespace of this host.
func mayRelease(h locking.Holder) bool {
	switch h.State {
	case locking.StateAlive, locking.StateOtherHost, locking.StateOtherNamespace:
		return h.Mode == 0
	}
	return false
}

// sameHold reports whether a and b, two reads of the lock, are of one hold:
// the same token, pid, host and acquiredAt.
func sameHold(a, b locking.Holder) bool {
	return a.Token == b.Token && a.PID == b.PID && a.Hostname == b.Hostname && a.HasHostname == b.HasHostname && a.AcquiredAt == b.AcquiredAt
}

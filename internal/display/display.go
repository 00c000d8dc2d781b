// Package display words a lock's holder, a breaker's claim and an age for
// an operator, every value read from disk escaped and capped for display
// ([termsafe.Value], [termsafe.Cap]; spec: The lock file and the names
// beside it). It knows nothing of how a holder is judged: it is given what
// to show as data ([Holder]), so that package locking's errors and pa's
// lines (cmd/pa, board; through internal/lockview) show a holder the same
// way, byte for byte.
package display

import (
	"fmt"
	"io/fs"
	"path"
	"time"

	"github.com/pa-toolkit/pa/internal/filekind"
	"github.com/pa-toolkit/pa/internal/termsafe"
)

// Holder is a lock's holder as a message shows it: the values read from
// disk, whole and unescaped ([Holder.Describe] escapes and caps them), and
// the judgement, in words.
type Holder struct {
	// Unreadable: the lock does not parse (or is not a regular file); it
	// names no holder, only its Mode, Size and Age.
	Unreadable bool
	// Mode is the type of what is under the lock name, 0 for a regular
	// file (only read when Unreadable).
	Mode fs.FileMode
	// Size is the lock file's length in bytes (only read when Unreadable).
	Size int64
	// MaxSize is the most bytes a lock may hold: a longer one is
	// unreadable for its length alone, and is said so (only read when
	// Unreadable; 0 says nothing of a cap).
	MaxSize int64
	// PID is the holder's pid.
	PID int
	// Hostname is the hostname the lock records.
	Hostname string
	// HasHostname is false for a lock that records no hostname (shown as
	// "no hostname (this host)").
	HasHostname bool
	// AcquiredAt is the lock's acquiredAt as recorded ("" reads as
	// "unknown").
	AcquiredAt string
	// Age is the lock's age, as [Age] prints it.
	Age time.Duration
	// State is the judgement in words ("alive", "dead", "on another
	// host"...).
	State string
	// Evidence is what decided State ("" for none).
	Evidence string
}

// Describe returns the holder in one line for messages: `pid 1234 on host
// "h" (alive, age 3s, acquiredAt 2026-11-29T15:42:59.123Z)`, with the
// Evidence after the state when there is one (`(alive: holds the lock's
// kernel lock, age 3s, ...)`), or, for a lock that does not parse, `an
// empty lock (0 bytes, age 5s)` or `an unreadable lock (12 bytes, not a
// JSON object with an integer pid, age 5s)` (one longer than MaxSize:
// `an unreadable lock (70114 bytes, longer than the 65536 bytes a lock may
// hold, age 5s)`), and for a name that is not a
// regular file `not a regular file (a directory, age 5s): not a lock`.
func (h Holder) Describe() string {
	if h.Unreadable {
		if h.Mode != 0 {
			return fmt.Sprintf("not a regular file (%s, age %s): not a lock", modeName(h.Mode), Age(h.Age))
		}
		if h.Size == 0 {
			return fmt.Sprintf("an empty lock (0 bytes, age %s)", Age(h.Age))
		}
		if h.MaxSize > 0 && h.Size > h.MaxSize {
			return fmt.Sprintf("an unreadable lock (%d bytes, longer than the %d bytes a lock may hold, age %s)", h.Size, h.MaxSize, Age(h.Age))
		}
		unit := "bytes"
		if h.Size == 1 {
			unit = "byte"
		}
		return fmt.Sprintf("an unreadable lock (%d %s, not a JSON object with an integer pid, age %s)", h.Size, unit, Age(h.Age))
	}
	host := "no hostname (this host)"
	if h.HasHostname {
		host = `host "` + termsafe.Cap(h.Hostname) + `"`
	}
	acq := termsafe.Cap(h.AcquiredAt)
	if acq == "" {
		acq = "unknown"
	}
	state := h.State
	if h.Evidence != "" {
		state += ": " + h.Evidence
	}
	return fmt.Sprintf("pid %d on %s (%s, age %s, acquiredAt %s)", h.PID, host, state, Age(h.Age), acq)
}

// HeldBy returns lock and its holder as the lead of a message: `<lock> held
// by pid 1234 on host "h" (...)`, or `<lock> is an empty lock (...)` for a
// lock that does not parse. lock is shown as given: escape or cap it for
// display before.
func (h Holder) HeldBy(lock string) string {
	if h.Unreadable {
		return lock + " is " + h.Describe()
	}
	return lock + " held by " + h.Describe()
}

// modeName names a file type for an operator.
func modeName(m fs.FileMode) string {
	if name, ok := filekind.Name(m); ok {
		return name
	}
	return "a name that cannot be read"
}

// Claim names a breaker's claim: the owner its name records (pid and host
// hash) and the claim's own name, escaped, without its folder: `pid 4242
// (host 0a1b2c3d, claim s.json.lock.claim-...)`.
func Claim(pid int, hostHash, claim string) string {
	return fmt.Sprintf("pid %d (host %s, claim %s)", pid, hostHash, termsafe.Value(path.Base(claim)))
}

// maxShownAge is the longest age Age prints in full (about 11 years).
const maxShownAge = 100000 * time.Hour

// Age prints an age for an operator: milliseconds below a second, whole
// seconds above (3s, 1m5s, 26h0m0s), and "over 100000h" past that (so a
// message stays bounded whatever the file time).
func Age(d time.Duration) string {
	if d > maxShownAge {
		return "over 100000h" // bounded: a file time centuries off
	}
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

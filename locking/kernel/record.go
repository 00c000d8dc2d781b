package kernel

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/pa-toolkit/pa/locking/policy"
)

// Record is the holder's public-safe record (design: Holder And Incident
// Records), as JSON in the *.lock file (POSIX) or the *.lock.holder.json
// sidecar (Windows). It never holds a path, an environment variable or a
// command line. Times are RFC 3339 UTC strings with nanoseconds, kept as
// read: a record read back is untrusted text, so a caller escapes its
// values before showing them.
type Record struct {
	// LockID is the lock's stable hashed id ([LockID]).
	LockID string `json:"lock_id"`
	// PID is the holder's process id, on Hostname.
	PID int `json:"pid"`
	// Hostname is the holder's host.
	Hostname string `json:"hostname"`
	// Agent is the holder's agent label ([Options]).
	Agent string `json:"agent,omitempty"`
	// Operation is the holder's operation label ([Options]).
	Operation string `json:"operation,omitempty"`
	// Policy is the holder's acquisition policy ("mutation", "monitor",
	// "single_flight").
	Policy string `json:"policy"`
	// AcquiredAt is when the holder took the kernel lock.
	AcquiredAt string `json:"acquiredAt"`
	// ReleasedAt is when the holder released it normally; empty while it
	// holds it, or when it ended without a release (a kill).
	ReleasedAt string `json:"releasedAt,omitempty"`
}

// timeLayout is the records' and rows' time format.
const timeLayout = time.RFC3339Nano

// maxRecord is the most bytes of a record read back: a longer file is not
// a record.
const maxRecord = 4096

// ErrNoRecord is wrapped when a holder's record is absent or is not one
// (empty, torn, too long, not JSON): evidence to investigate, never a
// reason to remove anything.
var ErrNoRecord = errors.New("no readable holder record")

// LockID returns the stable hashed id of the lock on name, the file's
// slash-separated name in its [vfs.FS]: "lk_" and 16 hex digits of a
// SHA-256. It never holds the path itself; two processes that name the
// file alike (the same FS root) get the same id.
func LockID(name string) string { return policy.LockID(name) }

// encode returns the record's JSON and a newline.
func (r Record) encode() []byte {
	b, _ := json.Marshal(r) // strings and an int: it cannot fail
	return append(b, '\n')
}

// parseRecord reads a record's bytes; anything but one JSON object of at
// most maxRecord bytes fails with an error wrapping ErrNoRecord.
func parseRecord(data []byte) (Record, error) {
	var r Record
	if len(data) == 0 {
		return r, fmt.Errorf("%w: empty", ErrNoRecord)
	}
	if len(data) > maxRecord {
		return r, fmt.Errorf("%w: longer than %d bytes", ErrNoRecord, maxRecord)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrNoRecord, err)
	}
	return r.clipped(), nil
}

// clipped returns r with every string cut to maxField bytes of valid
// UTF-8, so that a hostile record cannot make a row or a message long.
func (r Record) clipped() Record {
	for _, s := range []*string{&r.LockID, &r.Hostname, &r.Agent, &r.Operation, &r.Policy, &r.AcquiredAt, &r.ReleasedAt} {
		*s = clip(*s)
	}
	return r
}

// maxField is the longest string kept of a record read back, in bytes.
const maxField = 128

func clip(s string) string {
	if len(s) > maxField {
		s = s[:maxField]
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

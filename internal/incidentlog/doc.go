// Package incidentlog is the one implementation of an incident log's
// mechanics, shared by the kernel lock (locking/kernel) and the fail-safe
// lock (internal/lockspec): a JSON-lines file beside a lock, appended
// with one write of an O_APPEND handle and never past a cap (Append), the
// append waited for at most a bound (Within), and read back bounded,
// whatever its content (Read). The rows' shapes are the callers'
// (docs/kernel-lock.md, docs/spawn-log-lock.md: "The incident log"); no
// lock anchors on the file, and nothing here takes one.
package incidentlog

// The bounds of every incident log, in bytes.
const (
	// Cap is the most bytes a log grows to: a row that would take it past
	// the cap is dropped, and the next row the process writes counts the
	// drops (Drops).
	Cap = 1 << 20
	// MaxRow is the longest row, its newline included.
	MaxRow = 4096
)

package spawnlog

import (
	"errors"
	"fmt"
)

// ErrCorrupt is matched (errors.Is) by every *CorruptError.
var ErrCorrupt = errors.New("spawn-log does not parse")

// CorruptError reports a spawn-log that does not parse or has an unknown
// version. The file was not changed: a corrupt spawn-log is never
// overwritten (spec: the lock guards a read-modify-write, and a write that
// cannot read must not write). Repair or move the file by hand.
type CorruptError struct {
	// Path is the spawn-log's name in the estate.
	Path string
	// Err is the parse error.
	Err error
}

// Error names the file and the parse error.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("spawn-log %s does not parse, so it is left as it is: %v", e.Path, e.Err)
}

// Unwrap returns the parse error.
func (e *CorruptError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

package spawnlog

import (
	"errors"
	"fmt"

	"github.com/pa-toolkit/pa/internal/jsonwords"
)

// ErrCorrupt is matched (errors.Is) by every *CorruptError.
var ErrCorrupt = errors.New("spawn-log does not parse")

// ErrNoIDLeft is returned by [Append] when the spawn-log's nextId is the
// largest integer: no new id can be given without wrapping around to one
// already used, so nothing is written.
var ErrNoIDLeft = errors.New("no id is left for a new dispatch")

// ErrTitleNotUTF8 is returned by [Append] and [AppendPrepared] when the
// title is not valid UTF-8: a JSON string cannot hold those bytes as they
// are (encoding/json would write U+FFFD in their place), so the record is
// refused rather than stored with another title. Nothing is touched.
var ErrTitleNotUTF8 = errors.New("the title is not valid UTF-8")

// wantShape is what a spawn-log must be, as a *CorruptError says it.
const wantShape = "want a JSON object with version, nextId and records"

// CorruptError reports a spawn-log that does not parse or has an unknown
// version. The file was not changed: a corrupt spawn-log is never
// overwritten (spec: the lock guards a read-modify-write, and a write that
// cannot read must not write). Repair or move the file by hand.
type CorruptError struct {
	// Path is the spawn-log's name in the estate.
	Path string
	// Err is the parse error (encoding/json's, possibly inside a record).
	Err error
}

// Error names the file and says in plain words what is wrong:
// `agents/demo/spawn-log.json does not parse: want a JSON object with
// version, nextId and records: it is an array`.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("%s does not parse: %s", e.Path, e.Reason())
}

// Reason is the message without the file: the shape wanted and what is
// wrong, in plain words (no Go type names).
func (e *CorruptError) Reason() string {
	return wantShape + ": " + jsonwords.Reason(e.Err)
}

// Unwrap returns the parse error.
func (e *CorruptError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

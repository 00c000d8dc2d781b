package board

import (
	"errors"
	"fmt"
)

// ErrAhead is matched (errors.Is) by every *AheadError.
var ErrAhead = errors.New("board lists a dispatch the spawn-log has not given yet")

// AheadError reports a board that already lists the dispatch id the
// spawn-log is about to give, or a later one: the spawn-log is behind its
// board. Its records were lost (a power cut that took the spawn-log and
// every name that held them) or it was put back from an older copy. An
// open there would give an id the board already lists for another
// dispatch, and nothing says which records are gone, so nothing is
// written; the records are not made up again from the board.
type AheadError struct {
	// Path is the board's name in the estate.
	Path string
	// ID is the id the spawn-log would give next.
	ID int
	// MaxID is the highest dispatch id the board lists.
	MaxID int
}

// Error names the board and both ids.
func (e *AheadError) Error() string {
	return fmt.Sprintf("%s lists dispatch %d, but the spawn-log's next id is %d: the spawn-log is behind its board (its records were lost, or it is an older copy)", e.Path, e.MaxID, e.ID)
}

// Is makes errors.Is(err, ErrAhead) true.
func (e *AheadError) Is(target error) bool { return target == ErrAhead }

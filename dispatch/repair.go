package dispatch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
)

// Repair is `pa board repair`: it puts on agent's board every dispatch of
// its spawn-log that is missing from it ([KindNotOnBoard], what [Check]
// reports: a board write skipped after a lost lock, or a writer killed
// between its commit and its board write; spec: Hold and commit, the board
// write; row R24). It takes the spawn-log lock, the lock [Open] holds while
// it writes the board ([locking.Acquire], waiting up to opts.Timeout), reads
// the spawn-log and the board under it, and adds an item for each missing
// dispatch, in the spawn-log's order, after the board's own items, in one
// write with [locking.Hold.WriteFenced] (its own temp file in the board
// folder, synced, the lock's fence before its rename), then releases the
// lock. No item of the board is dropped, changed or moved (each keeps its
// bytes: [board.Board.Extend]), and the spawn-log is never written. An
// item's title is its record's, its addedAt opts.Now (or the clock) in UTC.
//
// It returns the items added, in order: none, and nothing written, when the
// board has every dispatch already, or when agent has no folder (nothing was
// ever recorded for it; no folder is made then).
//
// An agent whose name the volume resolves to a folder spelled otherwise
// ([estate.CheckSpelling]) is refused before the lock is taken.
//
// Errors: an *estate.AgentError or an *estate.SpellingError (nothing is
// touched); the lock's errors
// from [locking.Acquire] and [locking.Hold.Release] (a
// *locking.TimeoutError, ctx's, the FS's); a
// *spawnlog.CorruptError or a *board.CorruptError when the spawn-log or the
// board does not parse, and any error reading either (nothing is written);
// an error matching [locking.ErrLockLost] that names the board and the lock
// when the fence before the board's rename finds the lock taken from this
// hold (the board is not written); the FS's error of the board's write
// (not written); and, once the board has landed, returned together with
// the items added, a *locking.NotSyncedError (the board folder's sync
// failed) or the release's error.
func Repair(ctx context.Context, fsys vfs.FS, agent string, opts locking.Options) ([]board.Item, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return nil, err
	}
	if _, err := fsys.Stat(estate.AgentDir(agent)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err := estate.CheckSpelling(fsys, agent); err != nil {
		return nil, err
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	logName := estate.SpawnLogPath(agent)
	h, err := locking.Acquire(ctx, fsys, logName, opts)
	if err != nil {
		return nil, err
	}
	added, err := repairHeld(h, fsys, agent, now)
	// A release that finds the lock lost puts back the lock that replaced
	// this hold's: no error of this repair's (the board, if written, was
	// written behind its fence).
	rerr := h.Release()
	switch {
	case rerr == nil || errors.Is(rerr, locking.ErrLockLost):
		return added, err
	case added == nil && err != nil:
		return nil, err
	case added == nil:
		return nil, rerr
	}
	return added, errors.Join(err, fmt.Errorf("%s is written, but releasing %s failed: %w", estate.BoardPath(agent), locking.LockName(logName), rerr))
}

// repairHeld is Repair's work under the hold h: the spawn-log and the
// board read, the missing dispatches' items written in one fenced write.
// It returns the items added once the board has landed (with a
// *locking.NotSyncedError when only its folder's sync failed), nil and
// the error otherwise.
func repairHeld(h *locking.Hold, fsys vfs.FS, agent string, now func() time.Time) ([]board.Item, error) {
	log, err := spawnlog.Read(fsys, agent)
	if err != nil {
		return nil, err
	}
	b, err := board.Read(fsys, agent)
	if err != nil {
		return nil, err
	}
	missing := notOnBoard(log.Records, b)
	if len(missing) == 0 {
		return nil, nil
	}
	at := now().UTC().Format("2006-01-02T15:04:05.000Z")
	items := make([]board.Item, 0, len(missing))
	for _, r := range missing {
		items = append(items, board.Item{DispatchID: r.ID, Title: r.Title, AddedAt: at})
	}
	if err := vfs.MkdirAll(fsys, estate.BoardDir(agent), 0o755); err != nil {
		return nil, err
	}
	name := estate.BoardPath(agent)
	err = h.WriteFenced(name, b.Extend(items...)...)
	var notSynced *locking.NotSyncedError
	switch {
	case errors.As(err, &notSynced):
		return items, err // landed; only its folder's sync failed
	case errors.Is(err, locking.ErrLockLost):
		return nil, fmt.Errorf("%s is not written: the lock %s was lost before its rename: %w", name, h.Lock(), err)
	case err != nil:
		return nil, err
	}
	return items, nil
}

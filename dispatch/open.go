package dispatch

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
)

// NotOnBoardError reports a dispatch whose record is in the spawn-log but
// whose board write did not happen (spec: Hold and commit, the board write;
// row R24). Err says why: it matches locking.ErrLockLost when the spawn-log
// lock was lost before the board's rename (the board write was skipped), or
// is the FS's error (a board that does not parse is found before the
// spawn-log commit, so it is never the reason here). `pa board check` names such a dispatch.
type NotOnBoardError struct {
	// Agent is the agent whose board was not written.
	Agent string
	// DispatchID is the id of the record that is in the spawn-log.
	DispatchID int
	// Err is why the board was not written.
	Err error
}

// Error names the dispatch id and why it is not on the board.
func (e *NotOnBoardError) Error() string {
	why := e.Err.Error()
	if errors.Is(e.Err, locking.ErrLockLost) {
		why = "the spawn-log lock was lost before the board write, so the board write was skipped"
	}
	return fmt.Sprintf("dispatch %d is in the spawn-log but not on the board: %s", e.DispatchID, why)
}

// Unwrap returns why the board was not written.
func (e *NotOnBoardError) Unwrap() error { return e.Err }

// Open is `pa dispatch open`: it appends a record for agent to its
// spawn-log under the spawn-log lock ([spawnlog.AppendPrepared]), then, with
// that lock still held, puts the dispatch on the agent's board with
// [locking.Hold.WriteFenced]: the board's own temp file in the board folder,
// synced, the same fence before its rename (spec: The steps, Hold and
// commit). opts are the lock's options (timeout, host, clock, step hook); its
// afterWrite (lockspec.SetAfterCommit), if set, runs after the board write.
//
// The board is read once per hold, under the lock, while the spawn-log's
// temp file is written and before its fence and rename: a board that does
// not parse stops the open there, with nothing committed (the temp file
// removed), and is never overwritten. That one read is what the board write
// after the commit is made from (a splice, as [spawnlog.Append] does, for
// the common shape; a whole encode otherwise). A hold that loses its lock
// reads the board again in the next.
//
// The agent's folder is made first with [estate.MakeAgentDir], which
// refuses a name that the volume resolves to a folder spelled otherwise
// (agents/Log for log, on a volume that ignores case), before and after
// the folder is made and before the lock is taken: two spellings of one
// folder would share its lock, its ids and its board.
//
// Errors: an *estate.AgentError or spawnlog.ErrTitleNotUTF8 (nothing
// touched); an *estate.SpellingError (nothing written: no folder made, no
// lock taken); an *estate.NameRefusedError when the volume cannot hold the
// agent's name as a folder name (agents/a:b on exFAT; no agent folder
// made); a *board.CorruptError for the board or a *spawnlog.CorruptError (nothing written); the lock's errors
// ([spawnlog.Append]); and, once the record has landed, a
// *locking.NotSyncedError (a folder sync failed after the spawn-log's or
// the board's rename: both writes landed) or a *NotOnBoardError naming its
// id, returned together with the record (it matches locking.ErrLockLost
// when the lock was lost before the board's rename: row R24).
func Open(ctx context.Context, fsys vfs.FS, agent, title string, opts locking.Options) (spawnlog.Record, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return spawnlog.Record{}, err
	}
	if !utf8.ValidString(title) {
		return spawnlog.Record{}, spawnlog.ErrTitleNotUTF8
	}
	if err := estate.MakeAgentDir(fsys, agent); err != nil {
		return spawnlog.Record{}, err
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	name := estate.BoardPath(agent)
	// Each hold's read of the board may be a mapping (mapread.File), which
	// its board write uses: all are released when the open returns, once
	// no write can use them.
	var releases []func()
	defer func() {
		for _, release := range releases {
			release()
		}
	}()
	prepare := func(rec spawnlog.Record) (spawnlog.AfterAppend, error) {
		add, release, err := board.ReadForAdd(fsys, agent, rec.ID)
		releases = append(releases, release)
		if err != nil {
			return nil, err // checked before the spawn-log commit's fence: nothing is committed
		}
		return func(h *locking.Hold, rec spawnlog.Record) error {
			// A board that a power cut took, whose dead writer's complete
			// temp file is left, is restored first, and read again.
			restored, err := h.RestoreMissing(name, board.Restore)
			if restored {
				add, release, err = board.ReadForAdd(fsys, agent, rec.ID)
				releases = append(releases, release)
			}
			if err != nil {
				return &NotOnBoardError{Agent: agent, DispatchID: rec.ID, Err: err}
			}
			// The board folder is made here, under the lock, so an open
			// that fails before its commit leaves no board folder behind.
			err = vfs.MkdirAll(fsys, estate.BoardDir(agent), 0o755)
			if err == nil {
				it := board.Item{DispatchID: rec.ID, Title: rec.Title, AddedAt: now().UTC().Format("2006-01-02T15:04:05.000Z")}
				err = h.WriteFenced(name, add(it)...)
			}
			var notSynced *locking.NotSyncedError
			if errors.As(err, &notSynced) {
				return err // the board write landed; only its folder sync failed
			}
			if err != nil {
				return &NotOnBoardError{Agent: agent, DispatchID: rec.ID, Err: err}
			}
			return nil
		}, nil
	}
	return spawnlog.AppendPrepared(ctx, fsys, agent, title, prepare, opts)
}

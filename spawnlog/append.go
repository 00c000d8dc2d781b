package spawnlog

import (
	"context"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/jsondoc"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
)

// openedAtLayout is the ISO 8601 form of openedAt: UTC with milliseconds.
const openedAtLayout = "2006-01-02T15:04:05.000Z"

// AfterAppend is called by [Append] after the record's commit has landed,
// with the spawn-log lock still held (the spec's afterWrite): h writes other
// files under the same fence with [locking.Hold.WriteFenced]. rec is the
// record as committed.
type AfterAppend func(h *locking.Hold, rec Record) error

// Prepare is called by [AppendPrepared] under the spawn-log lock in every
// run of the read-modify-write (again after a lost lock), once that run
// has read the spawn-log and made its record rec, before its commit lands:
// it reads and checks what the step after the commit needs, and returns
// that step (nil: none), which runs if this run's commit lands. It runs in
// a goroutine of its own while the commit writes and syncs its temp file
// (so it must not touch what that write uses; the FS is safe for
// concurrent use), and the commit's fence waits for it: an error from
// Prepare ends the Append with nothing committed (the temp file removed).
// Each run calls it afresh, so what it read in an earlier run (under a
// lock since lost) is never used; no call outlives AppendPrepared.
type Prepare func(rec Record) (AfterAppend, error)

// Append adds one dispatch record for agent to its spawn-log under the
// spawn-log's lock, through [lockspec.UpdateMapped] (spec: The steps, Hold and
// commit): the id is the log's nextId as read under the lock, openedAt is
// opts.Now (or the clock) in UTC, and pid and hostname are opts.Host's (or
// this process's). The agent's folder is created when missing. When then is
// not nil it runs after the commit, with the lock still held; opts's own
// afterWrite (lockspec.SetAfterCommit), if set, runs after it.
//
// The spawn-log is read once per hold (mapped where the FS can: see
// [lockspec.UpdateMapped]), and written by a splice: the common
// shape (as pa writes it) is checked by a hand-written scan, and the new
// document is a new head, the old records' bytes as read, and the new
// record; anything else is parsed by encoding/json and written whole (see
// [Parse]). Either way the result is what [Parse] would read back with the
// record appended.
//
// Errors: an *estate.AgentError (a usage error; nothing is touched) when
// agent is not a safe name; [ErrTitleNotUTF8] (nothing is touched either)
// when title is not valid UTF-8; a *CorruptError when the spawn-log does not
// parse (it is left byte for byte); an error matching [ErrNoIDLeft] when its
// nextId is the largest integer (nothing is written); the lock's errors from locking.Update
// (*locking.TimeoutError, locking.ErrLockLost once the timeout ran out,
// ctx's); the FS's. When the error comes from then (or the afterWrite), the
// record has landed and is returned with it, never committed twice; on every
// other error the zero Record is returned and nothing was committed.
func Append(ctx context.Context, fsys vfs.FS, agent, title string, then AfterAppend, opts locking.Options) (Record, error) {
	return AppendPrepared(ctx, fsys, agent, title, func(Record) (AfterAppend, error) { return then, nil }, opts)
}

// AppendPrepared is [Append] with a [Prepare] step under the lock before the
// commit (prepare may be nil): what it returns runs after the commit, as
// then does for Append. It is how `pa dispatch open` reads and checks the
// board once per hold, while the spawn-log's temp file is written and
// before its fence and rename, and writes the board from that one read
// (dispatch.Open). Errors: Append's, and prepare's (nothing
// committed).
//
// Running prepare beside the temp file's write and sync, not before it, is
// an optimisation the growth goal needs (bench: `pa dispatch open` at 100k
// records, at most 3x writing that file once): six runs interleaved on 2
// cores gave 2.43x-3.13x (median 2.80x) with it, 2.62x-3.22x (median
// 3.02x) with prepare called inline. The plain path is prepare called
// inline, in the same place; the gate is the one seam between them.
func AppendPrepared(ctx context.Context, fsys vfs.FS, agent, title string, prepare Prepare, opts locking.Options) (Record, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return Record{}, err
	}
	if !utf8.ValidString(title) {
		return Record{}, ErrTitleNotUTF8
	}
	if err := vfs.MkdirAll(fsys, estate.AgentDir(agent), 0o755); err != nil {
		return Record{}, err
	}
	host := opts.Host
	if host == nil {
		host = locking.OSHost()
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	name := estate.SpawnLogPath(agent)

	// fn may run more than once (again after a lost lock); rec and then are
	// the record and after-commit step of the run whose commit landed when
	// the afterWrite is reached. prepare runs in a goroutine of its own while
	// the commit writes its temp file; the commit's gate waits for it, and
	// so does every later run and the end of the Append (pending), so that
	// no prepare outlives the run that started it.
	var rec Record
	var then AfterAppend
	var pending chan struct{}
	drain := func() {
		if pending != nil {
			<-pending
			pending = nil
		}
	}
	fn := func(current []byte, exists bool) ([][]byte, func() error, error) {
		drain()
		rec, then = Record{}, nil
		r := Record{
			Agent: agent, Title: title,
			OpenedAt: now().UTC().Format(openedAtLayout),
			PID:      host.PID(), Hostname: host.Hostname(),
		}
		parts, err := appendParts(name, current, exists, &r)
		if err != nil {
			return nil, nil, err
		}
		if prepare == nil {
			rec = r
			return parts, nil, nil
		}
		done := make(chan struct{})
		var prepared AfterAppend
		var prepErr error
		go func() {
			defer close(done)
			prepared, prepErr = prepare(r)
		}()
		pending = done
		gate := func() error {
			drain()
			if prepErr != nil {
				return prepErr
			}
			rec, then = r, prepared
			return nil
		}
		return parts, gate, nil
	}
	landed := false
	after := lockspec.AfterCommitOf(opts)
	lockspec.SetAfterCommit(&opts, func(h *locking.Hold) error {
		landed = true
		if then != nil {
			if err := then(h, rec); err != nil {
				return err
			}
		}
		if after != nil {
			return after(h)
		}
		return nil
	})
	// Mapped: appendParts keeps nothing of current but the parts it
	// returns, and prepare never sees it. A spawn-log a power cut took,
	// whose dead writer's complete temp file is left, is restored first
	// (restore.go).
	err := lockspec.UpdateMapped(ctx, fsys, name, fn, withRestore(opts))
	drain() // a prepare whose gate was never reached (the temp file's write failed)
	if err != nil && !landed {
		return Record{}, err
	}
	return rec, err
}

// appendParts gives r its id from the spawn-log read (current; exists false:
// none yet) and returns the new document in parts (jsondoc.Edit.Append: a
// splice onto current when the fast path reads it, else a whole encode).
func appendParts(name string, current []byte, exists bool, r *Record) ([][]byte, error) {
	ed, err := jsondoc.Prepare(format, name, current, exists, 0)
	if err != nil {
		return nil, err
	}
	next := max(ed.MaxKey()+1, ed.Next(), 1)
	if err := nextFree(next); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	r.ID = next
	return ed.Append(*r, next+1, encodeDoc), nil
}

// nextFree returns ErrNoIDLeft (with next) when next is the largest int:
// giving it would leave no id after it (next+1 wraps around).
func nextFree(next int) error {
	if next == math.MaxInt {
		return fmt.Errorf("nextId is %d, the largest integer: %w", next, ErrNoIDLeft)
	}
	return nil
}

package spawnlog

import (
	"context"
	"fmt"
	"time"

	"github.com/pa-toolkit/pa/estate"
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

// Append adds one dispatch record for agent to its spawn-log under the
// spawn-log's lock, through [locking.Update] (spec: The steps, Hold and
// commit): the id is the log's nextId as read under the lock, openedAt is
// opts.Now (or the clock) in UTC, and pid and hostname are opts.Host's (or
// this process's). The agent's folder is created when missing. When then is
// not nil it runs after the commit, with the lock still held; opts's own
// AfterCommit, if set, runs after it.
//
// Errors: an *estate.AgentError (a usage error; nothing is touched) when
// agent is not a safe name; a *CorruptError when the spawn-log does not
// parse (it is left byte for byte); an error matching [ErrNoIDLeft] when its
// nextId is the largest integer (nothing is written); the lock's errors from locking.Update
// (*locking.TimeoutError, locking.ErrLockLost once the timeout ran out,
// ctx's); the FS's. When the error comes from then (or AfterCommit), the
// record has landed and is returned with it, never committed twice; on every
// other error the zero Record is returned and nothing was committed.
func Append(ctx context.Context, fsys vfs.FS, agent, title string, then AfterAppend, opts locking.Options) (Record, error) {
	if err := estate.ValidateAgent(agent); err != nil {
		return Record{}, err
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

	// fn may run more than once (again after a lost lock); rec is the
	// record of the run whose commit landed when AfterCommit is reached.
	var rec Record
	fn := func(current []byte, exists bool) ([]byte, error) {
		log := Log{NextID: 1}
		if exists {
			var err error
			if log, err = Parse(name, current); err != nil {
				return nil, err
			}
		}
		var err error
		rec, err = log.appendRecord(Record{
			Agent: agent, Title: title,
			OpenedAt: now().UTC().Format(openedAtLayout),
			PID:      host.PID(), Hostname: host.Hostname(),
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return log.encode(), nil
	}
	landed := false
	after := opts.AfterCommit
	opts.AfterCommit = func(h *locking.Hold) error {
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
	}
	err := locking.Update(ctx, fsys, name, fn, opts)
	if err != nil && !landed {
		return Record{}, err
	}
	return rec, err
}

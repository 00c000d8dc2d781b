package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/nightlyone/lockfile"
	"github.com/pa-toolkit/pa/locking"
	"github.com/rogpeppe/go-internal/lockedfile"
)

// A Contender is one way of guarding the read-modify-write of the data
// file: a lock, or none (the floor).
type Contender struct {
	// Key names it between processes and in -only style lists: "pa-links".
	Key string
	// Name is how the tables show it.
	Name string
	// Note says how it is used, for the notes under the tables.
	Note string
	// Locks is false for the floor, which must never run with two writers.
	Locks bool
	// Open makes one process's handle on the contender in dir, where the
	// data file is dataName.
	Open func(dir string) (Instance, error)
}

// Instance is one process's handle on a contender in one folder. It is not
// safe for concurrent use.
type Instance interface {
	// Update runs one read-modify-write of the data file under the lock:
	// acquire (calling acquired, when not nil, the moment the lock is held),
	// read, fn, and commit by temp file, fsync, rename and folder fsync,
	// then release. An error matching errTimeout means the lock was not had
	// in time and nothing was written.
	Update(fn UpdateFunc, acquired func()) error
	// Lock takes the lock, waiting for it, and returns its release.
	Lock() (release func() error, err error)
	// Close releases what Open took (the folder is left).
	Close() error
}

// errTimeout is matched by the error of a lock that was not had in time
// (ours: locking.ErrTimeout; nightlyone's wait loop: its own 10 s).
var errTimeout = errors.New("lock timeout")

// Timeout is how long a waiting contender with a timeout waits: the lock's
// default, LOCK_TIMEOUT_MS.
const Timeout = locking.DefaultTimeout

// nightlyPoll is the sleep of the TryLock loop around nightlyone/lockfile,
// which has no blocking wait.
const nightlyPoll = 10 * time.Millisecond

// The contenders, in the order the tables show them.
var (
	paLinks = Contender{Key: "pa-links", Name: "pa (hard links)", Locks: true,
		Note: "locking.Update on vfs/osfs: the lock published by link(); its commit is the lock's own (temp, fsync, fence, rename, folder fsync)",
		Open: func(dir string) (Instance, error) { return orNil(openPA(dir, true)) }}
	paNoLinks = Contender{Key: "pa-nolinks", Name: "pa (no hard links)", Locks: true,
		Note: "locking.Update on vfs/nolinkfs over vfs/osfs: link() refused, the lock published by the directory publish (its record staged in a directory of its own, renamed into place); the same commit",
		Open: func(dir string) (Instance, error) { return orNil(openPA(dir, false)) }}
	paKernel = Contender{Key: "pa-kernel", Name: "pa kernel lock", Locks: true,
		Note: "locking/kernel.Update on vfs/osfs: a non-blocking flock on data.json.lock with a bounded sleep between tries (the design of kernel-lock-policies.txt), its holder record written into the lock file, the lock file never removed; its own commit (temp, fsync, rename, folder fsync)",
		Open: func(dir string) (Instance, error) { return orNil(openKernel(dir)) }}
	gofrsFlock = Contender{Key: "flock", Name: "gofrs/flock", Locks: true,
		Note: "github.com/gofrs/flock: Lock (flock(LOCK_EX), blocking in the kernel) on data.json.lock, Unlock; the hand-written write path",
		Open: func(dir string) (Instance, error) {
			return openPlain(dir, &flockLock{fl: flock.New(filepath.Join(dir, dataName+".lock"))})
		}}
	goLockedfile = Contender{Key: "lockedfile", Name: "go-internal/lockedfile", Locks: true,
		Note: "github.com/rogpeppe/go-internal/lockedfile: Mutex on data.json.lock (cmd/go's style: the lock file guards the data file, which a rename replaces), Lock, unlock; the hand-written write path",
		Open: func(dir string) (Instance, error) {
			return openPlain(dir, &mutexLock{mu: lockedfile.MutexAt(filepath.Join(dir, dataName+".lock"))})
		}}
	nightlyone = Contender{Key: "nightlyone", Name: "nightlyone/lockfile", Locks: true,
		Note: "github.com/nightlyone/lockfile: a pid file at data.json.lock; it has no blocking wait, so TryLock in a loop with a 10 ms sleep (as a user writes it), giving up after 10 s; Unlock; the hand-written write path",
		Open: func(dir string) (Instance, error) {
			lf, err := lockfile.New(filepath.Join(dir, dataName+".lock"))
			if err != nil {
				return nil, err
			}
			return openPlain(dir, &pidLock{lf: lf})
		}}
	floor = Contender{Key: "floor", Name: "floor (no lock)",
		Note: "no lock at all, the hand-written write path alone: unsafe with two writers, the limit any lock approaches",
		Open: func(dir string) (Instance, error) { return openPlain(dir, noLock{}) }}
)

// allContenders are every contender; lockContenders those that lock.
var (
	allContenders  = []Contender{paLinks, paNoLinks, paKernel, gofrsFlock, goLockedfile, nightlyone, floor}
	lockContenders = []Contender{paLinks, paNoLinks, paKernel, gofrsFlock, goLockedfile, nightlyone}
)

// contenderByKey finds a contender by its Key.
func contenderByKey(key string) (Contender, error) {
	for _, c := range allContenders {
		if c.Key == key {
			return c, nil
		}
	}
	return Contender{}, fmt.Errorf("no contender %q", key)
}

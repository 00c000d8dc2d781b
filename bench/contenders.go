package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/nightlyone/lockfile"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
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
		Note: "locking.Update on vfs/nolinkfs over vfs/osfs: link() refused, the lock published by an exclusive create; the same commit",
		Open: func(dir string) (Instance, error) { return orNil(openPA(dir, false)) }}
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
	allContenders  = []Contender{paLinks, paNoLinks, gofrsFlock, goLockedfile, nightlyone, floor}
	lockContenders = []Contender{paLinks, paNoLinks, gofrsFlock, goLockedfile, nightlyone}
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

// paInstance is this project's lock on the folder, with or without hard
// links.
type paInstance struct {
	root     *osfs.FS
	fsys     vfs.FS
	plain    locking.Options // the shipped options
	stepped  locking.Options // the same, with OnStep reporting the acquire
	acquired func()
}

func openPA(dir string, links bool) (*paInstance, error) {
	root, err := osfs.New(dir)
	if err != nil {
		return nil, err
	}
	p := &paInstance{root: root, fsys: root}
	if !links {
		p.fsys = nolinkfs.New(root, 0)
	}
	p.stepped.OnStep = func(s locking.Step) {
		if s == locking.StepAcquirePublished && p.acquired != nil {
			p.acquired()
			p.acquired = nil
		}
	}
	return p, nil
}

// Update is locking.Update; acquired is called from Options.OnStep at
// acquire:published (OnStep is left unset when acquired is nil, as shipped).
func (p *paInstance) Update(fn UpdateFunc, acquired func()) error {
	opts := p.plain
	if acquired != nil {
		p.acquired, opts = acquired, p.stepped
	}
	err := locking.Update(context.Background(), p.fsys, dataName, fn, opts)
	if errors.Is(err, locking.ErrTimeout) {
		return fmt.Errorf("%w: %w", errTimeout, err)
	}
	return err
}

// Lock is locking.Acquire; its release is Hold.Release.
func (p *paInstance) Lock() (func() error, error) {
	h, err := locking.Acquire(context.Background(), p.fsys, dataName, p.plain)
	if errors.Is(err, locking.ErrTimeout) {
		return nil, fmt.Errorf("%w: %w", errTimeout, err)
	}
	if err != nil {
		return nil, err
	}
	return h.Release, nil
}

// HardLinks reports whether a hold here publishes by link(): a check that
// the class under test is the one named.
func (p *paInstance) HardLinks() (bool, error) {
	h, err := locking.Acquire(context.Background(), p.fsys, dataName, p.plain)
	if err != nil {
		return false, err
	}
	links := h.HardLinks()
	return links, h.Release()
}

func (p *paInstance) Close() error { return p.root.Close() }

// orNil returns a nil Instance (not a nil *paInstance in one) on an error.
func orNil(p *paInstance, err error) (Instance, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}

// plainLock is a lock that wraps the hand-written write path.
type plainLock interface {
	lock() (release func() error, err error)
	close() error
}

// plainInstance runs the hand-written write path under a plainLock.
type plainInstance struct {
	dir string
	l   plainLock
}

func openPlain(dir string, l plainLock) (*plainInstance, error) {
	return &plainInstance{dir: dir, l: l}, nil
}

func (p *plainInstance) Update(fn UpdateFunc, acquired func()) error {
	release, err := p.l.lock()
	if err != nil {
		return err
	}
	if acquired != nil {
		acquired()
	}
	err = readModifyWrite(p.dir, fn)
	if rerr := release(); err == nil && rerr != nil {
		err = fmt.Errorf("release: %w", rerr)
	}
	return err
}

func (p *plainInstance) Lock() (func() error, error) { return p.l.lock() }
func (p *plainInstance) Close() error                { return p.l.close() }

// flockLock is gofrs/flock's blocking Lock.
type flockLock struct{ fl *flock.Flock }

func (f *flockLock) lock() (func() error, error) {
	if err := f.fl.Lock(); err != nil {
		return nil, err
	}
	return f.fl.Unlock, nil
}
func (f *flockLock) close() error { return f.fl.Close() }

// mutexLock is lockedfile.Mutex.
type mutexLock struct{ mu *lockedfile.Mutex }

func (m *mutexLock) lock() (func() error, error) {
	unlock, err := m.mu.Lock()
	if err != nil {
		return nil, err
	}
	return func() error { unlock(); return nil }, nil
}
func (m *mutexLock) close() error { return nil }

// pidLock is nightlyone/lockfile's TryLock in a loop: a busy lock (or one
// that vanished between its link and its read, which the package reports
// as a temporary error or a missing file) is tried again after nightlyPoll,
// for up to Timeout.
type pidLock struct{ lf lockfile.Lockfile }

func (p *pidLock) lock() (func() error, error) {
	deadline := time.Now().Add(Timeout)
	for {
		err := p.lf.TryLock()
		if err == nil {
			return p.lf.Unlock, nil
		}
		var temp interface{ Temporary() bool }
		if !(errors.As(err, &temp) && temp.Temporary()) && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if !time.Now().Before(deadline) {
			return nil, fmt.Errorf("%w: nightlyone/lockfile still busy after %s: %w", errTimeout, Timeout, err)
		}
		time.Sleep(nightlyPoll)
	}
}
func (p *pidLock) close() error { return nil }

// noLock is the floor's lock: none.
type noLock struct{}

func (noLock) lock() (func() error, error) { return func() error { return nil }, nil }
func (noLock) close() error                { return nil }

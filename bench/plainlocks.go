package main

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/gofrs/flock"
	"github.com/nightlyone/lockfile"
	"github.com/rogpeppe/go-internal/lockedfile"
)

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

// openPlain is an instance of l on dir; it never fails (the locks open
// their files at their first lock).
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

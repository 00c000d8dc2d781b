package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// paInstance is this project's lock on the folder, with or without hard
// links.
type paInstance struct {
	root     *osfs.FS
	fsys     vfs.FS
	plain    locking.Options // the shipped options
	stepped  locking.Options // the same, with a step hook (lockspec.SetOnStep) reporting the acquire
	acquired func()
}

// openPA opens dir through vfs/osfs, and through vfs/nolinkfs over it when
// links is false (link() then fails with ENOTSUP, so every hold publishes
// by an exclusive create).
func openPA(dir string, links bool) (*paInstance, error) {
	return openPAWrapped(dir, links, nil)
}

// openPAWrapped is openPA with the file system the lock uses passed
// through wrap (when not nil) last: the syncs measure drops syncs there.
func openPAWrapped(dir string, links bool, wrap func(vfs.FS) vfs.FS) (*paInstance, error) {
	root, err := osfs.New(dir)
	if err != nil {
		return nil, err
	}
	p := &paInstance{root: root, fsys: root}
	if !links {
		p.fsys = nolinkfs.New(root, 0)
	}
	if wrap != nil {
		p.fsys = wrap(p.fsys)
	}
	lockspec.SetOnStep(&p.stepped, func(s lockspec.Step) {
		if s == lockspec.StepAcquirePublished && p.acquired != nil {
			p.acquired()
			p.acquired = nil
		}
	})
	return p, nil
}

// Update is locking.Update; acquired is called from the step hook at
// acquire:published (no hook is set when acquired is nil, as shipped).
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

// orNil returns a nil Instance (not a nil *paInstance or *kernelInstance
// in one) on an error.
func orNil[T Instance](p T, err error) (Instance, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}

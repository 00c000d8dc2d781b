//go:build unix

package lockspec_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/vfs"
)

// perNameFS stands for a volume whose kernel keeps a lock per name (a
// libfuse volume with hard links, ntfs-3g): its files' TryLock excludes
// only the handles opened by the same name, so a lock taken through a
// pending name is not the lock of the name it is linked to. Only OpenFile
// is wrapped; the lock works without the optional interfaces.
type perNameFS struct {
	vfs.FS
	mu    sync.Mutex
	owner map[string]*perNameFile
	// onLink, when set, is called after each link() made, with its new
	// name.
	onLink func(newname string)
	// onRefused, when set, is called after each TryLock refused, with the
	// name it was tried through.
	onRefused func(name string)
}

func (p *perNameFS) Link(oldname, newname string) error {
	if err := p.FS.Link(oldname, newname); err != nil {
		return err
	}
	if p.onLink != nil {
		p.onLink(newname)
	}
	return nil
}

func newPerNameFS(fsys vfs.FS) *perNameFS {
	return &perNameFS{FS: fsys, owner: map[string]*perNameFile{}}
}

// perNameEstate is a fresh estate of the class with hard links and a
// perNameFS over its FS, with what this process learned of the volume's
// linked kernel locks forgotten, now and at the test's end.
func perNameEstate(t *testing.T) (*estate, *perNameFS) {
	e := newEstate(t, classes[0]) // hard links
	lockspec.ForgetLinkedKernelLock()
	t.Cleanup(lockspec.ForgetLinkedKernelLock)
	return e, newPerNameFS(e.fsys)
}

func (p *perNameFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := p.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &perNameFile{File: f, fs: p, name: name}, nil
}

// Rename moves the name's lock with it, as the kernel's inode follows a
// renamed name: a lock taken through old is the lock of new now, and one
// taken through a file new replaced is no name's.
func (p *perNameFS) Rename(oldname, newname string) error {
	if err := p.FS.Rename(oldname, newname); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	o := p.owner[oldname]
	delete(p.owner, oldname)
	delete(p.owner, newname)
	if o != nil {
		o.name = newname
		p.owner[newname] = o
	}
	return nil
}

type perNameFile struct {
	vfs.File
	fs   *perNameFS
	name string
}

func (f *perNameFile) TryLock() error {
	f.fs.mu.Lock()
	if o := f.fs.owner[f.name]; o != nil && o != f {
		f.fs.mu.Unlock()
		if f.fs.onRefused != nil {
			f.fs.onRefused(f.name)
		}
		return &fs.PathError{Op: "flock", Path: f.name, Err: syscall.EWOULDBLOCK}
	}
	f.fs.owner[f.name] = f
	f.fs.mu.Unlock()
	return nil
}

func (f *perNameFile) Unlock() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.fs.owner[f.name] == f {
		delete(f.fs.owner, f.name)
	}
	return nil
}

func (f *perNameFile) Close() error {
	_ = f.Unlock()
	return f.File.Close()
}

// On a volume whose kernel keeps a lock per name, a lock published by
// link() claims no kernel lock (the pending name's would not be the lock
// name's), so a judge of another pid namespace, granted the lock name's,
// holds the live holder as one of another namespace and never breaks it.
func TestKernelLockKeptPerNameIsNotClaimed(t *testing.T) {
	self := realIdentity(t)
	e, fsys := perNameEstate(t)
	h, err := lockspec.Acquire(context.Background(), fsys, target, fast(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	if got := e.ls(t); len(got) != 1 || got[0] != "log.json.lock" {
		t.Errorf("after the first hold on the device the folder holds %q; want the lock alone (the probe name removed)", got)
	}
	lock := e.readRaw(t, lockP)
	if bytes.Contains(lock, []byte(`"kernelLock"`)) {
		t.Errorf("the lock claims a kernel lock on a volume that keeps one per name: %s", lock)
	}
	_, otherNS, _ := realJudges(t, self)
	_, err = lockspec.Acquire(context.Background(), fsys, target, noWait(otherNS))
	var te *lockspec.TimeoutError
	if !errors.As(err, &te) || te.Holder.State != lockspec.StateOtherNamespace {
		t.Fatalf("a writer of another pid namespace: %v; want a timeout on a holder of another namespace", err)
	}
	if !bytes.Equal(e.readRaw(t, lockP), lock) {
		t.Fatal("the live holder's lock was touched")
	}
}

// On a volume whose kernel keeps a lock per name, a holder keeps the kernel
// lock of its lock name too, so a release's moved lock is held where it was
// moved: a sweep of another pid namespace, to which the releaser's pid is
// gone, is refused it and leaves it, and the release removes it as its own
// (row R50; an NTFS run of eight pa dispatch open of two namespaces caught
// a release that found its moved lock swept).
func TestReleasesMovedLockKeptPerName(t *testing.T) {
	self := realIdentity(t)
	e, fsys := perNameEstate(t)
	opts := fast(nil)
	renamed, resume := make(chan string), make(chan struct{})
	pauseAt(&opts, lockspec.StepReleaseRenamed, e.sendNames(t, renamed, ".broken-"), resume)
	h, err := lockspec.Acquire(context.Background(), fsys, target, opts)
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan error, 1)
	go func() { released <- h.Release() }()
	var moved string
	select {
	case moved = <-renamed:
	case err := <-released:
		t.Fatalf("the release ended (%v) before its moved lock was listed", err)
	}
	_, otherNS, _ := realJudges(t, self)
	w, err := lockspec.Acquire(context.Background(), fsys, target, noWait(otherNS))
	if err != nil {
		close(resume)
		t.Fatalf("a writer of another pid namespace: %v", err)
	}
	if !e.exists(moved) {
		t.Errorf("the sweep of another pid namespace removed the release's moved lock %s", moved)
	}
	close(resume)
	if err := <-released; err != nil {
		t.Errorf("the release: %v; want it to remove its own moved lock", err)
	}
	if err := w.Release(); err != nil {
		t.Fatal(err)
	}
	if got := e.ls(t); len(got) != 0 {
		t.Errorf("left beside the lock: %q", got)
	}
}

// The kernel lock tried through a second link of the pending file answers
// for the volume alone: a sweep of a judge to whom this process's pid is
// gone, listing the folder just after that link and trying every name it
// may remove, never holds the second name at the moment it is tried, so a
// volume that keeps a lock per name is never taken for one whose links
// share it (the record would then claim a lock that is the pending name's
// only, and a judge granted the lock name's would break the live holder).
func TestLinkedKernelLockNotFooledByASweep(t *testing.T) {
	self := realIdentity(t)
	e, fsys := perNameEstate(t)
	_, _, pidGone := realJudges(t, self)
	type acquired struct {
		h   *lockspec.Hold
		err error
	}
	var first atomic.Bool
	sweeper := make(chan acquired, 1)
	resume := make(chan struct{})
	var stopped bool // the sweeper paused at sweep:judged
	fsys.onLink = func(string) {
		if !first.CompareAndSwap(false, true) {
			return
		}
		reached := make(chan struct{})
		opts := noWait(pidGone)
		pauseAt(&opts, lockspec.StepSweepJudged, func() { close(reached) }, resume)
		go func() {
			h, err := lockspec.Acquire(context.Background(), fsys, target, opts)
			sweeper <- acquired{h, err}
		}()
		select {
		case <-reached:
			stopped = true // holding the kernel lock of the name it judged
		case a := <-sweeper:
			if a.err == nil {
				a.h.Release()
			}
			sweeper <- a
		}
	}
	h, err := lockspec.Acquire(context.Background(), fsys, target, fast(nil))
	if stopped {
		close(resume)
	}
	a := <-sweeper
	if a.err == nil {
		a.h.Release()
	}
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	if stopped {
		t.Error("a sweep judged a name of a live writer's publish and held its kernel lock")
	}
	if lock := e.readRaw(t, lockP); bytes.Contains(lock, []byte(`"kernelLock"`)) {
		t.Errorf("the lock claims a kernel lock on a volume that keeps one per name: %s", lock)
	}
}

// lockNameHeld reports whether a handle other than a new one holds the
// kernel lock of the lock name, as the per-name volume keeps it.
func lockNameHeld(t *testing.T, fsys *perNameFS) bool {
	t.Helper()
	g, err := fsys.OpenFile(lockP, vfs.ReadFlags, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	return vfs.TryLock(g, lockP) != nil
}

// On a volume whose kernel keeps a lock per name, a holder takes the lock
// name's own kernel lock only while that name still leads to its file: a
// lock name replaced between the holder's link() and its open (a forced
// break and another writer's publish) is another file, whose kernel lock
// the holder must not take.
func TestHoldTakesOnlyItsOwnLockNamesKernelLock(t *testing.T) {
	e, fsys := perNameEstate(t)
	fsys.onLink = func(newname string) {
		if newname != lockP {
			return
		}
		if err := fsys.FS.Rename(lockP, "displaced"); err != nil {
			t.Error(err)
		}
		e.writeRaw(t, lockP, []byte("another writer's lock"))
	}
	h, err := lockspec.Acquire(context.Background(), fsys, target, fast(nil))
	if err != nil {
		t.Fatal(err)
	}
	fsys.onLink = nil
	if lockNameHeld(t, fsys) {
		t.Error("the holder took the kernel lock of a lock name that leads to another file")
	}
	_ = h.Release() // its lock is gone: lost
}

// A judge's probe of the lock name at the moment the holder takes that
// name's kernel lock (per-name volume) is waited out, as every other
// kernel lock of a holder is: the holder keeps the lock name's lock.
func TestHoldWaitsOutAProbeOfItsLockName(t *testing.T) {
	_, fsys := perNameEstate(t)
	var probe vfs.File
	fsys.onLink = func(newname string) {
		if newname != lockP {
			return
		}
		g, err := fsys.OpenFile(lockP, vfs.ReadFlags, 0)
		if err != nil || vfs.TryLock(g, lockP) != nil {
			t.Errorf("the judge's probe: %v", err)
			return
		}
		probe = g
	}
	fsys.onRefused = func(name string) {
		if name == lockP && probe != nil {
			probe.Close() // the judge is done
			probe = nil
		}
	}
	h, err := lockspec.Acquire(context.Background(), fsys, target, fast(nil))
	fsys.onLink, fsys.onRefused = nil, nil
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	if !lockNameHeld(t, fsys) {
		t.Error("a judge's probe at the moment of the hold's try left the lock name without the holder's kernel lock")
	}
}

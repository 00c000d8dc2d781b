//go:build unix

package lockspec_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"sync"
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
}

func newPerNameFS(fsys vfs.FS) *perNameFS {
	return &perNameFS{FS: fsys, owner: map[string]*perNameFile{}}
}

func (p *perNameFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := p.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &perNameFile{File: f, fs: p, name: name}, nil
}

type perNameFile struct {
	vfs.File
	fs   *perNameFS
	name string
}

func (f *perNameFile) TryLock() error {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if o := f.fs.owner[f.name]; o != nil && o != f {
		return &fs.PathError{Op: "flock", Path: f.name, Err: syscall.EWOULDBLOCK}
	}
	f.fs.owner[f.name] = f
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
	e := newEstate(t, classes[0]) // hard links
	lockspec.ForgetLinkedKernelLock()
	t.Cleanup(lockspec.ForgetLinkedKernelLock)
	fsys := newPerNameFS(e.fsys)
	h, err := lockspec.Acquire(context.Background(), fsys, target, fast(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
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

package probe_test

import (
	"errors"
	"io/fs"
	"runtime"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/cmd/pa/internal/probe"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// wantKernelLock fails unless r's kernel lock is k.
func wantKernelLock(t *testing.T, what string, r probe.Report, k probe.KernelLock) {
	t.Helper()
	if r.KernelLock != k {
		t.Errorf("%s: KernelLock = %+v, want %+v (flock check: %+v)", what, r.KernelLock, k, check(t, r, probe.CheckFlock))
	}
}

// On the temp dir the kernel lock works and a second open of the file is
// refused it while the first handle holds it: a hold here claims it (on
// Unix stat gives the file's device and inode; on Windows the handle gives
// its volume serial and file index).
func TestKernelLockOnTempDirExcludes(t *testing.T) {
	fsys, dir := newOS(t)
	r := run(t, fsys, dir)
	wantKernelLock(t, "temp dir", r, probe.KernelLock{Outcome: probe.KernelLockExcludes, FileKey: true, Claim: true})
}

// A volume whose kernel lock is granted to every handle (a second open
// takes it while the first holds it), or whose second try fails otherwise
// than EWOULDBLOCK, does not exclude: no claim. One whose lock is refused
// (no Locker at all, or an errno) has none.
func TestKernelLockThatDoesNotExcludeOrIsRefused(t *testing.T) {
	for _, tt := range []struct {
		what    string
		tryLock func(try int) error // try counts the probe's TryLocks from 1
		want    probe.KernelLock
	}{
		{"granted to every handle", func(int) error { return nil },
			probe.KernelLock{Outcome: probe.KernelLockDoesNotExclude, FileKey: true}},
		{"second try fails with EIO", func(try int) error { return errnoAfter(try, syscall.EIO) },
			probe.KernelLock{Outcome: probe.KernelLockDoesNotExclude, Errno: "EIO", FileKey: true}},
		{"refused with ENOLCK", func(int) error { return syscall.ENOLCK },
			probe.KernelLock{Outcome: probe.KernelLockRefused, Errno: "ENOLCK", FileKey: true}},
		{"refused with EWOULDBLOCK at once", func(int) error { return syscall.EWOULDBLOCK },
			probe.KernelLock{Outcome: probe.KernelLockRefused, Errno: probe.ErrnoName(syscall.EWOULDBLOCK), FileKey: true}},
	} {
		t.Run(tt.what, func(t *testing.T) {
			o, dir := newOS(t)
			r := run(t, &lockFS{FS: o, tryLock: tt.tryLock}, dir)
			wantKernelLock(t, tt.what, r, tt.want)
		})
	}
	t.Run("no Locker", func(t *testing.T) {
		// Files that are no vfs.Locker: TryLock is unsupported. They are no
		// vfs.FileKeyer either, so only Unix's stat gives their key.
		o, dir := newOS(t)
		r := run(t, &forgetful{FS: o}, dir)
		key := runtime.GOOS != "windows"
		wantKernelLock(t, "no Locker", r, probe.KernelLock{Outcome: probe.KernelLockRefused, Errno: "unsupported", FileKey: key})
	})
}

// errnoAfter is nil for the first try, errno for the others.
func errnoAfter(try int, errno syscall.Errno) error {
	if try == 1 {
		return nil
	}
	return errno
}

// A kernel lock that excludes a second open is no claim where the volume
// gives no device and inode of a file: a claim names the file by them.
func TestKernelLockWithoutFileKeyIsNoClaim(t *testing.T) {
	o, dir := newOS(t)
	r := run(t, &lockFS{FS: o, noKey: true}, dir)
	wantKernelLock(t, "no file key", r, probe.KernelLock{Outcome: probe.KernelLockExcludes})
}

// Where the flock check cannot make its file, the kernel lock is not tried.
func TestKernelLockNotTried(t *testing.T) {
	o, dir := newOS(t)
	ffs := faultfs.New(o)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpOpenFile, Match: "flock", Err: syscall.EACCES})
	r := run(t, ffs, dir)
	want(t, r, probe.CheckFlock, "error", "EACCES")
	wantKernelLock(t, "no file", r, probe.KernelLock{Outcome: probe.KernelLockNotTried})
}

// On a volume whose stat data gives no file key but whose handles say one
// (osfs on Windows), the probe keys its file by the handle, as a hold
// does: a hold there claims the kernel lock. Kills "the probe keys its
// file by stat data alone".
func TestKernelLockKeyedByTheHandle(t *testing.T) {
	o, dir := newOS(t)
	r := run(t, &lockFS{FS: o, keyByHandle: true}, dir)
	wantKernelLock(t, "keyed by the handle", r, probe.KernelLock{Outcome: probe.KernelLockExcludes, FileKey: true, Claim: true})
}

// lockFS is an FS whose files' kernel lock answers tryLock (when set;
// otherwise the real file's), whose stat and handle give no file key when
// noKey, and whose stat gives none but whose handle says the file's (from
// the real stat data) when keyByHandle.
type lockFS struct {
	vfs.FS
	tryLock     func(try int) error
	noKey       bool
	keyByHandle bool
	tries       int
}

func (l *lockFS) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	f, err := l.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &lockFile{File: f, fs: l, name: name}, nil
}

type lockFile struct {
	vfs.File
	fs   *lockFS
	name string
}

func (f *lockFile) TryLock() error {
	if f.fs.tryLock == nil {
		return vfs.TryLock(f.File, f.name)
	}
	f.fs.tries++
	if err := f.fs.tryLock(f.fs.tries); err != nil {
		return &fs.PathError{Op: "flock", Path: f.name, Err: err}
	}
	return nil
}

func (f *lockFile) Unlock() error {
	if l, ok := f.File.(vfs.Locker); ok && f.fs.tryLock == nil {
		return l.Unlock()
	}
	return nil
}

func (f *lockFile) FileKey() (vfs.FileKey, error) {
	if f.fs.keyByHandle {
		if fi, err := f.File.Stat(); err == nil {
			if key, ok := vfs.KeyOf(fi); ok {
				return key, nil
			}
		}
	}
	if k, ok := f.File.(vfs.FileKeyer); ok && !f.fs.noKey {
		return k.FileKey()
	}
	return vfs.FileKey{}, &fs.PathError{Op: "filekey", Path: f.name, Err: errors.ErrUnsupported}
}

func (f *lockFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	if err != nil || !f.fs.noKey && !f.fs.keyByHandle {
		return fi, err
	}
	return noSys{fi}, nil
}

// noSys is a FileInfo that carries no stat data.
type noSys struct{ fs.FileInfo }

func (noSys) Sys() any { return nil }

package probe_test

import (
	"io/fs"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/cmd/pa/internal/probe"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

func newOS(t *testing.T) (*osfs.FS, string) {
	t.Helper()
	dir := t.TempDir()
	o, err := osfs.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o, dir
}

// run probes fsys and fails unless the report has every check once, in
// order, and its folder was removed, leaving dir empty.
func run(t *testing.T, fsys vfs.FS, dir string) probe.Report {
	t.Helper()
	r, err := probe.Run(fsys)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	var names []string
	for _, c := range r.Checks {
		names = append(names, c.Name)
	}
	if strings.Join(names, " ") != strings.Join(probe.Checks, " ") {
		t.Fatalf("checks %q, want %q", names, probe.Checks)
	}
	if !strings.HasPrefix(r.Folder, ".pa-probe-") {
		t.Errorf("Folder = %q, want .pa-probe-<random>", r.Folder)
	}
	if !r.Removed || len(r.Left) > 0 || r.RemoveErr != "" {
		t.Errorf("Removed=%v Left=%q RemoveErr=%q; want the folder removed", r.Removed, r.Left, r.RemoveErr)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("the probed folder holds %v (%v) afterwards; want nothing", entries, err)
	}
	return r
}

func check(t *testing.T, r probe.Report, name string) probe.Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %s in %+v", name, r.Checks)
	return probe.Check{}
}

// want fails unless the check's outcome (and errno, when given) are the
// ones expected.
func want(t *testing.T, r probe.Report, name, outcome, errno string) {
	t.Helper()
	c := check(t, r, name)
	if c.Outcome != outcome || errno != "" && c.Errno != errno {
		t.Errorf("%s: outcome %q errno %q (%s); want %q %q", name, c.Outcome, c.Errno, c.Detail, outcome, errno)
	}
}

// On a local volume of this machine (the temp dir): hard links, an
// exclusive create, renames that replace a file, open or not, a listing
// that shows every create; the system's rename(2) of a directory replaces
// an empty one, refuses a non-empty one and a file.
func TestRunOnTempDir(t *testing.T) {
	fsys, dir := newOS(t)
	r := run(t, fsys, dir)
	if r.Class != "links" {
		t.Errorf("Class = %q, want links", r.Class)
	}
	want(t, r, probe.CheckExclusiveCreate, "exclusive", "EEXIST")
	want(t, r, probe.CheckLink, "links", "")
	want(t, r, probe.CheckRenameOverFile, "replaces", "")
	want(t, r, probe.CheckListing, "shows", "")
	want(t, r, probe.CheckRenameDirOntoNonEmptyDir, "refused", "")
	if runtime.GOOS == "windows" {
		return
	}
	want(t, r, probe.CheckRenameOverOpenFile, "replaces", "")
	want(t, r, probe.CheckRemoveOpenFile, "removed", "")
	wantSystemDirRenames(t, r)
	for _, name := range []string{probe.CheckRenameOverOpenFile, probe.CheckRemoveOpenFile} {
		if c := check(t, r, name); len(c.Stray) > 0 || !strings.Contains(c.Detail, "the open handle still reads the old bytes") {
			t.Errorf("%s: stray %q, detail %q; want no stray name and the old bytes read", name, c.Stray, c.Detail)
		}
	}
	if c := check(t, r, probe.CheckFlock); c.Outcome != "exclusive" && c.Outcome != "unsupported" {
		t.Errorf("flock: %+v, want exclusive (or unsupported on this volume)", c)
	}
	if c := check(t, r, probe.CheckDirSync); c.Outcome == "refused" {
		t.Errorf("dir-fsync: %+v, want synced or refused-skipped", c)
	}
}

// Through nolinkfs, link() is refused with the chosen errno: the class is
// nolinks and the errno named (EPERM as exFAT answers).
func TestRunWithoutHardLinks(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EPERM, syscall.ENOTSUP} {
		o, dir := newOS(t)
		r := run(t, nolinkfs.New(o, errno), dir)
		name := probe.ErrnoName(errno)
		if r.Class != "nolinks" {
			t.Errorf("%s: Class = %q, want nolinks", name, r.Class)
		}
		want(t, r, probe.CheckLink, "no-links", name)
		if c := check(t, r, probe.CheckLink); !strings.Contains(c.Detail, "("+name+")") {
			t.Errorf("link detail %q does not name %s", c.Detail, name)
		}
	}
}

// On a FUSE volume a file removed or renamed over while open shows as a
// .fuse_hidden name: the probe reports it as a name it did not create, sees
// it gone once the handle is closed, and still removes its folder.
func TestRunOnFUSEReportsHiddenNames(t *testing.T) {
	o, dir := newOS(t)
	r := run(t, fusemodel.New(o), dir)
	for _, name := range []string{probe.CheckRenameOverOpenFile, probe.CheckRemoveOpenFile} {
		c := check(t, r, name)
		if len(c.Stray) != 1 || !strings.HasPrefix(c.Stray[0], ".fuse_hidden") {
			t.Errorf("%s: stray %q, want one .fuse_hidden name", name, c.Stray)
		}
		if !strings.Contains(c.Detail, "gone once the handle was closed") {
			t.Errorf("%s: detail %q, want the hidden name gone after the close", name, c.Detail)
		}
	}
}

// A name the probe did not create is never removed: its folder is then
// left in place, and the report says so.
func TestNeverRemovesANameItDidNotCreate(t *testing.T) {
	o, dir := newOS(t)
	ffs := faultfs.New(o)
	var foreign string
	ffs.Before(func(ev faultfs.Event) error {
		// Another process drops a file into the probe's folder.
		if ev.Op == faultfs.OpMkdir && foreign == "" && strings.HasSuffix(ev.Name, "/listing") {
			foreign = ev.Name[:strings.LastIndexByte(ev.Name, '/')] + "/someone-elses"
			if err := vfs.WriteFileExclusive(o, foreign, []byte("x"), 0o644, false); err != nil {
				return err
			}
		}
		return nil
	})
	r, err := probe.Run(ffs)
	if err != nil {
		t.Fatal(err)
	}
	if r.Removed || len(r.Left) != 1 || r.Left[0] != "someone-elses" || r.RemoveErr == "" {
		t.Fatalf("Removed=%v Left=%q RemoveErr=%q; want the folder left with someone-elses in it", r.Removed, r.Left, r.RemoveErr)
	}
	entries, err := os.ReadDir(dir + "/" + r.Folder)
	if err != nil || len(entries) != 1 || entries[0].Name() != "someone-elses" {
		t.Fatalf("the folder holds %v (%v); want only someone-elses", entries, err)
	}
	if c := check(t, r, probe.CheckListing); c.Outcome != "shows" {
		t.Errorf("listing: %+v", c)
	}
}

// A directory fsync refused with EINVAL is one vfs.SyncDir skips; one
// refused with EIO is one a commit reports as not synced.
func TestDirSyncRefused(t *testing.T) {
	for _, tt := range []struct {
		errno   syscall.Errno
		outcome string
	}{
		{syscall.EINVAL, "refused-skipped"},
		{syscall.ENOTSUP, "refused-skipped"},
		{syscall.EIO, "refused"},
	} {
		o, dir := newOS(t)
		ffs := faultfs.New(o)
		ffs.Fail(faultfs.Rule{Op: faultfs.OpSync, Match: ".pa-probe-*", Err: tt.errno})
		r := run(t, ffs, dir)
		if runtime.GOOS == "windows" {
			continue
		}
		want(t, r, probe.CheckDirSync, tt.outcome, probe.ErrnoName(tt.errno))
	}
}

// A rename over an open file refused with a sharing error (as Windows
// answers) is reported as refused, with its errno.
func TestRenameOverOpenFileRefused(t *testing.T) {
	o, dir := newOS(t)
	ffs := faultfs.New(o)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpRename, Match: "open-old", Err: syscall.EACCES})
	r := run(t, ffs, dir)
	want(t, r, probe.CheckRenameOverOpenFile, "refused", "EACCES")
	want(t, r, probe.CheckRenameOverFile, "replaces", "")
}

// A listing that does not show a file just created, and files that take
// no advisory lock, are reported.
func TestListingMissesAndNoFlock(t *testing.T) {
	o, dir := newOS(t)
	r := run(t, &forgetful{FS: o}, dir)
	want(t, r, probe.CheckListing, "misses", "")
	if c := check(t, r, probe.CheckListing); !strings.Contains(c.Detail, "20 of 20 creates were missing") {
		t.Errorf("listing detail %q", c.Detail)
	}
	want(t, r, probe.CheckFlock, "unsupported", "unsupported")
}

// forgetful is an FS whose listings leave out the last entry, and whose
// files have no advisory lock.
type forgetful struct{ vfs.FS }

func (f *forgetful) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := f.FS.ReadDir(name)
	if err != nil || !strings.HasSuffix(name, "/listing") || len(entries) == 0 {
		return entries, err
	}
	return entries[:len(entries)-1], nil
}

func (f *forgetful) OpenFile(name string, flag int, perm fs.FileMode) (vfs.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return plainFile{file}, nil
}

type plainFile struct{ vfs.File }

// wantSystemDirRenames fails unless the directory checks of r report the
// system's rename(2) on a POSIX volume: a directory replaces an empty one,
// and is refused onto a non-empty one (ENOTEMPTY, or EEXIST as POSIX
// allows) and onto a file (ENOTDIR). Go's os.Rename would have refused the
// empty directory with EEXIST before any system call.
func wantSystemDirRenames(t *testing.T, r probe.Report) {
	t.Helper()
	want(t, r, probe.CheckRenameDirOntoEmptyDir, "replaces", "")
	want(t, r, probe.CheckRenameDirOntoFile, "refused", "ENOTDIR")
	if c := check(t, r, probe.CheckRenameDirOntoNonEmptyDir); c.Outcome != "refused" || c.Errno != "ENOTEMPTY" && c.Errno != "EEXIST" {
		t.Errorf("%s: %+v; want refused with ENOTEMPTY or EEXIST", c.Name, c)
	}
	for _, name := range []string{probe.CheckRenameDirOntoFile, probe.CheckRenameDirOntoEmptyDir, probe.CheckRenameDirOntoNonEmptyDir} {
		if c := check(t, r, name); !strings.HasSuffix(c.Detail, "the system's rename, not Go's") {
			t.Errorf("%s: detail %q; want it to say the system's rename was used", name, c.Detail)
		}
	}
}

// The directory checks reach the system's rename through wrappers of the
// OS FS too (nolinkfs, faultfs: through Unwrap), and the probe still
// removes everything it made.
func TestDirRenamesThroughWrappersAreTheSystems(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX rename(2) semantics")
	}
	o, dir := newOS(t)
	r := run(t, nolinkfs.New(faultfs.New(o), syscall.EPERM), dir)
	wantSystemDirRenames(t, r)
}

// On an FS that is not the real OS (here one that hides it: no Dir, no
// Unwrap) the directory checks go through the FS and say so: over osfs,
// that is Go's os.Root.Rename, whose outcome the probe reports as it is.
// Since Go 1.25.14 and 1.26.5 it refuses an existing directory with EEXIST
// before any system call, as os.Rename does; the Go releases before them
// (go.mod's floor among them) hand it to rename(2), which replaces an empty
// directory.
func TestDirRenamesOfAnotherFSGoThroughIt(t *testing.T) {
	o, dir := newOS(t)
	r := run(t, &forgetful{FS: o}, dir)
	if rootRenameReplacesDir(t) {
		t.Log("this Go's os.Root.Rename lets a directory replace an empty one (refused since Go 1.25.14 and 1.26.5): the probe must report it so")
		want(t, r, probe.CheckRenameDirOntoEmptyDir, "replaces", "")
	} else {
		want(t, r, probe.CheckRenameDirOntoEmptyDir, "refused", "EEXIST")
	}
	if c := check(t, r, probe.CheckRenameDirOntoEmptyDir); !strings.HasSuffix(c.Detail, "through the FS") {
		t.Errorf("detail %q; want it to say the rename went through the FS", c.Detail)
	}
}

// rootRenameReplacesDir reports whether this Go's os.Root.Rename lets a
// directory take the name of an empty one (see
// TestDirRenamesOfAnotherFSGoThroughIt).
func rootRenameReplacesDir(t *testing.T) bool {
	t.Helper()
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, name := range []string{"a", "b"} {
		if err := root.Mkdir(name, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root.Rename("a", "b") == nil
}

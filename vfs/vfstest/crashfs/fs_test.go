package crashfs_test

import (
	"errors"
	"io/fs"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
	"github.com/pa-toolkit/pa/vfs/vfstest/crashfs"
)

// The live view passes the backend checks, with hard links and, as exFAT,
// without. exclusive-create-processes skips itself: the volume lives in
// this process, not over the OS.
func TestVFSTest(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts crashfs.Options
	}{{"links", crashfs.Options{}}, {"exfat", crashfs.Options{ExFAT: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			vfstest.Run(t, func(*testing.T) vfs.FS { return crashfs.New(tc.opts) }, vfstest.Options{})
		})
	}
}

// exFAT has no hard links: Link fails with EPERM, which vfs.NoHardLinks
// reports, and records nothing. Elsewhere a link is a folder operation like
// a create: it may vanish until its folder is synced.
func TestLink(t *testing.T) {
	ex := crashfs.New(crashfs.Options{ExFAT: true})
	put(t, ex, "a", "A", true)
	n := ex.Ops()
	if err := ex.Link("a", "b"); !vfs.NoHardLinks(err) || err.Error() != "link a b: operation not permitted" {
		t.Errorf("Link on exFAT = %v; want EPERM", err)
	}
	if ex.Ops() != n {
		t.Errorf("a refused Link recorded %d ops", ex.Ops()-n)
	}

	fsys := crashfs.New(crashfs.Options{})
	put(t, fsys, "a", "A", true)
	syncDir(t, fsys, ".")
	if err := fsys.Link("a", "b"); err != nil {
		t.Fatal(err)
	}
	wantOutcomes(t, fsys, []string{"a=A b=-", "a=A b=A"}, "a", "b")
	syncDir(t, fsys, ".")
	wantOutcomes(t, fsys, []string{"a=A b=A"}, "a", "b")
}

// Making a folder or a link at a name held twice fails as at any existing
// name: Mkdir with EEXIST, Link with EPERM (exFAT, the only volume that
// holds a name twice, has no hard links).
func TestMkdirOrLinkOntoADoubledNameFails(t *testing.T) {
	next := doubled(t, ".", false)
	if err := next.Mkdir("log", 0o755); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Mkdir of log held twice = %v; want EEXIST", err)
	}
	put(t, next, "x", "x!", true)
	if err := next.Link("x", "log"); !errors.Is(err, syscall.EPERM) {
		t.Errorf("Link onto log held twice on exFAT = %v; want EPERM", err)
	}
	if got := rootAndLog(t)(next); got != "[log:3 log:5 x:2] log=old" {
		t.Errorf("the refused calls changed the folder: %s; want [log:3 log:5 x:2] log=old", got)
	}
}

// A folder is empty only once all its entries are gone: one holding a
// name twice is not, nor once one of the two is removed; Remove and a
// rename over it fail with ENOTEMPTY.
func TestAFolderHoldingADoubledNameIsNotEmpty(t *testing.T) {
	next := doubled(t, "d", false)
	if err := next.Mkdir("e", 0o755); err != nil {
		t.Fatal(err)
	}
	for removed := range 2 {
		if err := next.Remove("d"); !errors.Is(err, syscall.ENOTEMPTY) {
			t.Errorf("with %d of log's 2 entries removed, Remove(d) = %v; want ENOTEMPTY", removed, err)
		}
		if err := next.Rename("e", "d"); !errors.Is(err, syscall.ENOTEMPTY) {
			t.Errorf("with %d of log's 2 entries removed, Rename(e, d) = %v; want ENOTEMPTY", removed, err)
		}
		if err := next.Remove("d/log"); err != nil {
			t.Fatal(err)
		}
	}
	if err := next.Remove("d"); err != nil {
		t.Errorf("with both of log's entries removed, Remove(d) = %v; want nil", err)
	}
}

package crashfs_test

import (
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

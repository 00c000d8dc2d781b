package faultfs_test

import (
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// TestVFS runs vfstest on faultfs over the OS with no rule and no hook: it
// must change nothing of the FS it wraps, several processes racing through
// it included.
func TestVFS(t *testing.T) {
	vfstest.Run(t, func(t *testing.T) vfs.FS {
		f, _ := newFS(t)
		return f
	}, vfstest.Options{Open: func(dir string) (vfs.FS, error) {
		o, err := osfs.New(dir)
		if err != nil {
			return nil, err
		}
		return faultfs.New(o), nil
	}})
}

// TestVFSCatchesFaults shows vfstest failing on faultfs made to break the
// behaviour the lock relies on, check by check.
func TestVFSCatchesFaults(t *testing.T) {
	for _, c := range []struct {
		check string
		rule  faultfs.Rule
	}{
		{"exclusive-create", faultfs.Rule{Op: faultfs.OpOpenFile, Match: "x"}},
		{"listing-after-create", faultfs.Rule{Op: faultfs.OpReadDir}},
		{"sync", faultfs.Rule{Op: faultfs.OpSync}},
		{"rename-over-file", faultfs.Rule{Op: faultfs.OpRename}},
	} {
		t.Run(c.check, func(t *testing.T) {
			err := vfstest.Check(func() (vfs.FS, error) {
				f, _ := newFS(t)
				f.Fail(c.rule)
				return f, nil
			}, vfstest.Options{Rounds: 2})
			if err == nil || !containsCheck(err, c.check) {
				t.Fatalf("vfstest.Check with %+v = %v; want %s to fail", c.rule, err, c.check)
			}
		})
	}
}

// containsCheck reports whether the joined failures of vfstest.Check
// have a line led by check.
func containsCheck(err error, check string) bool {
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(line, check+": ") {
			return true
		}
	}
	return false
}

package lockspec_test

import (
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// dirFaults is a fresh estate of the directory publish (dirEstate) and a
// faultfs over its FS, for a test to set its hooks on and acquire through.
func dirFaults(t *testing.T) (*estate, *faultfs.FS) {
	e := dirEstate(t)
	return e, faultfs.New(e.fsys)
}

// beforeStaged adds a Before hook to ffs that calls fn, and fails the call
// with what it returns, for each op on a staging directory or a name in
// one (a name holding ".staged-"); every other call goes through.
func beforeStaged(ffs *faultfs.FS, op faultfs.Op, fn faultfs.Hook) {
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op != op || !strings.Contains(ev.Name, ".staged-") {
			return nil
		}
		return fn(ev)
	})
}

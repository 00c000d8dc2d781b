package probe_test

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/cmd/pa/internal/probe"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/fusemodel"
)

// replacing is an FS whose RenameNoReplace is POSIX's plain rename of a
// directory: it replaces an empty directory.
type replacing struct{ vfs.FS }

func (r replacing) RenameNoReplace(oldname, newname string) error {
	if fi, err := r.Stat(newname); err == nil && fi.IsDir() {
		if err := r.Remove(newname); err != nil {
			return err
		}
	}
	return r.Rename(oldname, newname)
}

// plain is an FS with none of the optional interfaces.
type plain struct{ vfs.FS }

// refusing is an FS whose RenameNoReplace always fails with err.
type refusing struct {
	vfs.FS
	err error
}

func (r refusing) RenameNoReplace(string, string) error { return r.err }

// noRename2 is a FUSE mount whose server lacks rename2 (exfat-fuse,
// ntfs-3g), as Linux shows it: the kernel answers EEXIST for an existing
// name itself, and refuses the flag (EINVAL) for an absent one.
type noRename2 struct{ vfs.FS }

func (r noRename2) RenameNoReplace(oldname, newname string) error {
	if _, err := r.Stat(newname); err == nil {
		return &os.LinkError{Op: "renamenoreplace", Old: oldname, New: newname, Err: syscall.EEXIST}
	}
	return &os.LinkError{Op: "renamenoreplace", Old: oldname, New: newname, Err: fmt.Errorf("%w: %w", errors.ErrUnsupported, syscall.EINVAL)}
}

// The rename that never replaces: on this machine's temp dir (renameat2 on
// Linux, renameatx_np on macOS) EEXIST onto a file and both directories,
// and the directory moves whole; through an FS without it, unsupported; one
// that replaces is reported so; any other failure is an error. A FUSE
// mount without rename2 is unsupported, though it answers EEXIST for an
// existing name. The folder
// is removed in every case.
func TestRunRenameNoReplace(t *testing.T) {
	fsys, dir := newOS(t)
	r := run(t, fsys, dir)
	switch runtime.GOOS {
	case "linux", "darwin":
		want(t, r, probe.CheckRenameNoReplace, "no-replace", "")
	default:
		want(t, r, probe.CheckRenameNoReplace, "unsupported", "")
	}
	onOS := check(t, r, probe.CheckRenameNoReplace).Outcome

	o, dir := newOS(t)
	r = run(t, fusemodel.New(o), dir) // forwards to osfs's
	want(t, r, probe.CheckRenameNoReplace, onOS, "")

	o, dir = newOS(t)
	r = run(t, plain{o}, dir)
	want(t, r, probe.CheckRenameNoReplace, "unsupported", "")

	o, dir = newOS(t)
	r = run(t, replacing{o}, dir)
	want(t, r, probe.CheckRenameNoReplace, "replaces", "")

	o, dir = newOS(t)
	r = run(t, refusing{o, &os.LinkError{Op: "renamenoreplace", Old: "a", New: "b", Err: syscall.EIO}}, dir)
	want(t, r, probe.CheckRenameNoReplace, "error", "EIO")

	o, dir = newOS(t)
	r = run(t, refusing{o, errors.ErrUnsupported}, dir)
	want(t, r, probe.CheckRenameNoReplace, "unsupported", "")

	o, dir = newOS(t)
	r = run(t, noRename2{o}, dir)
	want(t, r, probe.CheckRenameNoReplace, "unsupported", "EINVAL")
}

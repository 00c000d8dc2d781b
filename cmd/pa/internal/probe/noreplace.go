package probe

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/pa-toolkit/pa/vfs"
)

// renameNoReplace: a lock published as a directory renamed into place
// needs a rename that never replaces: onto an empty directory above all,
// which the system's plain rename replaces on POSIX. It renames a
// directory holding a marker to an absent name, then onto an empty
// directory, a directory holding a file and a file, through the FS's
// vfs.RenameNoReplace (renameat2 RENAME_NOREPLACE on Linux, renameatx_np
// RENAME_EXCL on macOS, for the real OS).
func (p *prober) renameNoReplace() Check {
	c := Check{Name: CheckRenameNoReplace}
	for _, step := range []struct {
		what string
		err  error
	}{
		{"making a directory", p.mkdir("nr-src")},
		{"creating a file", p.create("nr-src/marker", "m")},
		{"creating a file", p.create("nr-file", "f")},
		{"making a directory", p.mkdir("nr-empty")},
		{"making a directory", p.mkdir("nr-full")},
		{"creating a file", p.create("nr-full/x", "x")},
	} {
		if step.err != nil {
			return failed(c.Name, step.what, step.err)
		}
	}
	rename := func(old, new string) error {
		return vfs.RenameNoReplace(p.fsys, p.path(old), p.path(new))
	}
	// To an absent name first: Linux answers EEXIST for an existing name
	// before it asks the file system, so only this rename shows whether
	// the volume takes the flag (a FUSE server without rename2, as
	// exfat-fuse and ntfs-3g, refuses it with EINVAL).
	switch err := p.renameWith(rename, "nr-src", "nr-lock"); {
	case errors.Is(err, errors.ErrUnsupported):
		c.Outcome, c.Errno = "unsupported", ErrnoName(err)
		c.Detail = "the rename that never replaces is refused here: " + errText(err)
		return c
	case err != nil:
		c.Outcome, c.Errno = "error", ErrnoName(err)
		c.Detail = "the rename of a directory to an absent name failed: " + errText(err)
		return c
	}
	if got, err := p.read("nr-lock/marker"); err != nil || got != "m" {
		c.Outcome = "error"
		c.Detail = fmt.Sprintf("the directory renamed to an absent name does not hold its marker (%q, %s)", got, errText(err))
		return c
	}
	var refused []string
	for _, dst := range []string{"nr-empty", "nr-full", "nr-file"} {
		err := p.renameWith(rename, "nr-lock", dst)
		switch {
		case err == nil:
			c.Outcome = "replaces"
			c.Detail = fmt.Sprintf("the rename that should never replace replaced %s", what(dst))
			return c
		case !errors.Is(err, fs.ErrExist):
			c.Outcome, c.Errno = "error", ErrnoName(err)
			c.Detail = fmt.Sprintf("onto %s the rename failed with %s, not EEXIST", what(dst), errText(err))
			return c
		}
		refused = append(refused, what(dst))
	}
	c.Outcome = "no-replace"
	c.Detail = "a directory moves whole to an absent name; EEXIST onto " + strings.Join(refused, ", ")
	return c
}

// what says what the renameNoReplace check's destination dst is.
func what(dst string) string {
	return map[string]string{"nr-file": "a file", "nr-empty": "an empty directory", "nr-full": "a directory holding a file"}[dst]
}

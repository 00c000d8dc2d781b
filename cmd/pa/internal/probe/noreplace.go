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
// directory holding a marker onto an empty directory, a directory holding
// a file and a file, then to an absent name, through the FS's
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
	var refused []string
	for _, dst := range []string{"nr-empty", "nr-full", "nr-file"} {
		err := p.renameWith(rename, "nr-src", dst)
		switch {
		case errors.Is(err, errors.ErrUnsupported):
			c.Outcome, c.Errno = "unsupported", ErrnoName(err)
			c.Detail = "the rename that never replaces is refused here: " + errText(err) + "; a lock without hard links publishes by exclusive create"
			return c
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
	if err := p.renameWith(rename, "nr-src", "nr-lock"); err != nil {
		c.Outcome, c.Errno = "error", ErrnoName(err)
		c.Detail = "it refused each existing name with EEXIST, but the rename to an absent name failed: " + errText(err)
		return c
	}
	if got, err := p.read("nr-lock/marker"); err != nil || got != "m" {
		c.Outcome = "error"
		c.Detail = fmt.Sprintf("the directory renamed to an absent name does not hold its marker (%q, %s)", got, errText(err))
		return c
	}
	c.Outcome = "no-replace"
	c.Detail = "EEXIST onto " + strings.Join(refused, ", ") + "; a directory moves whole to an absent name"
	return c
}

// what says what the renameNoReplace check's destination dst is.
func what(dst string) string {
	return map[string]string{"nr-file": "a file", "nr-empty": "an empty directory", "nr-full": "a directory holding a file"}[dst]
}

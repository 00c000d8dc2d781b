package vfstest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/pa-toolkit/pa/vfs"
)

const (
	createExcl  = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	createTrunc = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
)

// put creates or truncates name and writes data to it.
func put(fsys vfs.FS, name, data string) error {
	f, err := fsys.OpenFile(name, createTrunc, 0o644)
	if err != nil {
		return fmt.Errorf("creating %s: %w", name, err)
	}
	_, err = io.WriteString(f, data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return nil
}

// get reads the whole of name.
func get(fsys vfs.FS, name string) (string, error) {
	f, err := fsys.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return string(b), err
}

// wantContent fails unless name reads want.
func wantContent(fsys vfs.FS, name, want, when string) error {
	got, err := get(fsys, name)
	if err != nil {
		return fmt.Errorf("%s: reading %s: %v; want it to read %q", when, name, err, want)
	}
	if got != want {
		return fmt.Errorf("%s: %s reads %q; want %q", when, name, got, want)
	}
	return nil
}

// wantMissing fails unless name does not exist.
func wantMissing(fsys vfs.FS, name, when string) error {
	fi, err := fsys.Stat(name)
	if err == nil {
		return fmt.Errorf("%s: %s exists (%v); want it missing", when, name, fi.Mode())
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: Stat(%s) = %v; want an error matching fs.ErrNotExist", when, name, err)
	}
	return nil
}

// wantDir fails unless name is a directory.
func wantDir(fsys vfs.FS, name, when string) error {
	fi, err := fsys.Stat(name)
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("%s: Stat(%s) = %v, %v; want a directory", when, name, fi, err)
	}
	return nil
}

// pathErr fails unless err is a *fs.PathError whose Path is name and that
// matches target (nil: any).
func pathErr(what string, err error, name string, target error) error {
	var pe *fs.PathError
	switch {
	case err == nil:
		return fmt.Errorf("%s succeeded; want it to fail%s", what, matching(target))
	case !errors.As(err, &pe):
		return fmt.Errorf("%s = %v (%T); want a *fs.PathError", what, err, err)
	case pe.Path != name:
		return fmt.Errorf("%s = %v; want the *fs.PathError to name %q, not %q", what, err, name, pe.Path)
	case pe.Op == "":
		return fmt.Errorf("%s = %v; want the *fs.PathError to name its operation", what, err)
	case target != nil && !errors.Is(err, target):
		return fmt.Errorf("%s = %v; want an error%s", what, err, matching(target))
	}
	return nil
}

// linkErr fails unless err is an *os.LinkError whose Old and New are the
// names given and that matches target (nil: any).
func linkErr(what string, err error, oldname, newname string, target error) error {
	var le *os.LinkError
	switch {
	case err == nil:
		return fmt.Errorf("%s succeeded; want it to fail%s", what, matching(target))
	case !errors.As(err, &le):
		return fmt.Errorf("%s = %v (%T); want an *os.LinkError", what, err, err)
	case le.Old != oldname || le.New != newname:
		return fmt.Errorf("%s = %v; want the *os.LinkError to name %q and %q, not %q and %q", what, err, oldname, newname, le.Old, le.New)
	case le.Op == "":
		return fmt.Errorf("%s = %v; want the *os.LinkError to name its operation", what, err)
	case target != nil && !errors.Is(err, target):
		return fmt.Errorf("%s = %v; want an error%s", what, err, matching(target))
	}
	return nil
}

func matching(target error) string {
	switch target {
	case nil:
		return ""
	case fs.ErrExist:
		return " matching fs.ErrExist (EEXIST)"
	case fs.ErrNotExist:
		return " matching fs.ErrNotExist (ENOENT)"
	}
	return fmt.Sprintf(" matching %v", target)
}

// first returns every non-nil error, joined (nil when there is none).
func first(errs ...error) error { return errors.Join(errs...) }

// names lists the directory dir.
func names(fsys vfs.FS, dir string) ([]string, error) {
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name()
	}
	return out, nil
}

package osfs_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

var time0 = time.Unix(1_000_000, 0)

// TestEscapesRefused checks that no name leaves the root: neither "..", nor
// an absolute name, nor a symbolic link to a place outside it.
func TestEscapesRefused(t *testing.T) {
	fsys, dir := newFS(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret")
	if err := os.WriteFile(secret, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFile(t, fsys, "a", "x")
	if err := os.Symlink(outside, filepath.Join(dir, "outdir")); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	if err := os.Symlink(secret, filepath.Join(dir, "outfile")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(dir, secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(rel, filepath.Join(dir, "outrel")); err != nil {
		t.Fatal(err)
	}

	// A name whose path leaves the root is refused by every operation.
	escaping := []string{"../x", "../" + filepath.Base(outside) + "/secret", "outdir/secret", "outdir/new"}
	if filepath.Separator == '/' {
		escaping = append(escaping, secret)
	}
	for _, name := range escaping {
		ops := []struct {
			what string
			err  error
		}{
			{"open", func() error { _, err := fsys.OpenFile(name, os.O_RDONLY, 0); return err }()},
			{"create", func() error {
				_, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
				return err
			}()},
			{"stat", func() error { _, err := fsys.Stat(name); return err }()},
			{"readdir", func() error { _, err := fsys.ReadDir(name); return err }()},
			{"mkdir", fsys.Mkdir(name+"-dir", 0o755)},
			{"link from", fsys.Link(name, "got")},
			{"link onto", fsys.Link("a", name+"-link")},
			{"rename from", fsys.Rename(name, "got")},
			{"rename onto", fsys.Rename("a", name+"-renamed")},
			{"remove", fsys.Remove(name)},
			{"chtimes", fsys.Chtimes(name, time0, time0)},
			{"renamenoreplace", fsys.RenameNoReplace("a", name+"-renamed")},
		}
		for _, op := range ops {
			if op.err == nil {
				t.Errorf("%s %q succeeded, want it refused as outside the root", op.what, name)
			}
		}
	}
	// A symbolic link to outside the root cannot be followed.
	for _, name := range []string{"outfile", "outrel"} {
		ops := []struct {
			what string
			err  error
		}{
			{"open", func() error { _, err := fsys.OpenFile(name, os.O_RDONLY, 0); return err }()},
			{"write", func() error { _, err := fsys.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0); return err }()},
			{"stat", func() error { _, err := fsys.Stat(name); return err }()},
			{"readdir", func() error { _, err := fsys.ReadDir(name); return err }()},
			{"chtimes", fsys.Chtimes(name, time0, time0)},
		}
		for _, op := range ops {
			if op.err == nil {
				t.Errorf("%s %q succeeded, want it refused: the link leads outside the root", op.what, name)
			}
		}
	}
	// The symbolic links themselves are inside the root: Remove and Rename
	// act on the link, never on its target.
	if err := fsys.Rename("outfile", "outfile2"); err != nil {
		t.Errorf("Rename of a symbolic link inside the root: %v", err)
	}
	if err := fsys.Remove("outfile2"); err != nil {
		t.Errorf("Remove of a symbolic link inside the root: %v", err)
	}
	if data, err := os.ReadFile(secret); err != nil || string(data) != "secret" {
		t.Errorf("the file outside the root now reads %q, %v; want it untouched", data, err)
	}
	entries, err := os.ReadDir(outside)
	if err != nil || len(entries) != 1 {
		t.Errorf("the directory outside the root holds %v, %v; want only the secret", entries, err)
	}
}

func TestEscapeErrorMatchesNoSentinel(t *testing.T) {
	fsys, _ := newFS(t)
	_, err := fsys.Stat("../x")
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != "../x" {
		t.Fatalf("Stat(../x) = %v, want a *fs.PathError naming ../x", err)
	}
	for _, target := range []error{fs.ErrExist, fs.ErrNotExist, fs.ErrInvalid, fs.ErrPermission} {
		if errors.Is(err, target) {
			t.Errorf("Stat(../x) = %v matches %v; the package doc says it matches no sentinel", err, target)
		}
	}
	// Link classifies it as "no hard links": callers must keep names inside
	// the root, as vfs.FS requires.
	writeFile(t, fsys, "a", "x")
	if err := fsys.Link("a", "../x"); !vfs.NoHardLinks(err) {
		t.Errorf("NoHardLinks(%v) = false", err)
	}
}

// TestDotDotAloneRefused: ".." on its own, a name with no slash, is the
// root's parent; every operation refuses it.
func TestDotDotAloneRefused(t *testing.T) {
	fsys, _ := newFS(t)
	if f, err := fsys.OpenFile("..", os.O_RDONLY, 0); err == nil {
		f.Close()
		t.Errorf(`OpenFile("..") succeeded, want it refused as outside the root`)
	}
	if _, err := fsys.ReadDir(".."); err == nil {
		t.Errorf(`ReadDir("..") succeeded, want it refused as outside the root`)
	}
}

// TestSymlinkedFolderOutsideNotListed: a symbolic link in the root to a
// directory outside it is neither listed nor watched through (the root
// refuses the escape).
func TestSymlinkedFolderOutsideNotListed(t *testing.T) {
	fsys, dir := newFS(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "outdir")); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	if ents, err := fsys.ReadDir("outdir"); err == nil {
		t.Errorf(`ReadDir("outdir") = %v, want it refused: the link leads outside the root`, ents)
	}
	if w, err := fsys.WatchRemoval("outdir/secret"); err == nil {
		w.Close()
		t.Errorf(`WatchRemoval("outdir/secret") succeeded, want it refused: the folder is outside the root`)
	}
}

package hpview

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	hpfs "github.com/hack-pad/hackpadfs"
	hpfstest "github.com/hack-pad/hackpadfs/fstest"
	hpos "github.com/hack-pad/hackpadfs/os"

	"github.com/pa-toolkit/pa/vfs"
)

// FS is a vfs.FS seen as a hackpadfs FS: hpfs.FS with OpenFile, Mkdir,
// MkdirAll, Remove, Rename, Stat, ReadDir and Chtimes. Each call goes to
// the vfs.FS as it is; files are its vfs.Files as they are (hpfs.Files:
// Read, Stat, Close, and the rest found by hackpadfs's interface checks).
//
// One thing is adapted: the Op of an error. The suite checks it against
// the os package's ("open", "mkdir", "remove", "rename", "stat"), which a
// vfs.FS does not promise, and os.Root (under osfs) names its calls
// "openat", "mkdirat", "removeat", "renameat", "statat"; FS gives such an
// error the os package's Op, and changes nothing else of it (its path and
// its errno are the suite's to check).
type FS struct{ vfs.FS }

// View returns fsys seen as a hackpadfs FS.
func View(fsys vfs.FS) FS { return FS{fsys} }

var (
	_ hpfs.OpenFileFS = FS{}
	_ hpfs.MkdirFS    = FS{}
	_ hpfs.MkdirAllFS = FS{}
	_ hpfs.RemoveFS   = FS{}
	_ hpfs.RenameFS   = FS{}
	_ hpfs.StatFS     = FS{}
	_ hpfs.ReadDirFS  = FS{}
	_ hpfs.ChtimesFS  = FS{}
)

// Open opens name for reading.
func (f FS) Open(name string) (hpfs.File, error) { return f.OpenFile(name, os.O_RDONLY, 0) }

// OpenFile opens name with the os.O_* flags.
func (f FS) OpenFile(name string, flag int, perm hpfs.FileMode) (hpfs.File, error) {
	file, err := f.FS.OpenFile(name, flag, perm)
	if err != nil {
		return nil, osOp(err)
	}
	return file, nil
}

// Mkdir creates the directory name.
func (f FS) Mkdir(name string, perm hpfs.FileMode) error { return osOp(f.FS.Mkdir(name, perm)) }

// MkdirAll creates name and its missing parents (vfs.MkdirAll).
func (f FS) MkdirAll(name string, perm hpfs.FileMode) error {
	return osOp(vfs.MkdirAll(f.FS, name, perm))
}

// Remove removes a file or an empty directory.
func (f FS) Remove(name string) error { return osOp(f.FS.Remove(name)) }

// Rename renames oldname to newname.
func (f FS) Rename(oldname, newname string) error { return osOp(f.FS.Rename(oldname, newname)) }

// Stat returns name's file information.
func (f FS) Stat(name string) (fs.FileInfo, error) {
	fi, err := f.FS.Stat(name)
	return fi, osOp(err)
}

// ReadDir lists the directory name.
func (f FS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := f.FS.ReadDir(name)
	return ents, osOp(err)
}

// Chtimes sets name's times (vfs.Chtimes).
func (f FS) Chtimes(name string, atime, mtime time.Time) error {
	return osOp(vfs.Chtimes(f.FS, name, atime, mtime))
}

// osOps are os.Root's names of its calls, and the os package's.
var osOps = map[string]string{
	"openat": "open", "mkdirat": "mkdir", "removeat": "remove", "unlinkat": "remove",
	"renameat": "rename", "linkat": "link", "statat": "stat", "fstatat": "stat",
	"utimensat": "chtimes", "chtimesat": "chtimes",
}

// osOp returns err with the os package's Op in place of os.Root's (see
// FS); any other error as it is.
func osOp(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		if op, ok := osOps[pe.Op]; ok && pe == err {
			return &fs.PathError{Op: op, Path: pe.Path, Err: pe.Err}
		}
	case errors.As(err, &le):
		if op, ok := osOps[le.Op]; ok && le == err {
			return &os.LinkError{Op: op, Old: le.Old, New: le.New, Err: le.Err}
		}
	}
	return err
}

// Run runs hackpadfs's own fstest suites (FS and File) on the backend
// open returns for a folder dir of the real OS, a fresh one each subtest;
// each subtest's files are set up through hackpadfs's own os FS rooted at
// that folder, then checked through FS{open(tb, dir)}. skip names the
// facets that cannot apply, by a part of their subtest name, each with its
// reason: a facet whose name holds a key is skipped, the reasons of those
// skipped are logged at the end, and a key that skipped nothing fails the
// test (a stale reason). The umask must be 0 ([Main]): the suite checks
// the modes of what it creates against the ones asked for. Not on Windows:
// hackpadfs's os FS is rooted there by volume name.
func Run(t *testing.T, name string, open func(tb testing.TB, dir string) vfs.FS, skip map[string]string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("rooting hackpadfs's os FS needs a volume name on Windows")
	}
	var mu sync.Mutex
	skipped := map[string][]string{} // key: facets skipped
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range skip {
				if !yield(k) {
					return
				}
			}
		})
		for _, k := range keys {
			if len(skipped[k]) == 0 {
				t.Errorf("hackpadfs fstest on %s: no facet matches %q (%s): remove the stale skip", name, k, skip[k])
				continue
			}
			t.Logf("hackpadfs fstest on %s: skipped %d facets matching %q: %s", name, len(skipped[k]), k, skip[k])
		}
	})
	opts := hpfstest.FSOptions{
		Name: name,
		Setup: hpfstest.TestSetupFunc(func(tb testing.TB) (hpfstest.SetupFS, func() hpfs.FS) {
			dir := tb.TempDir()
			sub, err := hpos.NewFS().Sub(strings.TrimPrefix(filepath.ToSlash(dir), "/"))
			if err != nil {
				tb.Fatal(err)
			}
			return sub.(hpfstest.SetupFS), func() hpfs.FS { return FS{open(tb, dir)} }
		}),
		ShouldSkip: func(f hpfstest.Facets) bool {
			for k := range skip {
				if strings.Contains(f.Name, k) {
					mu.Lock()
					skipped[k] = append(skipped[k], f.Name)
					mu.Unlock()
					return true
				}
			}
			return false
		},
	}
	hpfstest.FS(t, opts)
	hpfstest.File(t, opts)
}

package aferofs_test

import (
	"io/fs"
	"os"
	"strings"
	"testing"
	"time"

	hpfs "github.com/hack-pad/hackpadfs"
	hpfstest "github.com/hack-pad/hackpadfs/fstest"
	"github.com/spf13/afero"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/aferofs"
)

// setup is an afero.Fs as the hackpadfs FS that sets a test's files up.
type setup struct{ afero.Fs }

func (s setup) Open(name string) (hpfs.File, error) { return s.Fs.Open(name) }
func (s setup) OpenFile(name string, flag int, perm hpfs.FileMode) (hpfs.File, error) {
	return s.Fs.OpenFile(name, flag, perm)
}

// reverse is a vfs.FS seen as a hackpadfs FS, so hackpadfs's own fstest
// suite can check it.
type reverse struct{ fsys vfs.FS }

func (r reverse) Open(name string) (hpfs.File, error) { return r.fsys.OpenFile(name, os.O_RDONLY, 0) }
func (r reverse) OpenFile(name string, flag int, perm hpfs.FileMode) (hpfs.File, error) {
	return r.fsys.OpenFile(name, flag, perm)
}
func (r reverse) Mkdir(name string, perm hpfs.FileMode) error { return r.fsys.Mkdir(name, perm) }
func (r reverse) MkdirAll(name string, perm hpfs.FileMode) error {
	return vfs.MkdirAll(r.fsys, name, perm)
}
func (r reverse) Remove(name string) error                   { return r.fsys.Remove(name) }
func (r reverse) Rename(oldname, newname string) error       { return r.fsys.Rename(oldname, newname) }
func (r reverse) Stat(name string) (fs.FileInfo, error)      { return r.fsys.Stat(name) }
func (r reverse) ReadDir(name string) ([]fs.DirEntry, error) { return r.fsys.ReadDir(name) }
func (r reverse) Chtimes(name string, atime, mtime time.Time) error {
	return vfs.Chtimes(r.fsys, name, atime, mtime)
}

// notApplicable are the facets of hackpadfs's suite that test what a
// vfs.FS does not promise: Rename's error typed *hackpadfs.LinkError (a
// vfs.FS returns *os.LinkError, as the os package does), and WriteAt, which
// vfs.File does not have.
var notApplicable = []string{"fs.Rename/oldpath_does_not_exist", "file.WriteAt/"}

// TestHackpadFSTest runs hackpadfs's own fstest suite on the guarded
// MemMapFs: set up through the plain MemMapFs, checked through the
// adapter. (It does not apply to the adapters over the OS, nor to osfs:
// it wants the os package's error Op names, and os.Root's are "openat",
// "mkdirat" and kin.)
func TestHackpadFSTest(t *testing.T) {
	opts := hpfstest.FSOptions{
		Name: "guarded-memmapfs",
		Setup: hpfstest.TestSetupFunc(func(tb testing.TB) (hpfstest.SetupFS, func() hpfs.FS) {
			m := afero.NewMemMapFs()
			return setup{m}, func() hpfs.FS { return reverse{aferofs.NewGuarded(m)} }
		}),
		ShouldSkip: func(f hpfstest.Facets) bool {
			for _, n := range notApplicable {
				if strings.Contains(f.Name, n) {
					return true
				}
			}
			return false
		},
	}
	hpfstest.FS(t, opts)
	hpfstest.File(t, opts)
}

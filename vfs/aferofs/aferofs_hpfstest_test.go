package aferofs_test

import (
	"strings"
	"testing"

	hpfs "github.com/hack-pad/hackpadfs"
	hpfstest "github.com/hack-pad/hackpadfs/fstest"
	"github.com/spf13/afero"

	"github.com/pa-toolkit/pa/vfs/aferofs"
	"github.com/pa-toolkit/pa/vfs/internal/hpview"
)

// setup is an afero.Fs as the hackpadfs FS that sets a test's files up.
type setup struct{ afero.Fs }

func (s setup) Open(name string) (hpfs.File, error) { return s.Fs.Open(name) }
func (s setup) OpenFile(name string, flag int, perm hpfs.FileMode) (hpfs.File, error) {
	return s.Fs.OpenFile(name, flag, perm)
}

// notApplicable are the facets of hackpadfs's suite that test what a
// vfs.FS does not promise: Rename's error typed *hackpadfs.LinkError (a
// vfs.FS returns *os.LinkError, as the os package does), and WriteAt, which
// vfs.File does not have.
var notApplicable = []string{"fs.Rename/oldpath_does_not_exist", "file.WriteAt/"}

// TestHackpadFSTest runs hackpadfs's own fstest suite on the guarded
// MemMapFs: set up through the plain MemMapFs, checked through the
// adapter seen as a hackpadfs FS (hpview.FS). osfs, nolinkfs and faultfs
// run it in their own packages (hpview.Run).
func TestHackpadFSTest(t *testing.T) {
	opts := hpfstest.FSOptions{
		Name: "guarded-memmapfs",
		Setup: hpfstest.TestSetupFunc(func(tb testing.TB) (hpfstest.SetupFS, func() hpfs.FS) {
			m := afero.NewMemMapFs()
			return setup{m}, func() hpfs.FS { return hpview.View(aferofs.NewGuarded(m)) }
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

package hackpadfs_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	hpfs "github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/mem"
	hpos "github.com/hack-pad/hackpadfs/os"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/hackpadfs"
	"github.com/pa-toolkit/pa/vfs/vfstest"
)

func newMem(t *testing.T) *hackpadfs.FS {
	t.Helper()
	fsys, err := hackpadfs.NewMem()
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// TestVFSMem: the guarded mem FS passes every check.
func TestVFSMem(t *testing.T) {
	vfstest.Run(t, func(t *testing.T) vfs.FS { return newMem(t) }, vfstest.Options{})
}

// openOS is hackpadfs's os FS rooted at dir, through New.
func openOS(dir string) (vfs.FS, error) {
	sub, err := hpos.NewFS().Sub(strings.TrimPrefix(filepath.ToSlash(dir), "/"))
	if err != nil {
		return nil, err
	}
	return hackpadfs.New(sub), nil
}

// TestVFSOS: hackpadfs's os FS, every call passed through, passes every
// check, several processes included; Link is refused.
func TestVFSOS(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("rooting hackpadfs's os FS needs a volume name on Windows")
	}
	vfstest.Run(t, func(t *testing.T) vfs.FS {
		fsys, err := openOS(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return fsys
	}, vfstest.Options{Open: openOS})
}

// TestNewGuardsMem: New over hackpadfs's mem FS, an in-memory FS it knows,
// guards it (as NewGuarded), and it passes every check of vfstest. New over
// the OS FS, and over a FS it does not know (a wrapper of a mem FS), passes
// every call straight through.
func TestNewGuardsMem(t *testing.T) {
	m, err := mem.NewFS()
	if err != nil {
		t.Fatal(err)
	}
	if !hackpadfs.New(m).Guarded() {
		t.Fatal("New over a *mem.FS is not guarded")
	}
	if hackpadfs.New(hpos.NewFS()).Guarded() || hackpadfs.New(unknownMem{m}).Guarded() {
		t.Error("New over the os FS or an unknown FS is guarded; want every call passed through")
	}
	vfstest.Run(t, func(t *testing.T) vfs.FS {
		m, err := mem.NewFS()
		if err != nil {
			t.Fatal(err)
		}
		return hackpadfs.New(m)
	}, vfstest.Options{})
}

// unknownMem is an in-memory hackpadfs FS New does not know (as a user's
// own backend would be): a mem FS inside a type of its own.
type unknownMem struct{ *mem.FS }

// TestUnguardedMemFailsVFSTest: hackpadfs's mem FS with every call passed
// straight to it (New over a mem FS it does not know, an unknownMem) fails
// vfstest where upstream breaks the rules the lock relies on: vfstest, not
// the adapter, is what proves an unknown backend safe.
func TestUnguardedMemFailsVFSTest(t *testing.T) {
	err := vfstest.Check(func() (vfs.FS, error) {
		m, err := mem.NewFS()
		return hackpadfs.New(unknownMem{m}), err
	}, vfstest.Options{})
	if err == nil {
		t.Fatal("vfstest passed on the plain mem FS; docs/adapters.md says it does not")
	}
	t.Logf("vfstest on hackpadfs v0.2.4's mem FS, unguarded:\n%v", err)
	for _, check := range []string{"exclusive-create", "rename-onto-directory", "open-file"} {
		if !strings.Contains("\n"+err.Error(), "\n"+check+": ") {
			t.Errorf("%s passed on the plain mem FS; docs/adapters.md says it fails", check)
		}
	}
}

// TestUpstreamMemIgnoresExclusive measures hackpadfs v0.2.4's mem FS
// directly: every one of 16 goroutines "wins" one exclusive create.
func TestUpstreamMemIgnoresExclusive(t *testing.T) {
	m, err := mem.NewFS()
	if err != nil {
		t.Fatal(err)
	}
	var wins atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			<-start
			f, err := hpfs.OpenFile(m, "x", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err == nil {
				wins.Add(1)
				f.Close()
			}
		})
	}
	close(start)
	wg.Wait()
	if wins.Load() < 2 {
		t.Fatalf("%d of 16 goroutines won one exclusive create on the plain mem FS; docs/adapters.md says all do: update it", wins.Load())
	}
	t.Logf("%d of 16 goroutines won one exclusive create on hackpadfs v0.2.4's mem FS", wins.Load())
}

package conformance_test

import (
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/hack-pad/hackpadfs/mem"
	"github.com/spf13/afero"

	"github.com/pa-toolkit/pa/conformance"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/aferofs"
	"github.com/pa-toolkit/pa/vfs/hackpadfs"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// TestRunFS runs the rows that need no real process on the guarded
// in-memory adapters (no hard links: the nolinks column), NewMem and New
// over each in-memory FS it knows, and on the OS with the same fake host
// (both columns): a vfs.FS that passes vfstest gets the same proofs as the
// OS.
func TestRunFS(t *testing.T) {
	for name, newFS := range map[string]func(t *testing.T) vfs.FS{
		"aferofs-mem":        func(*testing.T) vfs.FS { return aferofs.NewMem() },
		"aferofs-new-memmap": func(*testing.T) vfs.FS { return aferofs.New(afero.NewMemMapFs()) },
		"hackpadfs-new-mem": func(t *testing.T) vfs.FS {
			m, err := mem.NewFS()
			if err != nil {
				t.Fatal(err)
			}
			return hackpadfs.New(m)
		},
		"hackpadfs-mem": func(t *testing.T) vfs.FS {
			fsys, err := hackpadfs.NewMem()
			if err != nil {
				t.Fatal(err)
			}
			return fsys
		},
		"osfs": func(t *testing.T) vfs.FS {
			fsys, err := osfs.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { fsys.Close() })
			return fsys
		},
	} {
		t.Run(name, func(t *testing.T) { conformance.RunFS(t, newFS, conformance.Auto) })
	}
}

const unguardedEnv = "CONFORMANCE_TEST_UNGUARDED"

// unknownMem is an in-memory hackpadfs FS that hackpadfs.New does not know
// (as a user's own backend would be), so New guards nothing.
type unknownMem struct{ *mem.FS }

// TestRunFSFailsUnguardedMem: RunFS on hackpadfs's mem FS with no guard
// (which ignores O_EXCL, docs/adapters.md) fails, in a child process so
// this run stays green: the rows are proofs, not formalities.
func TestRunFSFailsUnguardedMem(t *testing.T) {
	if os.Getenv(unguardedEnv) != "" {
		conformance.RunFS(t, func(t *testing.T) vfs.FS {
			m, err := mem.NewFS()
			if err != nil {
				t.Fatal(err)
			}
			return hackpadfs.New(unknownMem{m}) // unknown to New: every call passed through
		}, conformance.Auto)
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestRunFSFailsUnguardedMem$", "-test.v")
	cmd.Env = append(os.Environ(), unguardedEnv+"=1")
	out, err := cmd.CombinedOutput()
	summary := regexp.MustCompile(`conformance: (\d+) of (\d+) cells pass`).FindSubmatch(out)
	if err == nil || summary == nil || string(summary[1]) == string(summary[2]) {
		t.Fatalf("RunFS on the unguarded mem FS: %v, summary %q; want it to fail cells", err, summary)
	}
	t.Logf("RunFS on hackpadfs's unguarded mem FS: %s", summary[0])
}

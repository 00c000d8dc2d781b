package estate_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/vfs/osfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// refusing is an estate on the temp dir whose volume refuses to make a
// folder named as the agent, with errno, as exFAT refuses agents/a:b.
func refusing(t *testing.T, agent string, errno error) *faultfs.FS {
	t.Helper()
	o, err := osfs.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = o.Close() })
	f := faultfs.New(o)
	f.Fail(faultfs.Rule{Op: faultfs.OpMkdir, Match: estate.AgentDir(agent), Err: errno})
	return f
}

// A name the volume refuses as a folder name (exfat-fuse says ENOENT, the
// kernel's drivers EINVAL) is said as such: a *NameRefusedError that
// errors.Is ErrInvalidAgent, names the agent, its folder and the volume's
// error, and lists the characters such volumes refuse; nothing is made
// beyond agents/.
func TestMakeAgentDirNameRefused(t *testing.T) {
	for _, errno := range []error{syscall.ENOENT, syscall.EINVAL, syscall.EILSEQ} {
		t.Run(errno.Error(), func(t *testing.T) {
			f := refusing(t, "a:b", errno)
			err := estate.MakeAgentDir(f, "a:b")
			var nr *estate.NameRefusedError
			if !errors.As(err, &nr) || nr.Agent != "a:b" || !errors.Is(err, estate.ErrInvalidAgent) || !errors.Is(err, errno) {
				t.Fatalf("MakeAgentDir: %v (%T); want a *NameRefusedError for a:b that Is ErrInvalidAgent and %v", err, err, errno)
			}
			for _, part := range []string{`agent "a:b"`, "(agents/a:b)", errno.Error(), `: * ? " < > |`} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not hold %q", err, part)
				}
			}
			entries, rerr := f.ReadDir(estate.AgentsDir)
			if rerr != nil || len(entries) != 0 {
				t.Errorf("agents/ after the refusal: %v, %v; want it empty", entries, rerr)
			}
		})
	}
}

// A refused name without the characters exFAT refuses names none.
func TestMakeAgentDirNameRefusedOtherwise(t *testing.T) {
	f := refusing(t, "ab", syscall.EINVAL)
	err := estate.MakeAgentDir(f, "ab")
	if !errors.Is(err, estate.ErrInvalidAgent) || strings.Contains(err.Error(), "NTFS") {
		t.Fatalf("MakeAgentDir: %v; want a refusal that lists no characters", err)
	}
}

// Only a refusal of the agent's own folder is the name's: a folder that
// is there after all, agents/ missing or not a folder, or an error that
// is no name's (a read-only volume) is the volume's error as it was.
func TestMakeAgentDirOtherErrorsAreNotTheName(t *testing.T) {
	t.Run("read-only", func(t *testing.T) {
		f := refusing(t, "a:b", syscall.EROFS)
		if err := estate.MakeAgentDir(f, "a:b"); !errors.Is(err, syscall.EROFS) || errors.Is(err, estate.ErrInvalidAgent) {
			t.Fatalf("MakeAgentDir: %v; want EROFS as it was", err)
		}
	})
	t.Run("agents-missing", func(t *testing.T) {
		o, err := osfs.New(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = o.Close() })
		f := faultfs.New(o)
		f.Fail(faultfs.Rule{Op: faultfs.OpMkdir, Match: estate.AgentsDir, Err: syscall.ENOENT})
		if err := estate.MakeAgentDir(f, "a"); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, estate.ErrInvalidAgent) {
			t.Fatalf("MakeAgentDir: %v; want ENOENT as it was", err)
		}
	})
	t.Run("folder-there", func(t *testing.T) {
		// A writer beside this one makes the folder while this mkdir fails.
		f := refusing(t, "a", syscall.EINVAL)
		f.Before(func(ev faultfs.Event) error {
			if ev.Op == faultfs.OpMkdir && ev.Name == estate.AgentDir("a") {
				return f.Unwrap().Mkdir(ev.Name, 0o755)
			}
			return nil
		})
		if err := estate.MakeAgentDir(f, "a"); !errors.Is(err, syscall.EINVAL) || errors.Is(err, estate.ErrInvalidAgent) {
			t.Fatalf("MakeAgentDir: %v; want EINVAL as it was", err)
		}
	})
}

// Each character exFAT, FAT and NTFS refuse in a name brings the list of
// them into the error.
func TestMakeAgentDirNameRefusedListsTheCharacters(t *testing.T) {
	for _, c := range `:*?"<>|` {
		agent := "a" + string(c) + "b"
		f := refusing(t, agent, syscall.ENOENT)
		if err := estate.MakeAgentDir(f, agent); !errors.Is(err, estate.ErrInvalidAgent) || !strings.HasSuffix(err.Error(), `; exFAT, FAT and NTFS hold none of : * ? " < > | in a name`) {
			t.Errorf("MakeAgentDir(%q) = %v; want a refusal listing the characters", agent, err)
		}
	}
}

// The folder is still missing when its lstat refuses the name as its mkdir
// did (Windows' os.Root does for '?'): a refusal too. An lstat that fails
// otherwise (a permission) leaves the mkdir's error as it was, and so does
// an agents/ that is no folder of its own (a symbolic link to one).
func TestMakeAgentDirLstatOfTheRefusedName(t *testing.T) {
	t.Run("lstat refuses the name too", func(t *testing.T) {
		f := refusing(t, "a?b", syscall.EINVAL)
		f.Fail(faultfs.Rule{Op: faultfs.OpStat, Match: estate.AgentDir("a?b"), Err: syscall.EINVAL})
		var nr *estate.NameRefusedError
		if err := estate.MakeAgentDir(f, "a?b"); !errors.As(err, &nr) {
			t.Fatalf("MakeAgentDir: %v; want a *NameRefusedError", err)
		}
	})
	t.Run("lstat not permitted", func(t *testing.T) {
		f := refusing(t, "a?b", syscall.EINVAL)
		f.Fail(faultfs.Rule{Op: faultfs.OpStat, Match: estate.AgentDir("a?b"), Err: syscall.EACCES})
		if err := estate.MakeAgentDir(f, "a?b"); !errors.Is(err, syscall.EINVAL) || errors.Is(err, estate.ErrInvalidAgent) {
			t.Fatalf("MakeAgentDir: %v; want EINVAL as it was", err)
		}
	})
	t.Run("agents is a symbolic link", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, "real"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("real", filepath.Join(dir, estate.AgentsDir)); err != nil {
			t.Skip(err)
		}
		o, err := osfs.New(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = o.Close() })
		f := faultfs.New(o)
		f.Fail(faultfs.Rule{Op: faultfs.OpMkdir, Match: estate.AgentDir("a:b"), Err: syscall.ENOENT})
		if err := estate.MakeAgentDir(f, "a:b"); !errors.Is(err, syscall.ENOENT) || errors.Is(err, estate.ErrInvalidAgent) {
			t.Fatalf("MakeAgentDir: %v; want ENOENT as it was", err)
		}
	})
}

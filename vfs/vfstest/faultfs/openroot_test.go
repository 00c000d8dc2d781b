package faultfs_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// A root opened through faultfs shares its rules, hooks and counts, and
// names every call by its name in the first FS.
func TestOpenRootSharesRulesAndNames(t *testing.T) {
	fsys, _ := newFS(t)
	if err := fsys.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	fsys.Before(func(ev faultfs.Event) error {
		names = append(names, ev.Op.String()+" "+ev.Name+" "+ev.NewName)
		return nil
	})
	root, err := fsys.OpenRoot("d")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	fsys.Fail(faultfs.Rule{Op: faultfs.OpLink, Match: "d/b", Err: syscall.EPERM, Times: 1})
	writeFile(t, root, "a", "x")
	err = root.Link("a", "b")
	var le *os.LinkError
	if !errors.As(err, &le) || le.Old != "d/a" || le.New != "d/b" || !errors.Is(err, syscall.EPERM) {
		t.Errorf("Link in the root under a rule on d/b = %#v, want the rule's EPERM naming d/a and d/b", err)
	}
	if err := root.Link("a", "b"); err != nil {
		t.Errorf("Link once the rule is used up: %v", err)
	}
	if n := fsys.Calls(faultfs.OpLink, "d/b"); n != 2 {
		t.Errorf("Calls(link, d/b) = %d, want 2: the root's calls count in the first FS", n)
	}
	if _, err := vfs.ReadDirPrefix(root, ".", []string{"a"}); err != nil {
		t.Fatal(err)
	}
	f, err := root.OpenFile(".", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Sync()
	f.Close()
	for _, want := range []string{"openroot d ", "open d/a ", "write d/a ", "link d/a d/b", "readdir d ", "open d ", "sync d "} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("no event %q among %q", want, names)
		}
	}
	fsys.Fail(faultfs.Rule{Op: faultfs.OpOpenRoot, Err: syscall.EMFILE, Times: 1})
	if _, err := fsys.OpenRoot("d"); !errors.Is(err, syscall.EMFILE) {
		t.Errorf("OpenRoot under a rule = %v, want EMFILE", err)
	}
}

// Arming a watch and each of its Waits are operations a rule can fail and
// a hook can pause at.
func TestWatchOps(t *testing.T) {
	fsys, inner := newFS(t)
	writeFile(t, fsys, "l", "")
	if w, err := inner.WatchRemoval("l"); errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no watch on this system")
	} else if err == nil {
		w.Close()
	}
	fsys.Fail(faultfs.Rule{Op: faultfs.OpWatch, Err: syscall.ENOSPC, Times: 1})
	if _, err := fsys.WatchRemoval("l"); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("WatchRemoval under a rule = %v, want ENOSPC", err)
	}
	w, err := fsys.WatchRemoval("l")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var waits []string
	fsys.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpWait {
			waits = append(waits, ev.Name)
			if err := fsys.Remove("l"); err != nil { // while the waiter is about to wait
				return err
			}
		}
		return nil
	})
	woken, err := w.Wait(context.Background(), time.Minute)
	if !woken || err != nil {
		t.Fatalf("Wait = %v, %v; want woken by the removal in the hook", woken, err)
	}
	if len(waits) != 1 || waits[0] != "l" {
		t.Errorf("wait events %q, want one on l", waits)
	}
	fsys.Clear()
	fsys.Fail(faultfs.Rule{Op: faultfs.OpWait, Err: syscall.EIO})
	if _, err := w.Wait(context.Background(), time.Minute); !errors.Is(err, syscall.EIO) {
		t.Errorf("Wait under a rule = %v, want EIO", err)
	}
	var pe *fs.PathError
	if _, err := w.Wait(context.Background(), time.Minute); !errors.As(err, &pe) || pe.Op != "wait" {
		t.Errorf("the injected error = %#v, want a *fs.PathError of op wait", err)
	}
}

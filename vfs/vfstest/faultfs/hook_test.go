package faultfs_test

import (
	"errors"
	"io/fs"
	"slices"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

func TestBeforeHookPauses(t *testing.T) {
	fsys, inner := newFS(t)
	writeFile(t, fsys, "old", "x")
	reached, release := make(chan struct{}), make(chan struct{})
	fsys.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpRename {
			close(reached)
			<-release
		}
		return nil
	})
	done := make(chan error)
	go func() { done <- fsys.Rename("old", "new") }()

	<-reached
	// The rename is held at its start: nothing has moved yet.
	if !exists(t, inner, "old") || exists(t, inner, "new") {
		t.Errorf("while the Before hook holds the rename, old exists = %v, new exists = %v; want true, false",
			exists(t, inner, "old"), exists(t, inner, "new"))
	}
	// Other calls go on meanwhile.
	writeFile(t, fsys, "other", "y")

	close(release)
	if err := <-done; err != nil {
		t.Fatalf("Rename after release: %v", err)
	}
	if exists(t, inner, "old") || readFile(t, inner, "new") != "x" {
		t.Errorf("after release, the rename did not happen")
	}
}

func TestRuleAddedWhilePaused(t *testing.T) {
	fsys, inner := newFS(t)
	reached, release := make(chan struct{}), make(chan struct{})
	fsys.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpMkdir {
			close(reached)
			<-release
		}
		return nil
	})
	done := make(chan error)
	go func() { done <- fsys.Mkdir("d", 0o755) }()
	<-reached
	fsys.Fail(faultfs.Rule{Op: faultfs.OpMkdir, Err: syscall.ENOSPC})
	close(release)
	if err := <-done; !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Mkdir held back while a rule was added: %v, want ENOSPC", err)
	}
	if exists(t, inner, "d") {
		t.Errorf("the failed Mkdir created d")
	}
}

func TestBeforeHookFails(t *testing.T) {
	fsys, inner := newFS(t)
	second := false
	fsys.Before(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpMkdir && ev.Name == "d" {
			return syscall.EACCES
		}
		return nil
	})
	fsys.Before(func(ev faultfs.Event) error {
		second = ev.Op == faultfs.OpMkdir
		return nil
	})
	err := fsys.Mkdir("d", 0o755)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "mkdir" || pe.Path != "d" || !errors.Is(err, syscall.EACCES) {
		t.Errorf("Mkdir(d) = %#v, want &fs.PathError{Op: mkdir, Path: d, Err: EACCES}", err)
	}
	if exists(t, inner, "d") {
		t.Errorf("Mkdir failed by a Before hook created d")
	}
	if second {
		t.Errorf("a Before hook after the failing one ran")
	}
	if err := fsys.Mkdir("e", 0o755); err != nil || !second {
		t.Errorf("Mkdir(e) = %v, second hook ran = %v; want nil, true", err, second)
	}
}

func TestAfterHookSeesResult(t *testing.T) {
	fsys, inner := newFS(t)
	var events []faultfs.Event
	fsys.After(func(ev faultfs.Event) error {
		events = append(events, ev)
		return nil
	})
	fsys.Mkdir("d", 0o755)
	fsys.Mkdir("d", 0o755)
	fsys.Fail(faultfs.Rule{Op: faultfs.OpRemove, Err: syscall.EBUSY, Times: 1})
	fsys.Remove("d")
	fsys.Rename("d", "e")

	if len(events) != 4 {
		t.Fatalf("After saw %d events, want 4: %v", len(events), events)
	}
	checks := []struct {
		op      faultfs.Op
		name    string
		newName string
		target  error
	}{
		{faultfs.OpMkdir, "d", "", nil},
		{faultfs.OpMkdir, "d", "", fs.ErrExist},
		{faultfs.OpRemove, "d", "", syscall.EBUSY},
		{faultfs.OpRename, "d", "e", nil},
	}
	for i, c := range checks {
		ev := events[i]
		if ev.Op != c.op || ev.Name != c.name || ev.NewName != c.newName {
			t.Errorf("event %d = %v %q %q, want %v %q %q", i, ev.Op, ev.Name, ev.NewName, c.op, c.name, c.newName)
		}
		if (c.target == nil) != (ev.Err == nil) || (c.target != nil && !errors.Is(ev.Err, c.target)) {
			t.Errorf("event %d (%v %s) has Err %v, want %v", i, ev.Op, ev.Name, ev.Err, c.target)
		}
	}
	if !exists(t, inner, "e") {
		t.Errorf("the rename to e did not happen")
	}
}

func TestAfterHookFailsARunOp(t *testing.T) {
	fsys, inner := newFS(t)
	fsys.After(func(ev faultfs.Event) error {
		if ev.Op == faultfs.OpMkdir {
			return syscall.EIO
		}
		return nil
	})
	var seen error
	fsys.After(func(ev faultfs.Event) error {
		seen = ev.Err
		return nil
	})
	if err := fsys.Mkdir("d", 0o755); !errors.Is(err, syscall.EIO) {
		t.Errorf("Mkdir failed by an After hook: %v, want EIO", err)
	}
	if !exists(t, inner, "d") {
		t.Errorf("the After hook's failure undid the Mkdir; it must have run")
	}
	if !errors.Is(seen, syscall.EIO) {
		t.Errorf("the next After hook saw %v, want the first one's EIO", seen)
	}
}

func TestHookOrder(t *testing.T) {
	fsys, _ := newFS(t)
	var order []string
	add := func(when string, n string) faultfs.Hook {
		return func(faultfs.Event) error {
			order = append(order, when+n)
			return nil
		}
	}
	fsys.After(add("after", "1"))
	fsys.Before(add("before", "1"))
	fsys.Before(add("before", "2"))
	fsys.After(add("after", "2"))
	fsys.Before(add("before", "3"))
	fsys.Stat(".")
	want := []string{"before1", "before2", "before3", "after1", "after2"}
	if !slices.Equal(order, want) {
		t.Errorf("hooks ran in order %v, want %v", order, want)
	}
	fsys.Clear()
	order = nil
	fsys.Stat(".")
	if len(order) != 0 {
		t.Errorf("hooks ran after Clear: %v", order)
	}
}

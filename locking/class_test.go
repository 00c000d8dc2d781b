package locking_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/faultfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
)

// R13: link() failing with EPERM, EOPNOTSUPP or ENOTSUP falls back to the
// exclusive create: two writes in a row and eight at once, nothing lost,
// nothing left; and each hold tries link() once before it opens the lock.
func TestLinkRefusedFallsBack(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EPERM, syscall.EOPNOTSUPP, syscall.ENOTSUP} {
		t.Run(errno.Error(), func(t *testing.T) {
			e := newEstate(t, classes[0])
			ffs := faultfs.New(nolinkfs.New(e.fsys, errno))
			e.fsys = ffs
			opts := fast(nil)
			opts.Timeout = 10 * time.Second
			var want []string
			for i := 0; i < 2; i++ {
				rec := fmt.Sprintf("seq-%d", i)
				want = append(want, rec)
				if err := locking.Update(context.Background(), ffs, target, appendRecord(rec), opts); err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
			}
			if n := ffs.Calls(faultfs.OpLink, ""); n != 2 {
				t.Fatalf("two holds made %d link() calls, want one each", n)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for i := 0; i < 8; i++ {
				rec := fmt.Sprintf("par-%d", i)
				want = append(want, rec)
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- locking.Update(context.Background(), ffs, target, appendRecord(rec), opts)
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			e.wantRecords(t, want...)
			e.onlyTarget(t, true)
		})
	}
}

// The link() errors that are not "no hard links": EEXIST means held, and
// ENOENT is an error of its own, never a fallback.
func TestLinkENOENTIsNotAFallback(t *testing.T) {
	e := newEstate(t, classes[0])
	ffs := faultfs.New(e.fsys)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpLink, Err: syscall.ENOENT, Times: 1})
	_, err := locking.Acquire(context.Background(), ffs, target, fast(nil))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want the link() ENOENT", err)
	}
	if ffs.Calls(faultfs.OpOpenFile, lockP) != 0 {
		t.Fatal("ENOENT from link() fell back to an exclusive create")
	}
	if got := e.ls(t); len(got) != 0 {
		t.Fatalf("folder holds %q, want nothing (the pending file removed)", got)
	}
}

// R14: a publish that fails after its exclusive step unlinks nothing but its
// own pending file, and a replacement lock stays. With hard links the write
// of the pending file fails; without, the write of the lock itself fails,
// and while it fails another process replaces the lock (a forced unlock and
// a new holder): the replacement stays byte for byte.
func TestFailedPublishUnlinksNothingElse(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		replacement := lockJSON(locktestLivePID(t), hostname(t), true, "aaaaaaaaaaaaaaaaaaaaaaaa", time.Now())
		failOn := "*.pending-*"
		if e.class == "nolinks" {
			failOn = "log.json.lock"
		}
		ffs.Before(func(ev faultfs.Event) error {
			if ev.Op != faultfs.OpWrite {
				return nil
			}
			if ok, _ := pathMatch(failOn, ev.Name); !ok {
				return nil
			}
			// Another process takes the lock name meanwhile.
			_ = os.Remove(e.path(lockP))
			if err := os.WriteFile(e.path(lockP), replacement, 0o644); err != nil {
				t.Error(err)
			}
			return syscall.EIO
		})
		_, err := locking.Acquire(context.Background(), ffs, target, fast(nil))
		if !errors.Is(err, syscall.EIO) {
			t.Fatalf("err = %v, want the injected EIO", err)
		}
		if got := e.readRaw(t, lockP); !bytes.Equal(got, replacement) {
			t.Fatalf("the replacement lock changed to %q", got)
		}
		if n := ffs.Calls(faultfs.OpRemove, "log.json.lock"); n != 0 {
			t.Fatalf("the lock name was removed %d times", n)
		}
		if got := e.ls(t); len(got) != 1 {
			t.Fatalf("folder holds %q, want the replacement lock only", got)
		}
	})
}

func pathMatch(pattern, name string) (bool, error) {
	if ok, err := pathMatchOne(pattern, name); ok || err != nil {
		return ok, err
	}
	i := len(name) - 1
	for i >= 0 && name[i] != '/' {
		i--
	}
	return pathMatchOne(pattern, name[i+1:])
}

// R27: claims, broken files, pending files and temp files carry the
// attempt's own token, so two attempts never share a name.
func TestNamesUniquePerAttempt(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		ffs := faultfs.New(e.fsys)
		var mu sync.Mutex
		seen := map[string]bool{}
		var dup []string
		ffs.Before(func(ev faultfs.Event) error {
			// A name is made by the exclusive create of a pending file, a
			// claim or a temp file, or by the rename to a broken name.
			var name string
			switch {
			case ev.Op == faultfs.OpOpenFile && strings.ContainsAny(ev.Name, "-") && !strings.Contains(ev.Name, ".broken-"):
				name = ev.Name
			case ev.Op == faultfs.OpRename && strings.Contains(ev.NewName, ".broken-"):
				name = ev.NewName
			default:
				return nil
			}
			mu.Lock()
			defer mu.Unlock()
			if seen[name] {
				dup = append(dup, name)
			}
			seen[name] = true
			return nil
		})
		for i := 0; i < 5; i++ {
			deadPID := locktestDeadPID(t)
			e.writeRaw(t, lockP, lockJSON(deadPID, hostname(t), true, "deaddeaddeaddeaddeaddead", time.Now()))
			if err := locking.Update(context.Background(), ffs, target, appendRecord(fmt.Sprint(i)), fast(nil)); err != nil {
				t.Fatal(err)
			}
		}
		kinds := map[string]int{}
		for name := range seen {
			for _, k := range []string{".pending-", ".claim-", ".broken-", ".tmp-"} {
				if bytes.Contains([]byte(name), []byte(k)) {
					kinds[k]++
				}
			}
		}
		if len(dup) > 0 {
			t.Fatalf("names used twice: %q", dup)
		}
		for _, k := range []string{".claim-", ".broken-", ".tmp-"} {
			if kinds[k] < 5 {
				t.Errorf("only %d %s names seen in 5 writes: %v", kinds[k], k, seen)
			}
		}
		if e.class == "links" && kinds[".pending-"] < 5 {
			t.Errorf("only %d pending names in 5 writes", kinds[".pending-"])
		}
	})
}

var _ vfs.FS = (*faultfs.FS)(nil)

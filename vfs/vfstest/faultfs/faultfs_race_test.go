package faultfs_test

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// TestTimesExactUnderConcurrency checks that a rule's Times is used up
// exactly, however many goroutines race for it.
func TestTimesExactUnderConcurrency(t *testing.T) {
	fsys, _ := newFS(t)
	const goroutines, calls, times = 16, 20, 37
	fsys.Fail(faultfs.Rule{Op: faultfs.OpStat, Err: syscall.EIO, Times: times})
	var failed atomic.Int64
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			<-start
			for range calls {
				if _, err := fsys.Stat("."); errors.Is(err, syscall.EIO) {
					failed.Add(1)
				} else if err != nil {
					t.Errorf("Stat(.): %v", err)
				}
			}
		})
	}
	close(start)
	wg.Wait()
	if got := failed.Load(); got != times {
		t.Errorf("%d of %d concurrent calls failed, want exactly Times = %d", got, goroutines*calls, times)
	}
	if got := fsys.Calls(faultfs.OpStat, "."); got != goroutines*calls {
		t.Errorf("Calls(OpStat, .) = %d, want %d", got, goroutines*calls)
	}
}

// TestConcurrentUse changes rules and hooks while other goroutines call the
// FS and its files; run with -race.
func TestConcurrentUse(t *testing.T) {
	fsys, _ := newFS(t)
	const workers, rounds = 8, 50
	stop := make(chan struct{})
	var changer sync.WaitGroup
	changer.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			fsys.Fail(faultfs.Rule{Op: faultfs.Op(1 + i%int(faultfs.OpClose)), Match: "w*-3", Times: 1})
			fsys.Before(func(faultfs.Event) error { return nil })
			fsys.After(func(ev faultfs.Event) error { _ = ev.Err; return nil })
			fsys.Calls(faultfs.OpWrite, "")
			if i%10 == 9 {
				fsys.Clear()
			}
		}
	})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for r := range rounds {
				name := fmt.Sprintf("w%d-%d", w, r%5)
				f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
				if err == nil {
					f.Write([]byte(name))
					f.Sync()
					f.Close()
				}
				fsys.Stat(name)
				vfs.ReadFile(fsys, name, 0)
				fsys.Rename(name, name+".moved")
				fsys.Remove(name + ".moved")
			}
		})
	}
	wg.Wait()
	close(stop)
	changer.Wait()
	if got := fsys.Calls(faultfs.OpOpenFile, "w*"); got < workers*rounds {
		t.Errorf("Calls(OpOpenFile, w*) = %d, want at least %d", got, workers*rounds)
	}
}

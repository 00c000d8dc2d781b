package main

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// interruptedOpen runs pa dispatch open in this process with a context
// already done (Ctrl-C while it waits), so that its exit-2 line leads with
// the lock as read then (lockNow), and returns that line.
func interruptedOpen(t *testing.T, home string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr strings.Builder
	if code := run(ctx, []string{"--home", home, "dispatch", "open", "--agent", "demo", "--wait", "1m"}, &stdout, &stderr); code != exitProblem {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2", code, stdout.String(), stderr.String())
	}
	return stderr.String()
}

// A lock held by this very process is named so in the line of a wait
// interrupted ("this pa, which exits now"), with the unlock that needs no
// --force; a lock of a holder in another pid namespace whose pid there is
// this process's pid here (a holder of another container, numbered as
// this one) is not: it is alive by its kernel lock, and the line names
// --force with when.
func TestLockNowNamesThisProcessOnlyInItsOwnNamespace(t *testing.T) {
	t.Run("this process", func(t *testing.T) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, demoLog, emptyLog)
		fsys, err := osfs.New(home)
		if err != nil {
			t.Fatal(err)
		}
		defer fsys.Close()
		h, err := locking.Acquire(context.Background(), fsys, demoLog, locking.Options{Timeout: locking.NoWait})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Release()
		line := interruptedOpen(t, home)
		want := ", this pa, which exits now: interrupted while waiting for it: nothing written; clear it with pa --home " + home + " dispatch unlock --agent demo\n"
		if !strings.HasPrefix(line, "pa: "+demoLog+".lock held by pid "+strconv.Itoa(os.Getpid())+" ") || !strings.HasSuffix(line, want) {
			t.Errorf("line %q; want this pid, then %q", line, want)
		}
	})

	t.Run("another pid namespace, the same pid", func(t *testing.T) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, demoLog, emptyLog)
		startHolder(t, home, true)
		// The holder's pid there is 1; make it this process's pid here,
		// in place (the same file: its kernel lock and claim stay).
		pid := regexp.MustCompile(`^\{"pid":1,`)
		rewriteDemoLock(t, home, pid, "the lock %s; want pid 1", []byte(`{"pid":`+strconv.Itoa(os.Getpid())+`,`))
		line := interruptedOpen(t, home)
		lead := "pa: " + demoLog + ".lock held by pid " + strconv.Itoa(os.Getpid()) + " on host \"" + hostname() +
			"\" (alive in another pid namespace of this host: holds the lock's kernel lock, age "
		want := "): interrupted while waiting for it: nothing written; clear it with pa --home " + home + " dispatch unlock --force --agent demo, " + forceWhen + "\n"
		if !strings.HasPrefix(line, lead) || !strings.HasSuffix(line, want) || strings.Contains(line, "this pa") {
			t.Errorf("line %q; want %q...%q, not this pa", line, lead, want)
		}
	})
}

//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// TestOpenStoppedBySIGTERMWhileWaiting: a SIGTERM while `pa dispatch open`
// waits for a live holder's lock ends the wait as Ctrl-C does: exit 2, the
// interrupted line, nothing written, and no pending file of its own left
// beside the lock (the default action of SIGTERM would kill pa with no
// line, perhaps between a pending file's create and its removal).
func TestOpenStoppedBySIGTERMWhileWaiting(t *testing.T) {
	live := locktest.LivePID(t)
	home := t.TempDir()
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
	dir := filepath.Join(home, filepath.Dir(logName))
	cmd := exec.Command(paBin, "--home", home, "dispatch", "open", "--agent", "demo", "--wait", "1m")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// The waiter's pending file appears once it has tried the lock and
	// waits: then it is stopped.
	pending := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, filepath.Base(logName)+".lock.pending-*"))
		return m
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(pending()) == 0 {
		select {
		case err := <-done:
			t.Fatalf("pa exited before it waited: %v (stderr %q)", err, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no pending file beside the held lock after 30 s (stderr %q)", stderr.String())
		}
		time.Sleep(time.Millisecond) // polls for a state, orders nothing
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("pa still runs 30 s after SIGTERM")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitProblem {
		t.Errorf("pa after SIGTERM: %v; want exit %d", err, exitProblem)
	}
	lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d ", live)
	if got := stderr.String(); !strings.HasPrefix(got, lead) || !strings.Contains(got, "interrupted while waiting for it: nothing written") || stdout.String() != "" {
		t.Errorf("stdout %q, stderr %q; want one line leading with %q, interrupted, nothing written", stdout.String(), got, lead)
	}
	if left := pending(); len(left) != 0 {
		t.Errorf("left beside the lock after SIGTERM: %v", left)
	}
	if _, err := os.Stat(filepath.Join(home, logName)); !os.IsNotExist(err) {
		t.Errorf("spawn-log after SIGTERM: %v; want none written", err)
	}
}

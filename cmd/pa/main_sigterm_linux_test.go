package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
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
// line, perhaps between a pending file's create and its removal). pa's
// stderr is a pseudo-terminal, so its wait line says when it waits: then
// it is stopped.
func TestOpenStoppedBySIGTERMWhileWaiting(t *testing.T) {
	live := locktest.LivePID(t)
	home := t.TempDir()
	estatetest.WriteFile(t, home, logName+".lock", lockJSON(live, hostname(), time.Now()))
	dir := filepath.Join(home, filepath.Dir(logName))
	controller, terminal := openPTY(t)
	cmd := exec.Command(paBin, "--home", home, "dispatch", "open", "--agent", "demo", "--wait", "1m")
	var stdout strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, terminal
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	terminal.Close() // the child has it: the controller reads EIO once it exits
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	// What pa prints on its terminal, read as it comes; waiting is closed
	// at its wait line.
	var mu sync.Mutex
	var said strings.Builder
	waiting, read := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		seen := false
		for {
			n, err := controller.Read(buf)
			mu.Lock()
			said.Write(buf[:n])
			if !seen && strings.Contains(said.String(), ": waiting for it until ") {
				seen = true
				close(waiting)
			}
			mu.Unlock()
			if err != nil {
				return // EIO once pa's terminal closes
			}
		}
	}()
	select {
	case <-waiting:
	case err := <-done:
		<-read
		t.Fatalf("pa exited before it waited: %v (terminal %q)", err, said.String())
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("no wait line after 30 s")
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
	<-read
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitProblem {
		t.Errorf("pa after SIGTERM: %v; want exit %d", err, exitProblem)
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(said.String(), "\r\n", "\n"), "\n"), "\n")
	lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d ", live)
	last := lines[len(lines)-1]
	if len(lines) != 2 || !strings.HasPrefix(last, lead) || !strings.Contains(last, "interrupted while waiting for it: nothing written") || stdout.String() != "" {
		t.Errorf("stdout %q, terminal %q; want the wait line, then one line leading with %q, interrupted, nothing written", stdout.String(), said.String(), lead)
	}
	left, _ := filepath.Glob(filepath.Join(dir, filepath.Base(logName)+".lock.pending-*"))
	if len(left) != 0 {
		t.Errorf("left beside the lock after SIGTERM: %v", left)
	}
	if _, err := os.Stat(filepath.Join(home, logName)); !os.IsNotExist(err) {
		t.Errorf("spawn-log after SIGTERM: %v; want none written", err)
	}
}

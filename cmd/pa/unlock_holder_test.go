package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// holdEnv names the estate in which the test binary, started again by
// startHolder, takes the demo agent's spawn-log lock and holds it.
const holdEnv = "PATEST_HOLD_HOME"

// holdLock is the holder's process: it takes the demo agent's spawn-log
// lock in the estate home (at once, or it fails), says "held" on stdout,
// then waits on stdin: at its end it releases the lock and exits 0 (4 when
// the lock was taken from it meanwhile); on a line "die" it exits 3
// without releasing (a holder that died: its lock left, its kernel lock
// gone with it).
func holdLock(home string) int {
	fsys, err := osfs.New(home)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	h, err := locking.Acquire(context.Background(), fsys, demoLog, locking.Options{Timeout: locking.NoWait})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("held")
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	if strings.TrimSpace(line) == "die" {
		return 3
	}
	switch err := h.Release(); {
	case errors.Is(err, locking.ErrLockLost):
		return 4 // the test removed the lock (unlock --force): nothing to say
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// holderProc is a process started by startHolder that holds the demo agent's
// spawn-log lock.
type holderProc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// startHolder starts the test binary as a holder of the demo agent's
// spawn-log lock in the estate home (whose agents/demo folder must exist)
// and returns once it holds it, skipping the test where its lock claims no
// kernel lock (a system or volume without one). With namespace it runs in
// a new pid namespace of this host (unshare -p -f --mount-proc: the same
// hostname and boot, its own pids), skipping the test where that cannot be
// done (not Linux, not root, no unshare). The holder is stopped when the
// test ends.
func startHolder(t *testing.T, home string, namespace bool) *holderProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{exe, "-test.run=^$"}
	if namespace {
		if runtime.GOOS != "linux" {
			t.Skip("a holder in another pid namespace needs Linux (unshare -p)")
		}
		if os.Geteuid() != 0 {
			t.Skip("a holder in another pid namespace needs root (unshare -p -f --mount-proc)")
		}
		u, err := exec.LookPath("unshare")
		if err != nil {
			t.Skip("a holder in another pid namespace needs unshare (util-linux): " + err.Error())
		}
		args = append([]string{u, "-p", "-f", "--mount-proc"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), holdEnv+"="+home, "GOFLAGS=")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting a holder (%q): %v", args, err)
	}
	h := &holderProc{cmd: cmd, stdin: stdin}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if line != "held\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("the holder (%q) said %q (%v); want held", args, line, err)
	}
	if b, err := os.ReadFile(filepath.Join(home, filepath.FromSlash(demoLog+".lock"))); err != nil || !kernelClaim.Match(b) {
		t.Skipf("the holder's lock claims no kernel lock (%v): this system or volume has none", err)
	}
	return h
}

// die makes the holder exit without releasing the lock, and waits for it.
func (h *holderProc) die(t *testing.T) {
	t.Helper()
	if _, err := io.WriteString(h.stdin, "die\n"); err != nil {
		t.Fatal(err)
	}
	_ = h.stdin.Close()
	if err := h.cmd.Wait(); err == nil || h.cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("the holder exited %v; want exit 3", err)
	}
}

// pid is the holder's pid as this process sees it (in another pid
// namespace the lock records its pid there: 1).
func (h *holderProc) pid() int { return h.cmd.Process.Pid }

// emptyLog is a spawn-log with no record, to give a holder its agent's
// folder.
const emptyLog = `{"version":1,"nextId":1,"records":[]}`

// kernelClaim is the lock record's claim of a kernel lock.
var kernelClaim = regexp.MustCompile(`,"kernelLock":\{"dev":[0-9]+,"ino":[0-9]+\}`)

// dropKernelClaim rewrites the demo agent's lock in place (the same file,
// so its holder keeps it and its kernel lock) without the record's claim of
// a kernel lock, as a holder on a volume without kernel locks records it:
// then only its identity judges it.
func dropKernelClaim(t *testing.T, home string) string {
	t.Helper()
	return string(rewriteDemoLock(t, home, kernelClaim, "the lock %s claims no kernel lock", nil))
}

// rewriteDemoLock rewrites the demo agent's lock in place (the same file,
// so its holder keeps it, its kernel lock and its claim) with what re
// matches replaced by repl, and returns the new bytes; notFound (a format
// with one %s, the lock) fails the test when re matches nothing.
func rewriteDemoLock(t *testing.T, home string, re *regexp.Regexp, notFound string, repl []byte) []byte {
	t.Helper()
	name := filepath.Join(home, filepath.FromSlash(demoLog+".lock"))
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !re.Match(b) {
		t.Fatalf(notFound, b)
	}
	b = re.ReplaceAll(b, repl)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return b
}

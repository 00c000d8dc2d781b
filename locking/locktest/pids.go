package locktest

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// DeadPID returns the pid of a real process of this machine that has
// exited: it starts the test binary with a flag that makes it exit at once
// and waits for it. Linux hands out pids in order, so the pid is not reused
// during a test.
func DeadPID(t testing.TB) int {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("os.Executable: %v", err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	if err := cmd.Run(); err != nil {
		t.Fatalf("running a short-lived process: %v", err)
	}
	return cmd.Process.Pid
}

// LivePID returns the pid of a real process of this machine that stays
// alive until the test ends (a child that sleeps). It is not this process,
// so it stands for "another live process".
func LivePID(t testing.TB) int {
	t.Helper()
	var cmd *exec.Cmd
	if runtime.GOOS == "windows" {
		cmd = exec.Command("ping", "-n", "3600", "127.0.0.1")
	} else {
		cmd = exec.Command("sleep", "3600")
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting a long-lived process: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_, _ = cmd.Process.Wait()
	})
	return cmd.Process.Pid
}

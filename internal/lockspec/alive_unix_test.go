//go:build unix

package lockspec

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// EPERM from kill(pid, 0) reads as alive (spec: The one automatic break):
// a process of another user is never provably dead. As root, kill never
// answers EPERM, so the check runs in a copy of the test binary started as
// the user nobody.
func TestEPERMReadsAlive(t *testing.T) {
	if os.Getenv("LOCKING_EPERM_CHILD") == "1" {
		err := unix.Kill(1, 0)
		if !errors.Is(err, unix.EPERM) {
			t.Fatalf("kill(1, 0) as uid %d = %v, want EPERM", os.Getuid(), err)
		}
		if !processAlive(1) {
			t.Fatal("a pid that answers EPERM read as dead")
		}
		return
	}
	if os.Getuid() != 0 {
		if err := unix.Kill(1, 0); !errors.Is(err, unix.EPERM) {
			t.Skipf("kill(1, 0) = %v here, not EPERM", err)
		}
		if !processAlive(1) {
			t.Fatal("a pid that answers EPERM read as dead")
		}
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "eperm")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	copyExe := filepath.Join(dir, "locking.test")
	if err := copyFile(exe, copyExe); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(copyExe, "-test.run=^TestEPERMReadsAlive$", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LOCKING_EPERM_CHILD=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child as nobody: %v\n%s", err, out)
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// ESRCH, and pids outside the range, never reach kill as "dead" by mistake.
func TestProcessAlive(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Fatal("this process reads as dead")
	}
	beyond := int64(maxPID) + 1 // a variable: the test builds where int is 32 bits
	for _, pid := range []int{0, -1, int(beyond)} {
		if !processAlive(pid) {
			t.Fatalf("pid %d read as dead: it must never be judged by kill", pid)
		}
	}
}

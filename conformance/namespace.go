package conformance

import (
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// canUnshare says why a child cannot be started in a pid namespace of its
// own here ("" when it can): that takes Linux, root and unshare(1).
func canUnshare() string {
	if runtime.GOOS != "linux" {
		return "pid namespaces are Linux's"
	}
	if os.Geteuid() != 0 {
		return "unshare -p needs root"
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		return "no unshare(1) on PATH (util-linux)"
	}
	return ""
}

// needUnshare skips a case that starts a child in another pid namespace
// where that cannot be done, saying why; under CI=true (root on Linux) it
// fails instead, so that the row is never passed over there.
func needUnshare(t *testing.T) {
	t.Helper()
	why := canUnshare()
	if why == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("this row needs a second pid namespace: %s", why)
	}
	t.Skipf("this row needs a second pid namespace: %s", why)
}

// inNamespace is the command that runs exe with args in a new pid
// namespace with its own /proc and this host's hostname. A shell is its
// pid 1 and exe its pid 2: the init of a namespace ignores the signals it
// has no handler for, so a pid 1 could not kill itself at a step.
func inNamespace(t *testing.T, exe string, args ...string) *exec.Cmd {
	t.Helper()
	needUnshare(t)
	return exec.Command("unshare", append([]string{"-p", "-f", "--kill-child", "--mount-proc", "sh", "-c", `"$@"; exit $?`, "sh", exe}, args...)...)
}

package conformance

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
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

// innerPID finds the pid, in this process's namespace, of the test binary
// that the child c runs in its own namespace: the descendant of c's
// unshare whose command line starts with exe.
func (c *child) innerPID(t *testing.T) int {
	t.Helper()
	exe, _ := os.Executable()
	frontier := []int{c.cmd.Process.Pid}
	for len(frontier) > 0 {
		pid := frontier[0]
		frontier = frontier[1:]
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			kid, err := strconv.Atoi(f)
			if err != nil {
				continue
			}
			if cmd, err := os.ReadFile("/proc/" + f + "/cmdline"); err == nil && strings.HasPrefix(string(cmd), exe+"\x00") {
				return kid
			}
			frontier = append(frontier, kid)
		}
	}
	t.Fatalf("child %s: no process of %s under its unshare (pid %d)", c.name, exe, c.cmd.Process.Pid)
	return 0
}

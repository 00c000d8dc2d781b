//go:build unix

package mapread_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/pa-toolkit/pa/internal/mapread"
)

// mappedCut maps a file of 64 KiB and cuts it to nothing: touching its
// last page faults (SIGBUS), as a spawn-log or board mapping does when
// another process truncates the file.
func mappedCut(t *testing.T) []byte {
	t.Helper()
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := syscall.Mmap(int(f.Fd()), 0, 1<<16, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(data) })
	if err := os.Truncate(name, 0); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestGoTurnsAFaultInDataIntoNotSure: a fault reading data in Go's
// goroutine (which mapread.Guard does not guard) is "not sure", false,
// and no crash.
func TestGoTurnsAFaultInDataIntoNotSure(t *testing.T) {
	data := mappedCut(t)
	var sum byte
	wait := mapread.Go(data, func() bool {
		for _, c := range data[len(data)-4096:] {
			sum += c
		}
		return true
	})
	if wait() {
		t.Fatalf("Go reading a mapping cut short = true (sum %d); want false", sum)
	}
}

// TestGoLetsAFaultOutsideDataGoOn: a fault at an address outside data is
// not the caller's mapping cut short, so Go does not swallow it as "not
// sure": the process crashes (seen from a child process), and the waiter
// is never told anything (it had been told "not sure" while the crash was
// under way, and its test's cleanup then raced the crash to remove the
// temp folder: a race-detector run of CI caught that). The child's
// temp folders are made in one of this test's, as its crash removes none.
func TestGoLetsAFaultOutsideDataGoOn(t *testing.T) {
	if os.Getenv("MAPREAD_FAULT_CHILD") == "1" {
		data := mappedCut(t)
		wait := mapread.Go(data[:1], func() bool { return data[len(data)-1] == 0 })
		if !wait() {
			// Told "not sure" while the crash is under way: the caller
			// would go on (and the test's cleanup remove its temp folder).
			fmt.Println("told not sure")
			select {}
		}
		return // only when the fault was swallowed
	}
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestGoLetsAFaultOutsideDataGoOn$", "-test.count=1")
	cmd.Env = append(os.Environ(), "MAPREAD_FAULT_CHILD=1", "TMPDIR="+tmp, "GOTMPDIR="+tmp)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "signal SIG") || strings.Contains(string(out), "told not sure") {
		t.Fatalf("a fault outside data in Go's goroutine: the child exits %v; want it crashed on the fault, its waiter never told:\n%s", err, out)
	}
	if left, err := os.ReadDir(tmp); err != nil || len(left) == 0 {
		t.Fatalf("the crashed child's temp folder is not in %s (%d entries, %v): it would be left in $TMPDIR", tmp, len(left), err)
	}
}

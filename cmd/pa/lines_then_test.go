package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A lock name that is not a regular file (a directory here) is named in
// lines that read as one sentence: `... (a directory, age 6ms): not a lock;
// gave up at once (--wait 0); ...`, never `: not a lock: gave up`, and
// unlock prints it with one colon.
func TestLinesOfALockThatIsNoFileReadAsOneSentence(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	if r := c.run(t, home, "dispatch", "open", "--agent", "demo"); r.code != 0 {
		t.Fatalf("open: exit %d, %q", r.code, r.stderr)
	}
	if err := os.Mkdir(filepath.Join(home, filepath.FromSlash(logName+".lock")), 0o755); err != nil {
		t.Fatal(err)
	}
	lead := "pa: " + logName + ".lock is not a regular file (a directory, age "
	r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
	if r.code != exitProblem || !strings.HasPrefix(r.stderr, lead) || !strings.Contains(r.stderr, "): not a lock; gave up at once (--wait 0); ") {
		t.Errorf("open --wait 0: exit %d, stderr %q; want exit 2 and %q...): not a lock; gave up at once (--wait 0); ...", r.code, r.stderr, lead)
	}
	r = c.run(t, home, "dispatch", "unlock", "--agent", "demo")
	if r.code != exitProblem || !strings.HasPrefix(r.stdout, logName+".lock is not a regular file (a directory, age ") || strings.Count(r.stdout, ": ") != 1 {
		t.Errorf("unlock: exit %d, stdout %q; want the lock named with one colon", r.code, r.stdout)
	}
	for _, out := range []string{r.stdout, r.stderr} {
		if strings.Contains(out, "not a lock: ") {
			t.Errorf("unlock: %q reads `not a lock: `", out)
		}
	}
}

// then joins a lead with ": ", or with "; " after a lead that ends in a
// clause of its own.
func TestThen(t *testing.T) {
	for lead, want := range map[string]string{
		"x.lock held by pid 1 on host \"h\" (alive, age 1s, acquiredAt t)": "x.lock held by pid 1 on host \"h\" (alive, age 1s, acquiredAt t): ",
		"x.lock is not a regular file (a directory, age 6ms): not a lock":  "x.lock is not a regular file (a directory, age 6ms): not a lock; ",
		"x.lock (no holder)": "x.lock (no holder): ",
	} {
		if got := then(lead); got != want {
			t.Errorf("then(%q) = %q; want %q", lead, got, want)
		}
	}
}

package main

import (
	"strings"
	"testing"
)

// The shipped build has no fault injection: it ignores PA_FAULT_* and runs
// on the real OS. The pafault build refuses an unknown errno or step.
func TestFaultInjectionOnlyInThePafaultBuild(t *testing.T) {
	home := t.TempDir()
	shipped := binClasses[0]
	r := runCmd(t, shipped.command(home, []string{"PA_FAULT_LINK_ERRNO=bogus", "PA_FAULT_STEP=commit:renamed", "PA_FAULT_LOSE_LOCK_AT=commit:renamed"}, "dispatch", "open", "--agent", "demo"))
	if r.code != 0 || r.stdout != "1\n" {
		t.Errorf("shipped build with PA_FAULT_*: exit %d, stdout %q, stderr %q; want it ignored", r.code, r.stdout, r.stderr)
	}
	for _, env := range []string{"PA_FAULT_LINK_ERRNO=EXDEV", "PA_FAULT_STEP=commit:nowhere", "PA_FAULT_LOSE_LOCK_AT=commit:nowhere"} {
		faulty := binClass{bin: func() string { return paFaultBin }}
		r := runCmd(t, faulty.command(home, []string{env}, "dispatch", "open", "--agent", "demo"))
		if r.code != 1 || !strings.HasPrefix(r.stderr, "pa: ") {
			t.Errorf("pafault build with %s: exit %d, stderr %q; want exit 1", env, r.code, r.stderr)
		}
	}
}

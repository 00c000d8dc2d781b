package policy_test

import (
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/locking/policy"
)

// A label is short and public-safe: never a path, a variable, a command
// line or a control character; the empty label is "not recorded".
func TestValidLabel(t *testing.T) {
	for s, want := range map[string]bool{
		"": true, "dispatch open": true, "agent-7.b_c:d@e+f": true,
		strings.Repeat("a", policy.MaxLabel): true, strings.Repeat("a", policy.MaxLabel+1): false,
		"/home/x": false, `C:\x`: false, "$HOME": false, "%PATH%": false, "A=B": false,
		"a\nb": false, "a\x00": false, "é": false, "rm;ls": false,
	} {
		if got := policy.ValidLabel(s); got != want {
			t.Errorf("ValidLabel(%q) = %v; want %v", s, got, want)
		}
	}
}

// A lock's id is stable for a name (cleaned), differs between names, and
// holds no part of the name.
func TestLockID(t *testing.T) {
	a := policy.LockID("agents/x/spawn-log.json")
	if a != policy.LockID("agents/x/./spawn-log.json") {
		t.Error("the id of one name, spelled two ways, differs")
	}
	if a == policy.LockID("agents/y/spawn-log.json") {
		t.Error("two names share an id")
	}
	if len(a) != 19 || !strings.HasPrefix(a, "lk_") || strings.Contains(a, "spawn") {
		t.Errorf("LockID = %q; want lk_ and 16 hex digits", a)
	}
}

package conformance

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// kind names what a name in the agent's folder is: spawn-log, lock,
// pending, claim, broken, tmp, staged (a staging directory of the
// directory publish), probe (a pending file's second link: linkedKernelLock),
// or other:NAME.
func kind(name string) string {
	l := logBase + ".lock"
	switch {
	case name == logBase:
		return "spawn-log"
	case name == l:
		return "lock"
	case strings.HasPrefix(name, l+".pending-"):
		return "pending"
	case strings.HasPrefix(name, l+".claim-"):
		return "claim"
	case strings.HasPrefix(name, l+".broken-"):
		return "broken"
	case strings.HasPrefix(name, logBase+".tmp-"):
		return "tmp"
	case strings.HasPrefix(name, l+".staged-"):
		return "staged"
	case strings.HasPrefix(name, l+".probe-"):
		return "probe"
	}
	return "other:" + name
}

// wantLeft fails unless the agent's folder holds exactly the kinds want
// (in any order), and every pending, claim, broken and temp name is owned
// by pid (its name records it).
func (s *site) wantLeft(t *testing.T, pid int, want ...string) {
	t.Helper()
	var got []string
	for _, n := range s.ls(t) {
		k := kind(n)
		got = append(got, k)
		if k != "spawn-log" && k != "lock" && !strings.Contains(n, "-"+strconv.Itoa(pid)+"-") {
			t.Errorf("%s is not owned by pid %d", n, pid)
		}
	}
	w := slices.Clone(want)
	slices.Sort(got)
	slices.Sort(w)
	if !slices.Equal(got, w) {
		t.Fatalf("the folder holds %q (%q); want %q", s.ls(t), got, w)
	}
}

// named returns the agent-folder names of kind k.
func (s *site) named(t *testing.T, k string) []string {
	t.Helper()
	var out []string
	for _, n := range s.ls(t) {
		if kind(n) == k {
			out = append(out, agentDir+"/"+n)
		}
	}
	return out
}

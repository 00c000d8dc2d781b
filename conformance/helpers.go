package conformance

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/dispatch"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
)

// fast returns lock options with short windows, for host h (nil: the real
// host).
func fast(h locking.Host) locking.Options {
	return locking.Options{Host: h, Timeout: 300 * time.Millisecond, PollInterval: 2 * time.Millisecond, UnlockBusyWait: 100 * time.Millisecond}
}

// noWait returns options for a writer that must go through at once.
func noWait(h locking.Host) locking.Options {
	o := fast(h)
	o.Timeout = locking.NoWait
	return o
}

// patient returns options for a writer that may wait behind a live holder.
func patient(h locking.Host) locking.Options {
	o := fast(h)
	o.Timeout = 10 * time.Second
	return o
}

// lockJSON is a lock's content as a holder writes it (withHost false: the
// earlier shape with no hostname).
func lockJSON(pid int, hostname string, withHost bool, token string, at time.Time) []byte {
	m := map[string]any{"pid": pid, "token": token, "acquiredAt": at.UTC().Format("2006-01-02T15:04:05.000Z")}
	if withHost {
		m["hostname"] = hostname
	}
	b, _ := json.Marshal(m)
	return b
}

// hostname is this host's name, as the lock records it.
func hostname() string { return locking.OSHost().Hostname() }

// logDoc is a spawn-log holding records titled titles, ids 1..n.
func logDoc(titles ...string) []byte {
	type rec struct {
		ID    int    `json:"id"`
		Agent string `json:"agent"`
		Title string `json:"title"`
	}
	recs := []rec{}
	for i, tt := range titles {
		recs = append(recs, rec{i + 1, agent, tt})
	}
	b, _ := json.Marshal(map[string]any{"version": 1, "nextId": len(titles) + 1, "records": recs})
	return b
}

// neutral fails if msg, a library error's Error(), speaks for pa: the
// library's errors are data and name the lock and its holder, no command
// and no --force; pa's own lines (run through s.pa) name the command.
func neutral(t *testing.T, msg string) {
	t.Helper()
	for _, bad := range []string{"pa dispatch", "dispatch unlock", "--force", "only once"} {
		if strings.Contains(msg, bad) {
			t.Errorf("%q holds %q; want a library error that names no command", msg, bad)
		}
	}
}

// contains fails unless s holds every sub.
func contains(t *testing.T, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%q does not contain %q", s, sub)
		}
	}
}

func hasStep(steps []lockspec.Step, s lockspec.Step) bool {
	for _, x := range steps {
		if x == s {
			return true
		}
	}
	return false
}

func equalSteps(a, b []lockspec.Step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lockHeld runs board check on the site's agent and returns its lock-held
// problems only (the records written here are not on a board).
func (s *site) lockHeld(t *testing.T, o dispatch.CheckOptions) []dispatch.Problem {
	t.Helper()
	if o.Lock.Host == nil {
		o.Lock.Host = s.me()
	}
	probs, err := dispatch.Check(s.fs, agent, o)
	if err != nil {
		t.Fatalf("board check: %v", err)
	}
	var out []dispatch.Problem
	for _, p := range probs {
		if p.Kind == dispatch.KindLockHeld {
			out = append(out, p)
		}
	}
	return out
}

// paAt is how the commands pa's messages name start in the estate root: pa
// --home ROOT, ROOT as one word for a POSIX shell (in single quotes when it
// holds anything but letters, digits and -_.,:@%+=/). The suite writes the
// words it expects itself rather than take them from pa.
func paAt(root string) string {
	if root != "" && strings.Trim(root, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,:@%+=/") == "" {
		return "pa --home " + root
	}
	return "pa --home '" + strings.ReplaceAll(root, "'", `'\''`) + "'"
}

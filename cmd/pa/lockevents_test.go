package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// syncBuffer is a strings.Builder safe for the wait line's timer and the
// test to use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// heldTimers is lockEvents.afterFunc for a test: it keeps each function
// armed, to be called by the test (from a goroutine of its own, as a
// timer would), and returns a timer that never fires.
type heldTimers struct {
	mu    sync.Mutex
	armed []func()
}

func (h *heldTimers) afterFunc(_ time.Duration, f func()) *time.Timer {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.armed = append(h.armed, f)
	return time.AfterFunc(time.Hour, func() {})
}

// fire calls the i-th function armed as its timer would, and waits for it.
func (h *heldTimers) fire(t *testing.T, i int) {
	t.Helper()
	h.mu.Lock()
	if i >= len(h.armed) {
		h.mu.Unlock()
		t.Fatalf("timer %d was never armed (%d were)", i, len(h.armed))
	}
	f := h.armed[i]
	h.mu.Unlock()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	<-done
}

func (h *heldTimers) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.armed)
}

// waitLineRE is the wait line of a holder (alive, pid 4242 of host "h"),
// its deadline 9 s after the wait began.
var waitLineRE = regexp.MustCompile(`^pa: agents/demo/spawn-log\.json\.lock held by pid (\d+) on host "h" \(alive, age [0-9.hmsµ]+, acquiredAt 2026-12-02T07:00:00\.000Z\): waiting for it until \d\d:\d\d:\d\d \(up to [0-9.hmsµ]+ more\)\n$`)

// aliveHolder is a live holder's Holder as the lock judges one, pid pid.
func aliveHolder(pid int, age time.Duration) locking.Holder {
	return locking.Holder{PID: pid, Hostname: "h", HasHostname: true, AcquiredAt: "2026-12-02T07:00:00.000Z", Age: age, State: locking.StateAlive}
}

// The wait line is printed once, by the timer armed at the first wait,
// naming the holder last waited on; a timer's call after open returned
// (end) prints nothing, and so does a call of a timer that a break
// stopped, once a later wait has armed another.
func TestWaitLineOnceAndNeverAfterOpenReturned(t *testing.T) {
	t.Run("after end", func(t *testing.T) {
		var out syncBuffer
		timers := &heldTimers{}
		e := &lockEvents{stderr: &out, a: advice{pa: "pa", agent: "demo"}, afterFunc: timers.afterFunc}
		e.waiting("", aliveHolder(4242, time.Second), time.Now().Add(9*time.Second))
		e.end()
		timers.fire(t, 0)
		if got := out.String(); got != "" {
			t.Errorf("the timer printed %q after open returned; want nothing", got)
		}
	})
	t.Run("once, the holder last waited on", func(t *testing.T) {
		var out syncBuffer
		timers := &heldTimers{}
		e := &lockEvents{stderr: &out, a: advice{pa: "pa", agent: "demo"}, afterFunc: timers.afterFunc}
		deadline := time.Now().Add(9 * time.Second)
		e.waiting("", aliveHolder(4242, time.Second), deadline)
		e.waiting("", aliveHolder(4343, time.Second), deadline) // another holder: no second timer
		if n := timers.count(); n != 1 {
			t.Fatalf("%d timers armed; want 1", n)
		}
		timers.fire(t, 0)
		timers.fire(t, 0) // a second call prints nothing
		e.waiting("", aliveHolder(4444, time.Second), deadline)
		if m := waitLineRE.FindStringSubmatch(out.String()); m == nil || m[1] != "4343" {
			t.Errorf("stderr %q; want one wait line naming pid 4343, matching %s", out.String(), waitLineRE)
		}
		if n := timers.count(); n != 1 {
			t.Errorf("%d timers armed after the line; want 1", n)
		}
	})
	t.Run("a break stops the timer", func(t *testing.T) {
		var out syncBuffer
		timers := &heldTimers{}
		e := &lockEvents{stderr: &out, a: advice{pa: "pa", agent: "demo"}, afterFunc: timers.afterFunc}
		deadline := time.Now().Add(9 * time.Second)
		e.waiting("", aliveHolder(4242, time.Second), deadline)
		dead := locking.Holder{PID: 4242, Hostname: "h", HasHostname: true, AcquiredAt: "2026-12-02T07:00:00.000Z", State: locking.StateDead}
		e.broke("", dead) // the holder died while open waited, and was broken
		e.waiting("", aliveHolder(4343, time.Second), deadline)
		broke := `pa: agents/demo/spawn-log.json.lock held by pid 4242 on host "h" (dead: pid 4242 is gone, age 0s, acquiredAt 2026-12-02T07:00:00.000Z): broken, as its holder is provably dead` + "\n"
		timers.fire(t, 0) // the stopped timer, late
		if got := out.String(); got != broke {
			t.Fatalf("stderr %q; want the break line alone %q: the timer the break stopped printed", got, broke)
		}
		timers.fire(t, 1)
		rest, ok := strings.CutPrefix(out.String(), broke)
		if m := waitLineRE.FindStringSubmatch(rest); !ok || m == nil || m[1] != "4343" {
			t.Errorf("stderr %q; want the break line, then the wait line naming pid 4343", out.String())
		}
	})
}

// The wait line's end: the deadline's clock time, with its date when it is
// not today, and at most how long that is from now.
func TestWaitingUntil(t *testing.T) {
	now := time.Date(2026, 12, 2, 7, 30, 0, 0, time.Local)
	for _, tc := range []struct {
		deadline time.Time
		want     string
	}{
		{now.Add(9 * time.Second), "waiting for it until 07:30:09 (up to 9s more)"},
		{now.Add(1500 * time.Millisecond), "waiting for it until 07:30:01 (up to 2s more)"},
		{now.Add(26 * time.Hour), "waiting for it until 2026-12-03 09:30:00 (up to 26h0m0s more)"},
	} {
		if got := waitingUntil(tc.deadline, now); got != tc.want {
			t.Errorf("waitingUntil(now + %v) = %q; want %q", tc.deadline.Sub(now), got, tc.want)
		}
	}
}

// brokeLineRE is the break line of open for the dead pid, the evidence
// what proved it dead.
func brokeLineRE(pid int, evidence string) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`^pa: agents/demo/spawn-log\.json\.lock held by pid %d on host "%s" \(dead: %s, age [0-9.hmsµ]+, acquiredAt [0-9TZ:.-]+\): broken, as its holder is provably dead\n$`,
		pid, regexp.QuoteMeta(hostname()), regexp.QuoteMeta(evidence)))
}

// `pa dispatch open` over a provably dead holder's lock breaks it, records
// the dispatch (exit 0, the id alone on stdout) and says so in one line on
// stderr, with stderr not a terminal: the lock, the dead holder's pid and
// host and what proved it dead (a lock of the spec's four fields: its pid is
// gone; a holder that recorded its kernel lock, killed: its pid is gone and
// no process holds that lock). With --json, stderr stays empty.
func TestOpenSaysItBrokeADeadHoldersLock(t *testing.T) {
	dead := locktest.DeadPID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		t.Run("four fields", func(t *testing.T) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(dead, hostname(), time.Now()))
			r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t")
			if re := brokeLineRE(dead, fmt.Sprintf("pid %d is gone", dead)); r.code != 0 || r.stdout != "1\n" || !re.MatchString(r.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, id 1 and one line matching %s", r.code, r.stdout, r.stderr, re)
			}
			estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(dead, hostname(), time.Now()))
			r = c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t", "--json")
			var rec struct{ ID int }
			if err := json.Unmarshal([]byte(r.stdout), &rec); r.code != 0 || err != nil || rec.ID != 2 || r.stderr != "" {
				t.Errorf("--json: exit %d, stdout %q, stderr %q; want exit 0, record 2 and nothing on stderr", r.code, r.stdout, r.stderr)
			}
		})
		t.Run("a holder killed", func(t *testing.T) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, demoLog, emptyLog)
			h := startHolder(t, home, false)
			h.die(t)
			r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t")
			re := brokeLineRE(h.pid(), fmt.Sprintf("pid %d is gone and no process holds the lock's kernel lock", h.pid()))
			if r.code != 0 || r.stdout != "1\n" || !re.MatchString(r.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 0, id 1 and one line matching %s", r.code, r.stdout, r.stderr, re)
			}
		})
	})
}

// A break or a forced unlock whose incident row cannot be appended (a
// directory where the incident log should be) is done all the same, and
// says on stderr, after its own line, that the log has no row of it:
// open's break (exit 0, the id on stdout) and unlock --force (exit 0, its
// removed line).
func TestIncidentRowNotWrittenIsSaid(t *testing.T) {
	dead, live := locktest.DeadPID(t), locktest.LivePID(t)
	c := binClasses[0]
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, filepath.FromSlash(demoLog+".lock.incidents.jsonl")), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := func(what string) *regexp.Regexp {
		return regexp.MustCompile(`^pa: agents/demo/spawn-log\.json\.lock: the incident log has no row of this ` + what +
			`: [^\n]*agents/demo/spawn-log\.json\.lock\.incidents\.jsonl: is a directory; the ` + what + ` stands, only its record is missing\n$`)
	}
	estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(dead, hostname(), time.Now()))
	r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t")
	broke, rest, _ := strings.Cut(r.stderr, "\n")
	if r.code != 0 || r.stdout != "1\n" || !brokeLineRE(dead, fmt.Sprintf("pid %d is gone", dead)).MatchString(broke+"\n") || !missing("break").MatchString(rest) {
		t.Errorf("open: exit %d, stdout %q, stderr %q; want exit 0, id 1, the break line and then %s", r.code, r.stdout, r.stderr, missing("break"))
	}
	estatetest.WriteFile(t, home, demoLog+".lock", lockJSON(live, hostname(), time.Now()))
	r = c.run(t, home, "dispatch", "unlock", "--agent", "demo", "--force")
	if r.code != 0 || !strings.HasSuffix(r.stdout, "agents/demo/spawn-log.json.lock: removed\n") || !missing("forced unlock").MatchString(r.stderr) {
		t.Errorf("unlock --force: exit %d, stdout %q, stderr %q; want exit 0, removed, and %s", r.code, r.stdout, r.stderr, missing("forced unlock"))
	}
}

// `pa dispatch open` on an agent whose spawn-log is missing beside the
// complete temp file of a writer that died in its commit (what a power cut
// inside exFAT's rename leaves) restores the spawn-log from it, leaving out
// that writer's own record, which was never reported, says so in one line
// on stderr, and records the dispatch with the next id; the temp file is
// gone. The restore observer removed, the line is missing.
func TestOpenSaysItRestoredASpawnLog(t *testing.T) {
	dead := locktest.DeadPID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		temp := demoLog + ".tmp-" + lockspec.HostHash(hostname()) + "-" + strconv.Itoa(dead) + "-0123456789abcdef01234567"
		estatetest.WriteFile(t, home, temp, `{"version":1,"nextId":4,"records":[{"id":1,"title":"one"},{"id":2,"title":"two"},{"id":3,"title":"never reported"}]}`)
		estatetest.WriteFile(t, home, "agents/demo/board/board.json", `{"version":1,"items":[{"dispatchId":1},{"dispatchId":2}]}`)
		r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t")
		want := "pa: " + demoLog + " was missing; restored from " + temp + ": the complete temp file of a writer that died in its commit (a power cut inside its rename, say), with every record but that writer's own, which was never reported\n"
		if r.code != 0 || r.stdout != "3\n" || r.stderr != want {
			t.Fatalf("exit %d, stdout %q, stderr %q; want exit 0, id 3 and the line %q", r.code, r.stdout, r.stderr, want)
		}
		raw, err := os.ReadFile(filepath.Join(home, filepath.FromSlash(demoLog)))
		if err != nil {
			t.Fatal(err)
		}
		log := string(raw)
		for _, title := range []string{`"one"`, `"two"`, `"t"`} {
			if !strings.Contains(log, title) {
				t.Errorf("the spawn-log %s lacks the record titled %s", log, title)
			}
		}
		if strings.Contains(log, "never reported") {
			t.Errorf("the spawn-log %s holds the dead writer's own record", log)
		}
		if _, err := os.Stat(filepath.Join(home, filepath.FromSlash(temp))); !os.IsNotExist(err) {
			t.Errorf("the dead writer's temp file is still there: %v", err)
		}
	})
}

// The same for the board: a board missing beside the complete temp file of
// a writer that died in its board write is restored from it, whole, before
// the open adds its item, and the open says so.
func TestOpenSaysItRestoredABoard(t *testing.T) {
	dead := locktest.DeadPID(t)
	eachBinClass(t, func(t *testing.T, c binClass) {
		home := t.TempDir()
		const board = "agents/demo/board/board.json"
		temp := board + ".tmp-" + lockspec.HostHash(hostname()) + "-" + strconv.Itoa(dead) + "-0123456789abcdef01234567"
		estatetest.WriteFile(t, home, demoLog, `{"version":1,"nextId":3,"records":[{"id":1,"title":"one"},{"id":2,"title":"two"}]}`)
		estatetest.WriteFile(t, home, temp, `{"version":1,"items":[{"dispatchId":1,"title":"one"},{"dispatchId":2,"title":"two"}]}`)
		r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "t")
		want := "pa: " + board + " was missing; restored from " + temp + ": the complete temp file of a writer that died in its board write (a power cut inside its rename, say), every item of it a dispatch of the spawn-log\n"
		if r.code != 0 || r.stdout != "3\n" || r.stderr != want {
			t.Fatalf("exit %d, stdout %q, stderr %q; want exit 0, id 3 and the line %q", r.code, r.stdout, r.stderr, want)
		}
		if r := c.run(t, home, "board", "check"); r.code != 0 {
			t.Errorf("board check after the restore: exit %d, stdout %q; want every dispatch on the board", r.code, r.stdout)
		}
		if _, err := os.Stat(filepath.Join(home, filepath.FromSlash(temp))); !os.IsNotExist(err) {
			t.Errorf("the dead writer's temp file is still there: %v", err)
		}
	})
}

// An open whose commit removed a doubled name's extra entries (a power cut
// inside an exFAT rename over it) says so in one line, naming the file and
// how many entries went, until open returns.
func TestOpenSaysItRemovedADoubledName(t *testing.T) {
	var out strings.Builder
	e := &lockEvents{stderr: &out, a: advice{pa: "pa", agent: "demo"}}
	var opts locking.Options
	e.observe(&opts, false)
	told := lockspec.OnDoubledOf(opts)
	if told == nil {
		t.Fatal("open sets no doubled-name observer")
	}
	told(demoLog, 1)
	told("agents/demo/board/board.json", 2)
	e.end()
	told(demoLog, 1)
	want := "pa: " + demoLog + " was listed twice in its folder (a power cut inside an exFAT rename over it, say): its extra entry was removed, so that one copy is left; nothing that was reported is lost\n" +
		"pa: agents/demo/board/board.json was listed 3 times in its folder (a power cut inside an exFAT rename over it, say): 2 extra entries were removed, so that one copy is left; nothing that was reported is lost\n"
	if out.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", out.String(), want)
	}
}

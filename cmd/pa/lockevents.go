package main

import (
	"fmt"
	"io"
	"math"
	"path"
	"strconv"
	"sync"
	"time"

	"github.com/pa-toolkit/pa/estate"
	"github.com/pa-toolkit/pa/internal/display"
	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking"
)

// The lines `pa dispatch open` (and `pa board repair`) prints on stderr
// while it takes the spawn-log lock, before its result: the wait line, on a terminal only,
// once it has waited about a second for a holder that is not provably
// dead, and the break line, wherever stderr goes, for each lock of a
// provably dead holder it broke. --json prints neither. They are worded
// from the lock's observers (locking.Options OnWait and OnBreak), which
// decide nothing.

// waitLineAfter is how long open waits for a held lock before it says so
// on a terminal: a wait shorter than that is not worth a line.
const waitLineAfter = time.Second

// lockEvents prints open's wait and break lines on stderr. Its observers
// are called on the acquiring goroutine and the wait line from its timer's:
// one mutex keeps the lines whole and in order, and once end has returned
// no line is printed.
type lockEvents struct {
	stderr io.Writer
	a      advice
	// afterFunc arms the wait line's timer; nil means time.AfterFunc (a
	// test keeps the function to call it when it chooses).
	afterFunc func(d time.Duration, f func()) *time.Timer

	mu       sync.Mutex
	ended    bool           // end was called: open has returned
	said     bool           // the wait line is printed (once an open)
	since    time.Time      // when the first wait began
	timer    *time.Timer    // prints the wait line; nil when not armed
	armed    int            // counts the timers armed: a stopped one's late call is not the current one's
	holder   locking.Holder // the holder last waited on
	seen     time.Time      // when holder was told (its Age is as of then)
	deadline time.Time      // when the wait gives up
}

// observe makes opts tell e of open's breaks and, when waitLine (stderr is
// a terminal), of its waits.
func (e *lockEvents) observe(opts *locking.Options, waitLine bool) {
	opts.OnBreak = e.broke
	opts.OnIncidentError = e.incidentLost
	lockspec.SetOnRestore(opts, e.restored)
	lockspec.SetOnDoubled(opts, e.undoubled)
	if waitLine {
		opts.OnWait = e.waiting
	}
}

// waiting is OnWait: the wait line's timer is armed at the first wait, to
// fire about a second later, unless the wait ends before that anyway; a
// later wait (another holder) only changes the holder it names.
func (e *lockEvents) waiting(_ string, h locking.Holder, deadline time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	e.holder, e.seen, e.deadline = h, now, deadline
	if e.since.IsZero() {
		e.since = now
	}
	if e.ended || e.said || e.timer != nil {
		return
	}
	after := max(waitLineAfter-now.Sub(e.since), 0)
	if deadline.Sub(now) <= after {
		return // it gives up before the line is due: the exit-2 line says it
	}
	e.armed++
	armed := e.armed
	afterFunc := e.afterFunc
	if afterFunc == nil {
		afterFunc = time.AfterFunc
	}
	e.timer = afterFunc(after, func() { e.sayWaiting(armed) })
}

// sayWaiting prints the wait line, if open still waits and the timer that
// calls it (the armed-th) is the current one.
func (e *lockEvents) sayWaiting(armed int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	if e.ended || e.said || e.timer == nil || armed != e.armed || !now.Before(e.deadline) {
		return
	}
	e.said = true
	h := e.holder
	if d := now.Sub(e.seen); h.Age <= math.MaxInt64-d {
		h.Age += d // its age now, not at the read
	}
	fmt.Fprintf(e.stderr, "pa: %s%s\n", then(e.a.held(h)), waitingUntil(e.deadline, now))
}

// broke is OnBreak: the break line. The wait it ended is over, so a wait
// line not yet printed waits for the next wait (if any), counted from the
// first.
func (e *lockEvents) broke(_ string, dead locking.Holder) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	if e.ended {
		return
	}
	fmt.Fprintf(e.stderr, "pa: %s\n", e.a.broken(dead))
}

// incidentLost is OnIncidentError: one line after the break line, wherever
// stderr goes (--json prints none), saying the break's row is missing
// from the lock's incident log.
func (e *lockEvents) incidentLost(_, _ string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ended {
		return
	}
	fmt.Fprintf(e.stderr, "pa: %s\n", incidentNotWritten(e.a.lock(), "break", err))
}

// incidentNotWritten words an incident row that was not appended:
// `agents/demo/spawn-log.json.lock: the incident log has no row of this
// break: open agents/demo/spawn-log.json.lock.incidents.jsonl: read-only
// file system; the break stands, only its record is missing`.
func incidentNotWritten(lock, what string, err error) string {
	return lock + ": the incident log has no row of this " + what + ": " + termsafe.Escape(err.Error()) +
		"; the " + what + " stands, only its record is missing"
}

// restored is the spawn-log's restore observer: one line, wherever stderr
// goes (--json prints none), naming the file restored and the dead
// writer's temp file it came from.
func (e *lockEvents) restored(name, from string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ended {
		return
	}
	fmt.Fprintf(e.stderr, "pa: %s\n", restoredLine(name, from))
}

// restoredLine words a restore of the spawn-log or the board:
// `agents/demo/spawn-log.json was missing;
// restored from agents/demo/spawn-log.json.tmp-...: the complete temp file
// of a writer that died in its commit (a power cut inside the rename, say),
// with every record but that writer's own, which was never reported`.
func restoredLine(name, from string) string {
	line := termsafe.Escape(name) + " was missing; restored from " + termsafe.Escape(from)
	if path.Base(name) == path.Base(estate.BoardPath("a")) {
		return line + ": the complete temp file of a writer that died in its board write (a power cut inside its rename, say), every item of it a dispatch of the spawn-log"
	}
	return line + ": the complete temp file of a writer that died in its commit (a power cut inside its rename, say), with every record but that writer's own, which was never reported"
}

// undoubled is the doubled-name observer: one line, wherever stderr goes
// (--json prints none), naming the file whose folder listed it more than
// once and how many of its entries the hold removed.
func (e *lockEvents) undoubled(name string, removed int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ended {
		return
	}
	fmt.Fprintf(e.stderr, "pa: %s\n", undoubledLine(name, removed))
}

// undoubledLine words the removal of a doubled name's extra entries:
// `agents/demo/spawn-log.json was listed twice in its folder (a power cut
// inside an exFAT rename over it, say): its extra entry was removed, so
// that one copy is left; nothing that was reported is lost`.
func undoubledLine(name string, removed int) string {
	times, extra := "twice", "its extra entry was"
	if removed > 1 {
		times, extra = strconv.Itoa(removed+1)+" times", strconv.Itoa(removed)+" extra entries were"
	}
	return termsafe.Escape(name) + " was listed " + times + " in its folder (a power cut inside an exFAT rename over it, say): " +
		extra + " removed, so that one copy is left; nothing that was reported is lost"
}

// end is called when open returns: no line is printed after it.
func (e *lockEvents) end() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ended = true
	if e.timer != nil {
		e.timer.Stop()
	}
}

// waitingUntil is the end of the wait line: until when open waits, as its
// deadline's local clock time (with the date when that is not today), and
// at most how long that is from now: `waiting for it until 08:15:42 (up to
// 9s more)`.
func waitingUntil(deadline, now time.Time) string {
	at, layout := deadline.Local(), "15:04:05"
	if y, m, d := at.Date(); y != now.Local().Year() || m != now.Local().Month() || d != now.Local().Day() {
		layout = "2006-01-02 15:04:05"
	}
	return "waiting for it until " + at.Format(layout) + " (up to " + display.Age(deadline.Sub(now)) + " more)"
}

// broken is the break line of a provably dead holder's lock that open
// broke: the lock, its holder (pid, host, what proved it dead, age,
// acquiredAt), then what was done: `<lock> held by pid 4242 on host "h"
// (dead: pid 4242 is gone and no process holds the lock's kernel lock, age
// 5m2s, acquiredAt ...): broken, as its holder is provably dead`. A lock of
// the spec's four fields records no evidence (it is judged by its pid
// alone, found gone): the line says so.
func (a advice) broken(dead locking.Holder) string {
	if dead.Evidence == "" {
		dead.Evidence = "pid " + strconv.Itoa(dead.PID) + " is gone"
	}
	return then(a.held(dead)) + "broken, as its holder is provably dead"
}

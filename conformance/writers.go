package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/board"
	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs"
	"github.com/pa-toolkit/pa/vfs/nolinkfs"
	"github.com/pa-toolkit/pa/vfs/vfstest/faultfs"
)

// reset empties the agent's folder.
func (s *site) reset(t *testing.T) {
	t.Helper()
	if err := removeAll(s.raw, agentDir); err != nil {
		t.Fatal(err)
	}
	if err := vfs.MkdirAll(s.raw, agentDir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func openArgs(i int) []string {
	return []string{"dispatch", "open", "--agent", agent, "--title", fmt.Sprintf("p%d", i), "--wait", "20s"}
}

// ids parses the ids printed by opens that must all have exited 0.
func ids(t *testing.T, results []result) []int {
	t.Helper()
	var out []int
	for i, r := range results {
		if r.code != 0 {
			t.Errorf("open #%d exited %d; want 0 (stderr %q)", i, r.code, r.stderr)
			continue
		}
		id, err := strconv.Atoi(strings.TrimSpace(r.stdout))
		if err != nil || r.stdout != strconv.Itoa(id)+"\n" {
			t.Errorf("open #%d printed %q; want the id alone", i, r.stdout)
			continue
		}
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// oneBreakLine fails unless exactly one of the opens' stderr is the line
// of `pa dispatch open` that broke the lock of the dead pid (its holder
// named, then "broken, as its holder is provably dead"), and every other
// stderr is empty.
func oneBreakLine(t *testing.T, results []result, dead int) {
	t.Helper()
	lead := fmt.Sprintf("pa: agents/demo/spawn-log.json.lock held by pid %d on host ", dead)
	const tail = "): broken, as its holder is provably dead\n"
	broke := 0
	for i, r := range results {
		switch {
		case r.stderr == "":
		case strings.HasPrefix(r.stderr, lead) && strings.HasSuffix(r.stderr, tail) && strings.Count(r.stderr, "\n") == 1 &&
			strings.Contains(r.stderr, " (dead"):
			broke++
		default:
			t.Errorf("open #%d: stderr %q; want nothing, or one line %s...%s", i, r.stderr, lead, tail)
		}
	}
	if broke != 1 {
		t.Errorf("%d opens said they broke the dead holder's lock; want exactly one", broke)
	}
}

func seq(from, to int) []int {
	var s []int
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

// checkEstate checks the spawn-log and the board after opens that all
// exited 0: the ids are exactly want, each on the board, and the agent's
// folder holds nothing but the spawn-log and the board.
func (s *site) checkEstate(t *testing.T, want []int) {
	t.Helper()
	log, err := spawnlog.Read(s.fs, agent)
	if err != nil {
		t.Fatalf("reading the spawn-log: %v", err)
	}
	b, err := board.Read(s.fs, agent)
	if err != nil {
		t.Fatalf("reading the board: %v", err)
	}
	var got []int
	for _, r := range log.Records {
		got = append(got, r.ID)
		if !b.Has(r.ID) {
			t.Errorf("dispatch %d is in the spawn-log but not on the board", r.ID)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) || len(b.Items) != len(want) {
		t.Errorf("spawn-log ids %v, %d board items; want %v on both", got, len(b.Items), want)
	}
	left := s.files(t, agentDir)
	if w := []string{"board/", "board/board.json", logBase}; !slices.Equal(left, w) {
		t.Errorf("the agent folder holds %q; want only %q", left, w)
	}
}

// R12: eight `pa dispatch open` processes at once against a lock left by a
// dead process, 25 trials: every exit 0, distinct ids, every record and
// board item present, nothing left beside the spawn-log and the board; the
// one that broke the lock says so on stderr in one line, and the other
// seven print nothing there (breakers of one dead lock run one at a time,
// and only one moves it).
func eightOpensAgainstDeadLock(t *testing.T, s *site) {
	const trials, writers = 25, 8
	for trial := range trials {
		s.reset(t)
		dead := s.deadPID(t)
		s.writeRaw(t, lockName, lockJSON(dead, s.hostname(), true, strings.Repeat("5a", 12), time.Now()))
		results := s.paMany(t, writers, openArgs)
		if got := ids(t, results); !slices.Equal(got, seq(1, writers)) {
			t.Fatalf("trial %d: ids %v; want 1..%d, each once", trial, got, writers)
		}
		oneBreakLine(t, results, dead)
		s.checkEstate(t, seq(1, writers))
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}

// linkErrnos are the link() errors of R13 on each column: EPERM (exFAT's)
// with hard links, EOPNOTSUPP and ENOTSUP without.
func linkErrnos(c Class) []syscall.Errno {
	if c == Links {
		return []syscall.Errno{syscall.EPERM}
	}
	return []syscall.Errno{syscall.EOPNOTSUPP, syscall.ENOTSUP}
}

// R13: link() failing with EPERM, EOPNOTSUPP or ENOTSUP falls back to the
// exclusive create: two writes in a row (one link() call a hold) and eight
// at once, nothing lost, nothing left.
func linkRefusedFallsBack(t *testing.T, s *site) {
	for _, errno := range linkErrnos(s.class) {
		t.Run(errnoName(errno), func(t *testing.T) {
			s.reset(t)
			ffs := faultfs.New(nolinkfs.New(s.fs, errno))
			o := patient(s.me())
			var want []string
			for i := range 2 {
				rec := fmt.Sprintf("seq-%d", i)
				want = append(want, rec)
				if _, err := spawnlog.Append(context.Background(), ffs, agent, rec, nil, o); err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
			}
			if n := ffs.Calls(faultfs.OpLink, ""); n != 2 {
				t.Fatalf("two holds made %d link() calls; want one each", n)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for i := range 8 {
				rec := fmt.Sprintf("par-%d", i)
				want = append(want, rec)
				wg.Go(func() {
					_, err := spawnlog.Append(context.Background(), ffs, agent, rec, nil, o)
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			s.wantTitles(t, want...)
			s.onlyLog(t)
		})
	}
}

func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.EPERM:
		return "EPERM"
	case syscall.EOPNOTSUPP:
		return "EOPNOTSUPP"
	}
	return "ENOTSUP"
}

// R13 through the binary (PA_FAULT_LINK_ERRNO): two opens in a row, eight
// at once, then eight against a dead lock; every exit 0, nothing lost,
// nothing left.
func linkRefusedOpens(t *testing.T, s *site) {
	for _, errno := range linkErrnos(s.class) {
		t.Run(errnoName(errno), func(t *testing.T) {
			s.reset(t)
			env := []string{"PA_FAULT_LINK_ERRNO=" + errnoName(errno)}
			var rs []result
			for i := range 2 {
				rs = append(rs, runCmd(t, s.paCmdEnv(t, env, openArgs(i)...)))
			}
			if got := ids(t, rs); !slices.Equal(got, []int{1, 2}) {
				t.Fatalf("two in a row: ids %v; want 1, 2", got)
			}
			if got := ids(t, s.paManyEnv(t, 8, env, openArgs)); !slices.Equal(got, seq(3, 10)) {
				t.Fatalf("eight at once: ids %v; want 3..10", got)
			}
			s.checkEstate(t, seq(1, 10))
			s.writeRaw(t, lockName, lockJSON(s.deadPID(t), s.hostname(), true, strings.Repeat("5a", 12), time.Now()))
			if got := ids(t, s.paManyEnv(t, 8, env, openArgs)); !slices.Equal(got, seq(11, 18)) {
				t.Fatalf("eight against a dead lock: ids %v; want 11..18", got)
			}
			s.checkEstate(t, seq(1, 18))
		})
	}
}

// R13: the link() errors that are not "no hard links": ENOENT is an error
// of its own, never a fallback to the exclusive create, and the pending
// file is removed.
func linkENOENTNotAFallback(t *testing.T, s *site) {
	ffs := faultfs.New(s.fs)
	ffs.Fail(faultfs.Rule{Op: faultfs.OpLink, Err: syscall.ENOENT, Times: 1})
	_, err := locking.Acquire(context.Background(), ffs, logName, fast(s.me()))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v; want the link() ENOENT", err)
	}
	if ffs.Calls(faultfs.OpOpenFile, lockName) != 0 {
		t.Fatal("ENOENT from link() fell back to an exclusive create")
	}
	s.empty(t)
}

// R14: a publish that fails after its exclusive step unlinks nothing but
// its own pending file, and a replacement lock stays. With hard links the
// write of the pending file fails; without, the write of the lock itself
// fails, and while it fails another process replaces the lock (a forced
// unlock and a new holder): the replacement stays byte for byte.
func failedPublishUnlinksNothingElse(t *testing.T, s *site) {
	ffs := faultfs.New(s.fs)
	replacement := lockJSON(s.livePID(t), s.hostname(), true, "aaaaaaaaaaaaaaaaaaaaaaaa", time.Now())
	failOn := "*.pending-*"
	if s.class == NoLinks {
		failOn = logBase + ".lock"
	}
	ffs.Before(func(ev faultfs.Event) error {
		if ev.Op != faultfs.OpWrite {
			return nil
		}
		if ok, _ := path.Match(failOn, path.Base(ev.Name)); !ok {
			return nil
		}
		_ = s.drop(lockName)
		if err := s.put(lockName, replacement); err != nil {
			t.Error(err)
		}
		return syscall.EIO
	})
	_, err := locking.Acquire(context.Background(), ffs, logName, fast(s.me()))
	if !errors.Is(err, syscall.EIO) {
		t.Fatalf("err = %v; want the injected EIO", err)
	}
	if !bytes.Equal(s.readRaw(t, lockName), replacement) {
		t.Fatal("the replacement lock changed")
	}
	if n := ffs.Calls(faultfs.OpRemove, logBase+".lock"); n != 0 {
		t.Fatalf("the lock name was removed %d times", n)
	}
	if got := s.ls(t); len(got) != 1 {
		t.Fatalf("the folder holds %q; want the replacement lock only", got)
	}
}

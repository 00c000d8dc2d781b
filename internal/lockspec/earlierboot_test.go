package lockspec_test

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// earlierBootsWriter sets up what a power cut inside a commit leaves once
// the new boot has given the writer's pid to a live process: the writer's
// lock of boot otherBoot (when withLock), its complete temp file beside a
// guarded file the cut took, and that pid alive again. It returns the
// machine (of this boot) and the temp file's name.
func earlierBootsWriter(t *testing.T, e *estate, withLock bool) (*locktest.Machine, string) {
	t.Helper()
	m := locktest.NewMachine(hostname(t))
	writer := m.SpawnIn(nsA)
	if withLock {
		e.setLock(t, identityLock(writer.PID(), hostname(t), bootField(otherBoot), nsField(nsA), startField(writer.Self().StartTime)))
	}
	temp := restoreTemp(m, writer.PID(), "aaaaaaaaaaaaaaaaaaaaaaaa")
	e.writeRaw(t, temp, []byte(`["r1","r2","r3"]`))
	writer.Kill()
	m.SpawnReusing(nsA, writer.PID()) // a process of this boot with the writer's pid
	return m, temp
}

// A temp file named with the pid of a holder of an earlier boot whose lock
// the acquisition broke is a dead writer's, though a live process of this
// boot has that pid now: the missing guarded file is restored from it
// (conformance/powercut's reused-pids runs on exFAT found it refused).
func TestRestoreTakesTheTempOfABrokenEarlierBootsHolderWhosePIDIsReused(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m, temp := earlierBootsWriter(t, e, true)
		opts := fast(m.SpawnIn(nsA))
		var told []string
		var broke []int
		opts.OnBreak = func(_ string, h lockspec.Holder) { broke = append(broke, h.PID) }
		lockspec.SetRestore(&opts, arrayRestorer, func(name, from string) { told = append(told, name, from) })
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("mine"), opts); err != nil {
			t.Fatal(err)
		}
		if len(broke) != 1 {
			t.Fatalf("breaks %v; want the earlier boot's lock broken once", broke)
		}
		e.wantRecords(t, "r1", "r2", "mine")
		if want := []string{target, temp}; !slices.Equal(told, want) {
			t.Errorf("the observer was told %q, want %q", told, want)
		}
		if e.exists(temp) {
			t.Error("the dead writer's temp file is still there after the restore")
		}
	})
}

// Without that break nothing proves the temp file's writer dead: its pid
// answers, so it is kept and nothing is restored from it.
func TestRestoreLeavesATempWhosePIDAnswersWithoutABreak(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m, temp := earlierBootsWriter(t, e, false)
		wantNoRestoreFrom(t, e, fast(m.SpawnIn(nsA)), temp)
	})
}

// WriteFenced's sweep of its file's temp files (the board's) judges them
// the same way: the broken earlier boot's holder's goes, another live
// pid's stays, and so does one of that pid on another host.
func TestWriteFencedSweepsTheTempOfABrokenEarlierBootsHolder(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine(hostname(t))
		writer, other := m.SpawnIn(nsA), m.SpawnIn(nsA)
		e.setLock(t, identityLock(writer.PID(), hostname(t), bootField(otherBoot), nsField(nsA), startField(writer.Self().StartTime)))
		const board = "board.json"
		mine := board + ".tmp-" + lockspec.HostHash(m.Hostname()) + "-" + strconv.Itoa(writer.PID()) + "-aaaaaaaaaaaaaaaaaaaaaaaa"
		others := board + ".tmp-" + lockspec.HostHash(m.Hostname()) + "-" + strconv.Itoa(other.PID()) + "-bbbbbbbbbbbbbbbbbbbbbbbb"
		otherHosts := board + ".tmp-" + lockspec.HostHash("host-b") + "-" + strconv.Itoa(writer.PID()) + "-cccccccccccccccccccccccc"
		for _, name := range []string{mine, others, otherHosts} {
			e.writeRaw(t, name, []byte(`{"torn`))
		}
		writer.Kill()
		m.SpawnReusing(nsA, writer.PID())
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.SpawnIn(nsA)))
		if err != nil {
			t.Fatal(err)
		}
		defer h.Release()
		if err := h.WriteFenced(board, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if e.exists(mine) || !e.exists(others) || !e.exists(otherHosts) {
			t.Errorf("after WriteFenced: the broken holder's temp there: %v, the live one's: %v, another host's of that pid: %v; want gone, kept, kept",
				e.exists(mine), e.exists(others), e.exists(otherHosts))
		}
	})
}

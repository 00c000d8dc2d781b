package lockspec_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// A fenced write of another file (the board) first removes that file's
// temp files, and the broken names its own sweep makes of them, whose
// owner is on this host and provably dead; a live owner's and another
// host's are kept.
func TestWriteFencedSweepsDeadWritersTempFiles(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		const board = "d/board.json"
		m := locktest.NewMachine(hostname(t))
		dead, live := m.Spawn(), m.Spawn()
		dead.Kill()
		hash := lockspec.HostHash(m.Hostname())
		name := func(kind string, pid int, host, a string) string {
			return board + kind + host + "-" + strconv.Itoa(pid) + "-" + a
		}
		deadTemp := name(".tmp-", dead.PID(), hash, "aaaaaaaaaaaaaaaaaaaaaaaa")
		deadBroken := name(".lock.broken-", dead.PID(), hash, "bbbbbbbbbbbbbbbbbbbbbbbb")
		liveTemp := name(".tmp-", live.PID(), hash, "cccccccccccccccccccccccc")
		otherHost := name(".tmp-", dead.PID(), lockspec.HostHash("another-host"), "dddddddddddddddddddddddd")
		for _, n := range []string{deadTemp, deadBroken, liveTemp, otherHost} {
			e.writeRaw(t, n, []byte(`{"version":1,"items":[`))
		}
		h, err := lockspec.Acquire(context.Background(), e.fsys, target, fast(m.Spawn()))
		if err != nil {
			t.Fatal(err)
		}
		defer h.Release()
		if err := h.WriteFenced(board, []byte(`{"version":1,"items":[]}`)); err != nil {
			t.Fatal(err)
		}
		for n, want := range map[string]bool{deadTemp: false, deadBroken: false, liveTemp: true, otherHost: true} {
			if e.exists(n) != want {
				t.Errorf("%s exists = %v after the write, want %v", n, !want, want)
			}
		}
	})
}

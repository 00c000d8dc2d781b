package lockspec_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/pa-toolkit/pa/internal/lockspec"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// restoreTemp is the name of a temp file of the guarded file that pid of m
// left, with attempt a (24 hex).
func restoreTemp(m *locktest.Machine, pid int, a string) string {
	return target + ".tmp-" + lockspec.HostHash(m.Hostname()) + "-" + strconv.Itoa(pid) + "-" + a
}

// deadWritersTemp writes data as the temp file of the guarded file that
// a killed writer of a machine on this host left, and returns the machine
// and the temp file's name.
func deadWritersTemp(t *testing.T, e *estate, data []byte) (*locktest.Machine, string) {
	t.Helper()
	m := locktest.NewMachine(hostname(t))
	dead := m.Spawn()
	dead.Kill()
	temp := restoreTemp(m, dead.PID(), "aaaaaaaaaaaaaaaaaaaaaaaa")
	e.writeRaw(t, temp, data)
	return m, temp
}

// arrayRestorer restores a JSON array of strings as it was before its last
// element (a keep file: whole), ranked by the length of what it restores
// plus one; anything else restores nothing.
func arrayRestorer(data []byte, whole bool) ([]byte, uint64, bool) {
	var recs []string
	if json.Unmarshal(data, &recs) != nil {
		return nil, 0, false
	}
	if whole {
		return data, uint64(len(recs) + 1), true
	}
	if len(recs) < 2 {
		return nil, 0, false
	}
	b, _ := json.Marshal(recs[:len(recs)-1])
	return b, uint64(len(recs)), true
}

// A guarded file that is missing, beside complete temp files of dead
// writers, is restored under the lock from the one the Restorer ranks
// highest, before the update reads it; the observer is told; the dead
// writers' temp files are removed, a live writer's and a torn one's kept
// or removed as the sweep would (the live one kept).
func TestUpdateRestoresAMissingFileFromADeadWritersTemp(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine(hostname(t))
		dead, live := m.Spawn(), m.Spawn()
		dead.Kill()
		older := restoreTemp(m, dead.PID(), "aaaaaaaaaaaaaaaaaaaaaaaa")
		newer := restoreTemp(m, dead.PID(), "bbbbbbbbbbbbbbbbbbbbbbbb")
		torn := restoreTemp(m, dead.PID(), "cccccccccccccccccccccccc")
		livers := restoreTemp(m, live.PID(), "dddddddddddddddddddddddd")
		// The best-ranked is listed between two others, so that neither
		// the first nor the last name listed is it.
		oldest := restoreTemp(m, dead.PID(), "eeeeeeeeeeeeeeeeeeeeeeee")
		e.writeRaw(t, older, []byte(`["r1","r2"]`))
		e.writeRaw(t, newer, []byte(`["r1","r2","r3"]`))
		e.writeRaw(t, oldest, []byte(`["x1","x2"]`))
		e.writeRaw(t, torn, []byte(`["r1","r2","r3","r`))
		e.writeRaw(t, livers, []byte(`["r1","r2","r3","r4","r5"]`))
		opts := fast(m.Spawn())
		var told []string
		lockspec.SetRestore(&opts, arrayRestorer, func(name, from string) { told = append(told, name, from) })
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("mine"), opts); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "r1", "r2", "mine")
		if want := []string{target, newer}; !slices.Equal(told, want) {
			t.Errorf("the observer was told %q, want %q", told, want)
		}
		for name, want := range map[string]bool{older: false, newer: false, oldest: false, torn: false, livers: true} {
			if e.exists(name) != want {
				t.Errorf("%s exists = %v after the restore, want %v", name, !want, want)
			}
		}
	})
}

// With the guarded file there, nothing is restored: a dead writer's
// complete temp file (one killed between its temp file and its rename)
// is swept as before, and the file keeps its records.
func TestUpdateRestoresNothingOverAFileThatIsThere(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m, temp := deadWritersTemp(t, e, []byte(`["r1","r2","r3"]`))
		e.writeRaw(t, target, []byte(`["r1"]`))
		opts := fast(m.Spawn())
		told := 0
		lockspec.SetRestore(&opts, arrayRestorer, func(string, string) { told++ })
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("mine"), opts); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "r1", "mine")
		if told != 0 || e.exists(temp) {
			t.Errorf("told %d times, temp file there: %v; want no restore and the temp file swept", told, e.exists(temp))
		}
	})
}

// Without a Restorer (every Update but the spawn-log's), a missing file
// beside a dead writer's complete temp file starts empty and the temp file
// is swept, as the spec says.
func TestUpdateWithoutARestorerSweeps(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m, temp := deadWritersTemp(t, e, []byte(`["r1","r2","r3"]`))
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("mine"), fast(m.Spawn())); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "mine")
		if e.exists(temp) {
			t.Errorf("the dead writer's temp file is still there")
		}
	})
}

// wantNoRestoreFrom runs an Update with a Restorer under opts on a missing
// guarded file beside temp, a temp file that no proof makes a dead
// writer's, and fails unless nothing is restored (the file starts empty,
// the observer is never told) and temp is kept.
func wantNoRestoreFrom(t *testing.T, e *estate, opts lockspec.Options, temp string) {
	t.Helper()
	told := 0
	lockspec.SetRestore(&opts, arrayRestorer, func(string, string) { told++ })
	if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("mine"), opts); err != nil {
		t.Fatal(err)
	}
	e.wantRecords(t, "mine")
	if told != 0 || !e.exists(temp) {
		t.Errorf("told %d times, temp file there: %v; want no restore and the temp file kept", told, e.exists(temp))
	}
}

// A keep file of a dead writer (a settle's or a restore's commit, cut
// inside its rename) is the guarded file whole: a missing file is restored
// from it with every record, never less its last one, and it outranks a
// temp file that restores less.
func TestUpdateRestoresAKeepFileWhole(t *testing.T) {
	eachClass(t, func(t *testing.T, e *estate) {
		m := locktest.NewMachine(hostname(t))
		dead := m.Spawn()
		dead.Kill()
		keep := target + ".keep-" + lockspec.HostHash(m.Hostname()) + "-" + strconv.Itoa(dead.PID()) + "-aaaaaaaaaaaaaaaaaaaaaaaa"
		e.writeRaw(t, keep, []byte(`["r1","r2"]`))
		e.writeRaw(t, restoreTemp(m, dead.PID(), "bbbbbbbbbbbbbbbbbbbbbbbb"), []byte(`["r1","r2"]`))
		opts := fast(m.Spawn())
		var from string
		lockspec.SetRestore(&opts, arrayRestorer, func(_, f string) { from = f })
		if err := lockspec.Update(context.Background(), e.fsys, target, appendRecord("mine"), opts); err != nil {
			t.Fatal(err)
		}
		e.wantRecords(t, "r1", "r2", "mine")
		if from != keep || e.exists(keep) {
			t.Errorf("restored from %q, keep file still there: %v; want the keep file, then gone", from, e.exists(keep))
		}
	})
}

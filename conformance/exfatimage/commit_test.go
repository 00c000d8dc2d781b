package exfatimage

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking"
	"github.com/pa-toolkit/pa/spawnlog"
	"github.com/pa-toolkit/pa/vfs/osfs"
)

// TestCommitOverADoubledNameLeavesItOnce: a power cut inside a rename over
// spawn-log.json can leave exFAT's folder listing the name twice, the new
// entry and the replaced one (docs/spawn-log-lock.md, "A power cut"). The
// next commit, through exfat-fuse and the real OS backend, must leave the
// name listed once, holding what it wrote, as the next mount finds it:
// with the older copy first in directory order and with the newer first.
func TestCommitOverADoubledNameLeavesItOnce(t *testing.T) {
	needTools(t, true)
	const name = "agents/demo/spawn-log.json"
	dir := []string{"agents", "demo"}
	older, newer := olderLog, newerLog
	for _, tc := range []struct {
		name          string
		first, second string // the two copies, in directory order
	}{
		{"older first", older, newer},
		{"newer first", newer, older},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The copies under spawn-log.json and a stand-in of the same
			// length, renamed to spawn-log.json in the image.
			image := imageWith(t, dir, fileEntry{"spawn-log.json", tc.first}, fileEntry{"spawn-log.jso~", tc.second})
			if err := RenameEntry(image, dir, "spawn-log.jso~", "spawn-log.json"); err != nil {
				t.Fatal(err)
			}

			mnt, unmount := mount(t, image)
			if got := listed(t, filepath.Join(mnt, "agents", "demo"), "spawn-log.json"); got != 2 {
				t.Fatalf("before the update, exfat-fuse lists spawn-log.json %d times, want 2", got)
			}
			wrote, err := addRecord(t, mnt, name)
			unmount()
			if err != nil {
				t.Fatalf("locking.Update: %v", err)
			}

			mnt, unmount = mount(t, image)
			n := listed(t, filepath.Join(mnt, "agents", "demo"), "spawn-log.json")
			got, err := os.ReadFile(filepath.Join(mnt, name))
			unmount()
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Errorf("after the update and a new mount, exfat-fuse lists spawn-log.json %d times, want once; the image's folder, in directory order:\n%s",
					n, describe(folderEntries(t, image, dir)))
			}
			if string(got) != wrote {
				t.Errorf("after the update and a new mount, spawn-log.json holds\n%s\nwant what the update wrote:\n%s", got, wrote)
			}
		})
	}
}

// addRecord appends a record to the spawn-log name under its lock, with
// locking.Update on the volume mounted at mnt, and returns what the update
// wrote.
func addRecord(t *testing.T, mnt, name string) (string, error) {
	t.Helper()
	fsys, err := osfs.New(mnt)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	var wrote []byte
	err = locking.Update(t.Context(), fsys, name, func(old []byte, exists bool) ([]byte, error) {
		if !exists {
			return nil, errors.New("the update found no spawn-log")
		}
		log, err := spawnlog.Parse(name, old)
		if err != nil {
			return nil, err
		}
		records := append(log.Records, spawnlog.Record{ID: log.NextID, Agent: "demo", Title: "committed over a doubled name"})
		wrote, err = json.Marshal(struct {
			Version int               `json:"version"`
			NextID  int               `json:"nextId"`
			Records []spawnlog.Record `json:"records"`
		}{spawnlog.Version, log.NextID + 1, records})
		return wrote, err
	}, locking.Options{Timeout: 2 * time.Second})
	return string(wrote), err
}

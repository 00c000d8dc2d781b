package exfatimage

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pa-toolkit/pa/spawnlog"
)

// TestOpenOverADoubledSpawnLog is the same power cut's state under the
// real pa binary: `pa dispatch open` on an estate whose spawn-log exFAT
// lists twice goes through, says on stderr that it removed the extra
// entry, and the next mount finds the spawn-log once, with every record of
// the copy it kept and read, then the one it reported.
func TestOpenOverADoubledSpawnLog(t *testing.T) {
	needTools(t, true)
	pa := buildPa(t)
	dir := []string{"agents", "demo"}
	older, newer := olderLog, newerLog
	for _, tc := range []struct {
		name          string
		first, second string // the two copies, in directory order
		read          []string
	}{
		// The acquire keeps the copy a lookup finds (the first: the one
		// pa dispatch list shows) and the open reads it.
		{"older first", older, newer, []string{"older"}},
		{"newer first", newer, older, []string{"older", "newer"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			image := imageWith(t, dir, fileEntry{"spawn-log.json", tc.first}, fileEntry{"spawn-log.jso~", tc.second})
			if err := RenameEntry(image, dir, "spawn-log.jso~", "spawn-log.json"); err != nil {
				t.Fatal(err)
			}
			mnt, unmount := mount(t, image)
			cmd := exec.Command(pa, "--home", mnt, "dispatch", "open", "--agent", "demo", "--title", "after the cut")
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			unmount()
			want := "pa: agents/demo/spawn-log.json was listed twice in its folder (a power cut inside an exFAT rename over it, say): its extra entry was removed"
			if err != nil || !strings.HasPrefix(stderr.String(), want) {
				t.Fatalf("pa dispatch open: %v, stdout %q, stderr %q; want success and a line starting %q", err, stdout.String(), stderr.String(), want)
			}

			mnt, unmount = mount(t, image)
			n := listed(t, filepath.Join(mnt, "agents", "demo"), "spawn-log.json")
			data, err := os.ReadFile(filepath.Join(mnt, "agents", "demo", "spawn-log.json"))
			unmount()
			if err != nil {
				t.Fatal(err)
			}
			if n != 1 {
				t.Fatalf("after the open and a new mount, spawn-log.json is listed %d times, want once; the folder in directory order:\n%s", n, describe(folderEntries(t, image, dir)))
			}
			log, err := spawnlog.Parse("spawn-log.json", data)
			if err != nil {
				t.Fatal(err)
			}
			var titles []string
			for _, r := range log.Records {
				titles = append(titles, r.Title)
			}
			if want := append(tc.read, "after the cut"); strings.Join(titles, "|") != strings.Join(want, "|") {
				t.Errorf("the spawn-log holds the records %q, want %q (the copy the open kept and read, then its own)", titles, want)
			}
			if id := strings.TrimSpace(stdout.String()); id != strconv.Itoa(log.Records[len(log.Records)-1].ID) {
				t.Errorf("pa printed id %s, the spawn-log's last record is %d", id, log.Records[len(log.Records)-1].ID)
			}
		})
	}
}

// buildPa builds the pa command into the test's temp folder.
func buildPa(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "pa")
	if _, err := command("go", "build", "-o", out, "github.com/pa-toolkit/pa/cmd/pa"); err != nil {
		t.Fatal(err)
	}
	return out
}

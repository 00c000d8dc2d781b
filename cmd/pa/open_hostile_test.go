package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/termsafe"
	"github.com/pa-toolkit/pa/locking/locktest"
)

// boundedLine fails unless s is one line of at most max characters with no
// raw control character.
func boundedLine(t *testing.T, what, s string, max int) {
	t.Helper()
	line := strings.TrimSuffix(s, "\n")
	if strings.Contains(line, "\n") || utf8.RuneCountInString(line) > max || strings.IndexFunc(line, termsafe.Unsafe) >= 0 || !utf8.ValidString(line) {
		t.Errorf("%s: %d characters %.200q...; want one printable line of at most %d", what, utf8.RuneCountInString(line), line, max)
	}
}

// Spawn-logs a hostile file could be: 10 MB of binary bytes, 100,000
// nested arrays. open and list exit 1 with one short line naming the file
// in plain words, board check exit 2 with that line, none hangs or
// crashes, and the file keeps its bytes (it is never overwritten). A
// spawn-log of 10 MB that parses (60,000 records) takes one more record and
// loses none.
func TestHostileSpawnLogs(t *testing.T) {
	c := binClasses[0]
	binary := make([]byte, 10<<20)
	for i := range binary {
		binary[i] = byte(i*7 + i>>8)
	}
	for name, doc := range map[string]string{"binary-10MB": string(binary), "nested-100k": strings.Repeat("[", 100000)} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, logName, doc)
			const lead = "pa: agents/demo/spawn-log.json does not parse: want a JSON object with version, nextId and records: "
			for _, args := range [][]string{{"dispatch", "open", "--agent", "demo"}, {"dispatch", "list"}} {
				r := c.run(t, home, args...)
				if r.code != 1 || !strings.HasPrefix(r.stderr, lead) {
					t.Errorf("%q: exit %d, stderr %.300q; want exit 1 and %q", args, r.code, r.stderr, lead)
				}
				boundedLine(t, fmt.Sprint(args), r.stderr, 300)
			}
			r := c.run(t, home, "board", "check")
			if r.code != 2 || !strings.HasPrefix(r.stdout, lead[len("pa: "):]) {
				t.Errorf("board check: exit %d, stdout %.300q", r.code, r.stdout)
			}
			boundedLine(t, "board check", r.stdout, 300)
			if readFile(t, home, logName) != doc {
				t.Error("the spawn-log changed")
			}
		})
	}
	t.Run("valid-10MB", func(t *testing.T) {
		home := t.TempDir()
		type rec struct {
			ID       int    `json:"id"`
			Agent    string `json:"agent"`
			Title    string `json:"title"`
			OpenedAt string `json:"openedAt"`
		}
		const n = 60000
		recs := make([]rec, n)
		for i := range recs {
			recs[i] = rec{i + 1, "demo", fmt.Sprintf("dispatch %d %s", i+1, strings.Repeat("x", 80)), "2026-11-29T15:42:59.123Z"}
		}
		b, _ := json.Marshal(map[string]any{"version": 1, "nextId": n + 1, "records": recs})
		if len(b) < 8<<20 {
			t.Fatalf("the spawn-log is %d bytes; want about 10 MB", len(b))
		}
		estatetest.WriteFile(t, home, logName, string(b))
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--title", "one more"); r.code != 0 || r.stdout != fmt.Sprintf("%d\n", n+1) {
			t.Fatalf("open: exit %d, stdout %q, stderr %q; want id %d", r.code, r.stdout, r.stderr, n+1)
		}
		var got struct{ Records []rec }
		if err := json.Unmarshal([]byte(readFile(t, home, logName)), &got); err != nil || len(got.Records) != n+1 {
			t.Fatalf("the spawn-log now holds %d records, %v; want %d", len(got.Records), err, n+1)
		}
		for i, r := range got.Records[:n] {
			if r != recs[i] {
				t.Fatalf("record %d is now %+v; want %+v", i, r, recs[i])
			}
		}
	})
}

// Locks a hostile file could be, through pa: each is never broken (an
// unreadable lock, or a live holder), open exits 2 with one bounded line
// with no raw control character, and the lock keeps its bytes; a lock of a
// dead pid is broken by the rules whatever its token says.
func TestHostileLocksThroughPa(t *testing.T) {
	c := binClasses[0]
	dead, live := locktest.DeadPID(t), locktest.LivePID(t)
	binary := make([]byte, 10<<20)
	for i := range binary {
		binary[i] = byte(i*13 + i>>9)
	}
	escapes := "\x1b]0;owned\x07\x1b[2J\u009b\u202e"
	for name, lock := range map[string]string{
		"binary-10MB":        string(binary),
		"nested-100k":        strings.Repeat("[", 100000),
		"pid-0":              `{"pid":0}`,
		"pid-minus-1":        `{"pid":-1}`,
		"pid-2^63":           `{"pid":9223372036854775808}`,
		"pid-float":          fmt.Sprintf(`{"pid":%d.0}`, dead),
		"hostname-64KiB":     jsonOf(map[string]any{"pid": dead, "hostname": strings.Repeat("h", 64<<10)}),
		"hostname-escapes":   lockJSON(live, strings.Repeat(escapes, 40), time.Now()),
		"acquiredAt-escapes": jsonOf(map[string]any{"pid": live, "hostname": hostname(), "token": "x", "acquiredAt": escapes}),
		"token-not-hex-live": jsonOf(map[string]any{"pid": live, "hostname": hostname(), "token": "not hex " + escapes}),
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			estatetest.WriteFile(t, home, logName+".lock", lock)
			r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0")
			if r.code != 2 || !strings.HasPrefix(r.stderr, "pa: agents/demo/spawn-log.json.lock ") {
				t.Errorf("open: exit %d, stderr %.300q; want exit 2 naming the lock", r.code, r.stderr)
			}
			boundedLine(t, "open", r.stderr, 500)
			r = c.run(t, home, "board", "check", "--stale-window", "1ms")
			if r.code != 2 {
				t.Errorf("board check: exit %d, stdout %.300q", r.code, r.stdout)
			}
			boundedLine(t, "board check", r.stdout, 362)
			if readFile(t, home, logName+".lock") != lock {
				t.Error("the lock changed")
			}
		})
	}
	t.Run("token-not-hex-dead", func(t *testing.T) {
		home := t.TempDir()
		estatetest.WriteFile(t, home, logName+".lock", jsonOf(map[string]any{"pid": dead, "hostname": hostname(), "token": "not hex " + escapes}))
		if r := c.run(t, home, "dispatch", "open", "--agent", "demo", "--wait", "0"); r.code != 0 || r.stdout != "1\n" {
			t.Errorf("open over a dead holder's lock with a token that is not hex: exit %d, stdout %q, stderr %q; want it broken and id 1", r.code, r.stdout, r.stderr)
		}
	})
}

// jsonOf is v as JSON.
func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pa-toolkit/pa/estate/estatetest"
	"github.com/pa-toolkit/pa/internal/termsafe"
)

// ageRE is the age in a lock-held line: it grows between two runs of pa,
// so lines of two runs are compared with it blanked (sameLine).
var ageRE = regexp.MustCompile(`, age [0-9hms.µ]+, `)

// sameLine reports whether two lock-held lines are the same but for the
// age they show.
func sameLine(a, b string) bool {
	return ageRE.ReplaceAllString(a, ", age X, ") == ageRE.ReplaceAllString(b, ", age X, ")
}

// firstRunes is the first n characters of s (all of s when shorter),
// counted here by hand rather than with the cut under test.
func firstRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

// --hook-envelope cuts a problem line longer than 360 characters to exactly
// its first 360 characters (not bytes: the line is made of two-byte
// characters, so a cut by bytes would differ), and leaves a shorter line
// whole. The long line is a corrupt spawn-log whose unknown field has a
// long name.
func TestHookEnvelopeCutsALongLineToExactly360Characters(t *testing.T) {
	c := binClasses[0]
	home := t.TempDir()
	field := strings.Repeat("é", 400)
	estatetest.WriteFile(t, home, "agents/bad/spawn-log.json", `{"version":1,"nextId":1,"records":[],"`+field+`":1}`)
	estatetest.WriteFile(t, home, "agents/demo/spawn-log.json", `{"version":1,"nextId":2,"records":[{"id":1}]}`)
	r := c.run(t, home, "board", "check")
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	const long = `agents/bad/spawn-log.json does not parse: want a JSON object with version, nextId and records: unknown field "`
	if r.code != 2 || len(lines) != 2 || lines[0] != long+field+`"` || utf8.RuneCountInString(lines[0]) <= 360 {
		t.Fatalf("plain: exit %d, stdout %q; want a corrupt line of more than 360 characters first", r.code, r.stdout)
	}
	r = c.run(t, home, "board", "check", "--hook-envelope")
	var env struct {
		OK       bool
		Problems []string
	}
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || env.OK || len(env.Problems) != 2 {
		t.Fatalf("--hook-envelope: exit %d, stdout %q (%v); want exit 0 and two problems", r.code, r.stdout, err)
	}
	want := long + strings.Repeat("é", 360-utf8.RuneCountInString(long))
	if got := env.Problems[0]; got != want || utf8.RuneCountInString(got) != 360 || got != firstRunes(lines[0], 360) {
		t.Errorf("envelope line of %d characters:\n%q\nwant exactly the first 360:\n%q", utf8.RuneCountInString(got), got, want)
	}
	if env.Problems[1] != lines[1] {
		t.Errorf("envelope line %q; want the short line whole: %q", env.Problems[1], lines[1])
	}
}

// The lock-held line of board check with the worst values a lock can
// carry: a 240-character agent, a 255-character host made of '"' (or of
// '\', or both), pid 2147483647, a 255-character acquiredAt opening with an
// escape sequence, and a file time in 1902. In the plain, --json (its line
// field) and --hook-envelope outputs the line leads with the lock and the
// pid, is at most 362 characters, holds no raw control character, names
// where the whole command is (the agent's name leaves it no room) and
// --force; --json keeps the host and acquiredAt whole; the envelope carries
// the line's first 360 characters.
func TestBoardCheckLockHeldLineWithTheWorstValues(t *testing.T) {
	c := binClasses[0]
	agent := strings.Repeat("w", 240)
	opening := "\x1b[2J\x1b]0;x\x07" + strings.Repeat("\u009b", 5)
	acquiredAt := opening + strings.Repeat("z", 255-utf8.RuneCountInString(opening))
	if n := utf8.RuneCountInString(acquiredAt); n != 255 {
		t.Fatalf("acquiredAt is %d characters; want 255", n)
	}
	const lead = "agents/wwwwwwwwwwwwwwwwwwwwwwwwwwwww.../spawn-log.json.lock held by pid 2147483647 on host "
	for _, host := range []string{strings.Repeat(`"`, 255), strings.Repeat(`\`, 255), strings.Repeat(`"`, 254) + `\`} {
		t.Run(host[:1]+host[254:], func(t *testing.T) {
			home := t.TempDir()
			lock := "agents/" + agent + "/spawn-log.json.lock"
			b, _ := json.Marshal(map[string]any{"pid": 2147483647, "hostname": host, "token": strings.Repeat("5a", 12), "acquiredAt": acquiredAt})
			estatetest.WriteFile(t, home, lock, string(b))
			old := time.Date(1902, 1, 1, 0, 0, 0, 0, time.UTC)
			if err := os.Chtimes(filepath.Join(home, filepath.FromSlash(lock)), old, old); err != nil {
				t.Skipf("this file system keeps no file time in 1902: %v", err)
			}
			checkLine := func(what, line string) {
				t.Helper()
				if n := utf8.RuneCountInString(line); n > 362 {
					t.Errorf("%s: the line is %d characters; want at most 362: %q", what, n, line)
				}
				if !strings.HasPrefix(line, lead) || !strings.Contains(line, " (on another host, age ") ||
					!strings.Contains(line, `acquiredAt \x1b[2J\x1b]0;x`) {
					t.Errorf("%s: line %q; want it to lead with %q and show the host and acquiredAt escaped", what, line, lead)
				}
				if i := strings.IndexFunc(line, termsafe.Unsafe); i >= 0 || !utf8.ValidString(line) {
					t.Errorf("%s: line %q holds a raw control character", what, line)
				}
			}

			r := c.run(t, home, "board", "check")
			plain := strings.TrimSuffix(r.stdout, "\n")
			if r.code != 2 || strings.Count(r.stdout, "\n") != 1 {
				t.Fatalf("plain: exit %d, stdout %q; want exit 2 and one line", r.code, r.stdout)
			}
			checkLine("plain", plain)
			// The agent's whole name leaves the command no room: the line
			// names where it is, never a command cut short.
			if !strings.HasSuffix(plain, `; clear it with the "command" this check prints with --json, only once the holder's process is gone or stuck, never while it still runs`) ||
				strings.Contains(plain, "dispatch unlock") {
				t.Errorf("plain: line %q; want where the command is and --force named with when", plain)
			}

			r = c.run(t, home, "board", "check", "--json")
			var js struct {
				Problems []struct {
					Line   string
					Holder struct {
						PID                  int
						Hostname, AcquiredAt string
					}
				}
			}
			if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || r.code != 2 || len(js.Problems) != 1 {
				t.Fatalf("--json: exit %d, stdout %q (%v); want exit 2 and one problem", r.code, r.stdout, err)
			}
			p := js.Problems[0]
			checkLine("--json", p.Line)
			if !sameLine(p.Line, plain) || p.Holder.PID != 2147483647 || p.Holder.Hostname != host || p.Holder.AcquiredAt != acquiredAt {
				t.Errorf("--json: problem %+v; want the plain line, and the host and acquiredAt whole", p)
			}
			if strings.IndexFunc(r.stdout, termsafe.Unsafe) != len(r.stdout)-1 {
				t.Errorf("--json: %q holds a raw control character", r.stdout)
			}

			r = c.run(t, home, "board", "check", "--hook-envelope")
			var env struct {
				OK       bool
				Problems []string
			}
			if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || r.code != 0 || env.OK || len(env.Problems) != 1 {
				t.Fatalf("--hook-envelope: exit %d, stdout %q (%v); want exit 0 and one problem", r.code, r.stdout, err)
			}
			checkLine("--hook-envelope", env.Problems[0])
			if !sameLine(env.Problems[0], firstRunes(plain, 360)) || !strings.Contains(env.Problems[0], ", age ") {
				t.Errorf("--hook-envelope: %q; want the line's first 360 characters", env.Problems[0])
			}
		})
	}
}

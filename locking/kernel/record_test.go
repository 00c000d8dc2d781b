package kernel

import (
	"errors"
	"strings"
	"testing"
)

func TestLockID(t *testing.T) {
	id := LockID("agents/crow/spawn-log.json")
	if id != LockID("agents/crow/./spawn-log.json") || id == LockID("agents/owl/spawn-log.json") {
		t.Errorf("LockID not stable or not distinct: %s", id)
	}
	if !strings.HasPrefix(id, "lk_") || len(id) != 19 || strings.Contains(id, "crow") {
		t.Errorf("LockID = %q", id)
	}
}

func TestParseRecord(t *testing.T) {
	for _, bad := range []string{"", "{", "[1]", `{"pid":"x"}`, strings.Repeat(" ", maxRecord+1)} {
		if _, err := parseRecord([]byte(bad)); !errors.Is(err, ErrNoRecord) {
			t.Errorf("parseRecord(%.20q) = %v, want ErrNoRecord", bad, err)
		}
	}
	r, err := parseRecord([]byte(`{"pid":7,"hostname":"` + strings.Repeat("é", 200) + "\xff" + `"}`))
	if err != nil || r.PID != 7 || len(r.Hostname) > maxField+3 {
		t.Errorf("long hostname: %+v, %v", r, err)
	}
}

func TestRecordHasNoPath(t *testing.T) {
	b := string(Record{LockID: LockID("/abs/path/f"), PID: 1, Hostname: "h", Policy: "mutation"}.encode())
	if strings.Contains(b, "/") {
		t.Errorf("record %s holds a path", b)
	}
}

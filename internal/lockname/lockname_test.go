package lockname

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// A name ending in .lock or holding .lock. is another file's; so is one
// the lock's own rule names; every other name is free, and the error is a
// *fs.PathError for the name that says whose it is.
func TestCheck(t *testing.T) {
	tmp := func(base string) string {
		if strings.HasSuffix(base, ".tmp") {
			return "a tmp of " + strings.TrimSuffix(base, ".tmp")
		}
		return ""
	}
	for _, tc := range []struct{ name, whose string }{
		{"d/ok.lock", "the lock of ok"},
		{"ok.lock.incidents.jsonl", "a name beside the lock of ok"},
		{"d/ok.tmp", "a tmp of ok"},
		{"d/ok.locked", ""},
		{"d/lock", ""},
		{"d/ok", ""},
	} {
		err := Check(tc.name, tmp)
		var pe *fs.PathError
		switch {
		case tc.whose == "" && err != nil:
			t.Errorf("Check(%s) = %v; want nil", tc.name, err)
		case tc.whose != "" && (!errors.Is(err, ErrReserved) || !errors.As(err, &pe) || pe.Path != tc.name || !strings.HasSuffix(err.Error(), "it is "+tc.whose)):
			t.Errorf("Check(%s) = %v; want ErrReserved saying %q", tc.name, err, tc.whose)
		}
	}
	if err := Check("d/ok.tmp", nil); err != nil {
		t.Errorf("Check without a rule of its own = %v; want nil", err)
	}
}

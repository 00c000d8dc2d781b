package lockspec

import "testing"

// A pid that does not fit in 1..maxPID makes a lock unreadable on every
// architecture: the fast parse must not wrap a ten-digit pid into the
// range where int is 32 bits (GOARCH=386, arm), or an unreadable lock
// would read as a lock of another, possibly dead, pid and be broken.
func TestParseOwnRecordPIDDoesNotWrap(t *testing.T) {
	for _, pid := range []string{"4294967297", "4294967296", "8589934599", "9999999999", "2147483648",
		"18446744073709551623", // 2^64 + 7: wraps to 7 even in 64 bits without the digit cap
		"36893488147419103239", // 2^65 + 7
	} {
		data := []byte(`{"pid":` + pid + `,"hostname":"h","token":"t","acquiredAt":"x"}`)
		if p, ok := parseOwnRecord(data); ok {
			t.Errorf("parseOwnRecord(%s) = pid %d, ok; want not ok (pid beyond %d)", data, p.pid, maxPID)
		}
		if p, ok := parseRecord(data); ok {
			t.Errorf("parseRecord(%s) = pid %d, ok; want an unreadable lock", data, p.pid)
		}
	}
}

// What the fast parse accepts, encoding/json reads the same (the fuzz
// target's property, on the odd bytes it must meet): raw control
// characters (JSON refuses them, so such a lock is unreadable and never
// broken), DEL, bytes above ASCII, invalid UTF-8 (JSON reads U+FFFD), and
// escapes.
func TestParseOwnRecordAgreesWithJSONOnOddStrings(t *testing.T) {
	for _, s := range []string{"\x00", "\x01", "\t", "\x1f", "\x7f", "\x80", "\xff", "é", `\"`, `\u0041`, `\\`, "a b", "~"} {
		for _, field := range []string{"hostname", "token", "acquiredAt"} {
			vals := map[string]string{"hostname": "h", "token": "t", "acquiredAt": "x"}
			vals[field] = s
			data := []byte(`{"pid":123,"hostname":"` + vals["hostname"] + `","token":"` + vals["token"] + `","acquiredAt":"` + vals["acquiredAt"] + `"}`)
			own, fast := parseOwnRecord(data)
			if !fast {
				continue
			}
			if any, ok := parseAnyRecord(data); !ok || any != own {
				t.Errorf("parseOwnRecord(%q) = %+v; encoding/json reads %+v, ok %v", data, own, any, ok)
			}
		}
	}
	if _, fast := parseOwnRecord([]byte(`{"pid":123,"hostname":"a b~","token":"t","acquiredAt":"x"}`)); !fast {
		t.Error("printable ASCII does not take the fast path")
	}
}

// The fast parse reads the identity fields as encoding/json does. Each
// record of the shape record.encode writes takes the fast path and reads
// the same; each with a field out of that shape (a value that counts as
// not recorded, or keys in another order) is left to encoding/json.
func TestParseOwnRecordIdentityAgreesWithJSON(t *testing.T) {
	const boot = `"boot":"0f6c3f1e-5b8e-4e55-9d3c-6f0a1b2c3d4e"`
	for _, c := range []struct {
		fields string
		fast   bool
	}{
		{`,` + boot + `,"pidNamespace":4026531836,"startTime":1234,"kernelLock":{"dev":2049,"ino":131}`, true},
		{`,` + boot, true},
		{`,"pidNamespace":1`, true},
		{`,"startTime":18446744073709551615`, true},
		{`,"kernelLock":{"dev":0,"ino":1}`, true},
		{`,"pidNamespace":1,"startTime":2`, true},
		{`,"startTime":2,"kernelLock":{"dev":3,"ino":4}`, true},
		{`,"boot":"0F6C3F1E-5B8E-4E55-9D3C-6F0A1B2C3D4E"`, false},
		{`,"boot":"x"`, false},
		{`,"pidNamespace":0`, false},
		{`,"startTime":0`, false},
		{`,"startTime":18446744073709551616`, false},
		{`,"startTime":01`, false},
		{`,"kernelLock":{"dev":1,"ino":0}`, false},
		{`,"kernelLock":{"dev":01,"ino":2}`, false},
		{`,"kernelLock":{"dev":1,"ino":2,"x":3}`, false},
		{`,"kernelLock":{"ino":2,"dev":1}`, false},
		{`,"startTime":1,"pidNamespace":2`, false},
		{`,"kernelLock":{"dev":1,"ino":2},` + boot, false},
	} {
		data := []byte(`{"pid":7,"hostname":"h","token":"t"` + c.fields + `,"acquiredAt":"x"}`)
		own, fast := parseOwnRecord(data)
		if fast != c.fast {
			t.Errorf("parseOwnRecord(%s) took the fast path: %v; want %v", data, fast, c.fast)
		}
		if !fast {
			continue
		}
		if any, ok := parseAnyRecord(data); !ok || any != own {
			t.Errorf("parseOwnRecord(%s) = %+v; encoding/json reads %+v, ok %v", data, own, any, ok)
		}
	}
}

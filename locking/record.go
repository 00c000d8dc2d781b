package locking

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// maxPID bounds the pids the lock accepts: a pid outside 1..maxPID makes a
// lock unreadable, so kill(2) is never asked about pid 0, -1 (every
// process) or a value its pid_t would truncate.
const maxPID = math.MaxInt32

// maxLockBytes bounds what is read of a lock or a claim: a longer file is
// unreadable (a lock of ours is a few hundred bytes).
const maxLockBytes = 64 << 10

// timeLayout is the ISO 8601 form of acquiredAt, as JavaScript's
// toISOString writes it: UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// record is the lock's content (spec: The lock file and the names beside
// it): one JSON object with pid, hostname, token and acquiredAt.
type record struct {
	PID        int    `json:"pid"`
	Hostname   string `json:"hostname"`
	Token      string `json:"token"`
	AcquiredAt string `json:"acquiredAt"`
}

func (r record) encode() []byte {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err) // strings and an int always marshal
	}
	return b
}

// recordAt is a record with its acquiredAt left to fill: the bytes of
// encode up to the opening quote of acquiredAt's value, made once per
// acquire, so that a publish after a wait only formats the time (the rest
// of a record does not change within a hold).
type recordAt []byte

// template returns r's encoding with acquiredAt left to fill (r's own is
// ignored).
func (r record) template() recordAt {
	r.AcquiredAt = ""
	b := r.encode()
	return recordAt(b[:len(b)-len(`"}`)]) // acquiredAt is the last field
}

// at returns the record's encoding with acquiredAt t (UTC, timeLayout):
// the bytes encode would give, since the time holds nothing JSON escapes.
func (t recordAt) at(when time.Time) []byte {
	b := make([]byte, 0, len(t)+len(timeLayout)+len(`"}`))
	b = append(b, t...)
	b = when.UTC().AppendFormat(b, timeLayout)
	return append(b, `"}`...)
}

// parsedRecord is what a lock (or an earlier-shape claim) says, once parsed.
type parsedRecord struct {
	pid         int
	hostname    string
	hasHostname bool
	token       string
	acquiredAt  string
}

// parseRecord parses a lock's bytes. It reports ok=false, an unreadable lock,
// unless they are one JSON object with no key twice, whose pid is an
// integer in 1..maxPID and whose hostname, token and acquiredAt, where
// present, are strings. An unreadable lock is never broken automatically.
//
// A key twice ({"pid":1,"pid":999999}) makes the lock unreadable: JSON
// parsers differ on which one counts (the source design's JSON.parse, like
// encoding/json, keeps the last), so a reader could judge the holder by a
// pid or a hostname the writer did not mean, and break a live holder's
// lock. pa never writes such a lock; only a hand-made one has it.
func parseRecord(data []byte) (parsedRecord, bool) {
	if p, ok := parseOwnRecord(data); ok {
		return p, true
	}
	return parseAnyRecord(data)
}

// parseAnyRecord is parseRecord for any bytes, by encoding/json.
func parseAnyRecord(data []byte) (parsedRecord, bool) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return parsedRecord{}, false
	}
	if len(bytes.Trim(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return parsedRecord{}, false // trailing data after the object, even a lone '}'
	}
	if !keysOnce(data) {
		return parsedRecord{}, false // a key twice: which one counts is not ours to pick
	}
	var p parsedRecord
	pidRaw, ok := raw["pid"]
	if !ok {
		return parsedRecord{}, false
	}
	// A plain decimal integer literal: not a string, not 1.0, not 1e3.
	n, err := strconv.ParseInt(string(bytes.TrimSpace(pidRaw)), 10, 64)
	if err != nil || n < 1 || n > maxPID {
		return parsedRecord{}, false
	}
	p.pid = int(n)
	for key, dst := range map[string]*string{"hostname": &p.hostname, "token": &p.token, "acquiredAt": &p.acquiredAt} {
		v, present := raw[key]
		if !present {
			continue
		}
		// A string, not null (which json would take as a no-op) and not
		// any other type: else the lock is unreadable, never broken.
		if v = bytes.TrimSpace(v); len(v) == 0 || v[0] != '"' {
			return parsedRecord{}, false
		}
		if err := json.Unmarshal(v, dst); err != nil {
			return parsedRecord{}, false
		}
		if key == "hostname" {
			p.hasHostname = true
		}
	}
	return p, true
}

// keysOnce reports whether the JSON object data (already decoded whole, so
// well formed) has each key of its top level once, keys compared as
// decoded ("p\u0069d" is "pid").
func keysOnce(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey || seen[key] {
			return false
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return false
		}
	}
	return true
}

// parseAcquiredAt reads an acquiredAt stamp; ok is false when it is missing
// or not an ISO 8601 time.
func parseAcquiredAt(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}

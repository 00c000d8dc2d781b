package lockspec

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/pa-toolkit/pa/vfs"
)

// maxPID bounds the pids the lock accepts: a pid outside 1..maxPID makes a
// lock unreadable, so kill(2) is never asked about pid 0, -1 (every
// process) or a value its pid_t would truncate.
const maxPID = math.MaxInt32

// MaxLockBytes bounds what is read of a lock or a claim, in bytes: a
// longer file is unreadable, whatever it holds (a lock of ours is a few
// hundred bytes), so a lock of megabytes is never read whole.
const MaxLockBytes = 64 << 10

// timeLayout is the ISO 8601 form of acquiredAt, as JavaScript's
// toISOString writes it: UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// record is the lock's content (spec: The lock file and the names beside
// it): one JSON object with pid, hostname, token and acquiredAt, and, where
// the host knows them, the holder's identity and the kernel lock it holds
// on the lock's inode (docs/spawn-log-lock.md, "Proof of death"), then
// the holder's public-safe fields (label.go): lock_id, and agent,
// operation and policy where the caller gave them. Those four are
// snake_case lock_id as the kernel-lock design and the kernel lock's record
// name it (an incident row of either lock carries the same lock_id), the
// others one word each. The spec's readers ignore the keys they do not
// know. acquiredAt stays last (template).
type record struct {
	PID          int             `json:"pid"`
	Hostname     string          `json:"hostname"`
	Token        string          `json:"token"`
	Boot         string          `json:"boot,omitempty"`
	PIDNamespace uint64          `json:"pidNamespace,omitempty"`
	StartTime    uint64          `json:"startTime,omitempty"`
	KernelLock   *kernelLockJSON `json:"kernelLock,omitempty"`
	LockID       string          `json:"lock_id,omitempty"`
	Agent        string          `json:"agent,omitempty"`
	Operation    string          `json:"operation,omitempty"`
	Policy       string          `json:"policy,omitempty"`
	AcquiredAt   string          `json:"acquiredAt"`
}

// withLabels returns r with the holder's public-safe fields.
func (r record) withLabels(lockID, agent, operation, policy string) record {
	r.LockID, r.Agent, r.Operation, r.Policy = lockID, agent, operation, policy
	return r
}

// kernelLockJSON is the record's claim that its holder keeps an exclusive
// kernel lock on the file of that device and inode for its whole hold.
type kernelLockJSON struct {
	Dev uint64 `json:"dev"`
	Ino uint64 `json:"ino"`
}

// withIdentity returns r with id's known fields and, when kernel is not
// nil, the kernel lock on that file.
func (r record) withIdentity(id Identity, kernel *vfs.FileKey) record {
	r.Boot, r.PIDNamespace, r.StartTime = id.Boot, id.PIDNamespace, id.StartTime
	if kernel != nil {
		r.KernelLock = &kernelLockJSON{Dev: kernel.Dev, Ino: kernel.Ino}
	}
	return r
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
	// id is the holder's identity as recorded: a field absent, of a wrong
	// type or of an absurd value is zero (not recorded).
	id Identity
	// kernel is the file the holder claims to keep a kernel lock on, when
	// claimsKernel (a claim not in its valid shape is none).
	kernel       vfs.FileKey
	claimsKernel bool
	// labels are the holder's public-safe fields as recorded: one absent,
	// not a string or not in its valid shape is "" (not recorded).
	labels labels
}

// labels are a record's lock_id, agent, operation and policy.
type labels struct {
	lockID, agent, operation, policy string
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
	p.id, p.kernel, p.claimsKernel = parseIdentity(raw)
	p.labels = parseLabels(raw)
	return p, true
}

// parseLabels reads the public-safe fields of a record. Each must be a
// string in its one shape (lock_id as LockID makes it, agent and
// operation ValidLabel, policy a policy's name), else it counts as not
// recorded: a record read back is untrusted, and a field never makes a
// lock unreadable, nor easier to break (nothing judges by them).
func parseLabels(raw map[string]json.RawMessage) labels {
	var l labels
	for key, f := range map[string]struct {
		dst   *string
		valid func(string) bool
	}{
		"lock_id": {&l.lockID, validLockID}, "agent": {&l.agent, nonEmptyLabel},
		"operation": {&l.operation, nonEmptyLabel}, "policy": {&l.policy, validPolicy},
	} {
		var s string
		if v := bytes.TrimSpace(raw[key]); len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil && f.valid(s) {
			*f.dst = s
		}
	}
	return l
}

// nonEmptyLabel is ValidLabel for a label that is recorded.
func nonEmptyLabel(s string) bool { return s != "" && ValidLabel(s) }

// parseIdentity reads the identity fields of a record. Each must be of its
// one shape (boot a lowercase UUID; pidNamespace and startTime plain
// decimal integers of 1 or more; kernelLock an object of exactly dev and
// ino, integers, ino 1 or more), else it counts as not recorded: a wrong
// type or an absurd value never makes a lock easier to break, and never
// makes it unreadable either.
func parseIdentity(raw map[string]json.RawMessage) (Identity, vfs.FileKey, bool) {
	var id Identity
	if v, ok := raw["boot"]; ok {
		var s string
		if v = bytes.TrimSpace(v); len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil && validBoot(s) {
			id.Boot = s
		}
	}
	id.PIDNamespace, _ = positiveInteger(raw["pidNamespace"])
	id.StartTime, _ = positiveInteger(raw["startTime"])
	v, ok := raw["kernelLock"]
	if !ok {
		return id, vfs.FileKey{}, false
	}
	var obj map[string]json.RawMessage
	if v = bytes.TrimSpace(v); len(v) == 0 || v[0] != '{' || json.Unmarshal(v, &obj) != nil || len(obj) != 2 || !keysOnce(v) {
		return id, vfs.FileKey{}, false
	}
	dev, devOK := integer(obj["dev"])
	ino, inoOK := positiveInteger(obj["ino"])
	if !devOK || !inoOK {
		return id, vfs.FileKey{}, false
	}
	return id, vfs.FileKey{Dev: dev, Ino: ino}, true
}

// integer reads a plain decimal integer literal of 0..2^64-1 (no sign, no
// fraction, no exponent, no leading zero). Anything else is 0 and not ok:
// parseIdentity keeps the value of a field that is not ok, as zero (not
// recorded).
func integer(v json.RawMessage) (uint64, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || len(v) > 1 && v[0] == '0' {
		return 0, false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, false // past 2^64-1, where ParseUint's n is 2^64-1, no value of the record's
	}
	return n, true
}

// positiveInteger is integer for 1..2^64-1 (0 and not ok for 0).
func positiveInteger(v json.RawMessage) (uint64, bool) {
	n, ok := integer(v)
	return n, ok && n > 0
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

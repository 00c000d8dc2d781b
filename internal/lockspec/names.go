package lockspec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
)

// LockName is name + ".lock", the lock that guards name (spec: The lock
// file and the names beside it).
func LockName(name string) string { return name + ".lock" }

// names are the names of one guarded file, its lock and the names beside the
// lock, for one host and pid (spec: the table of names).
type names struct {
	target string // the guarded file, e.g. agents/a/spawn-log.json
	lock   string // target + ".lock"
	dir    string // the folder of both
	host   string // 8 hex of sha256(hostname)
	pid    int

	// The prefixes of the names beside the lock, in the folder.
	pendingP, brokenP, claimP, tempP, keepP, stagedP, probeP string
	// swept are the prefixes a sweep lists: every name beside the lock
	// begins with one.
	swept []string
}

func (e *env) names(target string) names {
	return newNames(target, HostHash(e.host.Hostname()), e.host.PID())
}

// newNames returns the names of target for the host of hash host and pid.
func newNames(target, host string, pid int) names {
	lock := LockName(target)
	lockBase, targetBase := path.Base(lock), path.Base(target)
	n := names{
		target:   target,
		lock:     lock,
		dir:      path.Dir(target),
		host:     host,
		pid:      pid,
		pendingP: lockBase + ".pending-",
		brokenP:  lockBase + ".broken-",
		claimP:   lockBase + ".claim-",
		tempP:    targetBase + ".tmp-",
		keepP:    targetBase + ".keep-",
		stagedP:  lockBase + ".staged-",
		probeP:   lockBase + ".probe-",
	}
	n.swept = []string{lockBase + ".", n.tempP, n.keepP}
	return n
}

// HostHash is the <host> part of every name beside a lock: the first 8 hex
// characters of the sha256 of hostname.
func HostHash(hostname string) string {
	sum := sha256.Sum256([]byte(hostname))
	return hex.EncodeToString(sum[:4])
}

// claimKey is the <key> of a claim: 16 hex of the sha256 of the lock bytes
// judged.
func claimKey(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// owned is the "<host>-<pid>-<attempt>" suffix shared by current names.
func (n names) owned(attempt string) string {
	return n.host + "-" + strconv.Itoa(n.pid) + "-" + attempt
}

func (n names) pending(attempt string) string { return n.lock + ".pending-" + n.owned(attempt) }
func (n names) broken(attempt string) string  { return n.lock + ".broken-" + n.owned(attempt) }

// staged is the staging directory of one directory publish.
func (n names) staged(attempt string) string { return n.lock + ".staged-" + n.owned(attempt) }

// probe is the second name of a pending file whose kernel lock is tried
// through it (linkedKernelLock): the pending name's, with probe for
// pending. pending is a name n.pending made.
func (n names) probe(pending string) string {
	return n.lock + ".probe-" + strings.TrimPrefix(pending, n.lock+".pending-")
}

// probeTwin is the pending name whose probe base is (a name in the
// folder).
func (n names) probeTwin(base string) string {
	return path.Join(n.dir, n.pendingP+strings.TrimPrefix(base, n.probeP))
}

func (n names) temp(attempt string) string { return n.target + ".tmp-" + n.owned(attempt) }
func (n names) claim(key, attempt string) string {
	return n.claimPrefix(key) + n.owned(attempt)
}
func (n names) claimPrefix(key string) string { return n.lock + ".claim-" + key + "-" }

// randomHex returns 2*n hex characters from r: 12 bytes give the spec's 24.
func randomHex(r io.Reader, n int) (string, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", fmt.Errorf("locking: reading random bytes: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// newAttempt draws the 24-hex attempt token that makes a name unique.
func (e *env) newAttempt() (string, error) { return randomHex(e.rand, 12) }

// owner is who a name beside the lock belongs to, as read from its name (or,
// for the earlier claim shapes, from its content).
type owner struct {
	hostHash    string // 8 hex; empty when the name records no host
	hostname    string // from content (earlier claims)
	hasHostname bool
	fromContent bool
	pid         int
}

// leftoverKind is what a name beside the lock is.
type leftoverKind int

const (
	notOurs        leftoverKind = iota
	ownerInName                 // pending, broken, temp and current claims
	ownerInClaim                // claim-<inode> and claim-h<key>: owner in the content
	probeOfPending              // a pending file's probe name: swept once its twin is gone
)

// classify tells whether base (a name in the lock's folder) is one of the
// names beside the lock, in the current or an earlier shape (spec: The lock
// file and the names beside it), and who owns it when the name says.
func (n names) classify(base string) (leftoverKind, owner) {
	switch {
	case strings.HasPrefix(base, n.pendingP):
		return ownerFromSuffix(base[len(n.pendingP):])
	case strings.HasPrefix(base, n.brokenP):
		return ownerFromSuffix(base[len(n.brokenP):])
	case strings.HasPrefix(base, n.stagedP):
		if k, o := ownerFromSuffix(base[len(n.stagedP):]); o.hostHash != "" {
			return k, o // only this build stages, always with a host
		}
	case strings.HasPrefix(base, n.probeP):
		if _, o := ownerFromSuffix(base[len(n.probeP):]); o.hostHash != "" {
			return probeOfPending, o
		}
	case strings.HasPrefix(base, n.tempP):
		return ownerFromSuffix(base[len(n.tempP):])
	case strings.HasPrefix(base, n.keepP):
		return ownerFromSuffix(base[len(n.keepP):])
	case strings.HasPrefix(base, n.claimP):
		rest := base[len(n.claimP):]
		if key, suffix, ok := strings.Cut(rest, "-"); ok && len(key) == 16 && isHex(key) {
			k, o := ownerFromSuffix(suffix)
			if k == ownerInName && o.hostHash != "" {
				return k, o
			}
			return notOurs, owner{}
		}
		if isDigits(rest) || len(rest) > 1 && rest[0] == 'h' && isHex(rest[1:]) {
			return ownerInClaim, owner{fromContent: true}
		}
	}
	return notOurs, owner{}
}

// ownerFromSuffix reads "<host>-<pid>-<attempt>" (current),
// "<host>-<pid>-<time>-<hex>" (earlier, with host) or "<pid>-<hex>" (earlier,
// no host: this host's).
func ownerFromSuffix(s string) (leftoverKind, owner) {
	parts := strings.Split(s, "-")
	switch {
	case len(parts) >= 3 && len(parts[0]) == 8 && isHex(parts[0]) && isDigits(parts[1]) && allHexOrDigits(parts[2:]):
		if pid, ok := parsePID(parts[1]); ok {
			return ownerInName, owner{hostHash: parts[0], pid: pid}
		}
	case len(parts) == 2 && isDigits(parts[0]) && isHex(parts[1]):
		if pid, ok := parsePID(parts[0]); ok {
			return ownerInName, owner{pid: pid}
		}
	}
	return notOurs, owner{}
}

func parsePID(s string) (int, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > maxPID {
		return 0, false
	}
	return int(n), true
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func allHexOrDigits(parts []string) bool {
	for _, p := range parts {
		if !isHex(p) {
			return false
		}
	}
	return true
}

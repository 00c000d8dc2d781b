package lockspec

import (
	"strconv"

	"github.com/pa-toolkit/pa/vfs"
)

// liveness is the proof of death of a lock of this host's hostname
// (docs/spawn-log-lock.md, "Proof of death", which extends the spec's one
// automatic break). The holder is provably dead only when every signal its
// record carries says so, and alive as soon as one says alive:
//
//   - a kernel lock claimed on the file found there and refused: alive,
//     whatever the pid says;
//   - another boot of this host: dead;
//   - another pid namespace: a pid means nothing here; dead only when the
//     kernel lock is granted, else held (StateOtherNamespace);
//   - this pid namespace (or none recorded): dead when the pid is gone, or
//     when it answers but started at another time than the holder (a
//     reused pid), or when the kernel lock is granted and the pid does not
//     prove the holder alive (it started when the holder did); else alive.
//
// A record with none of the identity fields is judged as the spec says:
// kill(pid, 0), with no evidence worded. kernel, when not nil, tries the
// kernel lock on the file the record was read from.
func (e *env) liveness(rec parsedRecord, kernel func(claimed vfs.FileKey) kernelState) (State, string) {
	ks := kernelUnknown
	if rec.claimsKernel && kernel != nil {
		ks = kernel(rec.kernel)
	}
	if ks == kernelHeld {
		return StateAlive, EvidenceKernelLock
	}
	self := e.selfIdentity()
	if rec.id.Boot != "" && self.Boot != "" && rec.id.Boot != self.Boot {
		return StateDead, "a process of an earlier boot of this host (boot " + rec.id.Boot + ")"
	}
	if rec.id.PIDNamespace != 0 && rec.id.PIDNamespace != self.PIDNamespace {
		if ks == kernelFree {
			return StateDead, "in another pid namespace of this host, and no process holds the lock's kernel lock"
		}
		return StateOtherNamespace, ""
	}
	recorded := rec.id != (Identity{}) || rec.claimsKernel
	pid := strconv.Itoa(rec.pid)
	if !e.host.Alive(rec.pid) {
		if ks == kernelFree {
			return StateDead, "pid " + pid + " is gone and no process holds the lock's kernel lock"
		}
		if !recorded {
			return StateDead, ""
		}
		return StateDead, "pid " + pid + " is gone"
	}
	if rec.id.StartTime != 0 {
		if now, ok := e.startTimeOf(rec.pid); ok {
			if now != rec.id.StartTime {
				return StateDead, "pid " + pid + " started at " + strconv.FormatUint(now, 10) +
					" is not the holder, which started at " + strconv.FormatUint(rec.id.StartTime, 10)
			}
			return StateAlive, "pid " + pid + " started when the holder did"
		}
	}
	if ks == kernelFree {
		return StateDead, "no process holds the lock's kernel lock (pid " + pid + " answers, but nothing says it is the holder)"
	}
	if !recorded {
		return StateAlive, ""
	}
	return StateAlive, "pid " + pid + " answers"
}

package policy_test

import (
	"testing"
	"time"

	"github.com/pa-toolkit/pa/locking/policy"
)

func TestDeadlinesOf(t *testing.T) {
	d := policy.Deadlines{Mutation: 5 * time.Second, Monitor: time.Second}
	for p, want := range map[policy.Policy]time.Duration{
		policy.Mutation: 5 * time.Second, policy.Monitor: time.Second, policy.SingleFlight: 0, 42: 0,
	} {
		if got := d.Of(p); got != want {
			t.Errorf("Of(%v) = %v, want %v", p, got, want)
		}
	}
}

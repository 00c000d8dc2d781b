package policy_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/pa-toolkit/pa/locking/policy"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]policy.Policy{
		"mutation": policy.Mutation, "monitor": policy.Monitor,
		"single_flight": policy.SingleFlight, "single-flight": policy.SingleFlight,
	} {
		got, err := policy.Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "Mutation", "single flight", "singleflight", "wait"} {
		if got, err := policy.Parse(in); !errors.Is(err, policy.ErrUnknown) {
			t.Errorf("Parse(%q) = %v, %v; want ErrUnknown", in, got, err)
		}
	}
}

func TestString(t *testing.T) {
	for p, want := range map[policy.Policy]string{
		policy.Mutation: "mutation", policy.Monitor: "monitor", policy.SingleFlight: "single_flight", 7: "Policy(7)", -1: "Policy(-1)",
	} {
		if got := p.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(p), got, want)
		}
	}
	var zero policy.Policy
	if zero != policy.Mutation {
		t.Errorf("the zero Policy is %v, want mutation", zero)
	}
}

func TestWaits(t *testing.T) {
	if !policy.Mutation.Waits() || !policy.Monitor.Waits() || policy.SingleFlight.Waits() || policy.Policy(9).Waits() {
		t.Error("Waits: want mutation and monitor only")
	}
}

func TestJSON(t *testing.T) {
	var v struct{ P policy.Policy }
	for _, p := range []policy.Policy{policy.Mutation, policy.Monitor, policy.SingleFlight} {
		v.P = p
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		v.P = 99
		if err := json.Unmarshal(b, &v); err != nil || v.P != p {
			t.Errorf("round trip of %v through %s: %v, %v", p, b, v.P, err)
		}
	}
	if _, err := json.Marshal(struct{ P policy.Policy }{5}); !errors.Is(err, policy.ErrUnknown) {
		t.Errorf("Marshal of Policy(5): %v, want ErrUnknown", err)
	}
	if err := json.Unmarshal([]byte(`{"P":"later"}`), &v); !errors.Is(err, policy.ErrUnknown) {
		t.Errorf("Unmarshal of \"later\": %v, want ErrUnknown", err)
	}
}

func TestParseErrorIsShort(t *testing.T) {
	long := string(make([]byte, 10000))
	_, err := policy.Parse(long)
	if err == nil || len(err.Error()) > 300 {
		t.Errorf("Parse of 10000 bytes: error of %d bytes", len(err.Error()))
	}
}

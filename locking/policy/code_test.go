package policy_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pa-toolkit/pa/locking/policy"
)

type coded struct{}

func (coded) Error() string          { return "coded" }
func (coded) ErrorCode() policy.Code { return policy.CodeTimeout }

func TestCodeOf(t *testing.T) {
	if c, ok := policy.CodeOf(fmt.Errorf("wrapped: %w", coded{})); !ok || c != "lock_acquire_timeout" {
		t.Errorf("CodeOf(wrapped coded) = %q, %v", c, ok)
	}
	if c, ok := policy.CodeOf(errors.New("plain")); ok {
		t.Errorf("CodeOf(plain) = %q, true", c)
	}
}

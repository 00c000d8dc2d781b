package locking_test

import (
	"path"
	"testing"

	"github.com/pa-toolkit/pa/locking/locktest"
)

func pathMatchOne(pattern, name string) (bool, error) { return path.Match(pattern, name) }

func locktestLivePID(t *testing.T) int { return locktest.LivePID(t) }
func locktestDeadPID(t *testing.T) int { return locktest.DeadPID(t) }

//go:build !linux

package plugins

import "context"

// withLinearMemory keeps wazero's default slice-backed memory off Linux.
func withLinearMemory(ctx context.Context) context.Context { return ctx }

//go:build race

package e2e

// raceBuild: under `go test -race` the tests that drive concurrency into
// the kernel serve with a server built with -race too (startRaceServer).
const raceBuild = true

//go:build race

package e2e

// raceBuild: `go test -race` builds the server under test with the race
// detector too, so a data race in the kernel fails the end-to-end tests.
const raceBuild = true

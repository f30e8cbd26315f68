//go:build race

package plugins

// raceBuild: the tests run under -race, and so do the workers they start
// (the same test binary).
const raceBuild = true

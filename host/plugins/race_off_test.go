//go:build !race

package plugins

const raceBuild = false

// Command stall is a test plugin: it serves format_document and never
// answers, the slow analyzer a client gives up on (tests/e2e shows the
// kernel stops it when the client disconnects).
package main

import "github.com/pyws/pyws/plugin-sdk"

var x uint64

func handle(*sdk.Request) (any, error) {
	for {
		x = x*6364136223846793005 + 1442695040888963407
	}
}

func init() { sdk.Serve(handle) }

func main() {}

// Command oom is a test plugin whose tool "oom" allocates and keeps memory
// until the kernel's memory limit stops it.
package main

import "github.com/pyws/pyws/plugin-sdk"

var keep [][]byte

func handle(r *sdk.Request) (any, error) {
	for {
		keep = append(keep, make([]byte, 1<<20))
	}
}

func init() { sdk.Serve(handle) }

func main() {}

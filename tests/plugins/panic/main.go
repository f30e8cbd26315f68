// Command panic is a test plugin: "panic" panics, "nil_deref" dereferences
// a nil pointer, and "ok" answers normally, to show the instance survives.
package main

import "github.com/pyws/pyws/plugin-sdk"

type node struct{ next *node }

func handle(r *sdk.Request) (any, error) {
	switch r.Tool {
	case "panic":
		panic("boom")
	case "nil_deref":
		var n *node
		return n.next.next, nil
	}
	return "ok", nil
}

func init() { sdk.Serve(handle) }

func main() {}

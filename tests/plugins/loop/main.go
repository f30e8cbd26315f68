// Command loop is a test plugin: "loop" spins forever without yielding (a
// guest the kernel can stop only by killing its worker), "spin" burns a
// bounded amount of CPU (for measuring guest code speed).
package main

import "github.com/pyws/pyws/plugin-sdk"

var x uint64

func handle(r *sdk.Request) (any, error) {
	switch r.Tool {
	case "loop":
		for {
			x = x*6364136223846793005 + 1442695040888963407
		}
	case "spin":
		var a struct {
			N int `json:"n"`
		}
		if err := r.DecodeArguments(&a); err != nil {
			return nil, err
		}
		v := uint64(1)
		for i := 0; i < a.N; i++ {
			v = v*6364136223846793005 + uint64(i)
			v ^= v >> 29
		}
		return map[string]uint64{"v": v}, nil
	}
	return nil, sdk.Errorf("INVALID_PARAMETER", nil, "unknown tool %q", r.Tool)
}

func init() { sdk.Serve(handle) }

func main() {}

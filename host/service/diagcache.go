package service

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// diagCache keeps a workspace's plugin answers for recent (file, context files,
// arguments) triples: an editor asks for the diagnostics of unchanged
// files again and again, and parsing plus analysis of a large file costs
// far more than hashing it. Keys hash everything the plugin sees, so a
// changed file, context file, configuration or workspace fact misses.
type diagCache struct {
	mu    sync.Mutex
	max   int
	order [][32]byte
	m     map[[32]byte][]byte
}

func newDiagCache() *diagCache { return &diagCache{max: 256, m: map[[32]byte][]byte{}} }

func diagKey(args any, files []*sourceFile) [32]byte {
	h := sha256.New()
	b, _ := json.Marshal(args)
	h.Write(b)
	for _, f := range files {
		h.Write([]byte{0})
		h.Write([]byte(f.rel))
		h.Write([]byte{0})
		h.Write(f.text)
	}
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func (c *diagCache) get(k [32]byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *diagCache) put(k [32]byte, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, k)
	c.m[k] = v
}

// factsCache keeps what the diagnostics plugin reported about context
// modules (abi.ContextFacts), keyed by everything the facts depend on: the
// module's bytes, its name and kind, the target Python version and the
// plugin build. A module that many files import is then analysed once per
// version instead of being sent, parsed and analysed with every call.
// Bounded by bytes, oldest first out.
type factsCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order [][32]byte
	m     map[[32]byte]json.RawMessage
}

// maxFactsBytes bounds one module's facts: plugin output is untrusted.
const maxFactsBytes = 1 << 20

func newFactsCache() *factsCache {
	return &factsCache{max: 32 << 20, m: map[[32]byte]json.RawMessage{}}
}

func factsKey(f *sourceFile, cf abi.DiagnosticsContextFile, pythonVersion, plugin string) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%t\x00%s\x00", plugin, cf.Module, cf.IsPackageInit, pythonVersion)
	h.Write(f.text)
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func (c *factsCache) get(k [32]byte) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *factsCache) put(k [32]byte, v json.RawMessage) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok || len(v) > c.max {
		return
	}
	c.m[k] = v
	c.order = append(c.order, k)
	c.size += len(v)
	for c.size > c.max {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.m[old])
		delete(c.m, old)
	}
}

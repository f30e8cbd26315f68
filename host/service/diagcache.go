package service

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/pyws/pyws/plugin-sdk/abi"
)

// A workspace's diagnostics keep two of these (diagState):
//
//   - the plugin's answers for recent (file, context files, arguments)
//     triples, at most 256: an editor asks for the diagnostics of
//     unchanged files again and again, and parsing plus analysis of a
//     large file costs far more than hashing it. Keys hash everything
//     the plugin sees (diagKey), so a changed file, context file,
//     configuration or workspace fact misses.
//   - what the plugin reported about context modules (abi.ContextFacts),
//     at most 32 MiB, keyed by everything the facts depend on (factsKey):
//     the module's bytes, its name and kind, the target Python version
//     and the plugin build. A module that many files import is then
//     analysed once per version instead of being sent, parsed and
//     analysed with every call.
type boundedCache struct {
	mu                   sync.Mutex
	maxEntries, maxBytes int // 0: no bound
	size                 int
	order                [][32]byte // oldest first out
	m                    map[[32]byte][]byte
}

func newDiagCache() *boundedCache {
	return &boundedCache{maxEntries: 256, m: map[[32]byte][]byte{}}
}

func newFactsCache() *boundedCache {
	return &boundedCache{maxBytes: 32 << 20, m: map[[32]byte][]byte{}}
}

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

func factsKey(f *sourceFile, cf abi.DiagnosticsContextFile, pythonVersion, plugin string) [32]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%t\x00%s\x00", plugin, cf.Module, cf.IsPackageInit, pythonVersion)
	h.Write(f.text)
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

func (c *boundedCache) get(k [32]byte) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// put keeps v under k unless k is kept already or v alone exceeds the
// byte bound, then drops the oldest entries beyond the bounds.
func (c *boundedCache) put(k [32]byte, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok || c.maxBytes > 0 && len(v) > c.maxBytes {
		return
	}
	c.m[k] = v
	c.order = append(c.order, k)
	c.size += len(v)
	for c.maxEntries > 0 && len(c.order) > c.maxEntries || c.maxBytes > 0 && c.size > c.maxBytes {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.m[old])
		delete(c.m, old)
	}
}

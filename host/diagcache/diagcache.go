// Package diagcache is what get_diagnostics remembers for one workspace,
// each part bounded, oldest first out:
//
//   - the plugin's answers for recent (file, context files, arguments)
//     triples, at most 256: an editor asks for the diagnostics of
//     unchanged files again and again, and parsing plus analysis of a
//     large file costs far more than hashing it. Keys hash everything
//     the plugin sees (AnswerKey), so a changed file, context file,
//     configuration or workspace fact misses.
//   - what the plugin reported about context modules (abi.ContextFacts),
//     at most 32 MiB, keyed by everything the facts depend on: the
//     module's bytes, its name and kind, the target Python version and
//     the plugin build. A module that many files import is then analysed
//     once per version instead of being sent, parsed and analysed with
//     every call (UseFacts, KeepFacts).
//
// A Cache belongs to its workspace's state and goes with it.
package diagcache

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/pyws/pyws/host/pluginresult"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// Key names a cached value: a SHA-256 of everything it depends on.
type Key [32]byte

// Source is a file the plugin is sent: its workspace path and text.
type Source struct {
	Path string
	Text []byte
}

// Cache holds one workspace's answers and context facts.
type Cache struct {
	answers *bounded
	facts   *bounded
}

// New returns an empty cache.
func New() *Cache {
	return &Cache{answers: newBounded(256, 0), facts: newBounded(0, 32<<20)}
}

// AnswerKey names the answer to a call of tool with args (encoded, as
// the plugin is sent them) about files.
func AnswerKey(tool string, args []byte, files []Source) Key {
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(args)
	for _, f := range files {
		h.Write([]byte{0})
		h.Write([]byte(f.Path))
		h.Write([]byte{0})
		h.Write(f.Text)
	}
	return Key(h.Sum(nil))
}

// Answer returns the answer kept under k.
func (c *Cache) Answer(k Key) ([]byte, bool) { return c.answers.get(k) }

// KeepAnswer keeps a checked answer under k.
func (c *Cache) KeepAnswer(k Key, answer []byte) { c.answers.put(k, answer) }

func factsKey(text []byte, cf abi.DiagnosticsContextFile, pythonVersion, plugin string) Key {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%t\x00%s\x00", plugin, cf.Module, cf.IsPackageInit, pythonVersion)
	h.Write(text)
	return Key(h.Sum(nil))
}

// Pending are the context modules of a call that travel as files, and
// the keys their facts are to be kept under.
type Pending struct {
	// Sent are the positions, in the texts given to UseFacts, of the
	// files still to send.
	Sent []int
	keys map[string]Key // module -> facts key
}

// UseFacts replaces in dc.Context each module whose facts are kept (texts
// are the modules' files, in dc.Context's order; plugin names the
// plugin's build) by those facts, appended to dc.Facts, and says which
// files are still to be sent.
func (c *Cache) UseFacts(dc *abi.DiagnosticsContext, texts [][]byte, plugin string) Pending {
	p := Pending{keys: map[string]Key{}}
	var keep []abi.DiagnosticsContextFile
	for i, cf := range dc.Context {
		if i >= len(texts) {
			break
		}
		k := factsKey(texts[i], cf, dc.PythonVersion, plugin)
		if facts, ok := c.facts.get(k); ok {
			dc.Facts = append(dc.Facts, abi.ContextFacts{Module: cf.Module, Facts: facts})
			continue
		}
		keep = append(keep, cf)
		p.Sent = append(p.Sent, i)
		p.keys[cf.Module] = k
	}
	dc.Context = keep
	return p
}

// KeepFacts keeps the facts the plugin reported for the modules p sent
// as files, and returns those it refused: about a module it was not sent,
// or not usable (pluginresult.UsableFacts).
func (c *Cache) KeepFacts(p Pending, facts []abi.ContextFacts) (refused []abi.ContextFacts) {
	for _, f := range facts {
		k, ok := p.keys[f.Module]
		if !ok || !pluginresult.UsableFacts(f.Facts) {
			refused = append(refused, f)
			continue
		}
		c.facts.put(k, append(json.RawMessage(nil), f.Facts...))
	}
	return refused
}

// bounded is a map that forgets its oldest entries beyond a number of
// entries or of bytes (0: no bound).
type bounded struct {
	mu                   sync.Mutex
	maxEntries, maxBytes int
	size                 int
	order                []Key // oldest first out
	m                    map[Key][]byte
}

func newBounded(maxEntries, maxBytes int) *bounded {
	return &bounded{maxEntries: maxEntries, maxBytes: maxBytes, m: map[Key][]byte{}}
}

func (c *bounded) get(k Key) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// put keeps v under k unless k is kept already or v alone exceeds the
// byte bound, then drops the oldest entries beyond the bounds.
func (c *bounded) put(k Key, v []byte) {
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

// Len says how many answers and how many modules' facts are kept.
func (c *Cache) Len() (answers, facts int) {
	return c.answers.len(), c.facts.len()
}

func (c *bounded) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

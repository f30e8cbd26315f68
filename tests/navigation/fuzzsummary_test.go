package navigation

import (
	"context"
	"math/rand"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/pyws/pyws/host/index"
	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// swappedSummary is a summarizer that answers one file's summary with
// bytes of the test's choosing and every other file as the native
// summarizer does: an operator's indexer plugin with a bug.
type swappedSummary struct {
	*nativeindex.Summarizer
	rel string
	mu  sync.Mutex
	raw []byte
}

func (s *swappedSummary) Summarize(ctx context.Context, t index.Target, files []index.Source) ([][]byte, error) {
	out, err := s.Summarizer.Summarize(ctx, t, files)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range files {
		if f.Rel == s.rel {
			out[i] = s.raw
		}
	}
	return out, nil
}

func (s *swappedSummary) Version() string { return "swapped" }

// FuzzLinkArbitrarySummary links a workspace one of whose summaries is
// whatever decodes (navindex validates indices, not meaning: targets,
// kinds, scopes, flow and positions may say anything), then asks every
// query at every position and by every name. Operators plug in their own
// indexers, and the kernel links their output in its own process, where
// a stack overflow or a hang is every tenant's: nothing may panic, loop
// or run away. The seeds are the real summaries of the relink
// workspace's files; `go test -fuzz FuzzLinkArbitrarySummary
// ./tests/navigation` mutates them.
func FuzzLinkArbitrarySummary(f *testing.F) {
	ctx := context.Background()
	native, err := nativeindex.New(ctx)
	if err != nil {
		f.Fatal(err)
	}
	for rel, text := range relinkWorkspace {
		out, err := native.Summarize(ctx, index.Target{}, []index.Source{{Rel: rel, Text: []byte(text)}})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(out[0])
	}
	s := &swappedSummary{Summarizer: native, rel: "app.py"}
	root := f.TempDir()
	write(f, root, relinkWorkspace)
	f.Fuzz(func(t *testing.T, raw []byte) {
		if _, err := navindex.Decode(raw); err != nil {
			return // refused at decoding, as the kernel refuses it
		}
		linkSwapped(t, s, root, raw)
	})
}

// FuzzLinkMutatedSummary is FuzzLinkArbitrarySummary with mutations
// that keep a summary decodable far more often than byte flips do: the
// real summary of app.py with some of its integer fields (symbol,
// expression and definition indices, kinds, flow links, positions) set
// to small values, chosen by seed; `make test` runs 40 seeds.
func FuzzLinkMutatedSummary(f *testing.F) {
	ctx := context.Background()
	native, err := nativeindex.New(ctx)
	if err != nil {
		f.Fatal(err)
	}
	out, err := native.Summarize(ctx, index.Target{}, []index.Source{{Rel: "app.py", Text: []byte(relinkWorkspace["app.py"])}})
	if err != nil {
		f.Fatal(err)
	}
	base := out[0]
	for seed := range int64(40) {
		f.Add(seed, uint8(1+seed%6))
	}
	s := &swappedSummary{Summarizer: native, rel: "app.py"}
	root := f.TempDir()
	write(f, root, relinkWorkspace)
	f.Fuzz(func(t *testing.T, seed int64, n uint8) {
		sum, err := navindex.Decode(base)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewSource(seed))
		var fields []reflect.Value
		collectInts(reflect.ValueOf(sum).Elem(), &fields)
		for range int(n%4) + 1 {
			v := fields[r.Intn(len(fields))]
			x := int64(r.Intn(24) - 2)
			if v.CanInt() {
				v.SetInt(x)
			} else {
				v.SetUint(uint64(max(x, 0)))
			}
		}
		raw := navindex.Encode(sum)
		if _, err := navindex.Decode(raw); err != nil {
			return // refused at decoding, as the kernel refuses it
		}
		linkSwapped(t, s, root, raw)
	})
}

// collectInts lists every settable integer field reachable from v
// through structs and slices.
func collectInts(v reflect.Value, out *[]reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			collectInts(v.Field(i), out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			collectInts(v.Index(i), out)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32:
		if v.CanSet() {
			*out = append(*out, v)
		}
	}
}

// linkSwapped builds the relink workspace with raw as app.py's summary
// and asks every query at every position and by every dotted name.
func linkSwapped(t *testing.T, s *swappedSummary, root string, raw []byte) {
	ctx := context.Background()
	{
		s.mu.Lock()
		s.raw = raw
		s.mu.Unlock()
		var x *index.Index
		var err error
		withWatchdog(t, "build", func() {
			x, err = nativeindex.Build(ctx, s, root, "")
		})
		if err != nil {
			return
		}
		for rel, text := range relinkWorkspace {
			sweepFile(t, x, filepath.Join(root, rel), []byte(text), 1)
		}
		sweepSymbols(t, x, root, relinkWorkspace)
	}
}

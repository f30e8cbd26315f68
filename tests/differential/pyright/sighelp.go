package pyright

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"sort"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/textpos"
	"github.com/pyws/pyws/plugin-sdk/tree"
	"github.com/pyws/pyws/tests/internal/nativeindex"
)

// SigAnswer is one engine's signature help at a position: every
// signature's label, the active signature and parameter (-1: none).
type SigAnswer struct {
	Labels []string `json:"labels"`
	Active int      `json:"activeSignature"`
	Param  int      `json:"activeParameter"`
}

// ActiveLabel is the active signature's label ("" none).
func (a *SigAnswer) ActiveLabel() string {
	if a == nil || a.Active < 0 || a.Active >= len(a.Labels) {
		return ""
	}
	return a.Labels[a.Active]
}

// SigCase is a position inside a call's argument list with pyright's
// recorded signature help (nil: none).
type SigCase struct {
	Rel     string     `json:"rel"`
	Line    int        `json:"line"`
	Char    int        `json:"character"`
	Pyright *SigAnswer `json:"pyright"`
}

// SigGolden is pyright's recorded signature help on one project: the
// Debian package and the SHA-256 of each Python file, pyright's version
// and configuration, the seed and the sampled positions with pyright's
// answers. It holds none of the project's source.
type SigGolden struct {
	Project string            `json:"project"`
	Package string            `json:"package"`
	Pyright string            `json:"pyright"`
	Config  map[string]any    `json:"pyrightConfig"`
	Seed    int64             `json:"seed"`
	Files   map[string]string `json:"files"`
	Cases   []SigCase         `json:"cases"`
}

// Write encodes g with one file or case a line.
func (g *SigGolden) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	fmt.Fprintf(bw, "{\n\"project\": %s,\n\"package\": %s,\n\"pyright\": %s,\n\"pyrightConfig\": %s,\n\"seed\": %d,\n\"files\": {",
		enc(g.Project), enc(g.Package), enc(g.Pyright), enc(g.Config), g.Seed)
	rels := make([]string, 0, len(g.Files))
	for r := range g.Files {
		rels = append(rels, r)
	}
	sort.Strings(rels)
	for i, r := range rels {
		fmt.Fprintf(bw, "%s\n %s: %s", map[bool]string{true: ",", false: ""}[i > 0], enc(r), enc(g.Files[r]))
	}
	bw.WriteString("\n},\n\"cases\": [")
	for i, c := range g.Cases {
		fmt.Fprintf(bw, "%s\n %s", map[bool]string{true: ",", false: ""}[i > 0], enc(c))
	}
	bw.WriteString("\n]\n}\n")
	return bw.Flush()
}

// ReadSigGolden reads a golden written by Write.
func ReadSigGolden(path string) (*SigGolden, error) { return readGolden[SigGolden](path) }

// CallSamples picks n positions inside call argument lists of the
// Python files under root (0: all), uniformly over the candidates: where
// each written argument starts, and just after the "(" of a call without
// arguments; seeded, sorted.
func CallSamples(ctx context.Context, s *nativeindex.Summarizer, root string, n int, seed int64) ([]SigCase, error) {
	var all []SigCase
	err := eachParsed(ctx, s, root, func(rel string, t *tree.Tree, idx *textpos.Index) {
		add := func(off int) {
			l, c := idx.Position(off)
			all = append(all, SigCase{Rel: rel, Line: l, Char: c})
		}
		for node := range t.Root().Descendants() {
			if node.Kind() != "call" {
				continue
			}
			al := node.ChildByField("arguments")
			if al.IsNull() || al.Kind() != "argument_list" {
				continue
			}
			if al.NamedChildCount() == 0 {
				add(al.StartByte() + 1)
			}
			for a := range al.NamedChildren() {
				if a.Kind() != "comment" {
					add(a.StartByte())
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if n > 0 && n < len(all) {
		r := rand.New(rand.NewSource(seed))
		r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		all = all[:n]
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Rel != b.Rel {
			return a.Rel < b.Rel
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Char < b.Char
	})
	return all, nil
}

// SigScore counts agreement with pyright's signature help: over the
// positions where pyright shows some, the same active label, and the
// same active parameter; over those where it shows none, none.
type SigScore struct {
	Label, Param, None Ratio
	Misses             []string
}

// Add scores pyws's answer (nil: none) at case c.
func (s *SigScore) Add(c SigCase, us *SigAnswer) {
	at := fmt.Sprintf("%s:%d:%d", c.Rel, c.Line, c.Char)
	if c.Pyright == nil || len(c.Pyright.Labels) == 0 {
		ok := us == nil || len(us.Labels) == 0
		s.None.add(ok)
		if !ok {
			s.Misses = append(s.Misses, fmt.Sprintf("none  %s: pyws %s", at, us.ActiveLabel()))
		}
		return
	}
	label := c.Pyright.ActiveLabel() == us.ActiveLabel()
	s.Label.add(label)
	param := us != nil && len(us.Labels) > 0 && us.Param == c.Pyright.Param
	s.Param.add(param)
	if !label || !param {
		p := -2
		if us != nil {
			p = us.Param
		}
		s.Misses = append(s.Misses, fmt.Sprintf("label %v param %v %s\n      pyright %d %s\n      pyws    %d %s", label, param, at, c.Pyright.Param, c.Pyright.ActiveLabel(), p, us.ActiveLabel()))
	}
}

// Merge adds o's counts to s.
func (s *SigScore) Merge(o *SigScore) {
	s.Label.OK += o.Label.OK
	s.Label.N += o.Label.N
	s.Param.OK += o.Param.OK
	s.Param.N += o.Param.N
	s.None.OK += o.None.OK
	s.None.N += o.None.N
}

// WriteSigTable writes the figures of the named scores as a Markdown
// table.
func WriteSigTable(w io.Writer, names []string, scores map[string]*SigScore) {
	fmt.Fprintln(w, "| project | same label | same active parameter | none where pyright has none |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	for _, n := range names {
		s := scores[n]
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", strings.TrimPrefix(n, "fixture/"), s.Label, s.Param, s.None)
	}
}

// LabelLine is the same-label figure of each named score on one line
// ("requests 95.6% (240/251), ..."), for a closing note to quote.
func LabelLine(names []string, scores map[string]*SigScore) string {
	parts := make([]string, 0, len(names))
	for _, n := range names {
		parts = append(parts, n+" "+strings.TrimSpace(scores[n].Label.String()))
	}
	return strings.Join(parts, ", ")
}

package index

import (
	"context"

	"github.com/pyws/pyws/plugin-sdk/navindex"
	"github.com/pyws/pyws/plugin-sdk/pytypes"
)

// SignatureHelp is get_signature_help's answer: the callee's signatures
// (one per overload), the one the arguments written so far match, and
// the parameter the cursor's argument fills in it (len(Params) none, -1
// no parameters or no signature).
type SignatureHelp struct {
	Signatures      []Signature
	ActiveSignature int
	ActiveParameter int
}

// Signature is one signature: its label in pyright's notation, its
// docstring as Markdown, its parameters' labels.
type Signature struct {
	Label  string
	Doc    string
	Params []string
}

// SignatureHelp answers get_signature_help at (line, char) of file abs:
// the innermost call whose argument list holds the position (a call a
// parse error left open included), its callee's signatures from the type
// evaluator. Outside any call it is empty. A standard-library
// docstring is read from the interpreter's source outside the lock, as
// Hover does.
func (x *Index) SignatureHelp(ctx context.Context, abs string, line, char int) SignatureHelp {
	sh, need := x.signatureHelp(abs, line, char)
	if need != "" && x.stubs.loadSource(ctx, x.stdlib, need) != nil {
		sh, _ = x.signatureHelp(abs, line, char)
	}
	return sh
}

func (x *Index) signatureHelp(abs string, line, char int) (out SignatureHelp, need string) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out.ActiveParameter = -1
	f := x.files[x.rel(abs)]
	if f == nil || !x.linked {
		return out, ""
	}
	p := navindex.Pos{Line: int32(line), Col: int32(char)}
	c, arg := callAt(f.S.Calls, p)
	if c == nil || inStaticFalseDef(f.S, p) {
		return out, ""
	}
	sh := x.typesLocked().SignatureHelp(f, c.Expr, arg, c.Keys)
	out.ActiveSignature, out.ActiveParameter = sh.Active, sh.ActiveParam
	for _, s := range sh.Signatures {
		doc, mod := x.signatureDoc(s)
		if need == "" {
			need = mod
		}
		out.Signatures = append(out.Signatures, Signature{Label: s.Label, Doc: doc, Params: s.Params})
	}
	return out, need
}

// inStaticFalseDef reports p inside a def or class under a condition
// false for the target (`if sys.platform == "win32":`): code pyright
// deems unreachable, where it shows no signatures.
func inStaticFalseDef(s *navindex.Summary, p navindex.Pos) bool {
	for i := range s.Defs {
		d := &s.Defs[i]
		if d.Flags&navindex.DefStaticFalse == 0 || d.Extent.EndLine == 0 {
			continue
		}
		e := d.Extent
		start, end := navindex.Pos{Line: e.Line, Col: e.Col}, navindex.Pos{Line: e.EndLine, Col: e.EndCol}
		if !p.Less(start) && p.Less(end) {
			return true
		}
	}
	return false
}

// callAt is the innermost call whose argument list holds p (calls sorted
// by Open), and the written argument p is in: the commas before it.
func callAt(calls []navindex.Call, p navindex.Pos) (*navindex.Call, int) {
	var in *navindex.Call
	for i := range calls {
		c := &calls[i]
		if p.Less(c.Open) {
			break
		}
		if !c.Close.Less(p) && c.Expr >= 0 {
			in = c
		}
	}
	if in == nil {
		return nil, 0
	}
	arg := 0
	for _, comma := range in.Commas {
		if comma.Less(p) {
			arg++
		}
	}
	return in, arg
}

// signatureDoc is a signature's docstring: its def's, else (a
// constructor) its class's; from the interpreter's source for a
// standard-library stub, mod naming the source when not loaded yet.
func (x *Index) signatureDoc(s pytypes.Signature) (doc, mod string) {
	type described struct {
		f   *File
		sym int32
	}
	var from []described
	if g, ok := s.Func.Unit.(*File); ok {
		from = append(from, described{g, g.S.Defs[s.Func.Def].Sym})
		if doc = g.S.Defs[s.Func.Def].Doc; doc != "" {
			return doc, ""
		}
	}
	if g, ok := s.Class.Unit.(*File); ok && s.Class.Valid() {
		from = append(from, described{g, s.Class.Sym})
		for _, d := range g.defs.of(s.Class.Sym) {
			if doc = g.S.Defs[d].Doc; doc != "" && g.S.Defs[d].Kind == navindex.KindClass {
				return doc, ""
			}
		}
	}
	for _, d := range from {
		qual := d.f.S.Syms[d.sym].Qual
		if !d.f.typeshed || qual == "" {
			continue
		}
		src, ok := x.stubs.loadedSource(x.stdlib, d.f.Module)
		if !ok {
			return "", d.f.Module
		}
		if doc = sourceDoc(src, qual); doc != "" {
			return doc, ""
		}
	}
	return "", ""
}

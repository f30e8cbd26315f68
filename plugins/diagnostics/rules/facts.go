package rules

import (
	"encoding/json"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
)

// ModuleFacts is what the rules use of a context module (a workspace
// module the checked file imports from): the signature of each top-level
// function or class whose signature is certain, and the message of each
// PEP 702 @deprecated one. The plugin computes them from a context file's
// tree, returns them to the kernel (abi.ContextFacts), and the kernel
// sends them back instead of the file on later calls, so a module imported
// by many files is analysed once per version. The JSON form is this
// plugin's own; the kernel only stores and returns it.
type ModuleFacts struct {
	// Broken: the module has syntax errors; nothing is known of it, as if
	// it had not been sent.
	Broken     bool               `json:"broken,omitempty"`
	Sigs       map[string]factSig `json:"sigs,omitempty"`
	Deprecated map[string]string  `json:"deprecated,omitempty"`
}

type factSig struct {
	Name   string      `json:"name"`
	Params []factParam `json:"params"`
}

type factParam struct {
	Name       string    `json:"n"`
	Kind       paramKind `json:"k"`
	HasDefault bool      `json:"d,omitempty"`
	Typ        typ       `json:"t,omitempty"`
	AnyTyp     bool      `json:"a,omitempty"`
}

// ContextModuleFacts analyses a context file and returns its facts for
// the target Python minor version. The facts are of top-level names and
// of classes' __init__: no def's body matters to them, and skipping the
// bodies takes most of the analysis away (TestContextFactsWithoutBodies
// checks the facts are those of the whole model).
func ContextModuleFacts(cf ContextFile, pythonMinor int) *ModuleFacts {
	return contextModuleFacts(cf, pythonMinor, true)
}

func contextModuleFacts(cf ContextFile, pythonMinor int, skipBodies bool) *ModuleFacts {
	if cf.Tree == nil || cf.Tree.Root().HasError() {
		return &ModuleFacts{Broken: true}
	}
	m := pysem.Analyze(cf.Tree, pysem.Options{ModuleName: cf.ModuleName, IsPackageInit: cf.IsPackageInit,
		IsStub: strings.HasSuffix(cf.Path, ".pyi"), PythonMinor: pythonMinor, SkipFunctionBodies: skipBodies,
		SkipDocstrings: true})
	f := &ModuleFacts{}
	for name := range m.Root.Bindings {
		b := moduleBinding(m, name)
		if b == nil {
			continue
		}
		if sig := defSignature(m, b); sig != nil {
			if f.Sigs == nil {
				f.Sigs = map[string]factSig{}
			}
			fs := factSig{Name: sig.name, Params: make([]factParam, len(sig.params))}
			for i, p := range sig.params {
				fs.Params[i] = factParam{Name: p.name, Kind: p.kind, HasDefault: p.hasDefault, Typ: p.typ, AnyTyp: p.anyTyp}
			}
			f.Sigs[name] = fs
		}
		if ok, msg := deprecatedMark(m, b); ok {
			if f.Deprecated == nil {
				f.Deprecated = map[string]string{}
			}
			f.Deprecated[name] = msg
		}
	}
	return f
}

// DecodeModuleFacts reads facts in the form ModuleFacts marshals to.
func DecodeModuleFacts(raw []byte) (*ModuleFacts, error) {
	var f ModuleFacts
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, err
	}
	return &f, nil
}

// context returns the facts of a context module, nil when the module is
// not one (or is broken): its calls are then not checked through it.
func (c *checker) context(module string) *ModuleFacts {
	f := c.env.Facts[module]
	if f == nil || f.Broken {
		return nil
	}
	return f
}

// contextSignature is the signature of name in a context module's facts,
// nil when it has none; decoded once per call and name.
func (c *checker) contextSignature(f *ModuleFacts, module, name string) *signature {
	fs, ok := f.Sigs[name]
	if !ok {
		return nil
	}
	key := module + "\x00" + name
	if sig, ok := c.ctxSigs[key]; ok {
		return sig
	}
	sig := &signature{name: fs.Name, params: make([]param, len(fs.Params))}
	for i, p := range fs.Params {
		sig.params[i] = param{name: p.Name, kind: p.Kind, hasDefault: p.HasDefault, typ: p.Typ, anyTyp: p.AnyTyp}
	}
	if c.ctxSigs == nil {
		c.ctxSigs = map[string]*signature{}
	}
	c.ctxSigs[key] = sig
	return sig
}

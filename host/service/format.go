package service

// format_document, kernel side. The plugin (plugins/formatter) does the
// formatting; the kernel validates options (INVALID_OPTIONS), reads the
// file under the tier's size cap, resolves configuration (request options
// over pyproject.toml over defaults, first-party names from the workspace),
// drives the plugin's phases, refuses results that do not parse or are not
// equivalent to the original, and turns the final text into minimal edits
// (host/textdiff) that it remembers for FILE_MODIFIED. It never writes.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/pyproject"
	"github.com/pyws/pyws/host/textdiff"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/host/workspace/textenc"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// FormatResult is format_document's result.
type FormatResult struct {
	Edits      []abi.TextEdit `json:"edits"`
	TotalEdits int            `json:"totalEdits"`
}

// FormatOptions are the request's options, validated.
type FormatOptions struct {
	TabSize      int
	InsertSpaces bool
	LineLength   int // 0: not given
}

// Option bounds and defaults: format_document's row (formatOptions).
var (
	minTabSize, maxTabSize       = formatOptionBounds("tabSize")
	minLineLength, maxLineLength = formatOptionBounds("lineLength")
	formatOptionNames            = toolspec.Names(formatOptions)
)

func invalidOption(option string, value any, reason string, extra fault.Details) *fault.Error {
	d := fault.Details{"option": option, "reason": reason}
	if value != nil {
		d["value"] = value
	}
	for k, v := range extra {
		d[k] = v
	}
	return fault.New(fault.InvalidOptions, d, "invalid formatting option %s: %s", option, reason)
}

// ParseFormatOptions validates the options argument: an object with the
// optional members tabSize (integer 1-16), insertSpaces (boolean) and
// lineLength (integer 1-1000); null members count as absent. Anything else
// is INVALID_OPTIONS with details {option, value, reason}.
func ParseFormatOptions(v any) (FormatOptions, error) {
	o := FormatOptions{TabSize: formatOption("tabSize").Default.(int), InsertSpaces: formatOption("insertSpaces").Default.(bool)}
	var raw json.RawMessage
	switch x := v.(type) {
	case nil:
		return o, nil
	case toolspec.Args:
		if len(x) == 0 {
			return o, nil
		}
		b, err := json.Marshal(x)
		if err != nil {
			return o, err
		}
		raw = b
	case json.RawMessage:
		raw = x
	default:
		return o, fmt.Errorf("options of type %T", v)
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return o, nil
	}
	members := map[string]json.RawMessage{}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if trimmed[0] != '{' || dec.Decode(&members) != nil {
		return o, invalidOption("options", string(clipBytes(trimmed, 200)), "options must be a JSON object", nil)
	}
	names := make([]string, 0, len(members))
	for k := range members {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		mraw := bytes.TrimSpace(members[name])
		if string(mraw) == "null" {
			continue
		}
		var val any
		d := json.NewDecoder(bytes.NewReader(mraw))
		d.UseNumber()
		if err := d.Decode(&val); err != nil {
			return o, invalidOption(name, nil, "not valid JSON", nil)
		}
		switch name {
		case "tabSize", "lineLength":
			lo, hi := minTabSize, maxTabSize
			if name == "lineLength" {
				lo, hi = minLineLength, maxLineLength
			}
			bounds := fault.Details{"min": lo, "max": hi}
			num, ok := val.(json.Number)
			if !ok {
				return o, invalidOption(name, val, fmt.Sprintf("must be an integer from %d to %d, got %s", lo, hi, toolspec.JSONTypeName(val)), bounds)
			}
			n, err := num.Int64()
			if err != nil {
				f, ferr := num.Float64()
				if ferr != nil || f != float64(int64(f)) {
					return o, invalidOption(name, num.String(), fmt.Sprintf("must be an integer from %d to %d", lo, hi), bounds)
				}
				n = int64(f)
			}
			if n < int64(lo) || n > int64(hi) {
				return o, invalidOption(name, n, fmt.Sprintf("must be from %d to %d", lo, hi), bounds)
			}
			if name == "tabSize" {
				o.TabSize = int(n)
			} else {
				o.LineLength = int(n)
			}
		case "insertSpaces":
			b, ok := val.(bool)
			if !ok {
				return o, invalidOption(name, val, "must be a boolean, got "+toolspec.JSONTypeName(val), nil)
			}
			o.InsertSpaces = b
		default:
			return o, invalidOption(name, nil, "unknown option; allowed: "+strings.Join(formatOptionNames, ", "),
				fault.Details{"allowed": formatOptionNames})
		}
	}
	return o, nil
}

func clipBytes(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// formatConfig is the plugin's configuration for the file: the request's
// options over pyproject.toml over defaults (host/pyproject), and the
// directories isort's src_paths name, listed through the workspace's
// confined reader (the plugin derives the first-party names).
func (s *Session) formatConfig(opts FormatOptions) (abi.FormatConfig, error) {
	c, err := pyproject.FormatConfig(s.ws.ws.Root(), pyproject.FormatRequest(opts))
	if err != nil {
		return c, err
	}
	for _, dir := range []string{"src", ""} {
		entries, err := s.ws.ws.ReadDir(dir)
		if err != nil {
			continue // isort skips a missing or unreadable src path
		}
		l := abi.DirListing{Name: filepath.Base(filepath.Join(s.ws.ws.Root(), dir)), Entries: make([]abi.DirEntry, len(entries))}
		for i, e := range entries {
			l.Entries[i] = abi.DirEntry{Name: e.Name, Dir: e.Dir}
		}
		c.SrcDirs = append(c.SrcDirs, l)
	}
	return c, nil
}

// pluginFormatResult mirrors plugins/formatter Result.
type pluginFormatResult struct {
	Text       *string `json:"text"`
	NeedsBlack bool    `json:"needsBlack"`
	Signature  *struct {
		Hash  string `json:"hash"`
		Items int    `json:"items"`
	} `json:"signature"`
	ParseError *abi.Position `json:"parseError"`
}

func runFormat(ctx context.Context, s *Session, a toolspec.Args) (any, error) {
	if err := s.ws.requireLoaded(fault.WorkspaceNotLoaded); err != nil {
		return nil, err
	}
	opts, err := ParseFormatOptions(a["options"])
	if err != nil {
		return nil, err
	}
	f, err := s.readPython(a.String("uri"), s.Limits.MaxFormatBytes)
	if err != nil {
		return nil, err
	}
	cfg, err := s.formatConfig(opts)
	if err != nil {
		return nil, err
	}
	cfg.Pyi = strings.EqualFold(filepath.Ext(f.abs), ".pyi")

	final, err := s.formatText(ctx, f, cfg)
	if err != nil {
		return nil, err
	}
	edits := textdiff.Edits(f.text, final)
	if edits == nil {
		edits = []abi.TextEdit{}
	}
	if len(edits) > 0 && s.svc.cfg.Edits != nil {
		sum, err := s.rawContentHash(f)
		if err != nil {
			return nil, err
		}
		s.svc.cfg.Edits.Remember(f.abs, edits, sum)
	}
	return FormatResult{Edits: edits, TotalEdits: len(edits)}, nil
}

// rawContentHash is the SHA-256 of the file's bytes on disk (what the edit
// engine hashes), checked to still decode to the text that was formatted:
// a file that changed during the call is FILE_MODIFIED now rather than
// edits remembered against content they were not computed from.
func (s *Session) rawContentHash(f *sourceFile) (string, error) {
	raw, err := s.ws.ws.ReadBytes(f.abs, s.Limits.MaxReadFileBytes)
	if err == nil {
		text, _, derr := textenc.Decode(raw, "")
		if derr == nil && bytes.Equal(text, f.text) {
			sum := sha256.Sum256(raw)
			return hex.EncodeToString(sum[:]), nil
		}
	}
	return "", fault.New(fault.FileModified, fault.Details{"uri": f.uri, "path": f.rel},
		"%s changed while it was being formatted; format it again", f.rel)
}

// formatText runs the plugin's phases and returns the checked result.
func (s *Session) formatText(ctx context.Context, f *sourceFile, cfg abi.FormatConfig) ([]byte, error) {
	// Black writes the line ending of the first line everywhere; the
	// plugin works on "\n" text.
	src := f.text
	crlf := false
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		crlf = true
	}
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	call := func(phase string, text []byte) (*pluginFormatResult, error) {
		sf := *f
		sf.text = text
		out, err := s.callPlugin(ctx, "format_document", toolspec.Args{"uri": f.uri, "phase": phase, "config": cfg}, &sf)
		if err != nil {
			return nil, err
		}
		var r pluginFormatResult
		if err := json.Unmarshal(out, &r); err != nil {
			return nil, formatterBroken(f, "the formatter returned an invalid result: "+err.Error())
		}
		if r.Text != nil {
			if !utf8.ValidString(*r.Text) || strings.IndexByte(*r.Text, 0) >= 0 || len(*r.Text) > 4*len(text)+1<<20 {
				return nil, formatterBroken(f, "the formatter returned text that is not plausible source")
			}
		}
		return &r, nil
	}

	first, err := call("format", src)
	if err != nil {
		return nil, err
	}
	if first.Text == nil || first.Signature == nil {
		return nil, formatterBroken(f, "the formatter's result lacks text or signature")
	}
	text := []byte(*first.Text)
	if first.NeedsBlack {
		r, err := call("black", text)
		if err != nil {
			return nil, err
		}
		if r.Text == nil {
			return nil, formatterBroken(f, "the formatter's black phase returned no text")
		}
		text = []byte(*r.Text)
	}
	reindent := cfg.TabSize != 4 || !cfg.InsertSpaces
	if reindent || !bytes.Equal(text, src) {
		check := func(candidate []byte) (*pluginFormatResult, error) {
			r, err := call("check", candidate)
			if err != nil {
				return nil, err
			}
			if r.ParseError != nil {
				return nil, formatterBroken(f, fmt.Sprintf("the formatted code does not parse (line %d, character %d)", r.ParseError.Line+1, r.ParseError.Character+1))
			}
			if r.Signature == nil || r.Signature.Hash != first.Signature.Hash {
				return nil, formatterBroken(f, "the formatted code is not equivalent to the original")
			}
			return r, nil
		}
		r, err := check(text)
		if err != nil {
			return nil, err
		}
		if reindent && r.Text != nil && *r.Text != string(text) {
			cfg.TabSize, cfg.InsertSpaces = 4, true // check the re-indented text as it is
			if _, err := check([]byte(*r.Text)); err != nil {
				return nil, err
			}
			text = []byte(*r.Text)
		}
	}
	if crlf {
		text = bytes.ReplaceAll(text, []byte("\n"), []byte("\r\n"))
	}
	return text, nil
}

// formatterBroken refuses a result that failed the safety check: a
// formatter bug, not the user's error, so SERVER_UNAVAILABLE with details
// {reason: "formatter produced non-equivalent code", detail}, and no edits.
func formatterBroken(f *sourceFile, detail string) *fault.Error {
	return fault.New(fault.ServerUnavailable,
		fault.Details{"tool": "format_document", "uri": f.uri, "reason": "formatter produced non-equivalent code", "detail": detail},
		"formatting %s was refused as unsafe: %s; the file was not changed", f.rel, detail)
}

package pyproject

// format_document's request options: declared here, beside the
// configuration they are merged into (FormatConfig).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
)

// FormatOptionParams declare format_document's options: the only
// statement of their bounds and defaults. The table's row documents them
// with these (its options parameter is Raw) and ParseFormatRequest checks
// them against these.
var FormatOptionParams = []toolspec.Param{
	{Name: "tabSize", Type: toolspec.TypeInteger, Default: 4, Min: toolspec.Bound(1), Max: toolspec.Bound(16), Doc: "spaces per indentation level"},
	{Name: "insertSpaces", Type: toolspec.TypeBoolean, Default: true, Doc: "spaces instead of tabs"},
	{Name: "lineLength", Type: toolspec.TypeInteger, Default: DefaultLineLength, Min: toolspec.Bound(MinLineLength), Max: toolspec.Bound(MaxLineLength),
		Doc: "maximum line length; when absent, line-length of [tool.black] in pyproject.toml, else the default"},
}

// formatOption returns the format option named name.
func formatOption(name string) toolspec.Param {
	i := slices.IndexFunc(FormatOptionParams, func(p toolspec.Param) bool { return p.Name == name })
	return FormatOptionParams[i]
}

// formatOptionBounds returns the option's minimum and maximum.
func formatOptionBounds(name string) (lo, hi int) {
	p := formatOption(name)
	return *p.Min, *p.Max
}

// Option bounds and defaults, from FormatOptionParams.
var (
	minTabSize, maxTabSize = formatOptionBounds("tabSize")
	formatOptionNames      = toolspec.Names(FormatOptionParams)
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

// ParseFormatRequest validates format_document's options argument, raw
// JSON (nil when absent): an object with the optional members tabSize
// (integer 1-16), insertSpaces (boolean) and lineLength (integer 1-1000);
// null members count as absent. Anything else is INVALID_OPTIONS with
// details {option, value, reason}.
func ParseFormatRequest(raw json.RawMessage) (FormatRequest, error) {
	o := FormatRequest{TabSize: formatOption("tabSize").Default.(int), InsertSpaces: formatOption("insertSpaces").Default.(bool)}
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
				lo, hi = MinLineLength, MaxLineLength
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

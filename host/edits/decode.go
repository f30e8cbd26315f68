package edits

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/pyws/pyws/host/fault"
	"github.com/pyws/pyws/host/toolspec"
	"github.com/pyws/pyws/plugin-sdk/abi"
)

// DecodeChanges reads apply_workspace_edit's edit argument: an object with
// a changes map, or (as some clients send it) the changes map itself.
// Every member is checked so a malformed edit names the exact field, as
// toolspec.DecodeArgs names a parameter (INVALID_PARAMETER with
// details.parameter; a negative position is INVALID_RANGE): the table
// declares edit an object without fields, so it arrives undecoded.
func DecodeChanges(raw json.RawMessage) (map[string][]abi.TextEdit, error) {
	var outer map[string]json.RawMessage
	if err := json.Unmarshal(raw, &outer); err != nil {
		return nil, toolspec.Invalid("edit", nil, "edit must be an object with a changes map")
	}
	prefix := "edit"
	if c, ok := outer["changes"]; ok {
		outer = nil
		if err := json.Unmarshal(c, &outer); err != nil || outer == nil {
			return nil, toolspec.Invalid("edit.changes", nil, "edit.changes must be an object mapping file URIs to arrays of TextEdit")
		}
		prefix = "edit.changes"
	}
	uris := make([]string, 0, len(outer))
	for uri := range outer {
		uris = append(uris, uri)
	}
	sort.Strings(uris)
	changes := make(map[string][]abi.TextEdit, len(outer))
	for _, uri := range uris {
		var items []json.RawMessage
		param := fmt.Sprintf("%s[%q]", prefix, uri)
		if err := json.Unmarshal(outer[uri], &items); err != nil {
			return nil, toolspec.Invalid(param, nil, "%s must be an array of TextEdit", param)
		}
		list := make([]abi.TextEdit, 0, len(items))
		for i, it := range items {
			e, err := decodeTextEdit(it, fmt.Sprintf("%s[%d]", param, i))
			if err != nil {
				return nil, err
			}
			list = append(list, e)
		}
		changes[uri] = list
	}
	return changes, nil
}

// wirePosition keeps raw values: json.Number would accept "0" (a string).
type wirePosition struct {
	Line      json.RawMessage `json:"line"`
	Character json.RawMessage `json:"character"`
}

type wireEdit struct {
	Range *struct {
		Start *wirePosition `json:"start"`
		End   *wirePosition `json:"end"`
	} `json:"range"`
	NewText *string `json:"newText"`
}

func decodeTextEdit(raw json.RawMessage, param string) (abi.TextEdit, error) {
	var w wireEdit
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return abi.TextEdit{}, toolspec.Invalid(param, nil, "%s must be a TextEdit {range, newText}: %v", param, err)
	}
	if w.Range == nil || w.Range.Start == nil || w.Range.End == nil {
		return abi.TextEdit{}, toolspec.Invalid(param+".range", nil, "%s.range with start and end is required", param)
	}
	if w.NewText == nil {
		return abi.TextEdit{}, toolspec.Invalid(param+".newText", nil, "%s.newText is required (use \"\" to delete)", param)
	}
	pos := func(p *wirePosition, name string) (abi.Position, error) {
		line, err := wholeNumber(p.Line, name+".line")
		if err != nil {
			return abi.Position{}, err
		}
		char, err := wholeNumber(p.Character, name+".character")
		return abi.Position{Line: line, Character: char}, err
	}
	start, err := pos(w.Range.Start, param+".range.start")
	if err != nil {
		return abi.TextEdit{}, err
	}
	end, err := pos(w.Range.End, param+".range.end")
	if err != nil {
		return abi.TextEdit{}, err
	}
	return abi.TextEdit{Range: abi.Range{Start: start, End: end}, NewText: *w.NewText}, nil
}

// wholeNumber requires a non-negative integer; negative positions are an
// INVALID_RANGE, as the spec lists that code for out-of-bounds ranges.
func wholeNumber(raw json.RawMessage, param string) (int, error) {
	text := string(bytes.TrimSpace(raw))
	if text == "" || text == "null" {
		return 0, toolspec.Invalid(param, nil, "%s is required", param)
	}
	if text[0] != '-' && (text[0] < '0' || text[0] > '9') {
		return 0, toolspec.Invalid(param, text, "%s must be a number, got %s", param, text)
	}
	v, err := toolspec.Integer(param, text)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, fault.New(fault.InvalidRange, fault.Details{"parameter": param, "value": v}, "%s is negative", param)
	}
	return v, nil
}

package toolspec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Choice is one way of addressing what a tool works on: a call names a
// position (uri, line, character) or a symbol, never both. Params choose
// the alternative: giving any of them requires all of them, and Needs.
type Choice struct {
	Params []string
	// Needs are required with this alternative but may also come with
	// another (uri: where the position is, or the module a relative
	// symbol is in).
	Needs []string
}

// names is every parameter the alternative requires, in the order of
// params (so a call missing several hears about the first declared).
func (c Choice) names(params []Param) []string {
	var out []string
	for _, p := range params {
		if slices.Contains(c.Params, p.Name) || slices.Contains(c.Needs, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

// DecodeArgs validates raw against the spec's parameters (DecodeArgs),
// then its alternatives (OneOf): a call without any keeps the errors of
// the first, as if its parameters were plainly required.
func (s *Spec) DecodeArgs(raw json.RawMessage) (Args, error) {
	a, err := DecodeArgs(s.Params, raw)
	if err != nil || len(s.OneOf) == 0 {
		return a, err
	}
	chosen := -1
	for i, c := range s.OneOf {
		given := slices.IndexFunc(c.Params, a.Has)
		if given < 0 {
			continue
		}
		if chosen >= 0 {
			first := s.OneOf[chosen].Params[slices.IndexFunc(s.OneOf[chosen].Params, a.Has)]
			f := Invalid(c.Params[given], nil, "give either %s or %s, not both", s.choiceText(chosen), s.choiceText(i))
			f.Details["conflictsWith"] = first
			return nil, f
		}
		chosen = i
	}
	if chosen < 0 {
		chosen = 0
	}
	for _, name := range s.OneOf[chosen].names(s.Params) {
		if !a.Has(name) {
			return nil, Invalid(name, nil, "missing required parameter %q", name)
		}
	}
	return a, nil
}

func (s *Spec) choiceText(i int) string {
	return strings.Join(s.OneOf[i].Params, " and ")
}

// RequiredText says in words when a parameter is required: "yes", "no",
// or the alternative it belongs to ("unless symbol"), for the API
// reference.
func (s *Spec) RequiredText(p Param) string {
	if p.Required {
		return "yes"
	}
	for i, c := range s.OneOf {
		if !slices.Contains(c.Params, p.Name) && !slices.Contains(c.Needs, p.Name) {
			continue
		}
		var others []string
		for j := range s.OneOf {
			if j != i {
				others = append(others, s.choiceText(j))
			}
		}
		return "unless " + strings.Join(others, " or ")
	}
	return "no"
}

// OneOfText is the sentence the arguments schema carries about the
// alternatives ("" without any): "Give either uri, line and character,
// or symbol; not both."
func (s *Spec) OneOfText() string {
	if len(s.OneOf) == 0 {
		return ""
	}
	var alts []string
	for _, c := range s.OneOf {
		names := c.names(s.Params)
		alt := names[len(names)-1]
		if len(names) > 1 {
			alt = strings.Join(names[:len(names)-1], ", ") + " and " + alt
		}
		alts = append(alts, alt)
	}
	return "Give either " + strings.Join(alts, ", or ") + "; not both."
}

// checkChoices refuses alternatives naming undeclared parameters, or
// parameters also marked Required (they would be required whatever the
// call chose).
func (s *Spec) checkChoices() error {
	for _, c := range s.OneOf {
		if len(c.Params) == 0 {
			return fmt.Errorf("an alternative (OneOf) needs parameters that choose it")
		}
		for _, name := range slices.Concat(c.Params, c.Needs) {
			i := slices.IndexFunc(s.Params, func(p Param) bool { return p.Name == name })
			switch {
			case i < 0:
				return fmt.Errorf("alternative names undeclared parameter %q", name)
			case s.Params[i].Required:
				return fmt.Errorf("parameter %q of an alternative cannot be Required", name)
			}
		}
	}
	return nil
}

package rules

import (
	"strings"
	"testing"

	"github.com/pyws/pyws/plugin-sdk/abi"
	"github.com/pyws/pyws/plugin-sdk/textpos"
)

// TestTypeFindings: the kernel's findings are reported under their
// codes where they point, hidden by `# type: ignore` like a type
// checker's, dropped when they point outside the file, and gone when
// the code is disabled.
func TestTypeFindings(t *testing.T) {
	src := []byte("class Box:\n    size = 1\n\n\nBox().missing\nBox().missing  # type: ignore\n")
	finding := func(line, char, end int) abi.TypeFinding {
		return abi.TypeFinding{Line: line, Character: char, EndCharacter: end, Code: UndefinedVariable, Message: `Cannot access attribute "missing" for class "Box"`}
	}
	env := Env{Path: "box.py", TypeFindings: []abi.TypeFinding{
		finding(4, 6, 13),  // reported
		finding(5, 6, 13),  // suppressed
		finding(40, 0, 3),  // not in the file
		finding(4, 20, 30), // past the line's end
		{Line: 4, Character: 0, EndCharacter: 3, Code: TypeMismatch, Message: "another code"},
	}}
	var got []string
	for _, d := range Run(parse(t, src), textpos.New(src), DefaultConfig(), env) {
		got = append(got, d.Code+"@"+itoa(d.Range.Start.Line)+":"+itoa(d.Range.Start.Character)+"-"+itoa(d.Range.End.Character)+" "+d.Message)
	}
	want := `undefined-variable@4:6-13 Cannot access attribute "missing" for class "Box"`
	if strings.Join(got, "\n") != want {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	cfg, _ := ParseConfig(map[string]any{"disable": []any{UndefinedVariable}})
	if d := Run(parse(t, src), textpos.New(src), cfg, env); len(d) != 0 {
		t.Fatalf("undefined-variable disabled, still: %v", d)
	}
}

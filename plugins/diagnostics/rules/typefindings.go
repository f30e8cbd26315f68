package rules

import "github.com/pyws/pyws/plugin-sdk/textpos"

// typeFindings reports the kernel's type findings of code
// (Env.TypeFindings): the evaluator decided them over the whole
// workspace, which this plugin does not see; the configuration and the
// suppression comments still apply here, as to every finding. A finding
// whose position is not in the file (the kernel saw other bytes) is
// dropped. They are a type checker's findings: `# type: ignore` hides
// them. Where the file's own check of the same code reported on the
// same value (type-mismatch: the builtin-kind check of calls.go and
// declared.go), the kernel's finding replaces it: one diagnostic per
// site, with the types the whole workspace gives.
func (c *checker) typeFindings(code string) {
	if c.env == nil || len(c.env.TypeFindings) == 0 || !c.on(code) {
		return
	}
	var pos *textpos.Index
	from := len(c.out)
	for _, tf := range c.env.TypeFindings {
		if tf.Code != code {
			continue
		}
		if pos == nil {
			pos = textpos.New(c.src)
		}
		start, err1 := pos.Offset(tf.Line, tf.Character)
		end, err2 := pos.Offset(tf.Line, tf.EndCharacter)
		if err1 != nil || err2 != nil || end < start {
			continue
		}
		c.out = append(c.out, finding{code: code, start: start, end: end, msg: tf.Message, typeCheck: true})
	}
	kernel := c.out[from:]
	if len(kernel) == 0 {
		return
	}
	own := c.out[:0:0]
	for _, f := range c.out[:from] {
		if f.code != code || !meetsAny(f, kernel) {
			own = append(own, f)
		}
	}
	c.out = append(own, kernel...)
}

// meetsAny reports whether f's range meets one of fs's.
func meetsAny(f finding, fs []finding) bool {
	for _, g := range fs {
		if f.start < g.end && g.start < f.end || f.start == g.start {
			return true
		}
	}
	return false
}

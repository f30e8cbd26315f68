package isort

import (
	"regexp"
	"strings"
)

// Sections in isort's default order.
const (
	sectionFuture     = "FUTURE"
	sectionStdlib     = "STDLIB"
	sectionThirdParty = "THIRDPARTY"
	sectionFirstParty = "FIRSTPARTY"
	sectionLocal      = "LOCALFOLDER"
)

var sections = []string{sectionFuture, sectionStdlib, sectionThirdParty, sectionFirstParty, sectionLocal}

type knownPattern struct {
	re      *regexp.Regexp
	section string
}

// placer is place.module: relative imports are local, then known patterns
// (checked for the longest dotted prefix first, local before first party
// before third party before future before stdlib, as isort's
// known_patterns are ordered), then the workspace's top-level names
// (isort's src_paths), then THIRDPARTY.
type placer struct {
	patterns []knownPattern
	src      map[string]bool
	cache    map[string]string
}

func newPlacer(c *Config) *placer {
	p := &placer{src: c.SrcModules, cache: map[string]string{}}
	add := func(names []string, section string) {
		for _, n := range names {
			if n == "" {
				continue
			}
			expr := "^" + strings.ReplaceAll(strings.ReplaceAll(n, "*", ".*"), "?", ".?") + "$"
			re, err := regexp.Compile(expr)
			if err != nil {
				re = regexp.MustCompile("^" + regexp.QuoteMeta(n) + "$")
			}
			p.patterns = append(p.patterns, knownPattern{re, section})
		}
	}
	add(c.KnownLocalFolder, sectionLocal)
	add(c.KnownFirstParty, sectionFirstParty)
	add(c.KnownThirdParty, sectionThirdParty)
	return p
}

func (p *placer) place(name string) string {
	if s, ok := p.cache[name]; ok {
		return s
	}
	s := p.placeUncached(name)
	p.cache[name] = s
	return s
}

func (p *placer) placeUncached(name string) string {
	if strings.HasPrefix(name, ".") {
		return sectionLocal
	}
	parts := strings.Split(name, ".")
	for k := len(parts); k > 0; k-- {
		prefix := strings.Join(parts[:k], ".")
		for _, kp := range p.patterns {
			if kp.re.MatchString(prefix) {
				return kp.section
			}
		}
		if prefix == "__future__" {
			return sectionFuture
		}
		if stdlibPy3[prefix] {
			return sectionStdlib
		}
	}
	if p.src[parts[0]] {
		return sectionFirstParty
	}
	return sectionThirdParty
}

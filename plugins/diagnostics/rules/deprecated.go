package rules

import (
	"fmt"
	"strings"

	"github.com/pyws/pyws/plugin-sdk/pysem"
)

// deprecation is one entry of the standard-library table.
type deprecation struct {
	since   int    // minor version that deprecated it (0: since Python 3.0 or earlier)
	removed int    // minor version that removed it, 0 if still present
	use     string // the replacement, "" if none
}

// deprecatedModules: importing these is deprecated. Reported when the
// target version is at least `since`; once removed, import-not-found
// reports the import instead when an interpreter is known.
var deprecatedModules = map[string]deprecation{
	"imp":           {4, 12, "importlib"},
	"asyncore":      {6, 12, "asyncio"},
	"asynchat":      {6, 12, "asyncio"},
	"smtpd":         {6, 12, "aiosmtpd (PyPI)"},
	"distutils":     {10, 12, "setuptools and packaging"},
	"formatter":     {4, 10, ""},
	"parser":        {9, 10, "ast"},
	"symbol":        {9, 10, ""},
	"binhex":        {9, 11, ""},
	"lib2to3":       {11, 13, ""},
	"sre_compile":   {11, 0, "re"},
	"sre_constants": {11, 0, "re"},
	"sre_parse":     {11, 0, "re"},
	"tkinter.tix":   {6, 13, "tkinter.ttk"},
	"aifc":          {11, 13, ""}, "audioop": {11, 13, ""}, "cgi": {11, 13, ""}, "cgitb": {11, 13, ""},
	"chunk": {11, 13, ""}, "crypt": {11, 13, ""}, "imghdr": {11, 13, ""}, "mailcap": {11, 13, ""},
	"msilib": {11, 13, ""}, "nis": {11, 13, ""}, "nntplib": {11, 13, ""}, "ossaudiodev": {11, 13, ""},
	"pipes": {11, 13, "shlex.quote, subprocess"}, "sndhdr": {11, 13, ""}, "spwd": {11, 13, ""},
	"sunau": {11, 13, ""}, "telnetlib": {11, 13, ""}, "uu": {11, 13, "base64"}, "xdrlib": {11, 13, ""},
}

// deprecatedNames: functions, classes and attributes, by dotted name.
var deprecatedNames = map[string]deprecation{
	"datetime.datetime.utcnow":           {12, 0, "datetime.datetime.now(datetime.timezone.utc)"},
	"datetime.datetime.utcfromtimestamp": {12, 0, "datetime.datetime.fromtimestamp(ts, datetime.timezone.utc)"},
	"locale.getdefaultlocale":            {11, 0, "locale.setlocale() and locale.getlocale()"},
	"locale.resetlocale":                 {11, 13, "locale.setlocale(locale.LC_ALL, \"\")"},
	"ssl.wrap_socket":                    {7, 12, "ssl.SSLContext.wrap_socket()"},
	"ssl.match_hostname":                 {7, 12, "the hostname checking of ssl.SSLContext"},
	"pkgutil.find_loader":                {12, 14, "importlib.util.find_spec()"},
	"pkgutil.get_loader":                 {12, 14, "importlib.util.find_spec()"},
	"importlib.find_loader":              {4, 12, "importlib.util.find_spec()"},
	"inspect.getargspec":                 {0, 11, "inspect.signature() or inspect.getfullargspec()"},
	"inspect.formatargspec":              {5, 11, "inspect.signature()"},
	"asyncio.coroutine":                  {8, 11, "async def"},
	"typing.ByteString":                  {12, 14, "collections.abc.Buffer or bytes | bytearray | memoryview"},
	"collections.abc.ByteString":         {12, 14, "collections.abc.Buffer or bytes | bytearray | memoryview"},
	"threading.currentThread":            {10, 0, "threading.current_thread()"},
	"threading.activeCount":              {10, 0, "threading.active_count()"},
	"unittest.findTestCases":             {11, 13, "unittest.TestLoader.loadTestsFromModule()"},
	"unittest.makeSuite":                 {11, 13, "unittest.TestLoader.loadTestsFromTestCase()"},
	"unittest.getTestCaseNames":          {11, 13, "unittest.TestLoader.getTestCaseNames()"},
	"tempfile.mktemp":                    {0, 0, "tempfile.mkstemp() or tempfile.NamedTemporaryFile() (mktemp is insecure)"},
	"ast.Num":                            {8, 14, "ast.Constant"},
	"ast.Str":                            {8, 14, "ast.Constant"},
	"ast.Bytes":                          {8, 14, "ast.Constant"},
	"ast.NameConstant":                   {8, 14, "ast.Constant"},
	"ast.Ellipsis":                       {8, 14, "ast.Constant"},
	"pty.master_open":                    {12, 14, "pty.openpty()"},
	"pty.slave_open":                     {12, 14, "pty.openpty()"},
	"base64.encodestring":                {1, 9, "base64.encodebytes()"},
	"base64.decodestring":                {1, 9, "base64.decodebytes()"},
	"gettext.lgettext":                   {8, 11, "gettext.gettext()"},
	"gettext.ldgettext":                  {8, 11, "gettext.dgettext()"},
	"gettext.lngettext":                  {8, 11, "gettext.ngettext()"},
	"gettext.ldngettext":                 {8, 11, "gettext.dngettext()"},
}

// deprecatedLasts holds the last segment of every name in deprecatedNames.
var deprecatedLasts = func() map[string]bool {
	m := make(map[string]bool, len(deprecatedNames))
	for q := range deprecatedNames {
		m[q[strings.LastIndexByte(q, '.')+1:]] = true
	}
	return m
}()

// unittestAliases: TestCase methods deprecated in 3.2, removed in 3.12.
var unittestAliases = map[string]string{
	"assertEquals": "assertEqual", "assertNotEquals": "assertNotEqual",
	"assertAlmostEquals": "assertAlmostEqual", "assertNotAlmostEquals": "assertNotAlmostEqual",
	"failUnlessEqual": "assertEqual", "failIfEqual": "assertNotEqual", "failUnless": "assertTrue",
	"failIf": "assertFalse", "assert_": "assertTrue", "failUnlessRaises": "assertRaises",
	"failUnlessAlmostEqual": "assertAlmostEqual", "failIfAlmostEqual": "assertNotAlmostEqual",
	"assertRegexpMatches": "assertRegex", "assertNotRegexpMatches": "assertNotRegex",
	"assertRaisesRegexp": "assertRaisesRegex", "assertDictContainsSubset": "",
}

func (d deprecation) message(what string) string {
	var b strings.Builder
	b.WriteString(what)
	b.WriteString(" is deprecated")
	if d.since > 0 {
		fmt.Fprintf(&b, " since Python 3.%d", d.since)
	}
	if d.removed > 0 {
		fmt.Fprintf(&b, " and removed in 3.%d", d.removed)
	}
	if d.use != "" {
		b.WriteString("; use " + d.use)
	}
	return b.String()
}

// deprecated reports uses of deprecated standard-library modules and
// names (the tables above, by target version), unittest's deprecated
// aliases on self, and uses of functions and classes of this file or of
// imported workspace files marked with PEP 702's @deprecated
// (typing_extensions.deprecated or warnings.deprecated).
func (c *checker) deprecated() {
	minor := c.cfg.PythonMinor
	for _, im := range c.m.Imports {
		if im.Future || im.Level > 0 {
			continue
		}
		mod := im.Module
		d, ok := deprecatedModules[mod]
		if !ok {
			top, _, _ := strings.Cut(mod, ".")
			d, ok = deprecatedModules[top]
			mod = top
		}
		if ok && d.since <= minor && !guardedImport(im.Node) && !c.importNotFoundCovers(im, d) {
			if len(im.ModuleNodes) > 0 {
				c.add(Deprecated, im.ModuleNodes[0].StartByte(), im.ModuleNodes[len(im.ModuleNodes)-1].EndByte(), "%s", d.message("module '"+mod+"'"))
			}
			continue
		}
		if im.Name != "" && !im.Star {
			q := im.Module + "." + im.Name
			if d, ok := deprecatedNames[q]; ok && d.since <= minor && !guardedImport(im.Node) {
				c.addNode(Deprecated, im.NameNode, "%s", d.message("'"+q+"'"))
			}
		}
	}
	for _, a := range c.m.Attrs {
		if a.Node.IsNull() || a.Ctx&(pysem.CtxStore|pysem.CtxDel) != 0 {
			continue
		}
		if alias, ok := unittestAliases[a.Name]; ok && c.selfCall(a) {
			msg := "'" + a.Name + "' is a deprecated alias (since Python 3.2, removed in 3.12)"
			if alias != "" {
				msg += "; use '" + alias + "'"
			}
			c.add(Deprecated, a.Start, a.End, "%s", msg)
			continue
		}
		if !deprecatedLasts[a.Name] {
			continue // cheaper than qualName, which could not find it
		}
		q := c.qualName(a.Node)
		if q == "" {
			continue
		}
		if d, ok := deprecatedNames[q]; ok && d.since <= minor {
			c.add(Deprecated, a.Start, a.End, "%s", d.message("'"+q+"'"))
		}
	}
	c.pep702()
}

// importNotFoundCovers: a removed module whose import import-not-found
// reports (an interpreter is known and does not provide it).
func (c *checker) importNotFoundCovers(im *pysem.Import, d deprecation) bool {
	if d.removed == 0 || d.removed > c.cfg.PythonMinor || c.env.Installed == nil || !c.on(ImportNotFound) {
		return false
	}
	top, _, _ := strings.Cut(im.Module, ".")
	ans, ok := c.env.Imports[im.Module]
	return ok && ans != ImportFound && !c.env.Installed[top] && !IsStdlib(top, c.cfg.PythonMinor)
}

// selfCall: a.Name is read through the instance parameter of a method
// whose class does not define that name itself.
func (c *checker) selfCall(a *pysem.AttrRef) bool {
	ob := a.ObjectBinding
	if ob == nil || ob.Kind != pysem.BindParameter || ob.Scope == nil || ob.Scope.Self != ob || ob.Scope.Method != pysem.InstanceMethod {
		return false
	}
	class := ob.Scope.Parent
	if class == nil || class.Kind != pysem.ScopeClass {
		return false
	}
	_, defined := class.Bindings[a.Name]
	return !defined
}

// deprecatedMark returns the @deprecated decorator of a def/class binding
// of m (typing_extensions.deprecated or warnings.deprecated), and its
// message.
func deprecatedMark(m *pysem.Module, b *pysem.Binding) (bool, string) {
	for _, d := range b.Decorators {
		if d.Kind() != "call" {
			continue
		}
		fn := d.ChildByField("function")
		var q string
		ev := typeEval{m}
		switch fn.Kind() {
		case "identifier":
			r := ev.ref(fn)
			if r != nil && r.Binding != nil && !r.Unbound && r.Binding.Kind == pysem.BindImportFrom {
				q = r.Binding.Import.Module + "." + r.Binding.Import.Name
			}
		case "attribute":
			obj := fn.ChildByField("object")
			if obj.Kind() == "identifier" {
				if r := ev.ref(obj); r != nil && r.Binding != nil && !r.Unbound {
					q = importedModule(r.Binding) + "." + text(fn.ChildByField("attribute"))
				}
			}
		}
		if q != "typing_extensions.deprecated" && q != "warnings.deprecated" {
			continue
		}
		msg := ""
		if args := d.ChildByField("arguments"); args.NamedChildCount() > 0 {
			if s, e, ok := stringBody(args.NamedChild(0)); ok {
				msg = string(m.Tree.Source()[s:e])
			}
		}
		return true, msg
	}
	return false, ""
}

func (c *checker) pep702() {
	if !strings.Contains(string(c.src), "deprecated") && len(c.env.Facts) == 0 {
		return
	}
	report := func(r *pysem.Ref, name, msg string) {
		text := "'" + name + "' is deprecated"
		if msg != "" {
			text += ": " + msg
		}
		c.add(Deprecated, r.Start, r.End, "%s", text)
	}
	for _, b := range c.m.Bindings {
		switch b.Kind {
		case pysem.BindFunction, pysem.BindClass:
			if len(b.Symbol()) != 1 {
				continue
			}
			ok, msg := deprecatedMark(c.m, b)
			if !ok {
				continue
			}
			for _, r := range b.Refs {
				if !r.Unbound && r.Ctx&(pysem.CtxLoad|pysem.CtxAugAssign) != 0 && !r.Ctx.Has(pysem.CtxAllEntry) {
					report(r, b.Name, msg)
				}
			}
			if b.Site.Kind == pysem.ScopeClass && b.Kind == pysem.BindFunction {
				// self.method() inside the class
				for _, a := range c.m.Attrs {
					if a.Name == b.Name && a.Ctx&(pysem.CtxStore|pysem.CtxDel) == 0 && a.ObjectBinding != nil &&
						a.ObjectBinding.Scope != nil && a.ObjectBinding.Scope.Self == a.ObjectBinding && a.ObjectBinding.Scope.Parent == b.Site {
						c.add(Deprecated, a.Start, a.End, "'%s' is deprecated%s", b.Name, colonMsg(msg))
					}
				}
			}
		case pysem.BindImportFrom:
			if len(c.env.Facts) == 0 || !onlyBinding(b) {
				continue
			}
			mod, ok := b.Import.Absolute(c.env.ModuleName, c.env.IsPackageInit)
			if !ok {
				continue
			}
			cf := c.context(mod)
			if cf == nil {
				continue
			}
			if msg, ok := cf.Deprecated[b.Import.Name]; ok {
				for _, r := range b.Refs {
					if !r.Unbound && r.Ctx&pysem.CtxLoad != 0 && !r.Ctx.Has(pysem.CtxAllEntry) {
						report(r, b.Import.Name, msg)
					}
				}
			}
		}
	}
}

func colonMsg(msg string) string {
	if msg == "" {
		return ""
	}
	return ": " + msg
}

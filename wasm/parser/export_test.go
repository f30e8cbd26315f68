package parser

import pywasm "github.com/pyws/pyws/wasm"

func pywasmBytes() []byte { return pywasm.ParserWasm }

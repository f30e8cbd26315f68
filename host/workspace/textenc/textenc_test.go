package textenc

import (
	"errors"
	"testing"
	"unicode/utf8"
)

func utf16le(s string) []byte {
	var b []byte
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
			b = append(b, byte(hi), byte(hi>>8), byte(lo), byte(lo>>8))
			continue
		}
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

func swap(b []byte) []byte {
	out := make([]byte, len(b))
	for i := 0; i+1 < len(b); i += 2 {
		out[i], out[i+1] = b[i+1], b[i]
	}
	return out
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name      string
		src       []byte
		requested string
		want      string
		enc       string
		errFrom   Source // when an error is wanted
		wantErr   bool
		guess     string
	}{
		{name: "plain utf-8", src: []byte("x = 'é'\n"), want: "x = 'é'\n", enc: UTF8},
		{name: "utf-8 bom stripped", src: []byte("\xef\xbb\xbfx = 1\n"), want: "x = 1\n", enc: UTF8},
		{name: "utf-8 bom beats request", src: []byte("\xef\xbb\xbfé"), requested: "latin-1", want: "é", enc: UTF8},
		{name: "utf-16 le bom", src: append([]byte{0xFF, 0xFE}, utf16le("a = '€😀'\n")...), want: "a = '€😀'\n", enc: UTF16},
		{name: "utf-16 be bom", src: append([]byte{0xFE, 0xFF}, swap(utf16le("b = 'ü'\n"))...), want: "b = 'ü'\n", enc: UTF16},
		{name: "utf-16 requested no bom", src: utf16le("c\n"), requested: "utf-16", want: "c\n", enc: UTF16},
		{name: "utf-16 odd length", src: []byte{0xFF, 0xFE, 'a', 0, 'b'}, wantErr: true, errFrom: FromBOM},
		{name: "utf-16 lone surrogate", src: []byte{0xFF, 0xFE, 0x00, 0xD8, 'a', 0}, wantErr: true, errFrom: FromBOM},
		{name: "utf-16 lone low surrogate", src: []byte{0xFF, 0xFE, 0x00, 0xDC}, wantErr: true, errFrom: FromBOM},
		{name: "cookie latin-1", src: []byte("# -*- coding: latin-1 -*-\ns = '\xe9'\n"), want: "# -*- coding: latin-1 -*-\ns = 'é'\n", enc: Latin1},
		{name: "cookie iso-8859-1 line 2", src: []byte("#!/usr/bin/env python\n# coding=iso-8859-1\n\xe9"), want: "#!/usr/bin/env python\n# coding=iso-8859-1\né", enc: Latin1},
		{name: "cookie cp1252 alias", src: []byte("# vim: set fileencoding=windows-1252 :\n\x80"), want: "# vim: set fileencoding=windows-1252 :\n€", enc: CP1252},
		{name: "cookie utf8 alias", src: []byte("# coding: utf8\n\xc3\xa9"), want: "# coding: utf8\né", enc: UTF8},
		{name: "cookie utf-8 variant", src: []byte("# coding: UTF_8-unix\nx"), want: "# coding: UTF_8-unix\nx", enc: UTF8},
		{name: "cookie beats request", src: []byte("# coding: latin-1\n\xff"), requested: "utf-8", want: "# coding: latin-1\nÿ", enc: Latin1},
		{name: "cookie on line 2 after code ignored", src: []byte("x = 1\n# coding: latin-1\n\xe9"), wantErr: true, errFrom: FromRequest, guess: CP1252},
		{name: "cookie on line 3 ignored", src: []byte("#\n#\n# coding: latin-1\n\xe9"), wantErr: true, errFrom: FromRequest, guess: CP1252},
		{name: "cookie not in comment", src: []byte("s = 'coding: latin-1'\n\xe9"), wantErr: true, errFrom: FromRequest},
		{name: "cookie exotic shift_jis", src: []byte("# coding: shift_jis\n\x82\xa0"), want: "# coding: shift_jis\nあ", enc: "shift_jis"},
		{name: "cookie unknown", src: []byte("# coding: klingon\nx"), wantErr: true, errFrom: FromCookie},
		{name: "cookie utf-8 but invalid", src: []byte("# coding: utf-8\n\xff"), wantErr: true, errFrom: FromCookie},
		{name: "invalid utf-8 guess cp1252", src: []byte("s = '\x93hi\x94'"), wantErr: true, errFrom: FromRequest, guess: CP1252},
		{name: "invalid utf-8 guess latin-1", src: []byte("s = '\x81'"), wantErr: true, errFrom: FromRequest, guess: Latin1},
		{name: "ascii ok", src: []byte("x = 1\n"), requested: "ASCII", want: "x = 1\n", enc: ASCII},
		{name: "ascii high byte", src: []byte("x = '\xc3\xa9'"), requested: "us-ascii", wantErr: true, errFrom: FromRequest, guess: UTF8},
		{name: "latin-1 requested", src: []byte("\xe9\xff"), requested: "ISO-8859-1", want: "éÿ", enc: Latin1},
		{name: "cp1252 requested", src: []byte("\x80\x99"), requested: "cp1252", want: "€™", enc: CP1252},
		{name: "cp1252 undefined byte", src: []byte("\x81"), requested: "cp1252", wantErr: true, errFrom: FromRequest, guess: Latin1},
		{name: "empty", src: nil, want: "", enc: UTF8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, enc, err := Decode(tc.src, tc.requested)
			if tc.wantErr {
				var de *DecodeError
				if !errors.As(err, &de) {
					t.Fatalf("got %q, %q, %v; want a DecodeError", got, enc, err)
				}
				if de.From != tc.errFrom {
					t.Errorf("From = %v, want %v", de.From, tc.errFrom)
				}
				if tc.guess != "" && de.Guess != tc.guess {
					t.Errorf("Guess = %q, want %q", de.Guess, tc.guess)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if string(got) != tc.want || enc != tc.enc {
				t.Errorf("got %q (%s), want %q (%s)", got, enc, tc.want, tc.enc)
			}
		})
	}
}

func TestGuess(t *testing.T) {
	tests := []struct {
		src  []byte
		want string
	}{
		{utf16le("import os\n"), UTF16},
		{[]byte("plain"), UTF8},
		{[]byte("caf\xc3\xa9"), UTF8},
		{[]byte("\x93q\x94"), CP1252},
		{[]byte("\x81"), Latin1},
		{[]byte("\xfe\xff\x00a"), UTF16},
	}
	for _, tc := range tests {
		if got := Guess(tc.src); got != tc.want {
			t.Errorf("Guess(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestUnknownRequested(t *testing.T) {
	_, _, err := Decode([]byte("x"), "ebcdic")
	if !errors.Is(err, ErrUnknownEncoding) {
		t.Fatalf("err = %v, want ErrUnknownEncoding", err)
	}
	for _, n := range []string{"utf-8", "UTF8", "latin_1", "Latin-1", "iso8859-1", "Windows-1252", "utf-16", "ascii", "646"} {
		if _, ok := Canonical(n); !ok {
			t.Errorf("Canonical(%q) not accepted", n)
		}
	}
}

// FuzzDecodeSource: no input or encoding name panics; strict decodes give
// valid UTF-8 without a BOM; a failure is a DecodeError or an unknown name.
func FuzzDecodeSource(f *testing.F) {
	for _, s := range []string{"", "\xef\xbb\xbf", "\xff\xfe\x00\xd8", "\xfe\xff\xd8\x00\xdc", "# coding: latin-1\n\xe9",
		"#\n# coding=shift_jis\n\x82", "# coding: koi8-r\n\xff", "# coding: utf-16\nx", "\x81\x8d"} {
		for _, enc := range []string{"", "utf-8", "ascii", "latin-1", "utf-16", "cp1252", "bogus"} {
			f.Add([]byte(s), enc)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, requested string) {
		Guess(src)
		Detect(src)
		out, enc, err := Decode(src, requested)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) && !errors.Is(err, ErrUnknownEncoding) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		switch enc {
		case UTF8, ASCII, Latin1, UTF16, CP1252:
			if !utf8.Valid(out) {
				t.Fatalf("%s decode of %q is not valid UTF-8: %q", enc, src, out)
			}
		}
		if len(src) >= 3 && string(src[:3]) == "\xef\xbb\xbf" && len(out) >= 3 && string(out[:3]) == "\xef\xbb\xbf" && string(src[:6]) != "\xef\xbb\xbf\xef\xbb\xbf" {
			t.Fatalf("BOM not stripped: %q", out)
		}
		for _, n := range []string{UTF8, ASCII, Latin1, CP1252, utf16LE, utf16BE, "koi8-r", "x"} {
			DecodeAs(src, n)
		}
	})
}

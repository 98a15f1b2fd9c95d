package flatlog

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"
)

// state formats one record (or one WithAttrs batch) into b.
type state struct {
	b    []byte
	json bool
	opts *slog.HandlerOptions
	// sep is set once a member was written at the current nesting level:
	// the next one needs a separator (',' in JSON, ' ' in text).
	sep bool
	// groups is the group path, for ReplaceAttr; prefix is the same path
	// as a text key prefix, "G.H.".
	groups []string
	prefix []byte
}

// openGroups opens a JSON object for each name (text needs nothing: the
// names are already in the key prefix) and returns how many it opened.
func (st *state) openGroups(names []string) int {
	if !st.json {
		return 0
	}
	for _, n := range names {
		st.key(n)
		st.b = append(st.b, '{')
		st.sep = false
	}
	return len(names)
}

// builtin writes one of the record's own fields, through ReplaceAttr.
func (st *state) builtin(a slog.Attr) {
	if st.opts.ReplaceAttr != nil {
		a = st.opts.ReplaceAttr(nil, a)
		a.Value = a.Value.Resolve()
		if isEmpty(a) {
			return
		}
	}
	st.key(a.Key)
	st.value(a.Value)
}

// isEmpty reports an Attr slog says to ignore: empty key and zero value.
func isEmpty(a slog.Attr) bool { return a.Key == "" && a.Value.Equal(slog.Value{}) }

// attr writes a and reports whether it wrote anything.
func (st *state) attr(a slog.Attr) bool {
	a.Value = a.Value.Resolve()
	if a.Value.Kind() == slog.KindGroup {
		return st.group(a.Key, a.Value.Group())
	}
	if st.opts.ReplaceAttr != nil {
		a = st.opts.ReplaceAttr(st.groups, a)
		a.Value = a.Value.Resolve()
		if a.Value.Kind() == slog.KindGroup {
			return st.group(a.Key, a.Value.Group())
		}
	}
	if isEmpty(a) {
		return false
	}
	st.key(a.Key)
	st.value(a.Value)
	return true
}

// group writes a group attribute: inlined when its key is empty, left
// out when it has nothing to write.
func (st *state) group(key string, as []slog.Attr) bool {
	if len(as) == 0 {
		return false
	}
	if key == "" {
		wrote := false
		for _, a := range as {
			wrote = st.attr(a) || wrote
		}
		return wrote
	}
	mark, sep, plen := len(st.b), st.sep, len(st.prefix)
	st.groups = append(st.groups, key)
	if st.json {
		st.key(key)
		st.b = append(st.b, '{')
		st.sep = false
	} else {
		st.prefix = append(append(st.prefix, key...), '.')
	}
	wrote := false
	for _, a := range as {
		wrote = st.attr(a) || wrote
	}
	st.groups = st.groups[:len(st.groups)-1]
	st.prefix = st.prefix[:plen]
	if !wrote {
		st.b, st.sep = st.b[:mark], sep
		return false
	}
	if st.json {
		st.b = append(st.b, '}')
	}
	st.sep = true
	return true
}

// key writes the separator a member needs and its key.
func (st *state) key(k string) {
	if st.json {
		if st.sep {
			st.b = append(st.b, ',')
		}
		st.b = append(st.b, '"')
		st.b = appendEscaped(st.b, k)
		st.b = append(st.b, '"', ':')
		st.sep = true
		return
	}
	if st.sep {
		st.b = append(st.b, ' ')
	}
	st.sep = true
	// As slog.TextHandler: the prefix and key are quoted together when
	// either needs it.
	quote := needsQuote(k)
	for _, r := range string(st.prefix) { // no copy: the compiler ranges over the bytes
		if quoteRune(r) {
			quote = true
			break
		}
	}
	if quote {
		// Rare. Building the joined key allocates, as slog.TextHandler
		// does here too.
		st.b = strconv.AppendQuote(st.b, string(st.prefix)+k)
	} else {
		st.b = append(append(st.b, st.prefix...), k...)
	}
	st.b = append(st.b, '=')
}

// value writes v, which is resolved and not a group.
func (st *state) value(v slog.Value) {
	switch v.Kind() {
	case slog.KindString:
		st.str(v.String())
	case slog.KindInt64:
		st.b = strconv.AppendInt(st.b, v.Int64(), 10)
	case slog.KindUint64:
		st.b = strconv.AppendUint(st.b, v.Uint64(), 10)
	case slog.KindFloat64:
		st.float(v.Float64())
	case slog.KindBool:
		st.b = strconv.AppendBool(st.b, v.Bool())
	case slog.KindDuration:
		if st.json {
			st.b = strconv.AppendInt(st.b, int64(v.Duration()), 10)
		} else {
			st.b = appendDuration(st.b, v.Duration())
		}
	case slog.KindTime:
		st.time(v.Time())
	default:
		st.any(v.Any())
	}
}

// float writes f as the standard handlers do: strconv's shortest 'g'
// form in text; in JSON encoding/json's (json.Marshal, which
// slog.JSONHandler calls): plain decimals from 1e-6 up to 1e21, an
// exponent without a leading zero outside.
func (st *state) float(f float64) {
	if !st.json {
		st.b = strconv.AppendFloat(st.b, f, 'g', -1, 64)
		return
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		// JSON has no such numbers, and slog writes an !ERROR string
		// for them; write them as strings instead.
		st.b = append(st.b, '"')
		st.b = strconv.AppendFloat(st.b, f, 'g', -1, 64)
		st.b = append(st.b, '"')
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	st.b = strconv.AppendFloat(st.b, f, format, -1, 64)
	if n := len(st.b); format == 'e' && st.b[n-4] == 'e' && st.b[n-3] == '-' && st.b[n-2] == '0' {
		st.b[n-2] = st.b[n-1] // e-07 becomes e-7
		st.b = st.b[:n-1]
	}
}

func (st *state) time(t time.Time) {
	if st.json {
		st.b = append(st.b, '"')
		st.b = t.AppendFormat(st.b, time.RFC3339Nano)
		st.b = append(st.b, '"')
		return
	}
	// As slog.TextHandler does: RFC3339Nano has a fast path in
	// AppendFormat that a custom layout lacks (it made text records a
	// third slower); format with it at millisecond resolution, a tenth of
	// a millisecond added so exactly four fraction digits come out, then
	// drop the fourth.
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(st.b)
	t = t.Truncate(time.Millisecond).Add(time.Millisecond / 10)
	st.b = t.AppendFormat(st.b, time.RFC3339Nano)
	st.b = append(st.b[:n+prefixLen], st.b[n+prefixLen+1:]...)
}

// level writes l as slog.Level.String spells it ("INFO", "WARN+2"),
// without the string that builds for a level between the named ones.
// No spelling needs quoting or escaping.
func (st *state) level(l slog.Level) {
	base, val := "ERROR", l-slog.LevelError
	switch {
	case l < slog.LevelInfo:
		base, val = "DEBUG", l-slog.LevelDebug
	case l < slog.LevelWarn:
		base, val = "INFO", l-slog.LevelInfo
	case l < slog.LevelError:
		base, val = "WARN", l-slog.LevelWarn
	}
	if st.json {
		st.b = append(st.b, '"')
	}
	st.b = append(st.b, base...)
	if val > 0 {
		st.b = append(st.b, '+')
	}
	if val != 0 {
		st.b = strconv.AppendInt(st.b, int64(val), 10)
	}
	if st.json {
		st.b = append(st.b, '"')
	}
}

// any formats a KindAny value as the standard handlers do; only
// slog.Level, and an error whose message is already a string, avoid
// allocating.
func (st *state) any(x any) {
	switch x := x.(type) {
	case slog.Level:
		st.level(x)
		return
	case *slog.Source:
		if st.json {
			// Escaped as every other JSON string: strconv's Go quoting
			// writes \x escapes, which JSON does not have.
			st.b = append(st.b, `{"function":`...)
			st.str(x.Function)
			st.b = append(st.b, `,"file":`...)
			st.str(x.File)
			st.b = append(st.b, `,"line":`...)
			st.b = strconv.AppendInt(st.b, int64(x.Line), 10)
			st.b = append(st.b, '}')
			return
		}
		st.str(x.File + ":" + strconv.Itoa(x.Line))
		return
	}
	if st.json {
		// slog.JSONHandler: an error's message, unless the error
		// marshals itself; anything else through encoding/json, without
		// its HTML escaping.
		if err, ok := x.(error); ok {
			if _, m := x.(json.Marshaler); !m {
				st.str(err.Error())
				return
			}
		}
		var j bytes.Buffer
		enc := json.NewEncoder(&j)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			st.str("!ERROR:" + err.Error())
			return
		}
		st.b = append(st.b, bytes.TrimSuffix(j.Bytes(), []byte("\n"))...)
		return
	}
	// slog.TextHandler: MarshalText, a byte slice as a quoted string,
	// anything else as %+v, which for an error that does not format
	// itself is its Error.
	if tm, ok := x.(encoding.TextMarshaler); ok {
		t, err := tm.MarshalText()
		if err != nil {
			st.str("!ERROR:" + err.Error())
			return
		}
		st.str(string(t))
		return
	}
	if v := reflect.ValueOf(x); v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
		st.b = strconv.AppendQuote(st.b, string(v.Bytes()))
		return
	}
	if err, ok := x.(error); ok {
		if _, f := x.(fmt.Formatter); !f {
			st.str(err.Error())
			return
		}
	}
	st.str(fmt.Sprintf("%+v", x))
}

// str writes s: a JSON string, or in text quoted only where needed, as
// slog.TextHandler does.
func (st *state) str(s string) {
	if st.json {
		st.b = append(st.b, '"')
		st.b = appendEscaped(st.b, s)
		st.b = append(st.b, '"')
		return
	}
	if needsQuote(s) {
		st.b = strconv.AppendQuote(st.b, s)
		return
	}
	st.b = append(st.b, s...)
}

// needsQuote is slog.TextHandler's rule for quoting a text value.
func needsQuote(s string) bool {
	if s == "" {
		return true
	}
	for _, r := range s {
		if quoteRune(r) {
			return true
		}
	}
	return false
}

// quoteRune reports a rune slog.TextHandler quotes a string for: in
// ASCII a space, '"', '=' or a control character other than DEL;
// beyond, a byte that is not UTF-8 or a rune that does not print.
func quoteRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r <= ' ' || r == '"' || r == '='
	}
	return r == utf8.RuneError || !unicode.IsPrint(r)
}

// appendEscaped writes s as the inside of a JSON string, escaped as
// slog.JSONHandler escapes it: a byte that is not valid UTF-8 becomes
// \ufffd (so the line stays valid JSON), and U+2028 and U+2029 are
// escaped, as encoding/json does.
func appendEscaped(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b = append(b, `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				b = append(b, `\u202`...)
				b = append(b, hex[r&0xf])
			default:
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return b
}

// appendDuration writes d exactly as time.Duration.String does, without
// the string it allocates: the same algorithm over a stack buffer.
func appendDuration(b []byte, d time.Duration) []byte {
	var buf [32]byte
	w := len(buf)
	u := uint64(d)
	neg := d < 0
	if neg {
		u = -u
	}
	if u < uint64(time.Second) {
		// Below a second: one unit, with a fraction.
		var prec int
		w--
		buf[w] = 's'
		w--
		switch {
		case u == 0:
			return append(b, '0', 's')
		case u < uint64(time.Microsecond):
			prec = 0
			buf[w] = 'n'
		case u < uint64(time.Millisecond):
			prec = 3
			// U+00B5 'µ' micro sign is 0xC2 0xB5.
			w--
			copy(buf[w:], "µ")
		default:
			prec = 6
			buf[w] = 'm'
		}
		w, u = fmtFrac(buf[:w], u, prec)
		w = fmtInt(buf[:w], u)
	} else {
		w--
		buf[w] = 's'
		w, u = fmtFrac(buf[:w], u, 9)
		w = fmtInt(buf[:w], u%60)
		u /= 60
		if u > 0 {
			w--
			buf[w] = 'm'
			w = fmtInt(buf[:w], u%60)
			u /= 60
			if u > 0 {
				w--
				buf[w] = 'h'
				w = fmtInt(buf[:w], u)
			}
		}
	}
	if neg {
		w--
		buf[w] = '-'
	}
	return append(b, buf[w:]...)
}

// fmtFrac formats the fraction of v/10**prec (e.g. ".12345") into the
// tail of buf, omitting trailing zeros and the dot when the fraction is
// 0. It returns the index where the output begins and v/10**prec.
func fmtFrac(buf []byte, v uint64, prec int) (int, uint64) {
	w := len(buf)
	print := false
	for range prec {
		digit := v % 10
		print = print || digit != 0
		if print {
			w--
			buf[w] = byte(digit) + '0'
		}
		v /= 10
	}
	if print {
		w--
		buf[w] = '.'
	}
	return w, v
}

// fmtInt formats v into the tail of buf and returns where it begins.
func fmtInt(buf []byte, v uint64) int {
	w := len(buf)
	if v == 0 {
		w--
		buf[w] = '0'
		return w
	}
	for v > 0 {
		w--
		buf[w] = byte(v%10) + '0'
		v /= 10
	}
	return w
}

package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// flatHandler is a log/slog handler, text (key=value) or JSON, that
// formats into one buffer it owns instead of slog's pooled buffers. The
// standard handlers take their buffer from a sync.Pool, and every GC (the
// guard forces one when it arms) empties the pool, so the next line
// allocates; the occupancy line runs inside guarded frames, so it must
// not. Groups and WithAttrs are supported for completeness; attribute
// values of kinds other than the scalar ones are formatted with their
// String method, which may allocate (the occupancy line uses none).
//
// A flatHandler is safe for concurrent use: mu serialises the buffer and
// the writer.
type flatHandler struct {
	json   bool
	level  slog.Leveler
	shared *flatShared
	prefix []byte // preformatted WithAttrs attributes, each ending in a separator
	group  string // WithGroup prefix for keys, "a.b."
}

type flatShared struct {
	mu  sync.Mutex // guards buf and w
	w   io.Writer
	buf []byte
}

func newFlatHandler(w io.Writer, json bool) *flatHandler {
	return &flatHandler{json: json, level: slog.LevelInfo, shared: &flatShared{w: w, buf: make([]byte, 0, 4096)}}
}

func (h *flatHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.level.Level() }

func (h *flatHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.prefix = append([]byte(nil), h.prefix...)
	for _, a := range as {
		c.prefix = c.appendAttr(c.prefix, a)
	}
	return &c
}

func (h *flatHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.group = h.group + name + "."
	return &c
}

// Handle formats r and writes it with one Write call. It does not
// allocate for records whose attributes are strings, numbers, booleans,
// durations and times.
func (h *flatHandler) Handle(_ context.Context, r slog.Record) error {
	s := h.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buf[:0]
	if h.json {
		b = append(b, '{')
	}
	first := true
	if !r.Time.IsZero() {
		b = h.appendKey(b, "time", false, true)
		b = h.appendTime(b, r.Time)
		first = false
	}
	b = h.appendKey(b, "level", false, first)
	b = h.appendString(b, r.Level.String())
	b = h.appendKey(b, "msg", false, false)
	b = h.appendString(b, r.Message)
	b = append(b, h.prefix...)
	for a := range r.Attrs {
		b = h.appendAttr(b, a)
	}
	if h.json {
		b = append(b, '}')
	}
	b = append(b, '\n')
	s.buf = b
	_, err := s.w.Write(b)
	return err
}

// appendKey writes the separator before a field (unless it is the
// record's first) and its key.
func (h *flatHandler) appendKey(b []byte, key string, grouped, first bool) []byte {
	if h.json {
		if !first {
			b = append(b, ',')
		}
		b = append(b, '"')
		if grouped {
			b = appendJSONEscaped(b, h.group)
		}
		b = appendJSONEscaped(b, key)
		return append(b, '"', ':')
	}
	if !first {
		b = append(b, ' ')
	}
	if grouped {
		b = append(b, h.group...)
	}
	b = append(b, key...)
	return append(b, '=')
}

func (h *flatHandler) appendAttr(b []byte, a slog.Attr) []byte {
	v := a.Value.Resolve()
	if a.Key == "" {
		return b
	}
	b = h.appendKey(b, a.Key, true, false)
	switch v.Kind() {
	case slog.KindInt64:
		return strconv.AppendInt(b, v.Int64(), 10)
	case slog.KindUint64:
		return strconv.AppendUint(b, v.Uint64(), 10)
	case slog.KindFloat64:
		return strconv.AppendFloat(b, v.Float64(), 'g', -1, 64)
	case slog.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case slog.KindDuration:
		if h.json {
			return strconv.AppendInt(b, int64(v.Duration()), 10)
		}
		return appendDuration(b, v.Duration())
	case slog.KindTime:
		return h.appendTime(b, v.Time())
	case slog.KindString:
		return h.appendString(b, v.String())
	}
	return h.appendString(b, v.String())
}

func (h *flatHandler) appendTime(b []byte, t time.Time) []byte {
	if h.json {
		b = append(b, '"')
		b = t.AppendFormat(b, time.RFC3339Nano)
		return append(b, '"')
	}
	return t.AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
}

// appendString quotes s in JSON, and in text only when it needs it (as
// slog's TextHandler does).
func (h *flatHandler) appendString(b []byte, s string) []byte {
	if h.json {
		b = append(b, '"')
		b = appendJSONEscaped(b, s)
		return append(b, '"')
	}
	if needsQuote(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func needsQuote(s string) bool {
	if s == "" {
		return true
	}
	for _, c := range s {
		if c <= ' ' || c == '"' || c == '=' || c == '\\' || c == utf8.RuneError || c == 0x7f {
			return true
		}
	}
	return false
}

func appendJSONEscaped(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return b
}

// appendDuration writes d as time.Duration.String does, without the
// string allocation.
func appendDuration(b []byte, d time.Duration) []byte {
	var tmp [32]byte
	s := tmp[:0]
	switch {
	case d == 0:
		return append(b, '0', 's')
	case d < 0:
		b = append(b, '-')
		d = -d
	}
	switch {
	case d < time.Microsecond:
		s = strconv.AppendInt(s, int64(d), 10)
		s = append(s, 'n', 's')
	case d < time.Millisecond:
		s = strconv.AppendFloat(s, float64(d)/1e3, 'f', -1, 64)
		s = append(s, "µs"...)
	case d < time.Second:
		s = strconv.AppendFloat(s, float64(d)/1e6, 'f', -1, 64)
		s = append(s, 'm', 's')
	default:
		s = strconv.AppendFloat(s, d.Seconds(), 'f', -1, 64)
		s = append(s, 's')
	}
	return append(b, s...)
}

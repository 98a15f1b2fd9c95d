package flatlog

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"sync"
)

// Format selects the output syntax. The zero Format is FormatText.
type Format uint8

const (
	// FormatText writes key=value pairs separated by spaces, group keys
	// joined by dots, values quoted only where needed, like
	// slog.TextHandler.
	FormatText Format = iota
	// FormatJSON writes one JSON object per line, groups as nested
	// objects, like slog.JSONHandler.
	FormatJSON
)

// Handler is a slog.Handler that formats into a buffer it owns; see the
// package documentation for what allocates. A Handler is safe for
// concurrent use.
type Handler struct {
	json bool
	opts slog.HandlerOptions
	out  *output

	// pre holds the attributes of WithAttrs, already formatted inside
	// the groups open when they were added; preOpen is how many of groups
	// pre opened (JSON objects left open, closed at the end of a record).
	pre     []byte
	preOpen int
	// groups are the WithGroup names, outermost first; prefix is their
	// text-format key prefix, "G.H.".
	groups []string
	prefix string
}

// output is what every Handler derived from one New shares.
type output struct {
	mu sync.Mutex // guards every field below
	w  io.Writer
	// buf is the record being formatted, reused for every record.
	buf []byte
	// scratch and prefix hold the group path of the record being
	// formatted (ReplaceAttr's groups argument, the text key prefix),
	// reused so that the path costs no allocation once grown.
	scratch []string
	prefix  []byte
}

// New returns a handler writing to w in format f. A nil opts means the
// zero slog.HandlerOptions (level Info, no source, no ReplaceAttr).
func New(w io.Writer, f Format, opts *slog.HandlerOptions) *Handler {
	h := &Handler{json: f == FormatJSON, out: &output{w: w, buf: make([]byte, 0, 1024)}}
	if opts != nil {
		h.opts = *opts
	}
	return h
}

// Enabled reports whether a record of level l is written: at or above
// HandlerOptions.Level (Info when nil).
func (h *Handler) Enabled(_ context.Context, l slog.Level) bool {
	min := slog.LevelInfo
	if h.opts.Level != nil {
		min = h.opts.Level.Level()
	}
	return l >= min
}

// WithAttrs returns a handler whose records carry as, inside the groups
// open now, before their own attributes. It formats as once, here, and
// allocates.
func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	st := state{
		b: slices.Clone(h.pre), json: h.json, opts: &h.opts,
		sep:    true, // the record's built-in fields precede pre
		groups: slices.Clone(h.groups), prefix: []byte(h.prefix),
	}
	// Open the groups not yet open in pre; keep them only if an
	// attribute lands in them.
	opened := st.openGroups(h.groups[h.preOpen:])
	wrote := false
	for _, a := range as {
		wrote = st.attr(a) || wrote
	}
	if !wrote {
		return h
	}
	c := *h
	c.pre, c.preOpen = st.b, h.preOpen+opened
	return &c
}

// WithGroup returns a handler that puts the attributes of later WithAttrs
// calls and of every record inside group name. An empty name returns h.
func (h *Handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.groups = append(slices.Clip(h.groups), name)
	c.prefix = h.prefix + name + "."
	return &c
}

// Handle formats r and writes it with one Write call. See the package
// documentation for which values allocate.
func (h *Handler) Handle(_ context.Context, r slog.Record) error {
	o := h.out
	o.mu.Lock()
	defer o.mu.Unlock()
	// The built-in fields stand outside every group: the group path is
	// set up after them.
	st := state{b: o.buf[:0], json: h.json, opts: &h.opts, groups: o.scratch[:0], prefix: o.prefix[:0]}
	if st.json {
		st.b = append(st.b, '{')
	}
	if !r.Time.IsZero() {
		st.builtin(slog.Time(slog.TimeKey, r.Time.Round(0)))
	}
	if h.opts.ReplaceAttr == nil {
		st.key(slog.LevelKey)
		st.level(r.Level)
	} else {
		st.builtin(slog.Any(slog.LevelKey, r.Level))
	}
	if h.opts.AddSource && r.PC != 0 {
		st.builtin(slog.Any(slog.SourceKey, source(r.PC)))
	}
	st.builtin(slog.String(slog.MessageKey, r.Message))
	st.groups = append(st.groups, h.groups...)
	st.prefix = append(st.prefix, h.prefix...)
	if len(h.pre) > 0 {
		st.b = append(st.b, h.pre...)
		st.sep = true
	}
	open := h.preOpen
	if r.NumAttrs() > 0 {
		// Groups opened by WithGroup after the last WithAttrs appear only
		// if one of the record's attributes lands in them.
		mark, sep := len(st.b), st.sep
		opened := st.openGroups(h.groups[h.preOpen:])
		wrote := false
		r.Attrs(func(a slog.Attr) bool {
			wrote = st.attr(a) || wrote
			return true
		})
		if wrote {
			open += opened
		} else {
			st.b, st.sep = st.b[:mark], sep
		}
	}
	if st.json {
		for range open + 1 {
			st.b = append(st.b, '}')
		}
	}
	st.b = append(st.b, '\n')
	o.buf, o.scratch, o.prefix = st.b, st.groups, st.prefix
	_, err := o.w.Write(st.b)
	return err
}

// source builds the slog.Source for pc; the runtime's frame lookup
// allocates, which is why AddSource is documented as allocating.
func source(pc uintptr) *slog.Source {
	fs := runtime.CallersFrames([]uintptr{pc})
	f, _ := fs.Next()
	return &slog.Source{Function: f.Function, File: f.File, Line: f.Line}
}

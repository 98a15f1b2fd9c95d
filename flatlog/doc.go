// Package flatlog is a log/slog handler, text (key=value, as
// slog.TextHandler writes) or JSON (as slog.JSONHandler writes), that
// allocates nothing per record in the steady state, so records may be
// logged from inside frames an allocation guard (lifetime/guard) watches.
//
// The standard handlers take their buffer from a sync.Pool, and every
// garbage collection empties the pool, so the first record after a GC
// allocates; an allocation guard forces GCs to read its profile, so the
// two feed each other. A Handler formats into one buffer it owns instead,
// grown only while records are longer than any before, and writes each
// record with one Write call.
//
// It passes testing/slogtest in both formats and honours
// slog.HandlerOptions: Level, ReplaceAttr and AddSource. What allocates:
// WithAttrs and WithGroup (call them at set-up, not per frame), values of
// kind slog.KindAny (formatted through their Error, MarshalText or
// fmt/encoding/json), AddSource (the runtime builds the frame), and a
// ReplaceAttr function that itself allocates. Strings, numbers, booleans,
// durations, times, groups and LogValuers that resolve to those do not.
//
// # Ownership
//
// A Handler is safe for concurrent use: the handlers derived from one
// New (through WithAttrs and WithGroup) share one buffer and one writer,
// serialised by a mutex, so a record is written whole. The writer must
// not retain the byte slice it is given past its Write call.
//
// # Lifetime
//
// A Handler lives as long as its writer; it holds one buffer as large as
// the longest record written so far and no other memory per record.
package flatlog

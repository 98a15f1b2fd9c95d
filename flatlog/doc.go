// Package flatlog is a log/slog handler that allocates nothing per record
// in the steady state. It writes text (key=value, as slog.TextHandler
// writes) or JSON (as slog.JSONHandler writes). So records may be logged
// from inside frames an allocation guard (lifetime/guard) watches.
//
// The standard handlers take their buffer from a sync.Pool. Every garbage
// collection empties the pool, so the first record after a GC allocates.
// An allocation guard forces GCs to read its profile, so the two feed each
// other. A Handler formats into one buffer it owns instead. The buffer
// grows only while records are longer than any before. Each record is
// written with one Write call.
//
// It passes testing/slogtest in both formats. It honours
// slog.HandlerOptions: Level, ReplaceAttr and AddSource.
//
// These allocate:
//
//   - WithAttrs and WithGroup (call them at set-up, not per frame).
//   - Values of kind slog.KindAny, formatted through their Error,
//     MarshalText or fmt/encoding/json.
//   - AddSource (the runtime builds the frame).
//   - A ReplaceAttr function that itself allocates.
//
// Strings, numbers, booleans, durations, times, groups and LogValuers that
// resolve to those do not.
//
// # Ownership
//
// A Handler is safe for concurrent use. The handlers derived from one New
// (through WithAttrs and WithGroup) share one buffer and one writer. A
// mutex serialises them, so a record is written whole. The writer must not
// retain the byte slice it is given past its Write call.
//
// # Lifetime
//
// A Handler lives as long as its writer. It holds one buffer as large as
// the longest record written so far, and no other memory per record.
package flatlog

// Package dsp is the signal processing under package voices. It holds
// the mixer's inner loops (kernels) in plain Go and in amd64 assembly,
// the band-limited resampler's polyphase tables, the output limiter, and
// the PCM converters. Nothing here knows about engines, voices or
// devices. Every function takes the source bytes, positions and gains it
// works on, and adds into a bus the caller owns.
//
// The plain Go kernels (ScalarKernels) are the reference. The vector ones
// (AVX2, and AVX-512 where the CPU has it, chosen once at run time) give
// the same bits on any input, which the tests check. A build with the
// steadyframe_scalar tag compiles the assembly out.
//
// It is internal so that voices can change it freely. Users never import
// it, and no exported name of voices mentions it.
//
// # Ownership
//
// Kernels sets and SincTables are immutable once built and may be shared
// by any goroutines. A Limiter and Planes belong to the goroutine that
// runs the mix (voices' audio goroutine). They are not safe for
// concurrent use.
//
// # Lifetime
//
// The kernels read the caller's source bytes only during the call and
// keep nothing. SincTables live for the process (TableFor caches them).
// The slices Planes.Window returns alias the Planes' storage and are
// valid until the next call that uses those Planes.
package dsp

// Package spatial is the pure math of voices' 3D sound: vectors, the
// OpenAL 1.1 distance models, the sound cone, constant-power panning by
// direction and the doppler ratio. It holds no state and allocates
// nothing; package voices calls it once per positioned voice and block.
//
// The equations are the OpenAL 1.1 specification's (section 3.4 for
// distance and cones, 3.5.2 for doppler), computed in float64 from
// float32 inputs. docs/spatial.md lists them with their units.
//
// # Ownership
//
// Every function is pure and safe from any goroutine. The types are
// plain values.
//
// # Lifetime
//
// Nothing is retained: each call reads its arguments and returns.
package spatial

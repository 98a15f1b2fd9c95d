// Package typemix must not compile: it swaps handles between pools of
// different element types. TestHandleTypesDoNotMix builds it and checks
// that the compiler rejects exactly these lines.
package typemix

import "github.com/steadyframe/steadyframe/pools"

type (
	Texture struct{ id int }
	Sound   struct{ id int }
)

func Mix(textures *pools.Pool[Texture], sounds *pools.Pool[Sound]) {
	t, _, _ := textures.Create()
	_ = sounds.Destroy(t)                 // want: cannot use
	var s pools.Handle[Sound] = t         // want: cannot use
	_ = pools.Handle[Sound](t)            // want: cannot convert
	_ = sounds.Get(pools.Handle[Sound]{}) // fine: the zero handle of the right type
	_ = s
}

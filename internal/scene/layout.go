package scene

import "github.com/steadyframe/steadyframe/upload"

// Indices of the arenas in Arenas, for upload.Set.Arena.
const (
	ArenaRenderer  = 0 // panel quads and texture staging (a pixel unpack buffer)
	ArenaSprites   = 1 // sprite quads
	ArenaParticles = 2 // particle quads
)

// ArenaCount is the number of arenas in Arenas.
const ArenaCount = 3

// Reserved is the upload memory the layout reserves at start-up and never
// exceeds with three frames in flight (frame.DefaultInFlight): (4 + 4 + 1)
// MiB per frame, three times.
const Reserved = 27 << 20

// Arenas returns the layout: the renderer and the sprite batch take 4 MiB
// per frame each, particles 1 MiB. The sizes are the reference engine's
// measured peaks with headroom; each command's stress run reports how much
// of each it used.
func Arenas() []upload.ArenaDesc {
	return []upload.ArenaDesc{
		ArenaRenderer:  {Name: "renderer", Size: 4 << 20},
		ArenaSprites:   {Name: "sprites", Size: 4 << 20},
		ArenaParticles: {Name: "particles", Size: 1 << 20},
	}
}

// Package descriptors manages a table of texture-descriptor slots (1,024
// by default). It hands out generational handles, defers slot reuse and
// reports occupancy. The table never grows silently; Grow lifts the
// ceiling explicitly.
//
// A Heap rests on a pools.Pool. Package pools owns the generational slot
// table; the heap adds the frame protocol, the occupancy reporting and
// the device backend's hook. The heap hands out Handles: a slot index
// plus a generation. They read as pools' handles do: "slot N gen G", or
// "none" for the zero Handle, which is never valid. Every call checks the
// handle, so a texture used after it was freed is reported where it
// happens, as ErrStaleHandle.
//
// Free does not make a slot reusable at once. A frame still in flight may
// sample the slot's descriptor. So the slot stays pending until the frame
// clock the heap follows (lifetime/frame) reports those frames complete.
// Then it is reclaimed onto the free list. Reuse is last-in first-out
// among reclaimed slots, before a never-used slot is taken. So texture
// churn (font-atlas rebakes, quality swaps, level reloads) recycles slots
// instead of leaking them. A slot is reused with a new generation each
// time. Its generation is spent after 2^31-1 uses, and the slot is then
// retired for good rather than wrapping. So a stale handle can never
// become valid again (Stats.Retired counts them).
//
// Occupancy (live, peak, high-water, pending) is logged as a warning when
// it crosses 75% and 90%, and optionally as a periodic line. Exhaustion
// returns ErrHeapExhausted. Heap.LastRefusal then quotes live, peak,
// pending, retired and capacity. The heap writes those records without
// allocating: a message built once, five numeric attributes. So they may
// fire inside frames that an allocation guard (lifetime/guard) watches.
// The Logger's handler must not allocate either. Package flatlog
// (github.com/steadyframe/steadyframe/flatlog) is such a handler.
//
// A slot can carry a debug name (SetName): the caller's string, kept
// without copying. Close with live slots lists each one's name, index and
// creation frame. A full heap logs one record naming its three oldest
// live slots. So a leak reads as a leak, not as a limit.
//
// Refusals allocate nothing either. These are answered with a bare
// sentinel: a full heap, a stale or foreign handle, a closed heap, and a
// call from the SlotReleaser. ==, a switch and errors.Is test the
// sentinel without allocating, and it never changes once returned.
// Heap.LastRefusal describes the latest refusal, in plain numbers.
//
// # Growing the heap
//
// A full heap is an error, never a reallocation. Alloc returns
// ErrHeapExhausted and the capacity stays where it was. Heap.Grow raises
// the capacity when the owner decides to, up to MaxCapacity.
// gltex.Manager.Grow grows the GL texture table with it. Handles hold a
// slot index and a generation, never an address. So across Grow:
//
//   - every handle stays valid with the same index;
//   - pending slots are still reclaimed after their frames, in the order
//     they were freed;
//   - the new slots are taken only after every reclaimed one;
//   - the 75% and 90% warnings are measured against the new capacity.
//
// Grow allocates and logs at Info. So call it at load time or at a
// deliberate point, not in steady frames.
//
// The slot table holds no device types. descriptors/gltex binds it to
// OpenGL. Creating a texture takes a slot: glCreateTextures,
// glTextureStorage2D, and an upload through an upload arena as the pixel
// unpack buffer. Freeing it defers glDeleteTextures until the slot is
// reclaimed.
//
// # Reaching a slot from a shader
//
// OpenGL without ARB_bindless_texture has no shader-visible descriptor
// table to index. So gltex binds by slot per draw. Manager.Bind(handle,
// unit) calls glBindTextureUnit(unit, texture of the slot), and the
// shader's sampler uniform names the unit. The slot index is what a
// renderer sorts and batches draws by. To index many textures in one
// draw, descriptors/glarray makes each slot a layer of a texture array.
// Then the slot is the index the shader samples. The slot table serves
// either, since it only hands out indices. steadyframe does not use
// ARB_bindless_texture: no driver in CI offers it, and an untested path
// is not shipped.
//
// # Ownership
//
// A Heap, and a gltex.Manager with its GL objects, belong to the render
// goroutine: the one that runs the frame clock. Neither is safe for
// concurrent use. Other goroutines ask for textures through the render
// goroutine's queue and get Handles back. Handles are plain values and
// may be passed anywhere, but only the owner goroutine may resolve them.
// The heap owns its slot pool and its last Refusal. The renderer owns the
// clock, which the heap follows from NewHeap until Close.
//
// # Lifetime
//
// A heap follows one frame clock, named in HeapDesc.Clock. The renderer
// drives only the clock; no heap method takes a frame serial:
//
//	clock, _ := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
//	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Clock: clock})
//	serial, _ := clock.BeginFrame() // reclaims the slots of completed frames
//	... Alloc, Get, Free ...
//	_ = clock.EndFrame()
//
// A Handle is valid from Alloc until Free; after Free every call with it
// fails. The slot and its device object live on until the clock reports
// complete the frame that was newest when Free was called. That frame is
// Clock.Last: the frame being recorded, or between frames the last one
// submitted. The reclaim, and the SlotReleaser's call, run
// inside that clock call (BeginFrame, Poll or Drain). Close the heap
// after freeing everything and draining the clock. Close refuses while
// slots are live or pending, so a leak is an error, not a silent drop.
// The clock refuses to close while the heap follows it.
package descriptors

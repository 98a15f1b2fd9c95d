// Package descriptors manages a table of texture-descriptor slots (1,024
// by default) with generational handles, deferred reuse and occupancy
// reporting. The table never grows silently; Grow lifts the ceiling
// explicitly.
//
// A Heap rests on a pools.Pool (package pools owns the generational slot
// table; the heap adds the frame protocol, the occupancy reporting and
// the device backend's hook). It hands out Handles (slot index plus
// generation, reading as pools' handles do: "slot N gen G", "none" for
// the zero Handle, which is never valid). Every call checks the handle,
// so a texture used after it was freed is reported where it happens, as
// ErrStaleHandle. Free does not make a slot reusable at once: a frame
// still in flight may sample the slot's descriptor, so the slot stays
// pending until the frame clock the heap follows (lifetime/frame) reports
// those frames complete, and is then reclaimed onto the free list. Reuse
// is last-in first-out among reclaimed slots, before a never-used slot is
// taken, so texture churn (font-atlas rebakes, quality swaps, level
// reloads) recycles slots instead of leaking them. A slot is reused with
// a new generation each time; after 2^31-1 uses its generation is spent
// and the slot is retired for good rather than wrapping, so a stale
// handle can never become valid again (Stats.Retired counts them).
//
// Occupancy (live, peak, high-water, pending) is logged as a warning when
// it crosses 75% and 90%, and optionally as a periodic line; exhaustion
// returns ErrHeapExhausted, and Heap.LastRefusal quotes live, peak,
// pending, retired and capacity. The
// heap writes those records without allocating (a message built once,
// five numeric attributes), so they may fire inside frames that an
// allocation guard (lifetime/guard) watches, provided the Logger's handler
// does not allocate either: package flatlog
// (github.com/steadyframe/steadyframe/flatlog) is such a handler.
//
// A slot can carry a debug name (SetName), the caller's string, kept
// without copying. Close with live slots lists each one's name, index and
// creation frame, and a full heap logs one record naming its three
// oldest live slots, so a leak reads as a leak, not as a limit.
//
// Refusals allocate nothing either: a full heap, a stale or foreign
// handle, a closed heap and a call from the SlotReleaser are answered
// with a bare sentinel, which ==, a switch and errors.Is test without
// allocating and which never changes once returned. Heap.LastRefusal
// describes the latest refusal, in plain numbers.
//
// # Growing the heap
//
// A full heap is an error, never a reallocation: Alloc returns
// ErrHeapExhausted and the capacity stays where it was. Heap.Grow (and
// gltex.Manager.Grow, which grows the GL texture table with it) raises the
// capacity when the owner decides to, up to MaxCapacity. Handles hold a
// slot index and a generation, never an address, so every handle stays
// valid across Grow with the same index; pending slots are still
// reclaimed after their frames, in the order they were freed; the new
// slots are taken only after every reclaimed one; the 75% and 90%
// warnings are measured against the new capacity. Grow allocates and logs
// at Info, so call it at load time or at a deliberate point, not in steady
// frames.
//
// The slot table holds no device types. descriptors/gltex binds it to
// OpenGL: creating a texture (glCreateTextures, glTextureStorage2D, an
// upload through an upload arena as the pixel unpack buffer) takes a slot,
// and freeing it defers glDeleteTextures until the slot is reclaimed.
//
// # Reaching a slot from a shader
//
// OpenGL without ARB_bindless_texture has no shader-visible descriptor
// table to index. gltex binds by slot per draw: Manager.Bind(handle, unit)
// calls glBindTextureUnit(unit, texture of the slot), and the shader's
// sampler uniform names the unit. The slot index is what a renderer sorts
// and batches draws by. To index many textures in one draw,
// descriptors/glarray makes each slot a layer of a texture array, so the
// slot is the index the shader samples; the slot table serves either,
// since it only hands out indices. steadyframe does not
// use ARB_bindless_texture, because no driver in CI offers it and an
// untested path is not shipped.
//
// # Ownership
//
// A Heap, and a gltex.Manager with its GL objects, belong to the render
// goroutine, the one that runs the frame clock; neither is safe for
// concurrent use. Other goroutines ask for textures through the render
// goroutine's queue and get Handles back; Handles are plain values and
// may be passed anywhere, but only the owner goroutine may resolve them.
// The heap owns its slot pool and its last Refusal; the renderer owns the
// clock, which the heap follows from NewHeap until Close.
//
// # Lifetime
//
// A heap follows one frame clock, named in HeapDesc.Clock, and the
// renderer drives only the clock; no heap method takes a frame serial:
//
//	clock, _ := frame.NewClock(frame.ClockDesc{NewFence: glfence.New})
//	heap, _ := descriptors.NewHeap(descriptors.HeapDesc{Clock: clock})
//	serial, _ := clock.BeginFrame() // reclaims the slots of completed frames
//	... Alloc, Get, Free ...
//	_ = clock.EndFrame()
//
// A Handle is valid from Alloc until Free; after Free every call with it
// fails. The slot and its device object live on until the clock reports
// complete the frame that was its newest when Free was called (Clock.Last:
// the frame being recorded, or between frames the last one submitted);
// the reclaim, and the SlotReleaser's call, run inside that clock call
// (BeginFrame, Poll or Drain). Close the heap after freeing everything and draining the
// clock: Close refuses while slots are live or pending, so a leak is an
// error, not a silent drop, and the clock refuses to close while the heap
// follows it.
package descriptors

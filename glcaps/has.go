package glcaps

import "unsafe"

// Has reports whether the context current on the calling thread provides
// f: its version made f core, or it lists f's extension. It is how a
// backend picks its path at run time (glbuf maps per frame without
// FeatureBufferStorage, gltex binds to edit without
// FeatureDirectStateAccess). Without a current context, or for a value
// that is not a Feature, it reports false.
//
// Has allocates and queries the driver: call it when setting up, after
// Check, not per frame.
func Has(f Feature) bool {
	if !f.valid() {
		return false
	}
	getString := ProcAddress("glGetString")
	if getString == nil {
		return false
	}
	major, minor, ok := parseVersion(callGetString(getString, glVersion))
	if !ok {
		return false
	}
	var exts map[string]bool
	return provides(f, major, minor, &exts, getString)
}

// provides reports whether a context of version major.minor provides f,
// reading its extensions into *exts only when the version falls short
// and *exts is still nil.
func provides(f Feature, major, minor int, exts *map[string]bool, getString unsafe.Pointer) bool {
	fmaj, fmin := f.Core()
	if major > fmaj || major == fmaj && minor >= fmin {
		return true
	}
	if *exts == nil {
		*exts = extensions(getString, major)
	}
	return (*exts)[f.String()]
}

package gltest

// PostGL41Extensions are the extensions newer than OpenGL 4.1 that Mesa
// llvmpipe lists on a context whose version is overridden down, and that
// the GL packages or their tests could use. macOS, whose OpenGL stops at
// 4.1 core, has none of them, so hiding them with MESA_EXTENSION_OVERRIDE
// is what makes the override a macOS-like context (a version override
// alone still lists them). scripts/ci-platforms.sh keeps the same list.
var PostGL41Extensions = []string{
	"GL_ARB_buffer_storage", "GL_ARB_direct_state_access", "GL_ARB_texture_storage",
	"GL_ARB_map_buffer_alignment", "GL_ARB_shader_storage_buffer_object",
	"GL_ARB_compute_shader", "GL_ARB_shading_language_420pack",
	"GL_ARB_explicit_uniform_location", "GL_ARB_multi_bind", "GL_ARB_clear_texture",
	"GL_ARB_vertex_attrib_binding", "GL_ARB_get_texture_sub_image",
	"GL_ARB_shader_image_load_store", "GL_ARB_texture_view", "GL_ARB_base_instance",
	"GL_ARB_program_interface_query", "GL_ARB_clear_buffer_object",
	"GL_ARB_invalidate_subdata", "GL_ARB_copy_image", "GL_ARB_multi_draw_indirect",
	"GL_ARB_bindless_texture",
}

// MacOSEnv is the environment that turns Mesa llvmpipe's context into a
// macOS-like one: OpenGL 4.1 core, GLSL 4.10, none of PostGL41Extensions.
var MacOSEnv = overrideEnv("4.1", "410")

// GL33Env is the same at OpenGL 3.3 core and GLSL 3.30.
var GL33Env = overrideEnv("3.3", "330")

func overrideEnv(gl, glsl string) []string {
	hide := ""
	for i, e := range PostGL41Extensions {
		if i > 0 {
			hide += " "
		}
		hide += "-" + e
	}
	return []string{"MESA_GL_VERSION_OVERRIDE=" + gl, "MESA_GLSL_VERSION_OVERRIDE=" + glsl, "MESA_EXTENSION_OVERRIDE=" + hide}
}

/*===- kiln.h - Kiln runtime C API ------------------------------*- C -*-===*
 *
 * Load a compiled Kiln kernel (manifest + cubin) and launch it on CUDA device
 * memory. Every function returns a status (or a value documented below) and
 * never aborts; on failure kiln_last_error() describes the problem in words
 * that name the parameter, axis and values.
 *
 *   kiln_module *m;
 *   if (kiln_module_load("out/matmul.kiln.json", &m) != KILN_OK) {
 *     fprintf(stderr, "%s\n", kiln_last_error());
 *     return 1;
 *   }
 *   int64_t sa[2] = {M, K}, sb[2] = {N, K}, sc[2] = {M, N};
 *   kiln_tensor args[3] = {{a, KILN_BF16, 2, sa, NULL},
 *                          {b, KILN_BF16, 2, sb, NULL},
 *                          {c, KILN_BF16, 2, sc, NULL}};
 *   kiln_status s = kiln_launch(m, args, 3, stream);
 *   kiln_module_free(m);
 *
 * Link with -lkiln_runtime (libkiln_runtime.so). The library loads the CUDA
 * driver (libcuda.so.1) itself at the first call that needs it (a launch or
 * kiln_module_prepare), so it loads, reads manifests and answers queries on a
 * machine without one; there those calls fail with KILN_ERROR_DEVICE and a
 * message that says so. Launches run in the stream's context; on the default
 * stream (NULL) in the current context or, if none, in the primary context of
 * the tensors' device.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_RUNTIME_KILN_H
#define KILN_RUNTIME_KILN_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define KILN_API __attribute__((visibility("default")))
#else
#define KILN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The manifest format version this runtime reads (and every older one). */
#define KILN_MANIFEST_VERSION 1
/** Most axes a tensor may have. */
#define KILN_MAX_RANK 8

typedef enum kiln_status {
  KILN_OK = 0,
  KILN_ERROR_INVALID_VALUE =
      1,             /* API misuse: a NULL handle, an index out of range */
  KILN_ERROR_IO = 2, /* a file could not be read */
  KILN_ERROR_MANIFEST =
      3, /* the manifest is malformed, too new, or not this cubin's */
  KILN_ERROR_ARGUMENT = 4, /* a tensor does not match the manifest */
  KILN_ERROR_DEVICE = 5,   /* the device cannot run the kernel */
  KILN_ERROR_CUDA = 6,     /* a CUDA driver call failed */
  KILN_ERROR_INTERNAL = 7  /* out of host memory, or a bug */
} kiln_status;

/** Element types, as the manifest spells them. */
typedef enum kiln_dtype {
  KILN_BF16 = 0,
  KILN_F16 = 1,
  KILN_F32 = 2,
  KILN_I32 = 3,
  KILN_E4M3 = 4,
  KILN_E5M2 = 5,
  /* 4-bit, packed two per byte: shapes and strides count 4-bit values */
  KILN_E2M1 = 6,
  KILN_UE8M0 = 7
} kiln_dtype;

typedef enum kiln_role {
  KILN_ROLE_INPUT = 0,
  KILN_ROLE_OUTPUT = 1,
  /* the block scales of another param (kiln_param_info.scale_of) */
  KILN_ROLE_SCALE = 2
} kiln_role;

/** A tensor in device memory. Shapes and strides count elements of `dtype`. */
typedef struct kiln_tensor {
  uint64_t data; /* device address (CUdeviceptr) of element [0, ..., 0] */
  int32_t dtype; /* kiln_dtype */
  int32_t rank;  /* 0..KILN_MAX_RANK */
  /* rank extents, outermost first */
  const int64_t *shape;
  /* rank strides in elements, or NULL for row-major contiguous */
  const int64_t *strides;
} kiln_tensor;

/** A parameter as the manifest declares it. Pointers stay valid until
 * kiln_module_free. */
typedef struct kiln_param_info {
  const char *name; /* e.g. "a", "a.scale" */
  int32_t role;     /* kiln_role */
  int32_t dtype;    /* kiln_dtype */
  int32_t rank;
  /* rank dim expressions: "M", "128", "E+1", "cdiv(K,128)" */
  const char *const *shape;
  /* for KILN_ROLE_SCALE: the scaled param's name; else NULL */
  const char *scale_of;
  /* for KILN_ROLE_SCALE: the block one scale covers; else NULL */
  const int64_t *block;
  int32_t block_rank;
  int64_t align; /* required byte alignment of the data pointer */
} kiln_param_info;

typedef struct kiln_module kiln_module;

/** Reads the manifest and the cubin it names, a plain file name in the
 * manifest's folder: both regular files of at most 16 MiB and 256 MiB, the
 * manifest valid, the cubin an ELF image (KILN_ERROR_IO for the files,
 * KILN_ERROR_MANIFEST for the manifest's content). No CUDA call happens until
 * the first launch (or kiln_module_prepare). On failure *out is NULL. */
KILN_API kiln_status kiln_module_load(const char *manifest_path,
                                      kiln_module **out);

/** Unloads the cubin from every context it was loaded into. NULL is ignored. */
KILN_API void kiln_module_free(kiln_module *module);

/** Loads the cubin into the context a launch on `stream` (a CUstream, or NULL)
 * would use and checks that the device can run the kernel. Optional:
 * kiln_launch does it on first use. */
KILN_API kiln_status kiln_module_prepare(kiln_module *module, void *stream);

/** Validates `args` (one per param, manifest order: inputs, scales and outputs
 * as listed), encodes the tensor maps and launches on `stream` (a CUstream, or
 * NULL for the default stream). A launch with zero tiles (an empty output) does
 * nothing and returns KILN_OK. */
KILN_API kiln_status kiln_launch(kiln_module *module, const kiln_tensor *args,
                                 int nargs, void *stream);

/** A launch prepared once: arguments checked, variant, grid and tensor maps
 * chosen, kernel arguments packed (docs/runtime.md, "Prepared launches"). */
typedef struct kiln_prepared kiln_prepared;

/** Does everything kiln_launch does but issue the kernel, and keeps it in
 * *out (freed with kiln_prepared_free). Valid while `module` lives and the
 * tensors keep their memory, shapes and strides: nothing is checked again.
 * On failure *out is NULL. */
KILN_API kiln_status kiln_prepare_launch(kiln_module *module,
                                         const kiln_tensor *args, int nargs,
                                         void *stream, kiln_prepared **out);

/** Issues a prepared launch on `stream` (of the context it was prepared in;
 * a stream-K kernel's on the stream it was prepared for). */
KILN_API kiln_status kiln_launch_prepared(const kiln_prepared *prepared,
                                          void *stream);

/** Frees a prepared launch (NULL is ignored). */
KILN_API void kiln_prepared_free(kiln_prepared *prepared);

/** The message of the most recent failed call on this thread ("" if none
 * failed). */
KILN_API const char *kiln_last_error(void);

/** "KILN_ERROR_ARGUMENT", ... */
KILN_API const char *kiln_status_name(kiln_status status);

/** "bf16", ...; NULL for an unknown value. */
KILN_API const char *kiln_dtype_name(int32_t dtype);

/* ---- Queries (no CUDA calls) ---- */

KILN_API const char *
kiln_module_kernel(const kiln_module *module); /* kernel name */
KILN_API const char *kiln_module_chip(const kiln_module *module); /* "sm_90a" */
KILN_API int
kiln_module_num_params(const kiln_module *module);            /* -1 for NULL */
KILN_API int kiln_module_num_dims(const kiln_module *module); /* -1 for NULL */
/** The name of dim `index` ("M"); NULL when out of range. */
KILN_API const char *kiln_module_dim_name(const kiln_module *module, int index);
KILN_API kiln_status kiln_module_param(const kiln_module *module, int index,
                                       kiln_param_info *out);

/** Shapes of all params from the ones the caller has, to allocate the rest
 * (outputs). `args` has one entry per param; an entry with shape == NULL is
 * unknown. Known entries are checked (dtype, rank, dims) as kiln_launch would.
 * On success `shapes_out` (num_params rows of KILN_MAX_RANK int64) holds each
 * param's extents, and `dims_out` (num_dims entries, may be NULL) the bound
 * dims. Fails naming the dim no known tensor binds. */
KILN_API kiln_status kiln_module_infer_shapes(const kiln_module *module,
                                              const kiln_tensor *args,
                                              int nargs, int64_t *shapes_out,
                                              int64_t *dims_out);

/* ---- Variants (docs/manifest.md, "Variants") ----
 * A cubin may hold several compilations of the kernel (variants); each launch
 * runs the one the manifest's cost rule picks for its dims. Variant 0 is the
 * primary (the manifest's top-level entry). */

/** Number of kernels: 1 + the manifest's variants; -1 for NULL. */
KILN_API int kiln_module_num_variants(const kiln_module *module);
/** The entry symbol of variant `index` (0 = the primary); NULL when out of
 * range. */
KILN_API const char *kiln_module_variant_entry(const kiln_module *module,
                                               int index);
/** The variant the most recent successful kiln_launch of this module (on any
 * thread) ran, or would have run for an empty grid; -1 before the first
 * launch and for NULL. */
KILN_API int kiln_module_last_variant(const kiln_module *module);
/** The checking mode (docs/runtime.md, "Checking offsets"): with `on`
 * nonzero, each launch first synchronizes its stream, reads the group
 * offsets the manifest lists and fails with KILN_ERROR_ARGUMENT at the first
 * entry outside 0 = o[0] <= ... <= o[E] = rows, launching nothing. Off unless
 * $KILN_CHECK_OFFSETS was set (not "0") when the module was loaded. */
KILN_API kiln_status kiln_module_set_check_offsets(kiln_module *module,
                                                   int on);
/** Whether the checking mode is on for `module`: 1 or 0; -1 for NULL. */
KILN_API int kiln_module_check_offsets(const kiln_module *module);
/** The variant a launch with these tensors would run on a device with
 * `sm_count` SMs, without launching or any CUDA call. `args` are as in
 * kiln_module_infer_shapes (shape == NULL: unknown); the known ones must bind
 * every dim the grids use. */
KILN_API kiln_status kiln_module_choose_variant(const kiln_module *module,
                                                const kiln_tensor *args,
                                                int nargs, int sm_count,
                                                int *variant_out);
/** Every later launch of `module` (prepared ones included, and
 * kiln_module_choose_variant) runs variant `variant` (0 .. num_variants - 1)
 * instead of the cost rule's choice; -1 gives the choice back to the cost
 * rule. KILN_ERROR_INVALID_VALUE for another number. */
KILN_API kiln_status kiln_module_pin_variant(kiln_module *module, int variant);
/** The pinned variant; -1 when none is (or for NULL). */
KILN_API int kiln_module_pinned_variant(const kiln_module *module);
/** Why a launch with these tensors (as for kiln_module_choose_variant) would
 * run the variant it would on a device with `sm_count` SMs: per variant its
 * CTAs, waves and cost, the chosen one marked, and the pin if any. `*text`
 * points to a NUL-terminated string owned by the library, valid until the
 * next call of this function on the same thread. */
KILN_API kiln_status kiln_module_explain_variant(const kiln_module *module,
                                                 const kiln_tensor *args,
                                                 int nargs, int sm_count,
                                                 const char **text);

/* ---- Dim expressions (no CUDA calls) ----
 * A manifest shape entry: `128`, `M`, `M+1`, `M-1`, `M*2` or `cdiv(M,128)`,
 * spaces ignored, one dim name at most. Bindings in other languages parse
 * shapes with this rather than their own grammar. */
typedef enum kiln_dim_kind {
  KILN_DIM_CONST = 0, /* value */
  KILN_DIM_NAME = 1,  /* name */
  KILN_DIM_ADD = 2,   /* name + value */
  KILN_DIM_SUB = 3,   /* name - value */
  KILN_DIM_MUL = 4,   /* name * value */
  KILN_DIM_CDIV = 5   /* ceil(name / value), value > 0 */
} kiln_dim_kind;

/** Parses `text`. On success *kind_out is a kiln_dim_kind, name_out (of
 * name_capacity bytes) holds the NUL-terminated dim name ("" for a constant)
 * and *value_out the constant or the integer operand. Fails with
 * KILN_ERROR_INVALID_VALUE on anything else, or when the name does not fit. */
KILN_API kiln_status kiln_dim_expr_parse(const char *text, int32_t *kind_out,
                                         char *name_out, size_t name_capacity,
                                         int64_t *value_out);

/* ---- Block-scaled formats on the host (docs/runtime.md, "Block-scaled
 * formats"; no CUDA calls) ----
 * A row-major float matrix x[rows][k] becomes the bytes a block-scaled kernel
 * reads: data K-major with k padded with zeros to a whole number of blocks
 * (NVFP4: two e2m1 per byte, element 2i in the low nibble; MXFP8: one e4m3 per
 * byte) and one scale byte per (row, block) in the 512-byte scale-factor atom
 * layout (NVFP4: UE4M3 per 16 elements; MXFP8: UE8M0 per 32), padding bytes 0.
 * Buffers may be larger than needed; only the first bytes are used. */

/** Bytes of a rows x k_blocks scale tensor padded to whole 128 x 4 atoms. */
KILN_API kiln_status kiln_scale_factor_bytes(int64_t rows, int64_t k_blocks,
                                             int64_t *bytes_out);
/** Byte offset of the scale of (row, k_block) in that tensor:
 * ((row / 128) * ceil(k_blocks / 4) + k_block / 4) * 512 + 16 * (row % 32) +
 * 4 * ((row % 128) / 32) + k_block % 4. */
KILN_API kiln_status kiln_scale_factor_offset(int64_t rows, int64_t k_blocks,
                                              int64_t row, int64_t k_block,
                                              int64_t *offset_out);
/** The data and scale bytes of a quantized rows x k matrix. */
KILN_API kiln_status kiln_nvfp4_bytes(int64_t rows, int64_t k,
                                      int64_t *data_bytes_out,
                                      int64_t *scale_bytes_out);
KILN_API kiln_status kiln_mxfp8_bytes(int64_t rows, int64_t k,
                                      int64_t *data_bytes_out,
                                      int64_t *scale_bytes_out);
/** Quantizes x (rows * k floats) with scale = ue4m3(amax / 6), nearest-even;
 * elements nearest-even, saturating at +-6. Fails on NaN or infinite input. */
KILN_API kiln_status kiln_quantize_nvfp4(const float *x, int64_t rows,
                                         int64_t k, uint8_t *data,
                                         int64_t data_bytes, uint8_t *scales,
                                         int64_t scale_bytes);
/** Quantizes x with scale = 2^ceil(log2(amax / 448)) (never saturates);
 * elements nearest-even. Fails on NaN or infinite input. */
KILN_API kiln_status kiln_quantize_mxfp8(const float *x, int64_t rows,
                                         int64_t k, uint8_t *data,
                                         int64_t data_bytes, uint8_t *scales,
                                         int64_t scale_bytes);
/** out (rows * k floats) = data * scale, exactly. */
KILN_API kiln_status kiln_dequantize_nvfp4(const uint8_t *data,
                                           int64_t data_bytes,
                                           const uint8_t *scales,
                                           int64_t scale_bytes, int64_t rows,
                                           int64_t k, float *out);
KILN_API kiln_status kiln_dequantize_mxfp8(const uint8_t *data,
                                           int64_t data_bytes,
                                           const uint8_t *scales,
                                           int64_t scale_bytes, int64_t rows,
                                           int64_t k, float *out);

#ifdef __cplusplus
}
#endif

#endif /* KILN_RUNTIME_KILN_H */

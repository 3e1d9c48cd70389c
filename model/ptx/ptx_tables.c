/* SPDX-License-Identifier: MIT
 * ptx_tables.c - immutable tables over the IR enums of ptx_ir.h: opcode names and classes (from
 * ptx_ops.def), type names, sizes and kinds, state-space and special-register names.
 *
 * Names are the PTX spellings without the leading dot ("f32", "global"); special registers keep
 * their '%' ("%tid"), as written. hd_type_is_signed() is true only for the .s integer types
 * (floating types answer hd_type_is_float()).
 */
#include <string.h>

#include "ptx_parser.h"

static const char *const op_names[HD_OP_COUNT] = {
#define HD_OP(id, name, cls) name,
#include "ptx_ops.def"
#undef HD_OP
};

static const uint8_t op_classes[HD_OP_COUNT] = {
#define HD_OP(id, name, cls) HD_CLASS_##cls,
#include "ptx_ops.def"
#undef HD_OP
};

static const struct {
    const char *name;
    uint8_t bytes;
    bool is_signed, is_float;
} type_info[HD_T_COUNT] = {
    [HD_T_NONE] = {"none", 0, false, false},
    [HD_T_B8] = {"b8", 1, false, false},     [HD_T_B16] = {"b16", 2, false, false},
    [HD_T_B32] = {"b32", 4, false, false},   [HD_T_B64] = {"b64", 8, false, false},
    [HD_T_B128] = {"b128", 16, false, false},
    [HD_T_U8] = {"u8", 1, false, false},     [HD_T_U16] = {"u16", 2, false, false},
    [HD_T_U32] = {"u32", 4, false, false},   [HD_T_U64] = {"u64", 8, false, false},
    [HD_T_S8] = {"s8", 1, true, false},      [HD_T_S16] = {"s16", 2, true, false},
    [HD_T_S32] = {"s32", 4, true, false},    [HD_T_S64] = {"s64", 8, true, false},
    [HD_T_F16] = {"f16", 2, false, true},    [HD_T_F16X2] = {"f16x2", 4, false, true},
    [HD_T_BF16] = {"bf16", 2, false, true},  [HD_T_BF16X2] = {"bf16x2", 4, false, true},
    [HD_T_F32] = {"f32", 4, false, true},    [HD_T_F64] = {"f64", 8, false, true},
    [HD_T_PRED] = {"pred", 1, false, false},
};

static const char *const space_names[HD_SPACE_COUNT] = {
    [HD_SPACE_NONE] = "generic", [HD_SPACE_GLOBAL] = "global", [HD_SPACE_SHARED] = "shared",
    [HD_SPACE_LOCAL] = "local",  [HD_SPACE_PARAM] = "param",   [HD_SPACE_CONST] = "const",
    [HD_SPACE_REG] = "reg",      [HD_SPACE_TEX] = "tex",
};

static const char *const sreg_names[HD_SREG_COUNT] = {
    [HD_SREG_NONE] = "", [HD_SREG_TID] = "%tid", [HD_SREG_NTID] = "%ntid",
    [HD_SREG_CTAID] = "%ctaid", [HD_SREG_NCTAID] = "%nctaid", [HD_SREG_LANEID] = "%laneid",
    [HD_SREG_WARPID] = "%warpid", [HD_SREG_NWARPID] = "%nwarpid", [HD_SREG_SMID] = "%smid",
    [HD_SREG_NSMID] = "%nsmid", [HD_SREG_GRIDID] = "%gridid", [HD_SREG_CLOCK] = "%clock",
    [HD_SREG_CLOCK64] = "%clock64", [HD_SREG_GLOBALTIMER] = "%globaltimer",
    [HD_SREG_LANEMASK_EQ] = "%lanemask_eq", [HD_SREG_LANEMASK_LT] = "%lanemask_lt",
    [HD_SREG_LANEMASK_LE] = "%lanemask_le", [HD_SREG_LANEMASK_GT] = "%lanemask_gt",
    [HD_SREG_LANEMASK_GE] = "%lanemask_ge",
    [HD_SREG_DYNAMIC_SMEM_SIZE] = "%dynamic_smem_size",
    [HD_SREG_TOTAL_SMEM_SIZE] = "%total_smem_size",
};

const char *hd_op_name(enum hd_op op)
{
    return (unsigned)op < HD_OP_COUNT ? op_names[op] : "?";
}

enum hd_op_class hd_op_base_class(enum hd_op op)
{
    return (unsigned)op < HD_OP_COUNT ? (enum hd_op_class)op_classes[op] : HD_CLASS_MISC;
}

const char *hd_type_name(enum hd_type t)
{
    return (unsigned)t < HD_T_COUNT ? type_info[t].name : "?";
}

unsigned hd_type_bytes(enum hd_type t)
{
    return (unsigned)t < HD_T_COUNT ? type_info[t].bytes : 0;
}

bool hd_type_is_signed(enum hd_type t)
{
    return (unsigned)t < HD_T_COUNT && type_info[t].is_signed;
}

bool hd_type_is_float(enum hd_type t)
{
    return (unsigned)t < HD_T_COUNT && type_info[t].is_float;
}

const char *hd_space_name(enum hd_space s)
{
    return (unsigned)s < HD_SPACE_COUNT ? space_names[s] : "?";
}

const char *hd_sreg_name(enum hd_special_reg s)
{
    return (unsigned)s < HD_SREG_COUNT ? sreg_names[s] : "?";
}

enum hd_special_reg hd_ptx_sreg_lookup(const char *name, size_t len)
{
    if (len < 3 || name[0] != '%')
        return HD_SREG_NONE;
    for (int k = HD_SREG_NONE + 1; k < HD_SREG_COUNT; k++)
        if (sreg_names[k][1] == name[1] && strlen(sreg_names[k]) == len &&
            memcmp(sreg_names[k], name, len) == 0)
            return (enum hd_special_reg)k;
    return HD_SREG_NONE;
}

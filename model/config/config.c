/* SPDX-License-Identifier: MIT
 * config.c - the parameter descriptor table, defaults, typed value parsing and cross checks.
 *
 * Everything here is generated from params.def: the descriptor table (section, key, type, field
 * offset, range, enum values, doc) that the INI reader and printers walk, and the defaults. A
 * value is parsed from its text form by its descriptor's type and stored through the field
 * offset, so no parameter needs code of its own. Integers are decimal or 0x-hex with an optional
 * binary suffix (K, M, G, optionally followed by "iB"); booleans true/false/yes/no/on/off/1/0;
 * enum values by name (case-insensitive); strings optionally in double quotes.
 */
#include "config.h"
#include "regs_source.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* {==== Descriptor table ==== */
#define ENUM_ROW(type, id, spelling, doc) {id, spelling, doc},
#define ENUM_ARRAY(type) static const struct hd_cfg_enum_value values_##type[] = {HD_CFG_ENUM_##type(ENUM_ROW)};
HD_CFG_ENUM_TYPES(ENUM_ARRAY)
#undef ENUM_ARRAY
#undef ENUM_ROW

#define DESC_U32 .type = HD_CFG_U32
#define DESC_U64 .type = HD_CFG_U64
#define DESC_F64 .type = HD_CFG_F64
#define DESC_BOOL .type = HD_CFG_BOOL
#define DESC_STR .type = HD_CFG_STR
#define DESC_ENUM(name)                                                                            \
    .type = HD_CFG_ENUM, .values = values_##name,                                                  \
    .nvalues = (unsigned)(sizeof values_##name / sizeof values_##name[0])

static const struct hd_cfg_param params[] = {
#define HD_PARAM(sec, key_, type_, def, min_, max_, doc_)                                          \
    {.section = #sec, .key = #key_, DESC_##type_, .offset = offsetof(struct hd_config, sec##_##key_), \
     .min = (min_), .max = (max_), .doc = doc_},
#include "params.def"
#undef HD_PARAM
};
#define NPARAMS (sizeof params / sizeof params[0])

const struct hd_cfg_param *hd_config_params(unsigned *count)
{
    *count = (unsigned)NPARAMS;
    return params;
}

const struct hd_cfg_param *hd_config_find(const char *section, const char *key)
{
    for (size_t i = 0; i < NPARAMS; i++)
        if (strcmp(params[i].section, section) == 0 && strcmp(params[i].key, key) == 0)
            return &params[i];
    return NULL;
}

const char *hd_config_enum_name(const struct hd_cfg_param *p, int value)
{
    for (unsigned i = 0; i < p->nvalues; i++)
        if (p->values[i].value == value)
            return p->values[i].name;
    return "?";
}
/* }==== */

/* {==== Defaults ==== */
#define SETDEF_SCALAR(field, def) (field) = (def)
#define SETDEF_U32 SETDEF_SCALAR
#define SETDEF_U64 SETDEF_SCALAR
#define SETDEF_F64 SETDEF_SCALAR
#define SETDEF_BOOL SETDEF_SCALAR
#define SETDEF_STR(field, def) snprintf((field).s, sizeof (field).s, "%s", (def))
#define SETDEF_ENUM(name) SETDEF_SCALAR

void hd_config_defaults(struct hd_config *out)
{
    memset(out, 0, sizeof *out);
#define HD_PARAM(sec, key, type, def, min, max, doc) SETDEF_##type(out->sec##_##key, def);
#include "params.def"
#undef HD_PARAM
}
/* }==== */

/* {==== Typed parsing ==== */
static int fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int hd_config_parse_uint(const char *s, uint64_t *out)
{
    if (!s)
        return -1;
    const char *p = s;
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (!((*p >= '0' && *p <= '9') || (base == 16 && strchr("abcdefABCDEF", *p) && *p)))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, base);
    if (errno == ERANGE)
        return -1;
    unsigned shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M')
        shift = 20;
    else if (*end == 'G')
        shift = 30;
    if (shift) {
        end++;
        if (end[0] == 'i' && end[1] == 'B')
            end += 2;
        if (v > (UINT64_MAX >> shift))
            return -1;
        v <<= shift;
    }
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

static int parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on", "1"};
    static const char *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcasecmp(s, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    return -1;
}

static void enum_choices(const struct hd_cfg_param *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < p->nvalues && used < len; i++) {
        const char *sep = i == 0 ? "" : (i + 1 == p->nvalues ? " or " : ", ");
        int n = snprintf(buf + used, len - used, "%s%s", sep, p->values[i].name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

static int set_numeric(struct hd_config *cfg, const struct hd_cfg_param *p, const char *value,
                       char *err, size_t errlen)
{
    char *field = (char *)cfg + p->offset;
    if (p->type == HD_CFG_F64) {
        char *end;
        errno = 0;
        double d = strtod(value, &end);
        if (end == value || *end != '\0' || errno == ERANGE || !isfinite(d))
            return fail(err, errlen, "key '%s': '%s' is not a number", p->key, value);
        if (d < p->min || d > p->max)
            return fail(err, errlen, "key '%s': value %s is out of range [%g, %g]", p->key, value,
                        p->min, p->max);
        memcpy(field, &d, sizeof d);
        return 0;
    }
    uint64_t v;
    if (hd_config_parse_uint(value, &v) != 0)
        return fail(err, errlen,
                    "key '%s': '%s' is not an unsigned integer (decimal, 0x hex, optional K/M/G)",
                    p->key, value);
    if ((double)v < p->min || (double)v > p->max)
        return fail(err, errlen, "key '%s': value %s is out of range [%.0f, %.0f]", p->key, value,
                    p->min, p->max);
    if (p->type == HD_CFG_U32) {
        uint32_t u = (uint32_t)v;
        memcpy(field, &u, sizeof u);
    } else {
        memcpy(field, &v, sizeof v);
    }
    return 0;
}

static int set_value(struct hd_config *cfg, const struct hd_cfg_param *p, const char *value,
                     char *err, size_t errlen)
{
    char *field = (char *)cfg + p->offset;
    switch (p->type) {
    case HD_CFG_U32:
    case HD_CFG_U64:
    case HD_CFG_F64:
        return set_numeric(cfg, p, value, err, errlen);
    case HD_CFG_BOOL: {
        bool b;
        if (parse_bool(value, &b) != 0)
            return fail(err, errlen, "key '%s': '%s' is not a boolean (true or false)", p->key,
                        value);
        memcpy(field, &b, sizeof b);
        return 0;
    }
    case HD_CFG_STR: {
        size_t n = strlen(value);
        const char *s = value;
        if (n >= 2 && value[0] == '"' && value[n - 1] == '"') {
            s = value + 1;
            n -= 2;
        }
        if (n >= HD_CFG_STR_MAX)
            return fail(err, errlen, "key '%s': string longer than %d characters", p->key,
                        HD_CFG_STR_MAX - 1);
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)s[i] < 0x20 || s[i] == '"' || (unsigned char)s[i] >= 0x7f)
                return fail(err, errlen, "key '%s': strings hold printable ASCII without quotes",
                            p->key);
        struct hd_cfg_str str;
        memset(&str, 0, sizeof str);
        memcpy(str.s, s, n);
        memcpy(field, &str, sizeof str);
        return 0;
    }
    case HD_CFG_ENUM:
        for (unsigned i = 0; i < p->nvalues; i++) {
            if (strcasecmp(value, p->values[i].name) == 0) {
                int v = p->values[i].value;
                memcpy(field, &v, sizeof v); /* enums are int-sized (checked below) */
                return 0;
            }
        }
        {
            char choices[256];
            enum_choices(p, choices, sizeof choices);
            return fail(err, errlen, "key '%s': unknown value '%s' (expected %s)", p->key, value,
                        choices);
        }
    }
    return fail(err, errlen, "key '%s': internal: bad type", p->key);
}

#define ENUM_SIZE_CHECK(type)                                                                      \
    _Static_assert(sizeof(enum hd_cfg_##type) == sizeof(int), "enum " #type " is not int-sized");
HD_CFG_ENUM_TYPES(ENUM_SIZE_CHECK)
#undef ENUM_SIZE_CHECK

int hd_config_set_param(struct hd_config *cfg, const struct hd_cfg_param *p, const char *value,
                        char *err, size_t errlen)
{
    return set_value(cfg, p, value, err, errlen);
}

int hd_config_set(struct hd_config *cfg, const char *section_key, const char *value, char *err,
                  size_t errlen)
{
    const char *dot = strchr(section_key, '.');
    char section[64];
    if (!dot || (size_t)(dot - section_key) >= sizeof section)
        return fail(err, errlen, "key '%s': expected section.key (e.g. sm.num_schedulers)",
                    section_key);
    memcpy(section, section_key, (size_t)(dot - section_key));
    section[dot - section_key] = '\0';
    const struct hd_cfg_param *p = hd_config_find(section, dot + 1);
    if (!p)
        return fail(err, errlen, "key '%s': unknown parameter (see heddle --help-config)",
                    section_key);
    return set_value(cfg, p, value, err, errlen);
}
/* }==== */

/* {==== Cross-parameter checks and comparison ==== */
int hd_config_validate(const struct hd_config *c, char *err, size_t errlen)
{
    if (c->sm_max_threads % c->gpu_warp_size != 0)
        return fail(err, errlen, "key 'max_threads': %u is not a multiple of warp_size (%u)",
                    c->sm_max_threads, c->gpu_warp_size);
    uint32_t warps = c->sm_max_threads / c->gpu_warp_size;
    if (c->sm_num_schedulers > warps)
        return fail(err, errlen,
                    "key 'num_schedulers': %u schedulers but only %u warps fit in max_threads",
                    c->sm_num_schedulers, warps);
    if (c->sm_registers < c->gpu_warp_size * c->sm_max_regs_per_thread)
        return fail(err, errlen,
                    "key 'registers': %u registers cannot hold one warp at max_regs_per_thread "
                    "(%u)", c->sm_registers, c->sm_max_regs_per_thread);
    struct hd_regs_source rs;
    char rmsg[256];
    if (hd_regs_source_parse(c->sm_regs_source.s, c->sm_max_regs_per_thread, &rs, rmsg,
                             sizeof rmsg))
        return fail(err, errlen, "%s", rmsg);
    return 0;
}

bool hd_config_equal(const struct hd_config *a, const struct hd_config *b)
{
    for (size_t i = 0; i < NPARAMS; i++) {
        char va[128], vb[128];
        hd_config_format_value(a, &params[i], va, sizeof va);
        hd_config_format_value(b, &params[i], vb, sizeof vb);
        if (strcmp(va, vb) != 0)
            return false;
    }
    return true;
}
/* }==== */

/* SPDX-License-Identifier: MIT
 * cli_fill.c - fill patterns for `heddle launch` buffers (and --expect), and typed printing.
 *
 * A pattern is parsed the same way by the syntax check (run before the GPU is created, so a
 * typo fails fast) and by the generator. Elements are stored little-endian, as the device sees
 * them (the model's device memory is little-endian, like every NVIDIA GPU).
 */
#include "config.h"
#include "cli_fill.h"

#include "cli_util.h"
#include "workload.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum fill_kind { F_ZERO, F_SEQ_U32, F_SEQ_F32, F_RAND_U32, F_RAND_F32, F_CONST_U32, F_CONST_F32,
                 F_FILE };

struct fill_spec {
    enum fill_kind kind;
    uint64_t seed;
    uint32_t u;       /* const-u32 value */
    float f;          /* const-f32 value */
    const char *path; /* file: */
};

static int ferr(char *err, size_t errlen, const char *fmt, ...) HD_CLI_PRINTF(3, 4);
static int ferr(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_fill(const char *s, struct fill_spec *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (strcmp(s, "zero") == 0) {
        out->kind = F_ZERO;
    } else if (strcmp(s, "seq-u32") == 0) {
        out->kind = F_SEQ_U32;
    } else if (strcmp(s, "seq-f32") == 0) {
        out->kind = F_SEQ_F32;
    } else if (strncmp(s, "rand-u32:", 9) == 0 || strncmp(s, "rand-f32:", 9) == 0) {
        out->kind = s[5] == 'u' ? F_RAND_U32 : F_RAND_F32;
        if (hd_config_parse_uint(s + 9, &out->seed) != 0)
            return ferr(err, errlen, "fill '%s': the seed must be an unsigned integer", s);
    } else if (strncmp(s, "const-u32:", 10) == 0) {
        out->kind = F_CONST_U32;
        char *end;
        errno = 0;
        long long v = strtoll(s + 10, &end, 0);
        if (end == s + 10 || *end || errno || v < INT32_MIN || v > (long long)UINT32_MAX)
            return ferr(err, errlen, "fill '%s': the value must be a 32-bit integer", s);
        out->u = (uint32_t)v;
    } else if (strncmp(s, "const-f32:", 10) == 0) {
        out->kind = F_CONST_F32;
        char *end;
        double d = strtod(s + 10, &end);
        if (end == s + 10 || *end)
            return ferr(err, errlen, "fill '%s': the value must be a number", s);
        out->f = (float)d;
    } else if (strncmp(s, "file:", 5) == 0 && s[5]) {
        out->kind = F_FILE;
        out->path = s + 5;
    } else {
        return ferr(err, errlen,
                    "unknown fill '%s' (zero, seq-u32, seq-f32, rand-u32:SEED, rand-f32:SEED, "
                    "const-u32:V, const-f32:V, file:PATH)", s);
    }
    return 0;
}

int hd_cli_fill_check(const char *fill, uint64_t bytes, char *err, size_t errlen)
{
    struct fill_spec f;
    if (parse_fill(fill, &f, err, errlen) != 0)
        return -1;
    if (f.kind != F_ZERO && f.kind != F_FILE && bytes % 4 != 0)
        return ferr(err, errlen, "fill '%s' writes 4-byte elements: %" PRIu64
                    " bytes is not a multiple of 4", fill, bytes);
    return 0;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int hd_cli_filler_open(struct hd_cli_filler *z, const char *fill, uint64_t bytes, char *err,
                       size_t errlen)
{
    memset(z, 0, sizeof *z);
    struct fill_spec f;
    if (hd_cli_fill_check(fill, bytes, err, errlen) != 0)
        return -1;
    parse_fill(fill, &f, err, errlen);
    z->kind = (int)f.kind;
    z->u = f.kind == F_CONST_F32 ? f32_bits(f.f) : f.u;
    z->left = z->bytes = bytes;
    z->path = f.path;
    hd_wl_rng_seed(&z->rng, f.seed);
    if (f.kind != F_FILE)
        return 0;
    z->fp = fopen(f.path, "rb");
    if (!z->fp)
        return ferr(err, errlen, "file:%s: cannot read: %s", f.path, strerror(errno));
    struct stat st;
    if (fstat(fileno(z->fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        hd_cli_filler_close(z);
        return ferr(err, errlen, "file:%s: is a directory", f.path);
    }
    return 0;
}

int hd_cli_filler_next(struct hd_cli_filler *z, uint8_t *dst, uint64_t n, char *err,
                       size_t errlen)
{
    if (n > z->left)
        n = z->left;
    z->left -= n;
    if (z->kind == F_ZERO) {
        memset(dst, 0, n);
        return 0;
    }
    if (z->kind == F_FILE) {
        uint64_t got = fread(dst, 1, n, z->fp);
        int bad = ferror(z->fp), e = errno;
        if (bad)
            return ferr(err, errlen, "file:%s: cannot read: %s", z->path, strerror(e));
        memset(dst + got, 0, n - got);
        if (z->left == 0 && got == n && fgetc(z->fp) != EOF)
            return ferr(err, errlen, "file:%s is larger than the buffer (%" PRIu64 " bytes)",
                        z->path, z->bytes);
        return 0;
    }
    for (uint64_t k = 0; k + 4 <= n; k += 4, z->i++) {
        uint32_t v = 0;
        switch ((enum fill_kind)z->kind) {
        case F_SEQ_U32: v = (uint32_t)z->i; break;
        case F_SEQ_F32: v = f32_bits((float)z->i); break;
        case F_RAND_U32: v = hd_wl_rng_u32(&z->rng); break;
        case F_RAND_F32: v = f32_bits(hd_wl_rng_float(&z->rng, 0.0f, 1.0f)); break;
        case F_CONST_U32:
        case F_CONST_F32: v = z->u; break;
        case F_ZERO:
        case F_FILE: break;
        }
        put_u32(dst + k, v);
    }
    return 0;
}

void hd_cli_filler_close(struct hd_cli_filler *z)
{
    if (z->fp)
        fclose(z->fp);
    z->fp = NULL;
}

/* {==== Printing ==== */
unsigned hd_cli_elem_size(const char *t)
{
    static const char *const names[] = {"u8", "s8", "x8", "u16", "s16", "x16", "u32", "s32",
                                        "x32", "f32", "u64", "s64", "x64", "f64"};
    static const unsigned sizes[] = {1, 1, 1, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(t, names[i]) == 0)
            return sizes[i];
    return 0;
}

static uint64_t load_le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < n; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

static void print_one(FILE *out, const char *t, const uint8_t *p, unsigned size)
{
    uint64_t v = load_le(p, size);
    if (t[0] == 'u') {
        fprintf(out, "%" PRIu64, v);
    } else if (t[0] == 'x') {
        fprintf(out, "0x%0*" PRIx64, (int)(2 * size), v);
    } else if (t[0] == 's') {
        int64_t s = size == 8 ? (int64_t)v : (int64_t)(v << (64 - 8 * size)) >> (64 - 8 * size);
        fprintf(out, "%" PRId64, s);
    } else if (size == 4) {
        float f;
        uint32_t u = (uint32_t)v;
        memcpy(&f, &u, sizeof f);
        fprintf(out, "%.9g", (double)f);
    } else {
        double d;
        memcpy(&d, &v, sizeof d);
        fprintf(out, "%.17g", d);
    }
}

void hd_cli_print_elems(FILE *out, const char *type, const uint8_t *data, uint64_t n)
{
    unsigned size = hd_cli_elem_size(type);
    for (uint64_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            fprintf(out, "%s  [%" PRIu64 "]", i ? "\n" : "", i);
        fputc(' ', out);
        print_one(out, type, data + i * size, size);
    }
    fputc('\n', out);
}
/* }==== */

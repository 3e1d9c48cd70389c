// SPDX-License-Identifier: MIT
// tb_stim.h - register-value stimulus shared by the regpat testbenches: lanes that follow a
// pattern per PAG group (uniform, strided with any stride including negative and wrapping past
// 2^32, random), and replay vectors recorded from a model run (`heddle cosim --record`, lines
// "pag_sel live lane0..lane31" in hex, '#' comments).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace tb {

struct Vec {
    unsigned pag;
    bool live;
    uint32_t lane[32];
};

enum Kind { UNI = 0, STR = 1, RND = 2, PART = 3 }; // PART: a progression with one lane off

// Fill group g of v (PAG lanes from pag_sel) with kind k.
inline void fill_group(Vec &v, unsigned g, Kind k, uint32_t base, uint32_t stride, Rng &r)
{
    unsigned p = hd_regpat_pag_lanes(v.pag);
    for (unsigned i = 0; i < p; i++) {
        uint32_t x = k == UNI ? base : base + i * stride;
        if (k == RND)
            x = r.next();
        v.lane[g * p + i] = x;
    }
    if (k == PART && p > 2) // lanes 0..j-1 in progression, lane j off by one: some differences equal, not all
        v.lane[g * p + 2 + r.below(p - 2)] += 1u;
    if (k == RND && p > 2 && v.lane[g * p + 1] - v.lane[g * p] == v.lane[g * p + 2] - v.lane[g * p + 1])
        v.lane[g * p + 2] ^= 1u; // make it surely random
}

inline Vec make(unsigned pag, Kind k, uint32_t base, uint32_t stride, Rng &r)
{
    Vec v{pag, true, {0}};
    unsigned groups = 32 / hd_regpat_pag_lanes(pag);
    for (unsigned g = 0; g < groups; g++)
        fill_group(v, g, k, base + g * 1000u, stride, r);
    return v;
}

// The directed set: every PAG (and the reserved select 3), all equal, arithmetic progressions
// (stride 1, -1, large), wrap-around past 2^32, mixed groups, random, dead.
inline std::vector<Vec> directed(Rng &r)
{
    std::vector<Vec> out;
    for (unsigned pag = 0; pag < 4; pag++) {
        out.push_back(make(pag, UNI, 0, 0, r));
        out.push_back(make(pag, UNI, 0xdeadbeefu, 0, r));
        out.push_back(make(pag, STR, 0, 1, r));
        out.push_back(make(pag, STR, 100, 0xffffffffu, r));
        out.push_back(make(pag, STR, 0xfffffff0u, 4, r)); // wraps through 0
        out.push_back(make(pag, STR, 0x80000000u, 0x10000000u, r));
        out.push_back(make(pag, RND, 0, 0, r));
        out.push_back(make(pag, PART, 3, 5, r));
        Vec dead = make(pag, STR, 7, 3, r);
        dead.live = false;
        out.push_back(dead);
        if (pag < 2) { // groups of different kinds
            Vec m = make(pag, UNI, 5, 0, r);
            fill_group(m, 1, STR, 9, 2, r);
            out.push_back(m);
            Vec m2 = make(pag, STR, 5, 1, r);
            fill_group(m2, 1, RND, 0, 0, r);
            out.push_back(m2);
        }
    }
    return out;
}

inline Vec random_vec(Rng &r)
{
    Vec v{r.below(4), r.below(16) != 0, {0}};
    unsigned groups = 32 / hd_regpat_pag_lanes(v.pag);
    Kind whole = static_cast<Kind>(r.below(4));
    for (unsigned g = 0; g < groups; g++) {
        Kind k = r.below(4) == 0 ? static_cast<Kind>(r.below(4)) : whole;
        uint32_t stride = r.below(2) ? r.below(9) - 4u : r.next();
        fill_group(v, g, k, r.below(2) ? r.below(64) : r.next(), stride, r);
    }
    return v;
}

inline bool load_replay(const std::string &path, std::vector<Vec> &out)
{
    FILE *f = std::fopen(path.c_str(), "r");
    if (!f)
        return false;
    char line[1024];
    while (std::fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        Vec v{0, true, {0}};
        unsigned live = 1;
        int used = 0, off = 0;
        if (std::sscanf(line, "%u %u%n", &v.pag, &live, &used) != 2)
            continue;
        off = used;
        bool ok = true;
        for (unsigned l = 0; l < 32 && ok; l++) {
            ok = std::sscanf(line + off, "%x%n", &v.lane[l], &used) == 1;
            off += used;
        }
        v.live = live != 0;
        if (ok)
            out.push_back(v);
    }
    std::fclose(f);
    return true;
}

} // namespace tb

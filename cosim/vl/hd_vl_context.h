// SPDX-License-Identifier: MIT
// hd_vl_context.h - the Verilator context of one co-simulated block instance: a
// VerilatedContext that also remembers the first assertion that failed in the current step
// (issue 16 item 4: an SVA failure fails the co-simulation with a located message).
// The co-simulation libraries build the Verilator runtime with VL_USER_STOP: their vl_stop()
// (hd_vl_stop.cpp), which a failing `$error` of an assertion reaches, records file and line
// here instead of stopping the process; the glue turns them into the assertion's name.
#ifndef HD_VL_CONTEXT_H
#define HD_VL_CONTEXT_H

#include <cctype>
#include <fstream>
#include <string>
#include <verilated.h>

namespace hd_vl {

class Context : public VerilatedContext {
  public:
    std::string file;    // of the first failure since clear(); empty: none
    int line = 0;
    std::string message; // "HdName (rtl/.../x.sv:123)" once resolved
    void clear()
    {
        file.clear();
        line = 0;
    }
};

// "HdName (file:line)": the assertion label that the HD_ASSERT macro invocation on that source
// line names (rtl/include/hd_assert.svh), or "at file:line" when the line cannot be read.
inline std::string assertion_name(const std::string &file, int line)
{
    std::ifstream in(file);
    std::string text;
    for (int n = 0; n < line && std::getline(in, text); n++) {
    }
    std::string where = file + ":" + std::to_string(line);
    for (const std::string macro : {"HD_ASSERT_KNOWN(", "HD_ASSERT("}) {
        std::string::size_type at = text.find(macro);
        if (at == std::string::npos)
            continue;
        at += macro.size();
        while (at < text.size() && text[at] == ' ')
            at++;
        std::string name;
        while (at < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_'))
            name += text[at++];
        if (!name.empty())
            return name + " (" + where + ")";
    }
    return "at " + where;
}

} // namespace hd_vl

#endif

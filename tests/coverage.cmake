# SPDX-License-Identifier: MIT
# coverage.cmake - functional coverage (issue 16 item 2; model/hw/hd_cover.h, rtl/<b>/<b>_cover.def).
# Every testbench CTest (tests/cosim.cmake) already fails when a declared bin is never hit; here:
# - coverage_declared: every block declares its bins beside its ports.def;
# - cosim_coverage_sgemm: `heddle cosim --coverage` reports the bins summed over the SMs, and the
#   co-simulation drives dead registers (regpat_comp's dead bin counted, not 0);
# - cosim_coverage_in_loop: the same for the blocks in the timing loop (save/restore under
#   --stress), the packer's full segments counted.
add_test(NAME coverage_declared
         COMMAND sh -c "rc=0; for d in ${CMAKE_SOURCE_DIR}/rtl/*/; do b=$(basename $d); test -f $d/\${b}_ports.def || continue; test -f $d/\${b}_cover.def || { echo \"rtl/\$b: no \${b}_cover.def\"; rc=1; }; done; exit $rc")
if(TARGET hd_cosim_vl)
  add_test(NAME cosim_coverage_sgemm
           COMMAND heddle cosim --blocks regpat sgemm --sms 0 --coverage)
  set_tests_properties(cosim_coverage_sgemm PROPERTIES TIMEOUT 300
    PASS_REGULAR_EXPRESSION "coverage regpat_comp \\(sgemm, [0-9]+ instances summed[^\n]*\n([^\n]*\n)* +[1-9][0-9]*  dead +a dead register \\(live_i = 0\\)"
    FAIL_REGULAR_EXPRESSION "MISMATCH")
  add_test(NAME cosim_coverage_in_loop
           COMMAND heddle cosim --blocks regpat sgemm --in-loop --stress 500 --sms 0 --coverage)
  set_tests_properties(cosim_coverage_in_loop PROPERTIES TIMEOUT 300
    PASS_REGULAR_EXPRESSION "coverage ctx_packer \\(sgemm, [0-9]+ instances summed[^\n]*\n([^\n]*\n)* +[1-9][0-9]*  seg_full "
    FAIL_REGULAR_EXPRESSION "MISMATCH")
endif()

# Tiers (tests/CMakeLists.txt, docs/testing.md): these in CI, the rest in the full tier.
hd_tier(ci "^coverage_declared$" "^cosim_coverage_sgemm$")

# SPDX-License-Identifier: MIT
# RTL-internal signals in the co-simulation's FST (issue 16 item 5, docs/verification.md
# "Waveforms with internal signals"): `heddle cosim --fst F --fst-internal B[,B]|all` adds the
# internal signals of blocks B's RTL instances under cosim.<inst>.int beside the ports, and a
# .gtkw group per instance; without the option the FST holds none; an unknown block is a usage
# error. Checked with tests/cosim/fstsig.c (fstapi's reader): a named internal signal is present
# and takes two values (toggles).
if(NOT TARGET heddle OR NOT TARGET hd_cosim_vl OR NOT HD_COSIM_INTERNAL)
  return()
endif()
add_executable(hd_fstsig ${CMAKE_CURRENT_SOURCE_DIR}/cosim/fstsig.c)
target_link_libraries(hd_fstsig PRIVATE hd_cosim)
set(D ${CMAKE_CURRENT_BINARY_DIR})
set(S $<TARGET_FILE:hd_fstsig>)
# Lockstep at context samples: regpat_comp of SM 0 (the only SM with RTL) has its stage-1 flops
# (valid_q, pag_q, the 31 lane differences diff_q) beside its ports; no other instance has any.
add_test(NAME cosim_fst_internal
         COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat reduction --sms 0 --fst ${D}/fint.fst --window 1000:3000 --fst-internal regpat_comp && ${S} ${D}/fint.fst cosim.sm0_regpat_comp.int.valid_q && ${S} ${D}/fint.fst cosim.sm0_regpat_comp.int.diff_q && ${S} ${D}/fint.fst --int-scopes 1 && grep -q '^-sm0_regpat_comp internal' ${D}/fint.gtkw && grep -q '^cosim.sm0_regpat_comp.int.diff_q.991:0.$' ${D}/fint.gtkw")
set_tests_properties(cosim_fst_internal PROPERTIES TIMEOUT 300)
# The same run without the option: no internal signal anywhere (the plain models ran).
add_test(NAME cosim_fst_internal_off
         COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat reduction --sms 0 --fst ${D}/fnoint.fst --window 1000:3000 && ${S} ${D}/fnoint.fst --int-scopes 0 && ! ${S} ${D}/fnoint.fst cosim.sm0_regpat_comp.int.valid_q && ! grep -q '^-.* internal$' ${D}/fnoint.gtkw")
set_tests_properties(cosim_fst_internal_off PROPERTIES TIMEOUT 300)
# Blocks in the timing loop (cosim_hw.c): the context packer, made at SM 0's first save (declared
# late in the FST), shows its word counter cnt_q; the save/restore controller's FSM state_q equals
# its output state_o (assign state_o = state_q) at every clock edge, so internal values are
# sampled in the same cycle as the ports; every instance is still there.
add_test(NAME cosim_in_loop_fst_internal
         COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat sgemm --in-loop --stress 500 --sms 0 --fst ${D}/fint_loop.fst --window 1000:3000 --fst-internal ctx_packer,ctx_ctl,regpat_comp && ${S} ${D}/fint_loop.fst cosim.sm0_ctx_packer.int.cnt_q && ${S} ${D}/fint_loop.fst --equal cosim.sm0_ctx_ctl.int.state_q cosim.sm0_ctx_ctl.rtl.state_o && ${S} ${D}/fint_loop.fst --int-scopes 3 && $<TARGET_FILE:hd_fstcheck> ${D}/fint_loop.fst --instances 75")
set_tests_properties(cosim_in_loop_fst_internal PROPERTIES TIMEOUT 300)
# Unpacked arrays (one signal per element) and generate blocks (FST scopes below int): SM 0's
# register-file allocation table, its candidate starts cstart(k) and g_cand[k].exists.
add_test(NAME cosim_in_loop_fst_internal_arrays
         COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks alloc_table --in-loop sgemm --sms 0 --fst ${D}/fint_at.fst --window 0:5000 --fst-internal alloc_table && ${S} ${D}/fint_at.fst 'cosim.sm0_rf_alloc_table.int.cstart(1)' && ${S} ${D}/fint_at.fst 'cosim.sm0_rf_alloc_table.int.g_cand[1].exists' && ${S} ${D}/fint_at.fst --int-scopes 2")
set_tests_properties(cosim_in_loop_fst_internal_arrays PROPERTIES TIMEOUT 300)
# Many instances: a 30-SM GPU with every block's internals (all 90 instances run the RTL).
add_test(NAME cosim_fst_internal_30sm
         COMMAND ${CMAKE_COMMAND} -E env sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat vecadd --set gpu.num_sms=30 --fst ${D}/fint30.fst --window 0:2000 --fst-internal all && $<TARGET_FILE:hd_fstcheck> ${D}/fint30.fst --instances 90 && ${S} ${D}/fint30.fst --int-scopes 90")
set_tests_properties(cosim_fst_internal_30sm PROPERTIES TIMEOUT 300)
# Usage errors (exit 2): an unknown block names the known ones; the option needs --fst; a block
# this run does not co-simulate is refused rather than silently missing from the file.
add_test(NAME cosim_fst_internal_unknown
         COMMAND sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat vecadd --fst ${D}/fbad.fst --window 0:10 --fst-internal regpat_comp,nosuch; echo rc=$?")
set_tests_properties(cosim_fst_internal_unknown PROPERTIES TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "--fst-internal: no hardware block 'nosuch' \\(blocks: [a-z_, ]*regpat_comp.*rc=2")
add_test(NAME cosim_fst_internal_needs_fst
         COMMAND sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat vecadd --fst-internal regpat_comp; echo rc=$?")
set_tests_properties(cosim_fst_internal_needs_fst PROPERTIES TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "--fst-internal needs --fst FILE.*rc=2")
add_test(NAME cosim_fst_internal_not_here
         COMMAND sh -c "$<TARGET_FILE:heddle> cosim --blocks regpat vecadd --fst ${D}/fbad.fst --window 0:10 --fst-internal alloc_table; echo rc=$?")
set_tests_properties(cosim_fst_internal_not_here PROPERTIES TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "--fst-internal alloc_table: not co-simulated here.*rc=[1-9]")

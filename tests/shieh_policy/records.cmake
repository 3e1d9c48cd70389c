# SPDX-License-Identifier: MIT
# records.cmake - what a Shieh-family policy's preemption records carry for Fig 4.2 and 4.4
# (ctx_preempt.c, timing_stats.h): pathfinder+preempter, the preempter at cycle 23000 (late in
# pathfinder's second launch, whose CTAs have not finished; its first launch's have), L_c 3000,
# chimera_plus. With the finished-TB statistics per kernel (the default, Shieh L236) the
# predictor knows the drain time from the first launch's CTAs and the policy drains; every
# drained CTA has both estimates and its true drain time, the true time within the request's
# window and the estimates within 50 % of it (Shieh's predictor) and off by more than 50 %
# (Chimera's residency estimate: the CTAs run slower beside the preempter); the utilisation
# window is exactly [signal, freed), the draining victims keep registers busy in it, and the
# victim held registers at the request. With [context] kstats_per_launch = true the launch has
# no finished CTA, nothing can be estimated and the policy switches instead (no drain).
# cmake -DHEDDLE=... -DOUT=dir -P records.cmake
set(common run --mix pathfinder+preempter --arrive preempter@23000:1
    --set context.latency_bound=3000 --set context.preempt_policy=chimera_plus
    --set sm.allocator=aligned)
file(MAKE_DIRECTORY ${OUT})
foreach(mode kernel launch)
  set(pl false)
  if(mode STREQUAL launch)
    set(pl true)
  endif()
  execute_process(COMMAND ${HEDDLE} ${common} --set context.kstats_per_launch=${pl}
                          --stats ${OUT}/rec_${mode}.json --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "VERIFIED \\(2 of 2")
    message(FATAL_ERROR "${mode}: exit ${rc}\n${out}${err}")
  endif()
  file(READ ${OUT}/rec_${mode}.json j)
  string(JSON n LENGTH "${j}" timing preemptions)
  if(n EQUAL 0)
    message(FATAL_ERROR "${mode}: no preemption record")
  endif()
  math(EXPR last "${n} - 1")
  set(drained_total 0)
  foreach(i RANGE ${last})
    foreach(k signal freed drained util_cycles util_regs regs_at_signal)
      string(JSON ${k} GET "${j}" timing preemptions ${i} ${k})
    endforeach()
    string(JSON nd LENGTH "${j}" timing preemptions ${i} drains)
    if(NOT nd EQUAL drained)
      message(FATAL_ERROR "${mode} record ${i}: ${drained} drained but ${nd} drain observations")
    endif()
    math(EXPR drained_total "${drained_total} + ${drained}")
    if(freed GREATER 0)
      math(EXPR win "${freed} - ${signal}")
      if(NOT util_cycles EQUAL win)
        message(FATAL_ERROR "${mode} record ${i}: utilisation over ${util_cycles} cycles, the window is ${win}")
      endif()
    endif()
    if(regs_at_signal LESS_EQUAL 0 OR regs_at_signal GREATER 1 OR util_regs LESS 0 OR util_regs GREATER 1)
      message(FATAL_ERROR "${mode} record ${i}: fractions out of range: at signal ${regs_at_signal}, during ${util_regs}")
    endif()
    if(nd GREATER 0)
      if(util_regs LESS_EQUAL 0)
        message(FATAL_ERROR "${mode} record ${i}: draining victims but no register busy during the window")
      endif()
      math(EXPR dl "${nd} - 1")
      foreach(d RANGE ${dl})
        string(JSON es GET "${j}" timing preemptions ${i} drains ${d} 0)
        string(JSON ec GET "${j}" timing preemptions ${i} drains ${d} 1)
        string(JSON act GET "${j}" timing preemptions ${i} drains ${d} 2)
        if(es STREQUAL "null" OR ec STREQUAL "null" OR act STREQUAL "null")
          message(FATAL_ERROR "${mode} record ${i} drain ${d}: an estimate or the true time is missing (${es}, ${ec}, ${act})")
        endif()
        if(act GREATER win)
          message(FATAL_ERROR "${mode} record ${i} drain ${d}: true drain ${act} beyond the window ${win}")
        endif()
        math(EXPR errs "(${es} - ${act}) * 100 / ${act}")
        math(EXPR errc "(${ec} - ${act}) * 100 / ${act}")
        if(errs GREATER 50 OR errs LESS -50 OR (errc LESS_EQUAL 50 AND errc GREATER_EQUAL -50))
          message(FATAL_ERROR "${mode} record ${i} drain ${d}: Shieh's estimate ${es} (${errs} %), Chimera's ${ec} (${errc} %), true ${act}")
        endif()
        message(STATUS "${mode} record ${i}: drain estimated ${es} (Shieh) / ${ec} (Chimera), true ${act}; registers ${util_regs} busy during, ${regs_at_signal} at the request")
      endforeach()
    endif()
  endforeach()
  set(drained_${mode} ${drained_total})
endforeach()
if(drained_kernel EQUAL 0 OR NOT drained_launch EQUAL 0)
  message(FATAL_ERROR "per-kernel statistics drained ${drained_kernel} CTAs, per-launch ${drained_launch}: expected some and none")
endif()

// SPDX-License-Identifier: MIT
/**
 * haws_warp_ctl - HAWS's warp controller of one warp, with the hint-mode fetch-PC generator and
 * the return fetch filter (Gong thesis ch. 5 §5.2.4-5.2.6, L1021-L1076; digest §2.6-2.7, §3.5;
 * docs/blocks/haws.md §4 and "Shadow stack and warp controller blocks"). The behaviour is
 * model/timing/sm_ahead.c's per-warp runtime, one edge per model cycle:
 *
 *  - reset_i: the warp slot was rebound: the episode is dropped (clear_o).
 *  - The fetch filter (flt_v_i, the in-order issue's next PC), given the RCU's head: in normal
 *    mode or with a popped branch due, "none". In hint mode the head issuing again ends hint
 *    mode (return mode; a PC other than the stall point discards the episode). With the RCU
 *    empty the episode ends. A head whose walk step is behind the in-order step, or at it with
 *    another PC, discards (mism_o: the in-order path differs); one ahead of it: "none"; a branch
 *    head is popped and executes again in order; a head not yet written back: "wait"; otherwise
 *    the result is committed: popped, the in-order step advances, "skip" (written in place: no
 *    issue slot) or "copy" (renamed: a copy takes an issue slot); the last one ends the episode.
 *  - stepped_i: an in-order step in return mode advances the in-order step; with the RCU empty
 *    the episode ends.
 *  - trig_v_i: normal mode with an empty RCU: hint mode at trig_pc_i, its hint window latched
 *    (trig_ok_o: the shadow stack copies the real top), walk step 1, a new episode number.
 *  - The walk (hint mode, not parked): wk_skip_n_i skips, then a run-ahead issue (its step, its
 *    hint's rename bit, the load tag episode << 8 | RCU index, and whether the window selects
 *    it), then wk_park_i parks the chain at the stall point.
 *
 * The window: bit i is PC trig_first_i + i; trig_first_i is the stall point's next PC, or with a
 * back-edge window ([haws] back_edges, docs/blocks/haws.md §3) the innermost loop's first PC
 * (the PCs after the stall point, then through the back edge the loop's PCs before it; off_q is
 * the bit of the stall point's next PC). The fetch-PC generator: in hint mode the next PC to
 * fetch is the window's first selected, reachable PC after the last one issued in that walk
 * order (the thesis's hint offset from the stall point, L998); fetch_v_o says one exists. Registered outputs: the filter's answer, pop_o, clear_o,
 * mism_o, trig_ok_o and iss_* one cycle after their request (0 otherwise); the state after the
 * edge (stall PC, steps and episode number read 0 in normal mode). Bit-exact C reference: tables/haws_warp_ctl.c; ports: haws_warp_ctl_ports.def.
 *
 * Parameters (configs/rtl/haws_warp_ctl.ini):
 *   PCW  PC bits;  Win  window bits;  LW  $clog2(Win + 1);  SW  step bits;  NW  RCU count bits;
 *   GW   episode-number bits
 */
`include "../include/hd_assert.svh"

module haws_warp_ctl #(
  parameter int unsigned PCW = 32,
  parameter int unsigned Win = 64,
  parameter int unsigned LW  = 7,
  parameter int unsigned SW  = 8,
  parameter int unsigned NW  = 4,
  parameter int unsigned GW  = 16
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            reset_i,
  input  logic [NW-1:0]   rcu_n_i,
  input  logic [SW-1:0]   head_step_i,
  input  logic [PCW-1:0]  head_pc_i,
  input  logic            head_br_i,
  input  logic            head_ready_i,
  input  logic            head_ren_i,
  input  logic            flt_v_i,
  input  logic [PCW-1:0]  flt_pc_i,
  input  logic            flt_mask_ok_i,
  input  logic            stepped_i,
  input  logic            trig_v_i,
  input  logic [PCW-1:0]  trig_pc_i,
  input  logic [LW-1:0]   trig_len_i,
  input  logic [PCW-1:0]  trig_first_i,
  input  logic [Win-1:0]  trig_sel_i,
  input  logic [Win-1:0]  trig_ren_i,
  input  logic [Win-1:0]  trig_reach_i,
  input  logic [SW-1:0]   wk_skip_n_i,
  input  logic            wk_iss_v_i,
  input  logic [PCW-1:0]  wk_iss_pc_i,
  input  logic            wk_park_i,
  output logic            flt_v_o,
  output logic [1:0]      flt_o,
  output logic            pop_o,
  output logic            clear_o,
  output logic            mism_o,
  output logic            trig_ok_o,
  output logic            iss_v_o,
  output logic            iss_ok_o,
  output logic            iss_ren_o,
  output logic [SW-1:0]   iss_step_o,
  output logic [GW+7:0]   iss_tag_o,
  output logic [1:0]      mode_o,
  output logic            parked_o,
  output logic            branch_due_o,
  output logic [PCW-1:0]  stall_pc_o,
  output logic [SW-1:0]   step_o,
  output logic [SW-1:0]   io_step_o,
  output logic [GW-1:0]   gen_o,
  output logic            fetch_v_o,
  output logic [PCW-1:0]  fetch_pc_o
);

  localparam logic [1:0] ModeIdle = 2'd0, ModeHint = 2'd1, ModeRet = 2'd2;
  localparam logic [1:0] FltNone = 2'd0, FltWait = 2'd1, FltSkip = 2'd2, FltCopy = 2'd3;

  logic [1:0]     mode_q, mode_d;
  logic           parked_q, parked_d, bdue_q, bdue_d;
  logic [PCW-1:0] stall_q, stall_d;
  logic [SW-1:0]  step_q, step_d, io_q, io_d;
  logic [GW-1:0]  gen_q, gen_d;
  logic [LW-1:0]  len_q, len_d, scan_q, scan_d, off_q, off_d;
  logic           wrap_q, wrap_d;
  logic [Win-1:0] sel_q, sel_d, ren_q, ren_d, reach_q, reach_d;

  logic [NW-1:0]  n;
  logic [1:0]     flt_d;
  logic           pop_d, clear_d, mism_d, trig_ok_d, done;
  logic           iss_v_d, iss_ok_d, iss_ren_d;
  logic [SW-1:0]  iss_step_d;
  logic [GW+7:0]  iss_tag_d;
  logic [PCW-1:0] idx;

  always_comb begin
    mode_d     = mode_q;
    parked_d   = parked_q;
    bdue_d     = bdue_q;
    stall_d    = stall_q;
    step_d     = step_q;
    io_d       = io_q;
    gen_d      = gen_q;
    len_d      = len_q;
    scan_d     = scan_q;
    off_d      = off_q;
    wrap_d     = wrap_q;
    sel_d      = sel_q;
    ren_d      = ren_q;
    reach_d    = reach_q;
    n          = rcu_n_i;
    flt_d      = FltNone;
    pop_d      = 1'b0;
    clear_d    = 1'b0;
    mism_d     = 1'b0;
    trig_ok_d  = 1'b0;
    done       = 1'b0;
    iss_v_d    = 1'b0;
    iss_ok_d   = 1'b0;
    iss_ren_d  = 1'b0;
    iss_step_d = '0;
    iss_tag_d  = '0;
    idx        = '0;
    // The slot was rebound.
    if (reset_i) begin
      mode_d   = ModeIdle;
      parked_d = 1'b0;
      bdue_d   = 1'b0;
      n        = '0;
      clear_d  = 1'b1;
    end
    // The fetch filter.
    if (flt_v_i && mode_d != ModeIdle && !bdue_d) begin
      if (mode_d == ModeHint) begin
        mode_d = ModeRet;
        if (flt_pc_i != stall_d) begin
          mism_d = 1'b1;
          done   = 1'b1;
        end
      end
      if (!done && n == '0) begin
        done = 1'b1;
      end
      if (!done) begin
        if (head_step_i < io_d || (head_step_i == io_d && head_pc_i != flt_pc_i)) begin
          mism_d = 1'b1;
          done   = 1'b1;
        end else if (head_step_i == io_d) begin
          if (head_br_i) begin
            pop_d  = 1'b1;
            n      = n - 1'b1;
            bdue_d = 1'b1;
          end else if (!head_ready_i) begin
            flt_d = FltWait;
          end else if (!flt_mask_ok_i) begin
            mism_d = 1'b1;
            done   = 1'b1;
          end else begin
            pop_d = 1'b1;
            n     = n - 1'b1;
            io_d  = io_d + 1'b1;
            flt_d = head_ren_i ? FltCopy : FltSkip;
            done  = n == '0;
          end
        end
      end
      if (done) begin // the episode ends (discard)
        mode_d   = ModeIdle;
        parked_d = 1'b0;
        bdue_d   = 1'b0;
        n        = '0;
        clear_d  = 1'b1;
      end
    end
    // The in-order step.
    if (stepped_i && mode_d == ModeRet) begin
      io_d   = io_d + 1'b1;
      bdue_d = 1'b0;
      if (n == '0) begin
        mode_d   = ModeIdle;
        parked_d = 1'b0;
        clear_d  = 1'b1;
      end
    end
    // The trigger.
    if (trig_v_i && mode_d == ModeIdle && n == '0) begin
      mode_d    = ModeHint;
      parked_d  = 1'b0;
      bdue_d    = 1'b0;
      stall_d   = trig_pc_i;
      len_d     = trig_len_i;
      sel_d     = trig_sel_i;
      ren_d     = trig_ren_i;
      reach_d   = trig_reach_i;
      off_d     = LW'(trig_pc_i + PCW'(1) - trig_first_i);
      scan_d    = off_d;
      wrap_d    = 1'b0;
      step_d    = SW'(1);
      io_d      = '0;
      gen_d     = gen_d + 1'b1;
      trig_ok_d = 1'b1;
    end
    // The walk.
    if (mode_d == ModeHint && !parked_d) begin
      step_d = step_d + wk_skip_n_i;
      if (wk_iss_v_i) begin
        idx        = wk_iss_pc_i - stall_d - PCW'(1) + PCW'(off_d); // PC - first
        iss_v_d    = 1'b1;
        iss_step_d = step_d;
        iss_tag_d  = {gen_d, 8'(n)};
        step_d     = step_d + 1'b1;
        for (int j = 0; j < Win; j++) begin
          if (idx == PCW'(j) && LW'(j) < len_d && sel_d[j] && reach_d[j]) begin
            iss_ok_d  = 1'b1;
            iss_ren_d = ren_d[j];
            scan_d    = LW'(j + 1);
            wrap_d    = LW'(j) < off_d;
          end
        end
      end
      if (wk_park_i) begin
        parked_d = 1'b1;
      end
    end
  end

  // The fetch-PC generator, on the state after the edge, in walk order: the lowest candidate
  // from the scan position to the window's end (wrapped: to the stall point's bit), else (not
  // wrapped) the lowest of a back-edge window's loop PCs before the stall point.
  logic           fetch_v_d, cand_a, cand_b;
  logic [LW-1:0]  fetch_end, fetch_ja, fetch_jb, fetch_j;
  logic [PCW-1:0] fetch_pc_d;
  always_comb begin
    cand_a    = 1'b0;
    cand_b    = 1'b0;
    fetch_ja  = '0;
    fetch_jb  = '0;
    fetch_end = wrap_d ? off_d : len_d;
    for (int j = Win - 1; j >= 0; j--) begin
      if (LW'(j) >= scan_d && LW'(j) < fetch_end && LW'(j) < len_d && sel_d[j] && reach_d[j])
      begin
        cand_a   = 1'b1;
        fetch_ja = LW'(j);
      end
      if (!wrap_d && LW'(j) < off_d && LW'(j) < len_d && sel_d[j] && reach_d[j]) begin
        cand_b   = 1'b1;
        fetch_jb = LW'(j);
      end
    end
    fetch_v_d  = mode_d == ModeHint && !parked_d && (cand_a || cand_b);
    fetch_j    = cand_a ? fetch_ja : fetch_jb;
    fetch_pc_d = '0;
    if (fetch_v_d) begin
      fetch_pc_d = stall_d + PCW'(1) - PCW'(off_d) + PCW'(fetch_j);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_q       <= ModeIdle;
      parked_q     <= 1'b0;
      bdue_q       <= 1'b0;
      stall_q      <= '0;
      step_q       <= '0;
      io_q         <= '0;
      gen_q        <= '0;
      len_q        <= '0;
      scan_q       <= '0;
      off_q        <= '0;
      wrap_q       <= 1'b0;
      sel_q        <= '0;
      ren_q        <= '0;
      reach_q      <= '0;
      flt_v_o      <= 1'b0;
      flt_o        <= FltNone;
      pop_o        <= 1'b0;
      clear_o      <= 1'b0;
      mism_o       <= 1'b0;
      trig_ok_o    <= 1'b0;
      iss_v_o      <= 1'b0;
      iss_ok_o     <= 1'b0;
      iss_ren_o    <= 1'b0;
      iss_step_o   <= '0;
      iss_tag_o    <= '0;
      fetch_v_o    <= 1'b0;
      fetch_pc_o   <= '0;
    end else begin
      mode_q       <= mode_d;
      parked_q     <= parked_d;
      bdue_q       <= bdue_d;
      stall_q      <= stall_d;
      step_q       <= step_d;
      io_q         <= io_d;
      gen_q        <= gen_d;
      len_q        <= len_d;
      scan_q       <= scan_d;
      off_q        <= off_d;
      wrap_q       <= wrap_d;
      sel_q        <= sel_d;
      ren_q        <= ren_d;
      reach_q      <= reach_d;
      flt_v_o      <= flt_v_i;
      flt_o        <= flt_d;
      pop_o        <= pop_d;
      clear_o      <= clear_d;
      mism_o       <= mism_d;
      trig_ok_o    <= trig_ok_d;
      iss_v_o      <= iss_v_d;
      iss_ok_o     <= iss_ok_d;
      iss_ren_o    <= iss_ren_d;
      iss_step_o   <= iss_step_d;
      iss_tag_o    <= iss_tag_d;
      fetch_v_o    <= fetch_v_d;
      fetch_pc_o   <= fetch_pc_d;
    end
  end

  // The state outputs are the state flops, shown outside normal mode only (an idle warp's
  // outputs are all 0: model/hw/hw_inst.h's idle contract).
  logic busy;
  assign busy         = mode_q != ModeIdle;
  assign mode_o       = mode_q;
  assign parked_o     = parked_q;
  assign branch_due_o = bdue_q;
  assign stall_pc_o   = busy ? stall_q : '0;
  assign step_o       = busy ? step_q : '0;
  assign io_step_o    = busy ? io_q : '0;
  assign gen_o        = busy ? gen_q : '0;

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdHawsWarpCtlWidth, PCW >= 8 && PCW <= 64 && Win >= 1 && Win <= 64 &&
                                      Win < (1 << LW) && SW >= 4 && SW <= 32 && NW >= 1 &&
                                      NW <= 8 && GW >= 1 && GW <= 24)
  `HD_ASSERT_KNOWN(HdHawsWarpCtlModeKnown, mode_o, clk_i, rst_ni)
  `HD_ASSERT(HdHawsWarpCtlMode, mode_o != 2'd3, clk_i, rst_ni)
  `HD_ASSERT(HdHawsWarpCtlFltIdleZero, flt_v_o || flt_o == FltNone, clk_i, rst_ni)
  `HD_ASSERT(HdHawsWarpCtlParkedIdle, mode_o != ModeIdle || (!parked_o && !branch_due_o), clk_i,
             rst_ni)
  `HD_ASSERT(HdHawsWarpCtlBranchRet, !branch_due_o || mode_o == ModeRet, clk_i, rst_ni)
  `HD_ASSERT(HdHawsWarpCtlFetchHint, !fetch_v_o || (mode_o == ModeHint && !parked_o), clk_i,
             rst_ni)

endmodule

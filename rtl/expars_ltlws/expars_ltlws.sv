// SPDX-License-Identifier: MIT
/**
 * expars_ltlws - the counters of EXPARS's Lazy Two-Level Warp Scheduler, one per warp scheduler
 * (Yu et al. TACO 2018 §3.3.6, eq. 14; digest ../shared/reference/papers/expars.md §2.9, §3.1).
 *
 * Per warp a resident bit and an issued-instruction counter (CW bits, stopping at 2^CW - 1), the
 * resident count, the running sum of the resident warps' counters, the phase (lazy_q: phase 2)
 * and W_Opt. One request per edge while not busy: ADD clears the warp's counter (a warp taken
 * again without a removal gives its count back to the sum); ISSUE counts in phase 1; REMOVE in
 * phase 1 is the first warp to finish and starts eq. 14, W_Opt = floor(sum / Inst_Max) clamped
 * to max_i and then to at least 1, by a restoring divider, one quotient bit per edge (QW edges; a
 * quotient of 2^QW or more comes out as all ones, which the clamp makes max_i; Inst_Max = 0
 * gives the resident warps);
 * a REMOVE that empties the scheduler in phase 2 starts a new phase 1; PEEK reads a counter.
 * The answer (res_v_o, trig_o, cnt_o) is registered; lazy_o, wopt_o and nres_o show the state
 * with an answer (0 without one), busy_o the divider. Bit-exact C reference: tables/expars_ltlws.c; ports: expars_ltlws_ports.def.
 *
 * Parameters (configs/rtl/expars_ltlws.ini):
 *   W, WW  counters (the scheduler's warps) and warp-index bits;  CW  counter bits
 *   QW     W_Opt bits = WW + 1
 */
`include "../include/hd_assert.svh"

module expars_ltlws #(
  parameter int unsigned W  = 32,
  parameter int unsigned WW = 5,
  parameter int unsigned CW = 32,
  parameter int unsigned QW = 6
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          op_v_i,
  input  logic [1:0]    op_i,
  input  logic [WW-1:0] warp_i,
  input  logic [QW-1:0] max_i,
  output logic          res_v_o,
  output logic          busy_o,
  output logic          trig_o,
  output logic          lazy_o,
  output logic [QW-1:0] wopt_o,
  output logic [CW-1:0] cnt_o,
  output logic [WW:0]   nres_o
);
  `HD_ASSERT_INIT(HdExparsLtlwsWidths, W >= 2 && W <= (1 << WW) && QW == WW + 1 && CW >= 4 && CW <= 32)

  localparam int unsigned SW = CW + QW - 1;
  localparam int unsigned KW = $clog2(QW + 1);
  localparam logic [1:0] OpAdd = 2'd0, OpIssue = 2'd1, OpRemove = 2'd2;

  // the counters and the control state (reset)
  logic [CW-1:0] cnt_q [W];
  logic [W-1:0]  res_q, res_d;
  logic [WW:0]   nres_q, nres_d;
  logic [SW-1:0] sum_q, sum_d;
  logic          lazy_q, lazy_d, busy_q, busy_d;
  logic [QW-1:0] wopt_q, wopt_d;
  // the divider (written at the trigger before it is read while busy_q: no reset)
  logic [KW-1:0] k_q, k_d;
  logic [SW-1:0] rem_q, rem_d;
  logic [CW-1:0] d_q, d_d;
  logic [QW-1:0] q_q, q_d, dres_q, dres_d, max_q, max_d;
  logic          direct_q, direct_d;
  // the registered answer
  logic          res_v_q, res_v_d, trig_q, trig_d;
  logic [CW-1:0] cntr_q, cntr_d;
  // the counter write of this edge
  logic          cwe;
  logic [CW-1:0] cwv;

  logic          valid;
  logic [CW-1:0] cur;
  logic          cur_res;
  assign valid   = 32'(warp_i) < W;
  assign cur     = valid ? cnt_q[warp_i] : '0;
  assign cur_res = valid && res_q[warp_i];

  // one quotient bit: bit k_q - 1
  logic [KW-1:0] bi;
  logic [SW-1:0] dd;
  logic          ge;
  logic [QW-1:0] qn, r;
  assign bi = k_q - KW'(1);
  assign dd = SW'(d_q) << bi;
  assign ge = rem_q >= dd;
  assign qn = ge ? (q_q | (QW'(1) << bi)) : q_q;
  assign r  = direct_q ? dres_q : qn;
  logic [QW-1:0] rm; // at most max_q, then at least 1
  assign rm = (r > max_q) ? max_q : r;

  always_comb begin
    res_d    = res_q;
    nres_d   = nres_q;
    sum_d    = sum_q;
    lazy_d   = lazy_q;
    busy_d   = busy_q;
    wopt_d   = wopt_q;
    k_d      = k_q;
    rem_d    = rem_q;
    d_d      = d_q;
    q_d      = q_q;
    dres_d   = dres_q;
    max_d    = max_q;
    direct_d = direct_q;
    res_v_d  = 1'b0;
    trig_d   = 1'b0;
    cntr_d   = '0;
    cwe      = 1'b0;
    cwv      = '0;
    if (busy_q) begin
      if (ge) rem_d = rem_q - dd;
      q_d = qn;
      k_d = k_q - KW'(1);
      if (k_q == KW'(1)) begin
        busy_d  = 1'b0;
        wopt_d  = (rm == '0) ? QW'(1) : rm;
        lazy_d  = nres_q != '0;
        if (nres_q == '0) sum_d = '0;
        res_v_d = 1'b1;
        trig_d  = 1'b1;
        cntr_d  = d_q;
      end
    end else if (op_v_i) begin
      res_v_d = 1'b1;
      if (valid) begin
        cntr_d = cur;
        unique case (op_i)
          OpAdd: begin
            if (cur_res) sum_d = sum_q - SW'(cur);
            else nres_d = nres_q + 1'b1;
            res_d[warp_i] = 1'b1;
            cwe    = 1'b1;
            cwv    = '0;
            cntr_d = '0;
          end
          OpIssue: begin
            if (cur_res && !lazy_q && cur != '1) begin
              cwe    = 1'b1;
              cwv    = cur + 1'b1;
              cntr_d = cur + 1'b1;
              sum_d  = sum_q + 1'b1;
            end
          end
          OpRemove: begin
            if (cur_res) begin
              res_d[warp_i] = 1'b0;
              nres_d = nres_q - 1'b1;
              if (!lazy_q) begin // the first warp finished: eq. 14
                d_d      = cur;
                rem_d    = sum_q;
                q_d      = '0;
                k_d      = KW'(QW);
                max_d    = max_i;
                direct_d = cur == '0;
                dres_d   = QW'(nres_q);
                busy_d   = 1'b1;
                res_v_d  = 1'b0;
                cntr_d   = '0;
              end else if (nres_q == (WW+1)'(1)) begin // the scheduler is empty: a new phase 1
                lazy_d = 1'b0;
                sum_d  = '0;
              end
            end
          end
          default: ; // PEEK
        endcase
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned i = 0; i < W; i++) cnt_q[i] <= '0;
      res_q   <= '0;
      nres_q  <= '0;
      sum_q   <= '0;
      lazy_q  <= 1'b0;
      busy_q  <= 1'b0;
      wopt_q  <= '0;
      res_v_q <= 1'b0;
      trig_q  <= 1'b0;
      cntr_q  <= '0;
    end else begin
      if (cwe) cnt_q[warp_i] <= cwv;
      res_q   <= res_d;
      nres_q  <= nres_d;
      sum_q   <= sum_d;
      lazy_q  <= lazy_d;
      busy_q  <= busy_d;
      wopt_q  <= wopt_d;
      res_v_q <= res_v_d;
      trig_q  <= trig_d;
      cntr_q  <= cntr_d;
    end
  end

  always_ff @(posedge clk_i) begin
    k_q      <= k_d;
    rem_q    <= rem_d;
    d_q      <= d_d;
    q_q      <= q_d;
    dres_q   <= dres_d;
    max_q    <= max_d;
    direct_q <= direct_d;
  end

  assign res_v_o = res_v_q;
  assign busy_o  = busy_q;
  assign trig_o  = trig_q;
  assign cnt_o   = cntr_q;
  // the state after the answer's request, shown with the answer (0 otherwise: idle is quiet)
  assign lazy_o  = res_v_q && lazy_q;
  assign wopt_o  = res_v_q ? wopt_q : '0;
  assign nres_o  = res_v_q ? nres_q : '0;

  // no request is taken while the divider runs; W_Opt is at least 1 once phase 2 starts
  `HD_ASSERT(HdExparsLtlwsBusy, busy_q |=> !res_v_q || trig_q, clk_i, rst_ni)
  `HD_ASSERT(HdExparsLtlwsWopt, trig_q |-> wopt_q != '0, clk_i, rst_ni)
  `HD_ASSERT_KNOWN(HdExparsLtlwsKnown, {res_v_o, busy_o, trig_o, lazy_o, wopt_o, cnt_o, nres_o},
                   clk_i, rst_ni)
endmodule

// SPDX-License-Identifier: MIT
/**
 * ccbp_ctrl - CCBP's controller, one per GPU in the CCBP logic (Lin thesis §4.5.2, digest §2.17
 * Algorithm 1, §3.15): Algorithm 1 (Dominant Resource Fairness over CTAs, NoC and DRAM shares)
 * as an FSM over its profile tables, and the share-to-quota conversion at the read port.
 *
 * The firmware writes the tables (per application and CTA count n = 1..NM: own curve, and
 * three resource tables, other / request crossbar / reply crossbar, each entry a Q8.24 ratio
 * resource / own, or a Q8.16 curve point where no ratio is read; class, nmax, dominant-share
 * divisor D, quota factor, per-CTA demands) and the SM's capacities and sustainable shares, then pulses start_i. Each iteration
 * takes `step` cycles: the last cycle of the period does it (the combinational iteration is a
 * multicycle path of `step` cycles). One iteration: the unfinished application k with the
 * smallest x_k / D_k (cross products; a tie keeps the lower index); NBI / DBI: own share + 1 %,
 * a CTA more when the own curve at the current CTAs is below it, each resource share = own x
 * its ratio (its curve when own is 0 there); LS: a CTA more, shares from the curves; CanAlloc
 * (CTAs <= nmax, per resource sum CTAs x demand <= capacity, per crossbar and for DRAM the sum
 * of the shares <= the sustainable share) commits it, or k is finished. No application left:
 * done.
 *
 * Within an edge: the start, or (running) the iteration counter and the iteration, on the
 * registers before the edge; the write lands at the edge; the read returns a result after the
 * edge (the write and the iteration included). Registered outputs: all, one cycle
 * after their cause; 0 in a cycle without a result. Bit-exact C reference: tables/ccbp_ctrl.c;
 * ports: ccbp_ctrl_ports.def.
 *
 * Parameters (configs/rtl/ccbp_ctrl.ini):
 *   A  applications (a power of two);  AW  $clog2(A);  NM  CTA counts in the tables;
 *   NW  $clog2(NM + 2)
 */
`include "../include/hd_assert.svh"

module ccbp_ctrl #(
  parameter int unsigned A  = 4,
  parameter int unsigned AW = 2,
  parameter int unsigned NM = 32,
  parameter int unsigned NW = 6
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          wr_v_i,
  input  logic [3:0]    wr_sel_i,
  input  logic [AW-1:0] wr_app_i,
  input  logic [NW-1:0] wr_idx_i,
  input  logic [31:0]   wr_data_i,
  input  logic          start_i,
  input  logic          rd_v_i,
  input  logic [AW-1:0] rd_app_i,
  input  logic [2:0]    rd_sel_i,
  output logic          busy_o,
  output logic          done_o,
  output logic [11:0]   steps_o,
  output logic          rd_v_o,
  output logic [31:0]   rd_data_o
);

  localparam int unsigned VF = 16;       // fraction bits of a share (Q8.16)
  localparam int unsigned VW = 24;
  localparam int unsigned RF = 24;       // fraction bits of a ratio (Q8.24)
  localparam int unsigned DW = 24;       // demand, capacity
  localparam int unsigned QW = 20;       // quota
  localparam int unsigned SW = 12;       // iterations
  localparam int unsigned TW = 16;       // cycles per iteration
  localparam int unsigned XW = 2 * VW;   // cross products of the argmin
  localparam int unsigned UW = 32 + AW;  // a resource's use
  localparam int unsigned T = A * NM;    // table entries

  // Tables and parameters.
  logic [T*VW-1:0]   own_q, own_d;
  logic [T*32-1:0]   oth_q, oth_d, trq_q, trq_d, trp_q, trp_d; // resource tables
  logic [A*2-1:0]    type_q, type_d;
  logic [A*NW-1:0]   nmax_q, nmax_d;
  logic [A*VW-1:0]   dv_q, dv_d;
  logic [A*32-1:0]   qf_q, qf_d;
  logic [A*4*DW-1:0] dem_q, dem_d;
  logic [4*DW-1:0]   cap_q, cap_d;
  logic [VW-1:0]     nlim_q, nlim_d, dlim_q, dlim_d;
  logic [AW:0]       nk_q, nk_d;
  logic [TW-1:0]     stepc_q, stepc_d;
  // The run.
  logic              run_q, run_d;
  logic [A-1:0]      live_q, live_d;
  logic [TW-1:0]     cnt_q, cnt_d;
  logic [SW-1:0]     steps_q, steps_d;
  logic [A*NW-1:0]   cta_q, cta_d;
  logic [A*VW-1:0]   nbw_q, nbw_d, dbw_q, dbw_d, req_q, req_d, rep_q, rep_d;
  logic [A*VW-1:0]   xn;      // dominant-share numerators
  logic              found, done;
  logic [AW-1:0]     kk;
  logic [31:0]       rd_data;
  logic              unused_frac; // the fraction bits a truncation drops
  logic [3*RF-1:0]   prod_lo;
  logic [31:0]       p_lo;

  // The write.
  always_comb begin
    logic [NW-1:0] m;
    logic [AW:0]   k;
    logic          tw;
    logic [31:0]   wa;
    own_d   = own_q;
    oth_d   = oth_q;
    trq_d   = trq_q;
    trp_d   = trp_q;
    type_d  = type_q;
    nmax_d  = nmax_q;
    dv_d    = dv_q;
    qf_d    = qf_q;
    dem_d   = dem_q;
    cap_d   = cap_q;
    nlim_d  = nlim_q;
    dlim_d  = dlim_q;
    nk_d    = nk_q;
    stepc_d = stepc_q;
    m = wr_data_i[NW-1:0];
    k = wr_data_i[AW:0];
    // a table entry: a decoder over the A x NM entries (entry a * NM + n - 1)
    tw = wr_v_i && (wr_sel_i <= 4'd2 || wr_sel_i == 4'd13) && wr_idx_i != '0 &&
         wr_idx_i <= NW'(NM);
    wa = 32'(wr_app_i) * NM + 32'(wr_idx_i) - 1;
    for (int unsigned e = 0; e < T; e++) begin
      if (tw && wa == e) begin
        if (wr_sel_i == 4'd0) begin
          own_d[e*VW +: VW] = wr_data_i[VW-1:0];
        end else if (wr_sel_i == 4'd1) begin
          oth_d[e*32 +: 32] = wr_data_i;
        end else if (wr_sel_i == 4'd2) begin
          trq_d[e*32 +: 32] = wr_data_i;
        end else begin
          trp_d[e*32 +: 32] = wr_data_i;
        end
      end
    end
    if (wr_v_i) begin
      case (wr_sel_i)
        4'd3: type_d[32'(wr_app_i) * 2 +: 2] = wr_data_i[1:0];
        4'd4: nmax_d[32'(wr_app_i) * NW +: NW] = m > NW'(NM) ? NW'(NM) : m;
        4'd5: dv_d[32'(wr_app_i) * VW +: VW] = wr_data_i[VW-1:0];
        4'd6: qf_d[32'(wr_app_i) * 32 +: 32] = wr_data_i;
        4'd7: dem_d[(32'(wr_app_i) * 4 + 32'(wr_idx_i[1:0])) * DW +: DW] = wr_data_i[DW-1:0];
        4'd8: cap_d[32'(wr_idx_i[1:0]) * DW +: DW] = wr_data_i[DW-1:0];
        4'd9: nlim_d = wr_data_i[VW-1:0];
        4'd10: dlim_d = wr_data_i[VW-1:0];
        4'd11: nk_d = k > (AW+1)'(A) ? (AW+1)'(A) : k;
        4'd12: stepc_d = wr_data_i[TW-1:0];
        default: ;
      endcase
    end
  end

  // Dominant-share numerators (NBI: NoC share, DBI: DRAM share, LS: CTAs in Q8.16) and the
  // argmin of x / D over the unfinished applications (strictly smaller: the lower index keeps
  // a tie).
  always_comb begin
    for (int unsigned j = 0; j < A; j++) begin
      xn[j*VW +: VW] = type_q[j*2 +: 2] == 2'd1 ? nbw_q[j*VW +: VW] :
                       type_q[j*2 +: 2] == 2'd2 ? dbw_q[j*VW +: VW] :
                       VW'({cta_q[j*NW +: NW], VF'(0)});
    end
    found = 1'b0;
    kk    = '0;
    for (int unsigned j = 0; j < A; j++) begin
      if (live_q[j]) begin
        if (!found || XW'(xn[j*VW +: VW]) * XW'(dv_q[32'(kk)*VW +: VW]) <
                      XW'(xn[32'(kk)*VW +: VW]) * XW'(dv_q[j*VW +: VW])) begin
          found = 1'b1;
          kk    = AW'(j);
        end
      end
    end
  end

  // The start, the iteration counter and one iteration of Algorithm 1's loop.
  always_comb begin
    logic [1:0]    t;
    logic          bw, fit;
    logic [NW-1:0] c0, c1;
    logic [VW-1:0] old, snew, at0, at, own, nb, db;
    logic [VW:0]   sum;
    logic [3*32-1:0] ent;  // the resource tables' entries at (k, c1): other, request, reply
    logic [3*VW-1:0] sh;   // the resource shares
    logic [55:0]   prod;   // its low RF bits are the dropped fraction
    logic [VW+AW-1:0] rs, ps, ds;
    logic [UW-1:0] use0, use1, use2, use3;
    logic [NW-1:0] cj;
    run_d   = run_q;
    live_d  = live_q;
    cnt_d   = cnt_q;
    steps_d = steps_q;
    cta_d   = cta_q;
    nbw_d   = nbw_q;
    dbw_d   = dbw_q;
    req_d   = req_q;
    rep_d   = rep_q;
    done    = 1'b0;
    t = '0; bw = 1'b0; fit = 1'b0; c0 = '0; c1 = '0; old = '0; snew = '0; at0 = '0; at = '0;
    own = '0; nb = '0; db = '0; sum = '0; ent = '0; sh = '0; prod = '0; rs = '0; ps = '0;
    ds = '0; use0 = '0; use1 = '0; use2 = '0; use3 = '0; cj = '0; prod_lo = '0;
    if (start_i) begin
      run_d   = 1'b1;
      cnt_d   = '0;
      live_d  = A'(((A+1)'(1) << nk_q) - 1'b1);
      steps_d = '0;
      cta_d   = '0;
      nbw_d   = '0;
      dbw_d   = '0;
      req_d   = '0;
      rep_d   = '0;
    end else if (run_q) begin
      if (32'(cnt_q) + 1 >= (stepc_q == '0 ? 32'd1 : 32'(stepc_q))) begin
        cnt_d = '0;
        if (found) begin
          if (steps_q != '1) begin
            steps_d = steps_q + 1'b1;
          end
          t   = type_q[32'(kk)*2 +: 2];
          bw  = t == 2'd1 || t == 2'd2;
          c0  = cta_q[32'(kk)*NW +: NW];
          old = t == 2'd1 ? nbw_q[32'(kk)*VW +: VW] : dbw_q[32'(kk)*VW +: VW];
          sum = {1'b0, old} + (VW+1)'(1 << VF);
          snew = sum[VW] ? '1 : sum[VW-1:0];
          at0 = c0 == '0 ? '0 : own_q[(32'(kk) * NM + 32'(c0) - 1) * VW +: VW];
          c1  = !bw || at0 < snew ? c0 + 1'b1 : c0;
          if (c1 > nmax_q[32'(kk)*NW +: NW]) begin
            live_d[kk] = 1'b0;
          end else begin
            at    = own_q[(32'(kk) * NM + 32'(c1) - 1) * VW +: VW];
            ent   = {trp_q[(32'(kk) * NM + 32'(c1) - 1) * 32 +: 32],
                     trq_q[(32'(kk) * NM + 32'(c1) - 1) * 32 +: 32],
                     oth_q[(32'(kk) * NM + 32'(c1) - 1) * 32 +: 32]};
            for (int unsigned i = 0; i < 3; i++) begin
              prod = 56'(snew) * 56'(ent[i*32 +: 32]);
              prod_lo[i*RF +: RF] = prod[RF-1:0];
              sh[i*VW +: VW] = !bw || at == '0 ? ent[i*32 +: VW] :
                               prod[55:RF+VW] != '0 ? '1 : prod[RF +: VW];
            end
            own   = bw ? snew : at;
            nb    = t == 2'd2 ? sh[0 +: VW] : own;
            db    = t == 2'd2 ? own : sh[0 +: VW];
            for (int unsigned j = 0; j < A; j++) begin
              cj = j == 32'(kk) ? c1 : cta_q[j*NW +: NW];
              rs = rs + (j == 32'(kk) ? (VW+AW)'(sh[VW +: VW]) : (VW+AW)'(req_q[j*VW +: VW]));
              ps = ps + (j == 32'(kk) ? (VW+AW)'(sh[2*VW +: VW]) : (VW+AW)'(rep_q[j*VW +: VW]));
              ds = ds + (j == 32'(kk) ? (VW+AW)'(db) : (VW+AW)'(dbw_q[j*VW +: VW]));
              use0 = use0 + UW'(cj) * UW'(dem_q[(j*4 + 0)*DW +: DW]);
              use1 = use1 + UW'(cj) * UW'(dem_q[(j*4 + 1)*DW +: DW]);
              use2 = use2 + UW'(cj) * UW'(dem_q[(j*4 + 2)*DW +: DW]);
              use3 = use3 + UW'(cj) * UW'(dem_q[(j*4 + 3)*DW +: DW]);
            end
            fit = use0 <= UW'(cap_q[0*DW +: DW]) && use1 <= UW'(cap_q[1*DW +: DW]) &&
                  use2 <= UW'(cap_q[2*DW +: DW]) && use3 <= UW'(cap_q[3*DW +: DW]);
            if (!fit || rs > (VW+AW)'(nlim_q) || ps > (VW+AW)'(nlim_q) ||
                ds > (VW+AW)'(dlim_q)) begin
              live_d[kk] = 1'b0;
            end else begin
              cta_d[32'(kk)*NW +: NW] = c1;
              nbw_d[32'(kk)*VW +: VW] = nb;
              dbw_d[32'(kk)*VW +: VW] = db;
              req_d[32'(kk)*VW +: VW] = sh[VW +: VW];
              rep_d[32'(kk)*VW +: VW] = sh[2*VW +: VW];
            end
          end
        end
        if (live_d == '0) begin
          run_d = 1'b0;
          done  = 1'b1;
        end
      end else begin
        cnt_d = cnt_q + 1'b1;
      end
    end
  end

  // The read, after the edge's updates: the quota is round(share x factor), at least 1, at
  // most 2^QW - 1; 0 for LS or a factor of 0.
  always_comb begin
    logic [1:0]    t;
    logic [VW-1:0] sh;
    logic [31:0]   f;
    logic [56:0]   p;
    logic [24:0]   q;
    t  = type_d[32'(rd_app_i)*2 +: 2];
    sh = t == 2'd1 ? nbw_d[32'(rd_app_i)*VW +: VW] : dbw_d[32'(rd_app_i)*VW +: VW];
    f  = qf_d[32'(rd_app_i)*32 +: 32];
    p  = 57'(sh) * 57'(f) + 57'(33'h0_8000_0000);
    q  = p[56:32];
    p_lo = p[31:0];
    rd_data = '0;
    if (rd_v_i) begin
      case (rd_sel_i)
        3'd0: rd_data = 32'(cta_d[32'(rd_app_i)*NW +: NW]);
        3'd1: rd_data = 32'(nbw_d[32'(rd_app_i)*VW +: VW]);
        3'd2: rd_data = 32'(dbw_d[32'(rd_app_i)*VW +: VW]);
        3'd3: begin
          if ((t == 2'd1 || t == 2'd2) && f != '0) begin
            rd_data = q == '0 ? 32'd1 : q[24:QW] != '0 ? 32'({QW{1'b1}}) : 32'(q);
          end
        end
        3'd4: rd_data = 32'(req_d[32'(rd_app_i)*VW +: VW]);
        3'd5: rd_data = 32'(rep_d[32'(rd_app_i)*VW +: VW]);
        default: ;
      endcase
    end
  end

  assign unused_frac = ^{prod_lo, p_lo};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      own_q     <= '0;
      oth_q     <= '0;
      trq_q     <= '0;
      trp_q     <= '0;
      type_q    <= '0;
      nmax_q    <= '0;
      dv_q      <= '0;
      qf_q      <= '0;
      dem_q     <= '0;
      cap_q     <= '0;
      nlim_q    <= '0;
      dlim_q    <= '0;
      nk_q      <= '0;
      stepc_q   <= '0;
      run_q     <= 1'b0;
      live_q    <= '0;
      cnt_q     <= '0;
      steps_q   <= '0;
      cta_q     <= '0;
      nbw_q     <= '0;
      dbw_q     <= '0;
      req_q     <= '0;
      rep_q     <= '0;
      busy_o    <= 1'b0;
      done_o    <= 1'b0;
      steps_o   <= '0;
      rd_v_o    <= 1'b0;
      rd_data_o <= '0;
    end else begin
      own_q     <= own_d;
      oth_q     <= oth_d;
      trq_q     <= trq_d;
      trp_q     <= trp_d;
      type_q    <= type_d;
      nmax_q    <= nmax_d;
      dv_q      <= dv_d;
      qf_q      <= qf_d;
      dem_q     <= dem_d;
      cap_q     <= cap_d;
      nlim_q    <= nlim_d;
      dlim_q    <= dlim_d;
      nk_q      <= nk_d;
      stepc_q   <= stepc_d;
      run_q     <= run_d;
      live_q    <= live_d;
      cnt_q     <= cnt_d;
      steps_q   <= steps_d;
      cta_q     <= cta_d;
      nbw_q     <= nbw_d;
      dbw_q     <= dbw_d;
      req_q     <= req_d;
      rep_q     <= rep_d;
      busy_o    <= run_d;
      done_o    <= done;
      steps_o   <= done ? steps_d : '0;
      rd_v_o    <= rd_v_i;
      rd_data_o <= rd_data;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdCcbpCtrlWidth, A >= 2 && A <= 8 && (1 << AW) == A && NM >= 2 && NM <= 62 &&
                                   (1 << NW) >= NM + 2 && (1 << (NW - 1)) < NM + 2)
  `HD_ASSERT_KNOWN(HdCcbpCtrlBusyKnown, busy_o, clk_i, rst_ni)
  `HD_ASSERT(HdCcbpCtrlDoneEnds, !(done_o && busy_o), clk_i, rst_ni)
  `HD_ASSERT(HdCcbpCtrlRdIdleZero, rd_v_o || rd_data_o == '0, clk_i, rst_ni)

endmodule

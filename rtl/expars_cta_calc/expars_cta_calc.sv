// SPDX-License-Identifier: MIT
/**
 * expars_cta_calc - EXPARS's maximum-CTA calculator (Yu et al., TACO 2018, §3.3.1 eq. 1-10, the
 * "arithmetic circuit" of L236; digest expars.md §2.2, §3.2 (g)), one per SM, run once per kernel
 * launch before the CTA scheduler dispatches.
 *
 * The exact integer search of the digest (the paper's eq. 7-9 break its own constraints for
 * SGE, BT, MERG and QUA): CTA_Lower = min(slots, threads/T, R/R_CTA, S/S_CTA), CTA_Upper =
 * min(slots, threads/T, (4R+S)/(4R_CTA+S_CTA)), rpt = ceil(R_CTA/T); for N = Upper down to
 * Lower+1 and M = 1..N the first point with (N-M) R_CTA <= R whose Start_Reg = min((R - (N-M)
 * R_CTA) / (M T), rpt) keeps at least (1 - tau) of the registers in the RF (Start_Reg T den >=
 * (den - num) R_CTA) and fits the scratchpad (N S_CTA + 4 M (R_CTA - Start_Reg T) <= S).
 *
 * One restoring divider (a quotient bit per cycle, DW bits) serves the five set-up divisions and
 * one division per search point. FSM: IDLE -> DIV (DW cycles) -> next division, PAIR (a point's
 * register bound, one cycle) or CHK (its tau and scratchpad bounds, one cycle) -> ... -> IDLE.
 * Registered outputs: the answer for one cycle with done_o, 0 otherwise; busy_o while running.
 * Bit-exact C reference: tables/expars_cta_calc.c; ports: expars_cta_calc_ports.def.
 *
 * Parameters (configs/rtl/expars_cta_calc.ini):
 *   RW  register-count bits;  SW  byte-count bits;  CW  CTA-count bits;  TW  thread-count bits;
 *   QW  bits of tau's numerator and denominator;  ResetAll  1: the datapath flops (operands,
 *   divider, search point; each written before it is read) get the reset too
 */
`include "../include/hd_assert.svh"

module expars_cta_calc #(
  parameter int unsigned RW = 17,
  parameter int unsigned SW = 17,
  parameter int unsigned CW = 6,
  parameter int unsigned TW = 12,
  parameter int unsigned QW = 10,
  parameter bit          ResetAll = 1'b0  // 1: the datapath flops get the asynchronous reset too
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            start_i,
  input  logic [RW-1:0]   regs_i,
  input  logic [SW-1:0]   smem_i,
  input  logic [CW-1:0]   slots_i,
  input  logic [TW-1:0]   threads_i,
  input  logic [RW-1:0]   r_cta_i,
  input  logic [SW-1:0]   s_cta_i,
  input  logic [TW-1:0]   t_cta_i,
  input  logic [QW-1:0]   tau_num_i,
  input  logic [QW-1:0]   tau_den_i,
  output logic            busy_o,
  output logic            done_o,
  output logic            err_o,
  output logic            on_o,
  output logic [CW-1:0]   lower_o,
  output logic [CW-1:0]   upper_o,
  output logic [CW-1:0]   cta_rf_o,
  output logic [CW-1:0]   cta_mix_o,
  output logic [RW-1:0]   start_reg_o,
  output logic [RW-1:0]   max_reg_o,
  output logic [TW-5:0]   wpc_o,
  output logic [SW+5:0]   region_o
);

  localparam int unsigned DW   = (RW > SW ? RW : SW) + 3;  // 4R + S fits
  localparam int unsigned NW   = $clog2(DW);               // divider step counter
  localparam int unsigned XW   = CW + (RW + 2 > SW ? RW + 2 : SW) + 1;  // scratchpad sum
  localparam int unsigned PW   = RW + TW;                  // Start_Reg x T

  // states and the running division's purpose (plain constants: scripts/mutate.py mutates them)
  localparam logic [1:0] StIdle = 2'd0, StDiv = 2'd1, StPair = 2'd2, StChk = 2'd3;
  localparam logic [2:0] PhThr = 3'd0, PhRf = 3'd1, PhSm = 3'd2, PhUp = 3'd3, PhRpt = 3'd4,
                         PhSr = 3'd5;

  logic [1:0]    st_d, st_q;
  logic [2:0]    ph_d, ph_q, ld_ph;
  logic [RW-1:0] r_d, r_q, rc_d, rc_q, rpt_d, rpt_q, sr_d, sr_q;
  logic [SW-1:0] s_d, s_q, sc_d, sc_q;
  logic [CW-1:0] slots_d, slots_q, lim_d, lim_q, up_d, up_q, n_d, n_q, m_d, m_q;
  logic [TW-1:0] tc_d, tc_q;
  logic [QW-1:0] num_d, num_q, den_d, den_q;
  logic [DW-1:0] rem_d, rem_q, quo_d, quo_q, dvs_d, dvs_q, ld_dvd, ld_dvs;
  logic [NW-1:0] cnt_d, cnt_q;

  // divider step
  logic [DW:0]   dv_t;
  logic          dv_ge;
  logic [DW-1:0] dv_rem, dv_quo;
  // search point arithmetic
  logic [CW-1:0]    rf;
  logic [CW+RW-1:0] used;
  logic [PW-1:0]    a;
  logic [PW+QW-1:0] tau_l;
  logic [RW+QW-1:0] tau_r;
  logic [RW-1:0]    spill;
  logic [XW-1:0]    spm;
  logic             ok, ld, adv, fin, fin_on;
  logic [QW-1:0]    gap;
  logic [RW-1:0]    rest, nreg;
  logic [TW-5:0]    wpc;
  logic [RW+TW-5:0] region_w;

  // outputs' next values
  logic          done_d, err_d, on_d;
  logic [CW-1:0] lower_d, upper_d, cta_rf_d, cta_mix_d;
  logic [RW-1:0] start_reg_d, max_reg_d;
  logic [TW-5:0] wpc_d;
  logic [SW+5:0] region_d;

  always_comb begin
    dv_t   = {rem_q, quo_q[DW-1]};
    dv_ge  = dv_t >= {1'b0, dvs_q};
    dv_rem = dv_ge ? DW'(dv_t - {1'b0, dvs_q}) : dv_t[DW-1:0];
    dv_quo = {quo_q[DW-2:0], dv_ge};

    rf     = n_q - m_q;
    used   = (CW+RW)'(rf) * (CW+RW)'(rc_q);
    a      = PW'(sr_q) * PW'(tc_q);
    tau_l  = (PW+QW)'(a) * (PW+QW)'(den_q);
    gap    = den_q - num_q;
    tau_r  = (RW+QW)'(gap) * (RW+QW)'(rc_q);
    spill  = PW'(rc_q) > a ? RW'(PW'(rc_q) - a) : '0;
    spm    = XW'(XW'(n_q) * XW'(sc_q)) + XW'({XW'(XW'(m_q) * XW'(spill)), 2'b00});
    wpc    = {1'b0, tc_q[TW-1:5]} + (TW-4)'(|tc_q[4:0]);  // ceil(T / 32)
    rest   = r_q - used[RW-1:0];
    nreg   = rpt_q - sr_q;

    ok = regs_i != '0 && smem_i != '0 && slots_i != '0 && threads_i != '0 && r_cta_i != '0 &&
         t_cta_i != '0 && tau_num_i != '0 && tau_num_i < tau_den_i && t_cta_i <= threads_i &&
         r_cta_i <= regs_i && s_cta_i <= smem_i;

    st_d    = st_q;
    ph_d    = ph_q;
    r_d     = r_q;
    s_d     = s_q;
    slots_d = slots_q;
    rc_d    = rc_q;
    sc_d    = sc_q;
    tc_d    = tc_q;
    num_d   = num_q;
    den_d   = den_q;
    rem_d   = rem_q;
    quo_d   = quo_q;
    dvs_d   = dvs_q;
    cnt_d   = cnt_q;
    lim_d   = lim_q;
    up_d    = up_q;
    rpt_d   = rpt_q;
    n_d     = n_q;
    m_d     = m_q;
    sr_d    = sr_q;
    ld      = 1'b0;
    ld_dvd  = '0;
    ld_dvs  = '0;
    ld_ph   = PhThr;
    adv     = 1'b0;
    fin     = 1'b0;
    fin_on  = 1'b0;
    err_d   = 1'b0;

    unique case (st_q)
      StIdle: begin
        if (start_i) begin
          r_d     = regs_i;
          s_d     = smem_i;
          slots_d = slots_i;
          rc_d    = r_cta_i;
          sc_d    = s_cta_i;
          tc_d    = t_cta_i;
          num_d   = tau_num_i;
          den_d   = tau_den_i;
          if (ok) begin
            ld     = 1'b1;
            ld_dvd = DW'(threads_i);
            ld_dvs = DW'(t_cta_i);
            ld_ph  = PhThr;
          end else begin
            err_d = 1'b1;
          end
        end
      end
      StDiv: begin
        rem_d = dv_rem;
        quo_d = dv_quo;
        if (cnt_q == NW'(DW - 1)) begin
          unique case (ph_q)
            PhThr: begin
              lim_d  = dv_quo < DW'(slots_q) ? CW'(dv_quo) : slots_q;
              up_d   = lim_d;
              ld     = 1'b1;
              ld_dvd = DW'(r_q);
              ld_dvs = DW'(rc_q);
              ld_ph  = PhRf;
            end
            PhRf, PhSm: begin
              lim_d = dv_quo < DW'(lim_q) ? CW'(dv_quo) : lim_q;
              ld    = 1'b1;
              if (ph_q == PhRf && sc_q != '0) begin
                ld_dvd = DW'(s_q);
                ld_dvs = DW'(sc_q);
                ld_ph  = PhSm;
              end else begin
                ld_dvd = {r_q, 2'b00} + DW'(s_q);
                ld_dvs = {rc_q, 2'b00} + DW'(sc_q);
                ld_ph  = PhUp;
              end
            end
            PhUp: begin
              up_d   = dv_quo < DW'(up_q) ? CW'(dv_quo) : up_q;
              ld     = 1'b1;
              ld_dvd = DW'(rc_q) + DW'(tc_q) - DW'(1);
              ld_dvs = DW'(tc_q);
              ld_ph  = PhRpt;
            end
            PhRpt: begin
              rpt_d = RW'(dv_quo);
              if (up_q <= lim_q) begin
                fin = 1'b1;
              end else begin
                n_d  = up_q;
                m_d  = CW'(1);
                st_d = StPair;
              end
            end
            default: begin  // PhSr
              sr_d = dv_quo < DW'(rpt_q) ? RW'(dv_quo) : rpt_q;
              st_d = StChk;
            end
          endcase
        end else begin
          cnt_d = cnt_q + NW'(1);
        end
      end
      StPair: begin
        if (used > (CW+RW)'(r_q)) begin
          adv = 1'b1;
        end else begin
          ld     = 1'b1;
          ld_dvd = DW'(rest);
          ld_dvs = DW'((CW+TW)'(m_q) * (CW+TW)'(tc_q));
          ld_ph  = PhSr;
        end
      end
      default: begin  // StChk
        if (tau_l >= (PW+QW)'(tau_r) && spm <= XW'(s_q)) begin
          fin    = 1'b1;
          fin_on = 1'b1;
        end else begin
          adv = 1'b1;
        end
      end
    endcase

    if (adv) begin
      if (m_q < n_q) begin
        m_d  = m_q + CW'(1);
        st_d = StPair;
      end else begin
        n_d = n_q - CW'(1);
        m_d = CW'(1);
        if (n_d <= lim_q) fin = 1'b1;
        else st_d = StPair;
      end
    end
    if (ld) begin
      rem_d = '0;
      quo_d = ld_dvd;
      dvs_d = ld_dvs;
      cnt_d = '0;
      ph_d  = ld_ph;
      st_d  = StDiv;
    end

    done_d      = err_d;
    on_d        = 1'b0;
    lower_d     = '0;
    upper_d     = '0;
    cta_rf_d    = '0;
    cta_mix_d   = '0;
    start_reg_d = '0;
    max_reg_d   = '0;
    wpc_d       = '0;
    region_d    = '0;
    region_w    = (RW+TW-4)'(nreg) * (RW+TW-4)'(wpc);
    if (fin) begin
      st_d      = StIdle;
      done_d    = 1'b1;
      lower_d   = lim_d;
      upper_d   = up_d;
      max_reg_d = rpt_d - RW'(1);
      wpc_d     = wpc;
      if (fin_on) begin
        on_d        = 1'b1;
        cta_rf_d    = rf;
        cta_mix_d   = m_q;
        start_reg_d = sr_q;
        region_d    = (SW+6)'({region_w, 7'd0});
      end else begin
        cta_rf_d    = lim_d;
        start_reg_d = rpt_d;
      end
    end
  end

  // Control and outputs: always reset.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q        <= StIdle;
      busy_o      <= 1'b0;
      done_o      <= 1'b0;
      err_o       <= 1'b0;
      on_o        <= 1'b0;
      lower_o     <= '0;
      upper_o     <= '0;
      cta_rf_o    <= '0;
      cta_mix_o   <= '0;
      start_reg_o <= '0;
      max_reg_o   <= '0;
      wpc_o       <= '0;
      region_o    <= '0;
    end else begin
      st_q        <= st_d;
      busy_o      <= st_d != StIdle;
      done_o      <= done_d;
      err_o       <= err_d;
      on_o        <= on_d;
      lower_o     <= lower_d;
      upper_o     <= upper_d;
      cta_rf_o    <= cta_rf_d;
      cta_mix_o   <= cta_mix_d;
      start_reg_o <= start_reg_d;
      max_reg_o   <= max_reg_d;
      wpc_o       <= wpc_d;
      region_o    <= region_d;
    end
  end

  // Datapath: the operands are sampled at start_i, every division is loaded before it runs and
  // the search point, CTA_Lower/Upper and rpt are written before they are read, so a reset is
  // needed only for a defined state in simulation (ResetAll).
  if (ResetAll) begin : g_rst
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ph_q    <= PhThr;
        r_q     <= '0;
        s_q     <= '0;
        slots_q <= '0;
        rc_q    <= '0;
        sc_q    <= '0;
        tc_q    <= '0;
        num_q   <= '0;
        den_q   <= '0;
        rem_q   <= '0;
        quo_q   <= '0;
        dvs_q   <= '0;
        cnt_q   <= '0;
        lim_q   <= '0;
        up_q    <= '0;
        rpt_q   <= '0;
        n_q     <= '0;
        m_q     <= '0;
        sr_q    <= '0;
      end else begin
        ph_q    <= ph_d;
        r_q     <= r_d;
        s_q     <= s_d;
        slots_q <= slots_d;
        rc_q    <= rc_d;
        sc_q    <= sc_d;
        tc_q    <= tc_d;
        num_q   <= num_d;
        den_q   <= den_d;
        rem_q   <= rem_d;
        quo_q   <= quo_d;
        dvs_q   <= dvs_d;
        cnt_q   <= cnt_d;
        lim_q   <= lim_d;
        up_q    <= up_d;
        rpt_q   <= rpt_d;
        n_q     <= n_d;
        m_q     <= m_d;
        sr_q    <= sr_d;
      end
    end
  end else begin : g_norst
    always_ff @(posedge clk_i) begin
      ph_q    <= ph_d;
      r_q     <= r_d;
      s_q     <= s_d;
      slots_q <= slots_d;
      rc_q    <= rc_d;
      sc_q    <= sc_d;
      tc_q    <= tc_d;
      num_q   <= num_d;
      den_q   <= den_d;
      rem_q   <= rem_d;
      quo_q   <= quo_d;
      dvs_q   <= dvs_d;
      cnt_q   <= cnt_d;
      lim_q   <= lim_d;
      up_q    <= up_d;
      rpt_q   <= rpt_d;
      n_q     <= n_d;
      m_q     <= m_d;
      sr_q    <= sr_d;
    end
  end

  `HD_ASSERT_INIT(HdExparsCtaCalcParams, RW >= 8 && RW <= 24 && SW >= 8 && SW <= 24 && CW >= 2 &&
                 CW <= 8 && TW >= 6 && TW <= RW && SW >= TW + 2 && QW >= 2 && QW <= 16 &&
                 CW + TW <= DW)
  // A search point's Start_Reg never exceeds rpt (the region's register count is not negative).
  `HD_ASSERT(HdExparsCtaCalcSrLeRpt, st_q == StChk |-> sr_q <= rpt_q, clk_i, rst_ni)
  // The searched CTA totals stay above CTA_Lower and M within 1..N.
  `HD_ASSERT(HdExparsCtaCalcPoint, st_q == StPair |-> n_q > lim_q && m_q >= CW'(1) && m_q <= n_q,
             clk_i, rst_ni)
  // A result is on the outputs for one cycle only (unless the next launch, started in that
  // cycle, is refused at once).
  `HD_ASSERT(HdExparsCtaCalcDonePulse, done_o && !start_i |=> !done_o, clk_i, rst_ni)

endmodule

// SPDX-License-Identifier: MIT
/**
 * zorua_coord - Zorua's coordinator, one per SM (digest zorua.md sections 2.2-2.5, 2.11, 3.6;
 * paper L220-L286, Figure 11, Algorithm 1, Table 1).
 *
 * Per logical warp: live, pending (in a queue), held at a barrier, schedulable (the one extra
 * bit per warp slot, L222), thread slot held, queue (0 thread/barrier, 1 scratchpad, 2
 * register), block, register sets needed and held. Per logical block: live, scratchpad sets
 * needed and held, live warps, warps at the barrier. Per resource the amount allocated in the
 * virtual space and o_thresh; the o_thresh controller (percentage, epoch counter, c_idle and
 * c_mem of this and the previous epoch).
 *
 * One edge, each part on the state at the start of the cycle (they touch different warps and
 * blocks; the counters add their deltas): the admission step (the first warp to try: register
 * queue, then scratchpad, then thread queue, lowest warp first; all its missing resources if
 * each fits allocated + need <= physical + o_thresh, or if fewer than Floor warps are
 * schedulable; with fbar_i the warps held at a barrier of a block none of whose warps waits in
 * a queue count too), the event (phase specifier: registers past the new phase released, the
 * block's scratchpad need grown, the warp queued; barrier: held in the thread queue until its
 * block's live warps all arrive; exit: slot and registers released, the block's scratchpad with
 * its last warp), the arrival (lowest free block, kwarps_i lowest free warps, thread queue),
 * and the epoch counter (Algorithm 1 at its end). An accepted event or arrival makes every
 * waiting warp not held at a barrier one to try. tb_req_o: room for a block of kwarps_i warps
 * (free logical warps and block; with vreq_i also live + kwarps_i <= PhysSlot + o_thresh). Registered outputs, latency 1, 0 in a cycle
 * without a result but sched_o. Bit-exact C reference: tables/zorua_coord.c; ports:
 * zorua_coord_ports.def; parameters: configs/rtl/zorua_coord.ini.
 */
`include "../include/hd_assert.svh"

module zorua_coord #(
  parameter int unsigned Warps    = 64,
  parameter int unsigned WW       = 6,
  parameter int unsigned KwW      = 7,
  parameter int unsigned Blocks   = 16,
  parameter int unsigned BW       = 4,
  parameter int unsigned RegSets  = 16,
  parameter int unsigned RsW      = 5,
  parameter int unsigned SmemSets = 48,
  parameter int unsigned SsW      = 6,
  parameter int unsigned PhysReg  = 256,
  parameter int unsigned PhysSmem = 48,
  parameter int unsigned PhysSlot = 48,
  parameter int unsigned CW       = 11,
  parameter int unsigned Epoch    = 2048,
  parameter int unsigned EpW      = 11,
  parameter int unsigned PctInit  = 10,
  parameter int unsigned PctStep  = 4,
  parameter int unsigned PctMax   = 30,
  parameter int unsigned PctW     = 6,
  parameter int unsigned DeltaTh  = 16,
  parameter int unsigned Floor    = 10
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             active_i,
  input  logic [KwW-1:0]   kwarps_i,
  input  logic             tb_v_i,
  input  logic [RsW-1:0]   tb_rsets_i,
  input  logic [SsW-1:0]   tb_ssets_i,
  input  logic             ev_v_i,
  input  logic [1:0]       ev_kind_i,
  input  logic [WW-1:0]    ev_warp_i,
  input  logic [RsW-1:0]   ev_rsets_i,
  input  logic [SsW-1:0]   ev_ssets_i,
  input  logic             idle_i,
  input  logic             mem_i,
  input  logic             vreq_i,
  input  logic             fbar_i,
  output logic             tb_req_o,
  output logic             arr_v_o,
  output logic             arr_ok_o,
  output logic [BW-1:0]    arr_blk_o,
  output logic [Warps-1:0] arr_wmask_o,
  output logic             gr_v_o,
  output logic [WW-1:0]    gr_warp_o,
  output logic [BW-1:0]    gr_blk_o,
  output logic             gr_force_o,
  output logic             gr_slot_o,
  output logic [SsW-1:0]   gr_sfrom_o,
  output logic [SsW-1:0]   gr_ssets_o,
  output logic [RsW-1:0]   gr_rfrom_o,
  output logic [RsW-1:0]   gr_rsets_o,
  output logic             ev_v_o,
  output logic             ev_ok_o,
  output logic [WW-1:0]    rl_warp_o,
  output logic [BW-1:0]    rl_blk_o,
  output logic             rl_slot_o,
  output logic [RsW-1:0]   rl_rfrom_o,
  output logic [RsW-1:0]   rl_rsets_o,
  output logic [SsW-1:0]   rl_ssets_o,
  output logic             rl_bar_o,
  output logic [Warps-1:0] sched_o,
  output logic             ep_v_o,
  output logic [PctW-1:0]  ep_pct_o,
  output logic [CW-1:0]    ep_rth_o,
  output logic [CW-1:0]    ep_sth_o,
  output logic [CW-1:0]    ep_tth_o
);

  localparam logic [1:0] QSlot = 2'd0;
  localparam logic [1:0] QSmem = 2'd1;
  localparam logic [1:0] QReg  = 2'd2;
  localparam logic [1:0] EvPhase = 2'd0;
  localparam logic [1:0] EvBar   = 2'd1;
  localparam logic [1:0] EvExit  = 2'd2;
  localparam int unsigned CntW = EpW + 1;
  // Signed copies for loop bounds and the signed compare (Yosys 0.23 reads no int'() casts).
  localparam int WarpsI  = Warps;
  localparam int BlocksI = Blocks;
  localparam int DeltaI  = DeltaTh;

  // Per warp / per block fields in flat vectors (warp j's in [j*W +: W]).
  logic [Warps-1:0]     live_q, live_d, pend_q, pend_d, bar_q, bar_d, sched_q, sched_d;
  logic [Warps-1:0]     slot_q, slot_d, try_q, try_d;
  logic [Warps*2-1:0]   queue_q, queue_d;
  logic [Warps*BW-1:0]  blk_q, blk_d;
  logic [Warps*RsW-1:0] rneed_q, rneed_d, rheld_q, rheld_d;
  logic [Blocks-1:0]    blive_q, blive_d;
  logic [Blocks*SsW-1:0] sneed_q, sneed_d, sheld_q, sheld_d;
  logic [Blocks*KwW-1:0] nlive_q, nlive_d, nbar_q, nbar_d;
  logic [CW-1:0]        aslot_q, aslot_d, asmem_q, asmem_d, areg_q, areg_d;
  logic [CW-1:0]        rth_q, rth_d, sth_q, sth_d, tth_q, tth_d;
  logic [PctW-1:0]      pct_q, pct_d;
  logic [EpW-1:0]       ecnt_q, ecnt_d;
  logic [CntW-1:0]      cidle_q, cidle_d, cmem_q, cmem_d, pidle_q, pidle_d, pmem_q, pmem_d;

  // Admission.
  logic            pick_v, hit, fit, force_adm, adm;
  logic [WW-1:0]   pick, sel;
  logic [BW-1:0]   pblk;
  logic            nslot;
  logic [SsW-1:0]  psneed, psheld, nsmem;
  logic [RsW-1:0]  prneed, prheld, nreg;
  logic [KwW-1:0]  nsched;
  logic [Blocks-1:0] bwait;
  // Event.
  logic            ev_ok, ev_phase, ev_bar, ev_exit, bar_rel, blk_end;
  logic [BW-1:0]   eblk;
  logic [RsW-1:0]  erheld, rel;
  logic [SsW-1:0]  esneed, esheld, snew;
  logic [KwW-1:0]  enlive, enbar, left;
  // Arrival.
  logic            arr_ok, bfree;
  logic [BW-1:0]   ablk;
  logic [KwW-1:0]  nfree, taken;
  logic [Warps-1:0] amask;
  // Epoch.
  logic            ep_end;
  logic [CntW-1:0] ci, cm;
  int              di, dm;
  logic [KwW-1:0]  nfree_d;
  logic            bfree_d;

  // The admission step: the first warp to try, register queue first.
  always_comb begin
    pick_v = 1'b0;
    pick   = '0;
    for (int r = 2; r >= 0; r--) begin
      hit = 1'b0;
      sel = '0;
      for (int j = WarpsI - 1; j >= 0; j--) begin
        if (try_q[j] && pend_q[j] && !bar_q[j] && queue_q[j*2 +: 2] == 2'(r)) begin
          hit = 1'b1;
          sel = WW'(j);
        end
      end
      if (hit && !pick_v) begin
        pick_v = 1'b1;
        pick   = sel;
      end
    end
    // The floor's parallelism: schedulable warps and, with fbar_i, warps held at a barrier of a
    // block none of whose warps waits in a queue.
    bwait = '0;
    for (int j = 0; j < WarpsI; j++) begin
      if (live_q[j] && pend_q[j] && !bar_q[j]) begin
        bwait[blk_q[j*BW +: BW]] = 1'b1;
      end
    end
    nsched = '0;
    for (int j = 0; j < WarpsI; j++) begin
      nsched = nsched + KwW'(sched_q[j] || (fbar_i && bar_q[j] && !bwait[blk_q[j*BW +: BW]]));
    end
    pblk   = blk_q[pick*BW +: BW];
    prneed = rneed_q[pick*RsW +: RsW];
    prheld = rheld_q[pick*RsW +: RsW];
    psneed = sneed_q[pblk*SsW +: SsW];
    psheld = sheld_q[pblk*SsW +: SsW];
    nslot  = !slot_q[pick];
    nsmem  = psneed > psheld ? psneed - psheld : '0;
    nreg   = prneed - prheld;
    fit    = (!nslot || 32'(aslot_q) + 1 <= PhysSlot + 32'(tth_q)) &&
             (nsmem == '0 || 32'(asmem_q) + 32'(nsmem) <= PhysSmem + 32'(sth_q)) &&
             (nreg == '0 || 32'(areg_q) + 32'(nreg) <= PhysReg + 32'(rth_q));
    force_adm = 32'(nsched) < Floor;
    adm    = pick_v && (fit || force_adm);
  end

  // The event's warp and block.
  always_comb begin
    eblk     = blk_q[ev_warp_i*BW +: BW];
    erheld   = rheld_q[ev_warp_i*RsW +: RsW];
    esneed   = sneed_q[eblk*SsW +: SsW];
    esheld   = sheld_q[eblk*SsW +: SsW];
    enlive   = nlive_q[eblk*KwW +: KwW];
    enbar    = nbar_q[eblk*KwW +: KwW];
    ev_ok    = ev_v_i && 32'(ev_warp_i) < Warps && sched_q[ev_warp_i] && ev_kind_i != 2'd3 &&
               (ev_kind_i != EvPhase || (32'(ev_rsets_i) <= RegSets &&
                                         32'(ev_ssets_i) <= SmemSets));
    ev_phase = ev_ok && ev_kind_i == EvPhase;
    ev_bar   = ev_ok && ev_kind_i == EvBar;
    ev_exit  = ev_ok && ev_kind_i == EvExit;
    rel      = erheld > ev_rsets_i ? erheld - ev_rsets_i : '0;
    snew     = esneed > ev_ssets_i ? esneed : ev_ssets_i;
    left     = enlive - 1'b1;
    blk_end  = ev_exit && left == '0;
    bar_rel  = (ev_bar && enbar + 1'b1 >= enlive) ||
               (ev_exit && left != '0 && enbar != '0 && enbar >= left);
  end

  // The arrival: the lowest free block and the kwarps_i lowest free warps.
  always_comb begin
    nfree = '0;
    for (int j = 0; j < WarpsI; j++) begin
      nfree = nfree + KwW'(!live_q[j]);
    end
    bfree = 1'b0;
    ablk  = '0;
    for (int k = BlocksI - 1; k >= 0; k--) begin
      if (!blive_q[k]) begin
        bfree = 1'b1;
        ablk  = BW'(k);
      end
    end
    arr_ok = tb_v_i && kwarps_i != '0 && kwarps_i <= nfree && bfree &&
             32'(tb_rsets_i) <= RegSets && 32'(tb_ssets_i) <= SmemSets;
    taken = '0;
    amask = '0;
    for (int j = 0; j < WarpsI; j++) begin
      if (!live_q[j] && taken < kwarps_i) begin
        amask[j] = 1'b1;
        taken    = taken + 1'b1;
      end
    end
    if (!arr_ok) begin
      amask = '0;
    end
  end

  // Next state: per warp, then per block, in the reference's order (admission, event, arrival).
  always_comb begin
    live_d  = live_q;
    pend_d  = pend_q;
    bar_d   = bar_q;
    sched_d = sched_q;
    slot_d  = slot_q;
    queue_d = queue_q;
    blk_d   = blk_q;
    rneed_d = rneed_q;
    rheld_d = rheld_q;
    for (int j = 0; j < WarpsI; j++) begin
      if (adm && pick == WW'(j)) begin
        slot_d[j]             = 1'b1;
        rheld_d[j*RsW +: RsW] = prneed;
        sched_d[j]            = 1'b1;
        pend_d[j]             = 1'b0;
      end
      if (ev_ok && ev_warp_i == WW'(j)) begin
        sched_d[j] = 1'b0;
        if (ev_phase) begin
          rheld_d[j*RsW +: RsW] = erheld - rel;
          rneed_d[j*RsW +: RsW] = ev_rsets_i;
          pend_d[j]             = 1'b1;
          queue_d[j*2 +: 2]     = snew > esheld ? QSmem : QReg;
        end else if (ev_bar) begin
          pend_d[j]         = 1'b1;
          queue_d[j*2 +: 2] = QSlot;
          if (!bar_rel) begin
            bar_d[j] = 1'b1;
          end
        end else begin
          live_d[j]             = 1'b0;
          pend_d[j]             = 1'b0;
          bar_d[j]              = 1'b0;
          slot_d[j]             = 1'b0;
          queue_d[j*2 +: 2]     = '0;
          blk_d[j*BW +: BW]     = '0;
          rneed_d[j*RsW +: RsW] = '0;
          rheld_d[j*RsW +: RsW] = '0;
        end
      end
      if (bar_rel && live_q[j] && bar_q[j] && blk_q[j*BW +: BW] == eblk) begin
        bar_d[j] = 1'b0;
      end
      if (amask[j]) begin
        live_d[j]             = 1'b1;
        pend_d[j]             = 1'b1;
        bar_d[j]              = 1'b0;
        sched_d[j]            = 1'b0;
        slot_d[j]             = 1'b0;
        queue_d[j*2 +: 2]     = QSlot;
        blk_d[j*BW +: BW]     = ablk;
        rneed_d[j*RsW +: RsW] = tb_rsets_i;
        rheld_d[j*RsW +: RsW] = '0;
      end
    end
    try_d = try_q;
    if (pick_v) begin
      try_d[pick] = 1'b0;
    end
    if (ev_ok || arr_ok) begin
      try_d = pend_d & ~bar_d;
    end
  end

  always_comb begin
    blive_d = blive_q;
    sneed_d = sneed_q;
    sheld_d = sheld_q;
    nlive_d = nlive_q;
    nbar_d  = nbar_q;
    for (int k = 0; k < BlocksI; k++) begin
      if (adm && nsmem != '0 && pblk == BW'(k)) begin
        sheld_d[k*SsW +: SsW] = psneed;
      end
      if (ev_ok && eblk == BW'(k)) begin
        if (ev_phase) begin
          sneed_d[k*SsW +: SsW] = snew;
        end
        if (ev_bar && !bar_rel) begin
          nbar_d[k*KwW +: KwW] = enbar + 1'b1;
        end
        if (ev_exit) begin
          nlive_d[k*KwW +: KwW] = left;
        end
        if (bar_rel) begin
          nbar_d[k*KwW +: KwW] = '0;
        end
        if (blk_end) begin
          blive_d[k]            = 1'b0;
          sneed_d[k*SsW +: SsW] = '0;
          sheld_d[k*SsW +: SsW] = '0;
          nlive_d[k*KwW +: KwW] = '0;
          nbar_d[k*KwW +: KwW]  = '0;
        end
      end
      if (arr_ok && ablk == BW'(k)) begin
        blive_d[k]            = 1'b1;
        sneed_d[k*SsW +: SsW] = tb_ssets_i;
        sheld_d[k*SsW +: SsW] = '0;
        nlive_d[k*KwW +: KwW] = kwarps_i;
        nbar_d[k*KwW +: KwW]  = '0;
      end
    end
  end

  // Virtual-space counters: + the admission's needs, - the event's releases.
  always_comb begin
    aslot_d = aslot_q;
    asmem_d = asmem_q;
    areg_d  = areg_q;
    if (adm) begin
      aslot_d = aslot_d + CW'(nslot);
      asmem_d = asmem_d + CW'(nsmem);
      areg_d  = areg_d + CW'(nreg);
    end
    if (ev_phase) begin
      areg_d = areg_d - CW'(rel);
    end
    if (ev_exit) begin
      areg_d  = areg_d - CW'(erheld);
      aslot_d = aslot_d - CW'(slot_q[ev_warp_i]);
      if (blk_end) begin
        asmem_d = asmem_d - CW'(esheld);
      end
    end
  end

  // The o_thresh controller (Algorithm 1), counting active cycles.
  always_comb begin
    ecnt_d  = ecnt_q;
    cidle_d = cidle_q;
    cmem_d  = cmem_q;
    pidle_d = pidle_q;
    pmem_d  = pmem_q;
    pct_d   = pct_q;
    rth_d   = rth_q;
    sth_d   = sth_q;
    tth_d   = tth_q;
    ep_end  = active_i && 32'(ecnt_q) == Epoch - 1;
    ci      = cidle_q + CntW'(idle_i);
    cm      = cmem_q + CntW'(mem_i);
    di      = 32'(ci) - 32'(pidle_q); // two's complement: the signed difference
    dm      = 32'(cm) - 32'(pmem_q);
    if (active_i && !ep_end) begin
      ecnt_d  = ecnt_q + 1'b1;
      cidle_d = ci;
      cmem_d  = cm;
    end
    if (ep_end) begin
      if (di - dm > DeltaI) begin
        pct_d = 32'(pct_q) + PctStep > PctMax ? PctW'(PctMax) : pct_q + PctW'(PctStep);
      end else if (dm - di > DeltaI) begin
        pct_d = 32'(pct_q) < PctStep ? '0 : pct_q - PctW'(PctStep);
      end
      rth_d   = CW'(32'(pct_d) * PhysReg / 100);
      sth_d   = CW'(32'(pct_d) * PhysSmem / 100);
      tth_d   = CW'(32'(pct_d) * PhysSlot / 100);
      pidle_d = ci;
      pmem_d  = cm;
      cidle_d = '0;
      cmem_d  = '0;
      ecnt_d  = '0;
    end
    nfree_d = '0;
    for (int j = 0; j < WarpsI; j++) begin
      nfree_d = nfree_d + KwW'(!live_d[j]);
    end
    bfree_d = ~&blive_d;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      live_q  <= '0;
      pend_q  <= '0;
      bar_q   <= '0;
      sched_q <= '0;
      slot_q  <= '0;
      try_q   <= '0;
      queue_q <= '0;
      blk_q   <= '0;
      rneed_q <= '0;
      rheld_q <= '0;
      blive_q <= '0;
      sneed_q <= '0;
      sheld_q <= '0;
      nlive_q <= '0;
      nbar_q  <= '0;
      aslot_q <= '0;
      asmem_q <= '0;
      areg_q  <= '0;
      pct_q   <= PctW'(PctInit);
      rth_q   <= CW'(PctInit * PhysReg / 100);
      sth_q   <= CW'(PctInit * PhysSmem / 100);
      tth_q   <= CW'(PctInit * PhysSlot / 100);
      ecnt_q  <= '0;
      cidle_q <= '0;
      cmem_q  <= '0;
      pidle_q <= '0;
      pmem_q  <= '0;
    end else begin
      live_q  <= live_d;
      pend_q  <= pend_d;
      bar_q   <= bar_d;
      sched_q <= sched_d;
      slot_q  <= slot_d;
      try_q   <= try_d;
      queue_q <= queue_d;
      blk_q   <= blk_d;
      rneed_q <= rneed_d;
      rheld_q <= rheld_d;
      blive_q <= blive_d;
      sneed_q <= sneed_d;
      sheld_q <= sheld_d;
      nlive_q <= nlive_d;
      nbar_q  <= nbar_d;
      aslot_q <= aslot_d;
      asmem_q <= asmem_d;
      areg_q  <= areg_d;
      pct_q   <= pct_d;
      rth_q   <= rth_d;
      sth_q   <= sth_d;
      tth_q   <= tth_d;
      ecnt_q  <= ecnt_d;
      cidle_q <= cidle_d;
      cmem_q  <= cmem_d;
      pidle_q <= pidle_d;
      pmem_q  <= pmem_d;
    end
  end

  assign sched_o = sched_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tb_req_o    <= 1'b0;
      arr_v_o     <= 1'b0;
      arr_ok_o    <= 1'b0;
      arr_blk_o   <= '0;
      arr_wmask_o <= '0;
      gr_v_o      <= 1'b0;
      gr_warp_o   <= '0;
      gr_blk_o    <= '0;
      gr_force_o  <= 1'b0;
      gr_slot_o   <= 1'b0;
      gr_sfrom_o  <= '0;
      gr_ssets_o  <= '0;
      gr_rfrom_o  <= '0;
      gr_rsets_o  <= '0;
      ev_v_o      <= 1'b0;
      ev_ok_o     <= 1'b0;
      rl_warp_o   <= '0;
      rl_blk_o    <= '0;
      rl_slot_o   <= 1'b0;
      rl_rfrom_o  <= '0;
      rl_rsets_o  <= '0;
      rl_ssets_o  <= '0;
      rl_bar_o    <= 1'b0;
      ep_v_o      <= 1'b0;
      ep_pct_o    <= '0;
      ep_rth_o    <= '0;
      ep_sth_o    <= '0;
      ep_tth_o    <= '0;
    end else begin
      tb_req_o    <= active_i && kwarps_i != '0 && kwarps_i <= nfree_d && bfree_d &&
                     (!vreq_i || Warps - 32'(nfree_d) + 32'(kwarps_i) <= PhysSlot + 32'(tth_d));
      arr_v_o     <= tb_v_i;
      arr_ok_o    <= arr_ok;
      arr_blk_o   <= arr_ok ? ablk : '0;
      arr_wmask_o <= amask;
      gr_v_o      <= adm;
      gr_warp_o   <= adm ? pick : '0;
      gr_blk_o    <= adm ? pblk : '0;
      gr_force_o  <= adm && !fit;
      gr_slot_o   <= adm && nslot;
      gr_sfrom_o  <= (adm && nsmem != '0) ? psheld : '0;
      gr_ssets_o  <= adm ? nsmem : '0;
      gr_rfrom_o  <= (adm && nreg != '0) ? prheld : '0;
      gr_rsets_o  <= adm ? nreg : '0;
      ev_v_o      <= ev_v_i;
      ev_ok_o     <= ev_ok;
      rl_warp_o   <= ev_ok ? ev_warp_i : '0;
      rl_blk_o    <= ev_ok ? eblk : '0;
      rl_slot_o   <= ev_exit && slot_q[ev_warp_i];
      rl_rfrom_o  <= (ev_phase && rel != '0) ? ev_rsets_i : '0;
      rl_rsets_o  <= ev_phase ? rel : ev_exit ? erheld : '0;
      rl_ssets_o  <= blk_end ? esheld : '0;
      rl_bar_o    <= ev_ok && bar_rel;
      ep_v_o      <= ep_end;
      ep_pct_o    <= ep_end ? pct_d : '0;
      ep_rth_o    <= ep_end ? rth_d : '0;
      ep_sth_o    <= ep_end ? sth_d : '0;
      ep_tth_o    <= ep_end ? tth_d : '0;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `HD_ASSERT_INIT(HdZoruaCoordParams, Warps >= 1 && Warps <= 128 && Warps <= (1 << WW) &&
                                      Warps < (1 << KwW) && Blocks <= (1 << BW) &&
                                      RegSets < (1 << RsW) && SmemSets < (1 << SsW) &&
                                      Epoch >= 2 && Epoch <= (1 << EpW) && PctMax < (1 << PctW))
  `HD_ASSERT_KNOWN(HdZoruaCoordSchedKnown, sched_o, clk_i, rst_ni)
  // A schedulable warp is live, waits in no queue and holds a slot and its registers.
  `HD_ASSERT(HdZoruaCoordSchedLive, (sched_q & ~(live_q & slot_q & ~pend_q)) == '0, clk_i, rst_ni)
  `HD_ASSERT(HdZoruaCoordTryPending, (try_q & ~(pend_q & ~bar_q)) == '0, clk_i, rst_ni)
  `HD_ASSERT(HdZoruaCoordGrIdle, gr_v_o || (gr_warp_o == '0 && !gr_slot_o && gr_rsets_o == '0 &&
                                             gr_ssets_o == '0), clk_i, rst_ni)
  `HD_ASSERT(HdZoruaCoordPctMax, 32'(pct_q) <= PctMax, clk_i, rst_ni)

endmodule

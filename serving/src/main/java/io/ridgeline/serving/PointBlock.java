package io.ridgeline.serving;

/**
 * The points of a run of batch sizes of one deployment and workload as primitive figures, filled by
 * {@link CompiledColocated#points} and written as rows by {@code
 * io.ridgeline.serving.sweep.SweepWriter} without an object per point: for row r its batch and its
 * {@value #FIGURES} figures ({@link #TTFT} … {@link #TOKENS_PER_JOULE}) as the {@link
 * FrontierPoint} of that batch holds them, NaN for an absent price or energy figure; or a run of
 * batches without points (an invalid combination, {@link #missing}).
 *
 * <p>A reused scratch, not a value: the arrays grow to the longest run asked and are overwritten by
 * the next one, and it holds the evaluator's working arrays (the decode step's operation times at
 * the last two batch sizes); one instance per thread.
 */
public final class PointBlock {
  /** An empty block, to be filled by {@link PointsAt#points}. */
  public PointBlock() {}

  /** Figures per point, in output order. */
  public static final int FIGURES = 6;

  /** {@link FrontierPoint#ttft()}, seconds. */
  public static final int TTFT = 0;

  /** {@link FrontierPoint#tpot()}, seconds. */
  public static final int TPOT = 1;

  /** {@link FrontierPoint#tokensPerSecondPerUser()}. */
  public static final int TOKENS_PER_SECOND_PER_USER = 2;

  /** {@link FrontierPoint#tokensPerSecondPerChip()}. */
  public static final int TOKENS_PER_SECOND_PER_CHIP = 3;

  /** {@link FrontierPoint#dollarsPerMillionTokens()}, NaN where the price is not known. */
  public static final int DOLLARS_PER_MILLION_TOKENS = 4;

  /** {@link FrontierPoint#tokensPerJoule()}, NaN where the TDP is not known. */
  public static final int TOKENS_PER_JOULE = 5;

  private int size;
  private boolean points;
  private int[] batch = new int[0];
  // row r's figures at [r * FIGURES, (r + 1) * FIGURES)
  private double[] figures = new double[0];
  private boolean[] fits = new boolean[0];
  // row r's decode-step utilisation (mfu, bandwidth) when asked (utilisation)
  private double[] mfu = new double[0];
  private double[] bandwidth = new double[0];
  private boolean allFit = true;
  private double chipsTotal;

  // what consecutive workloads of one pool and prompt share (Deployment.pointsAt(w, scratch))
  final SharedPrefill prefills = new SharedPrefill();
  // CompiledColocated's working arrays: the decode step's operation times at batch `lastBatch`
  // (compute, memory, weight bytes per chip, its decode time) and at the batch being evaluated,
  // and the prefill share's side of its riding step
  CompiledColocated owner;
  int lastBatch = -1;
  double lastDecodeSeconds;
  double lastDecodeDevice; // its device pass, which a riding prefill fills before the host's
  double[] lastCompute = new double[0];
  double[] lastMemory = new double[0];
  double[] lastWeights = new double[0];
  double[] compute = new double[0];
  double[] memory = new double[0];
  double[] weights = new double[0];
  final RidingSide share = new RidingSide();
  final RidingSide othersShare = new RidingSide();
  // where the owner's steps read their bytes on a chip of several tiers (null: one tier), views
  // that WeightSpill sets for one step at a time: decode steps by sequences, prefill shares by
  // prompts
  StepTiers decodeTiers;
  StepTiers shareTiers;
  // the last batch's step times: its decode step, its prefill share (all batch / osl prompts),
  // the others' prefill share of a request's decode steps and one TTFT chunk step
  double stepSeconds;
  double shareSeconds;
  double othersSeconds;
  double chunkSeconds;
  // CompiledColocated's block of up to BLOCK_ROWS batches evaluated operation by operation: the
  // decode steps' sizes (each batch and its batch - 1) and their op-major times, each row's index
  // of its own and its others' decode step (-1: none), its prompts, the prefill shares' op-major
  // side, and per decode size and per row the step times
  static final int BLOCK_ROWS = 128;
  final StepBlock decodeBlock = new StepBlock();
  final StepBlock shareBlock = new StepBlock();
  final StepBlock othersBlock = new StepBlock();
  final double[] decodeSizes = new double[2 * BLOCK_ROWS];
  final double[] decodeStage = new double[2 * BLOCK_ROWS];
  final double[] decodeTimes = new double[2 * BLOCK_ROWS];
  final int[] ownStep = new int[BLOCK_ROWS];
  final int[] othersStep = new int[BLOCK_ROWS];
  final int[] othersRiding = new int[BLOCK_ROWS]; // othersStep, 0 for none
  final double[] prompts = new double[BLOCK_ROWS];
  final double[] blockShare = new double[BLOCK_ROWS];
  final double[] othersPrompts = new double[BLOCK_ROWS];
  final double[] blockOthers = new double[BLOCK_ROWS];
  final double[] blockChunk = new double[BLOCK_ROWS];
  // whether the evaluator also gives each point's decode-step utilisation (a frontier's points
  // carry it, a sweep's rows do not): the last batch's, and its operations' per-chip memory bytes
  // and FLOPs
  boolean utilisation;
  Utilisation stepUtilisation;
  double[] memoryBytes = new double[0];
  double[] flops = new double[0];

  /** Empties the block for a run of up to {@code rows} points of {@code chips} chips each. */
  void start(int rows, double chips) {
    capacity(rows);
    size = 0;
    points = true;
    allFit = true;
    chipsTotal = chips;
  }

  /** Empties the block: no points, none missing. */
  void clear() {
    size = 0;
    points = true;
    allFit = true;
  }

  /** Fills the block with the batches {@code batches[from..to)}, none with a point. */
  public void missing(int[] batches, int from, int to) {
    capacity(to - from);
    System.arraycopy(batches, from, batch, 0, to - from);
    java.util.Arrays.fill(fits, 0, to - from, false);
    size = to - from;
    points = false;
    allFit = false;
  }

  private void capacity(int rows) {
    if (batch.length < rows) {
      int n = Math.max(rows, 2 * batch.length);
      batch = new int[n];
      figures = new double[n * FIGURES];
      fits = new boolean[n];
      mfu = new double[n];
      bandwidth = new double[n];
    }
  }

  /** Sizes the working arrays for a decode step of {@code ops} operations. */
  void operations(int ops) {
    if (compute.length < ops) {
      lastCompute = new double[ops];
      lastMemory = new double[ops];
      lastWeights = new double[ops];
      compute = new double[ops];
      memory = new double[ops];
      weights = new double[ops];
      memoryBytes = new double[ops];
      flops = new double[ops];
    }
  }

  /**
   * The first {@code rows} rows' prefill shares and TTFT chunk steps from their riding times: each
   * fills its decode step's idle device time first ({@link StepResult#ridingExtraSeconds}, the
   * device pass {@link StepResult#deviceSeconds(double, double, double)} of the step's stage with
   * {@code handOff} and {@code overhead}); a row without others takes {@code chunkAlone}.
   */
  void rideDecodeSteps(int rows, double handOff, double overhead, double chunkAlone) {
    for (int r = 0; r < rows; r++) {
      int own = ownStep[r];
      double ownDevice = StepResult.deviceSeconds(decodeStage[own], handOff, overhead);
      blockShare[r] = StepResult.ridingExtraSeconds(decodeTimes[own], ownDevice, blockShare[r]);
      int j = othersStep[r];
      if (j < 0) {
        // a batch of one: its chunk is a pass of its own, and no other request's prefill rides
        // its decode steps
        blockChunk[r] = chunkAlone;
        blockOthers[r] = 0;
      } else {
        blockOthers[r] = StepResult.ridingExtraSeconds(decodeTimes[own], ownDevice, blockOthers[r]);
        double device = StepResult.deviceSeconds(decodeStage[j], handOff, overhead);
        blockChunk[r] =
            decodeTimes[j] + StepResult.ridingExtraSeconds(decodeTimes[j], device, blockChunk[r]);
      }
    }
  }

  /** Swaps the current batch's operation times into the last batch's. */
  void keep(int batchSize, double decodeSeconds, double deviceSeconds) {
    double[] c = lastCompute;
    double[] m = lastMemory;
    double[] w = lastWeights;
    lastCompute = compute;
    lastMemory = memory;
    lastWeights = weights;
    compute = c;
    memory = m;
    weights = w;
    lastBatch = batchSize;
    lastDecodeSeconds = decodeSeconds;
    lastDecodeDevice = deviceSeconds;
  }

  /** Appends one point, with {@link #stepUtilisation} when {@link #utilisation} is asked. */
  void add(
      int batchSize,
      double ttft,
      double tpot,
      double perUser,
      double perChip,
      double dollars,
      double joules,
      boolean fit) {
    int r = size++;
    batch[r] = batchSize;
    int f = r * FIGURES;
    figures[f + TTFT] = ttft;
    figures[f + TPOT] = tpot;
    figures[f + TOKENS_PER_SECOND_PER_USER] = perUser;
    figures[f + TOKENS_PER_SECOND_PER_CHIP] = perChip;
    figures[f + DOLLARS_PER_MILLION_TOKENS] = dollars;
    figures[f + TOKENS_PER_JOULE] = joules;
    fits[r] = fit;
    if (utilisation) {
      mfu[r] = stepUtilisation.mfu();
      bandwidth[r] = stepUtilisation.bandwidth();
    }
    allFit &= fit;
  }

  /** The points held. */
  public int size() {
    return size;
  }

  /** Whether the rows have points; false for a run of {@link #missing} ones. */
  public boolean points() {
    return points;
  }

  /** Whether every point held fits in memory. */
  public boolean allFit() {
    return allFit;
  }

  /** Chips per replica of every point, {@link FrontierPoint#chipsTotal()}. */
  public double chipsTotal() {
    return chipsTotal;
  }

  /** Requests per replica of point r. */
  public int batch(int r) {
    return batch[r];
  }

  /** Figure {@code figure} ({@link #TTFT} … {@link #TOKENS_PER_JOULE}) of point r. */
  public double figure(int r, int figure) {
    return figures[r * FIGURES + figure];
  }

  /** Whether point r's batch fits in memory. */
  public boolean fits(int r) {
    return fits[r];
  }

  /** Point r's decode-step utilisation, when {@link #utilisation} was asked. */
  Utilisation utilisation(int r) {
    return new Utilisation(mfu[r], bandwidth[r]);
  }
}

package io.ridgeline.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.core.PhaseResult;
import io.ridgeline.serving.KvOffload;
import io.ridgeline.serving.MemoryUse;
import io.ridgeline.serving.RooflineModel;
import io.ridgeline.serving.Roofs;
import io.ridgeline.serving.StepResult;
import io.ridgeline.serving.Utilisation;
import io.ridgeline.serving.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ridgeline roofline}: per-phase FLOPs, bytes, intensity, bound and time. */
@Command(
    name = "roofline",
    mixinStandardHelpOptions = true,
    description = {
      "Per-phase roofline of one decode step and of the prefill of the batch's prompts.",
      "One decode step of --batch sequences at --context, and the prefill of their prompts. FLOPs",
      "and bytes are totals across all chips, in the table and the JSON; intensity is the same per",
      "chip; times are wall time; memory is per chip.",
      "Calibrated estimates by default (an engine profile fitted on the shipped validation",
      "cases); --efficiency ideal gives the roofline bound."
    })
final class RooflineCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SystemOptions system;

  @Option(
      names = "--batch",
      required = true,
      description = "Sequences decoded together per model replica.")
  int batch;

  @Option(
      names = "--context",
      description =
          "Tokens in each sequence's KV cache at the decode step (default: --cached + --prompt;"
              + " one of --context and --prompt is required).")
  Integer context;

  @Option(
      names = "--prompt",
      description = "Prompt tokens per sequence for the prefill phase (default: --context).")
  Integer prompt;

  @Mixin WorkloadOptions workload;

  @Option(names = "--plot", description = "Write a roofline chart (.png or .svg).")
  Path plot;

  @Option(names = "--system", paramLabel = "SPEC", description = SystemSpec.HELP)
  List<String> systems;

  /** The convention of the phase figures, named in the text header and the JSON. */
  static final String TOTALS = "FLOPs and bytes are totals across all chips";

  @Override
  public Integer call() {
    SystemOptions.positive("--batch", batch);
    if (plot != null) {
      ChartRendering.checkPlotFile(plot);
    }
    if (context == null && prompt == null) {
      throw new IllegalArgumentException("give --context or --prompt (or both)");
    }
    if (context != null) {
      SystemOptions.positive("--context", context);
    }
    if (prompt != null) {
      SystemOptions.positive("--prompt", prompt);
    }
    List<SystemSpec> specs = SystemSpec.parseAll(systems, system);
    for (SystemSpec s : specs) {
      if (s.strategy() != null) {
        throw new IllegalArgumentException(
            "--system " + s.text() + ": roofline reports one pool, so a system takes no strategy");
      }
    }
    if (specs.size() == 1) {
      system.useChips(List.of(specs.get(0).chip()));
      specs.get(0).applyTo(system, SystemSpec.Defaults.of(system));
      return one();
    }
    if (!specs.isEmpty()) {
      return compare(specs);
    }
    List<String> chipIds = system.chipIds();
    if (chipIds.size() > 1) {
      return compare(chipIds.stream().map(SystemSpec::ofChip).toList());
    }
    return one();
  }

  /**
   * One system per chip of --chip, each report after the other (text: separated by a blank line;
   * JSON: {@code {systems: [...]}}, each entry {@code {system: "CHIP xCOUNT", fits, ...}} (fits:
   * the memory's) and the one-chip report's keys, or {@code {system: CHIP, fits: false, error}} for
   * a system that cannot be built). --plot draws one system, so it takes one chip.
   */
  private Integer compare(List<SystemSpec> specs) {
    if (plot != null) {
      throw new IllegalArgumentException(
          "--plot draws one system's roofline: give one --chip or --system (frontier --plot"
              + " compares systems)");
    }
    if (system.chip == null) {
      system.useChips(specs.stream().map(SystemSpec::chip).toList());
    }
    SystemSpec.Defaults defaults = SystemSpec.Defaults.of(system);
    List<String> labels = new ArrayList<>();
    PrintWriter out = spec.commandLine().getOut();
    java.io.StringWriter buffer = new java.io.StringWriter();
    ArrayNode systems = Json.array();
    Integer contextGiven = context;
    boolean built = false;
    List<String> failures = new ArrayList<>();
    for (SystemSpec s : specs) {
      s.applyTo(system, defaults);
      String id = s.chip();
      context = contextGiven;
      ObjectNode entry = systems.addObject();
      try (PrintWriter each = new PrintWriter(buffer)) {
        buffer.getBuffer().setLength(0);
        PrintWriter saved = spec.commandLine().getOut();
        spec.commandLine().setOut(each);
        try {
          one();
        } finally {
          spec.commandLine().setOut(saved);
        }
        each.flush();
        String report = buffer.toString();
        if (system.json) {
          ObjectNode o = (ObjectNode) Json.MAPPER.readTree(report);
          entry.put("system", unique(labels, id + " x" + o.get("chips").asInt() + s.extras()));
          // the batch at its context fits in memory (a system larger than memory still reports)
          entry.put("fits", o.path("memory").path("fits").asBoolean(true));
          entry.setAll(o);
        } else {
          out.print((built || !failures.isEmpty() ? System.lineSeparator() : "") + report);
        }
        built = true;
      } catch (IllegalArgumentException e) {
        String why = RidgelineCli.message(e);
        String label = unique(labels, id + s.extras());
        entry.put("system", label).put("fits", false).put("error", why);
        failures.add(label + ": " + why);
        if (!system.json) {
          out.println(
              (built || failures.size() > 1 ? System.lineSeparator() : "") + label + ": " + why);
        }
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    if (!built) {
      throw new IllegalArgumentException(String.join("; ", failures));
    }
    if (system.json) {
      ObjectNode o = Json.object();
      o.set("systems", systems);
      out.println(Json.write(o));
    }
    return 0;
  }

  /**
   * {@code label}, or {@code label #2}, ... when {@code labels} has it; added to {@code labels}.
   */
  private static String unique(List<String> labels, String label) {
    String unique = label;
    for (int n = 2; labels.contains(unique); n++) {
      unique = label + " #" + n;
    }
    labels.add(unique);
    return unique;
  }

  /** The report of the one chip {@link SystemOptions#chip} names. */
  private Integer one() {
    system.efficiency();
    int promptTokens = prompt != null ? prompt : context;
    // the prompt's workload: its history and prefix hits (the output length does not matter here)
    Workload w = workload.apply(Workload.of(promptTokens, 1));
    context = context != null ? context : w.promptContext();
    // the longest sequence of the command, for the context-window warning and the sizing
    int sequenceTokens = Math.max(context, w.promptContext());
    // without --count or --tp, the fewest chips holding the batch at its longest sequence (as
    // frontier sizes for its largest batch), so the step times printed are those of a batch that
    // fits
    RooflineModel rm = system.build(batch, sequenceTokens);
    SystemOptions.warnContext(rm.model(), sequenceTokens, spec);
    StepResult decode = rm.decode(batch, context);
    StepResult prefill = rm.prefill(batch, w);
    MemoryUse mem = rm.memory(batch, context);
    List<PhaseResult> phases = new ArrayList<>(prefill.phases());
    phases.addAll(decode.phases());
    PrintWriter out = spec.commandLine().getOut();
    if (system.json) {
      ObjectNode o = json(rm, decode, prefill, mem, promptTokens, sequenceTokens);
      Json.putRoofs(o, Roofs.of(rm, phases));
      if (w.hasCache()) {
        WorkloadOptions.put(o, w);
      }
      out.println(Json.write(o));
    } else {
      printText(out, rm, decode, prefill, mem, promptTokens);
      if (w.hasCache()) {
        out.println(WorkloadOptions.line(w));
      }
    }
    if (plot != null) {
      Charts.save(Charts.roofline(rm, phases), plot);
      (system.json ? spec.commandLine().getErr() : out).println("wrote " + plot);
    }
    return 0;
  }

  /**
   * The JSON report: system, phases with totals across chips, step times and memory, and the
   * context-window warning for a sequence of {@code sequenceTokens}.
   */
  private ObjectNode json(
      RooflineModel rm,
      StepResult decode,
      StepResult prefill,
      MemoryUse mem,
      int promptTokens,
      int sequenceTokens) {
    ObjectNode o = Json.system(rm, system.efficiency());
    o.put("replicas", rm.replicas());
    o.put("batch", batch);
    o.put("context", context);
    o.put("prompt", promptTokens);
    Json.putContextWarning(o, rm.model(), sequenceTokens);
    o.put("phase_totals", TOTALS);
    ArrayNode arr = o.putArray("phases");
    // per-chip figures describe one micro-batch in one stage: × chips × micro-batches = totals
    for (PhaseResult p : prefill.phases()) {
      arr.add(utilisation(Json.phase(p, rm.chips() * prefill.microBatches()), p, rm));
    }
    for (PhaseResult p : decode.phases()) {
      arr.add(utilisation(Json.phase(p, rm.chips() * decode.microBatches()), p, rm));
    }
    o.put("decode_step_seconds", decode.seconds().seconds());
    o.put("prefill_seconds", prefill.seconds().seconds());
    Utilisation du = Utilisation.of(decode, rm);
    Utilisation pu = Utilisation.of(prefill, rm);
    o.put("decode_step_mfu", du.mfu());
    o.put("decode_step_bandwidth_utilisation", du.bandwidth());
    o.put("prefill_mfu", pu.mfu());
    o.put("prefill_bandwidth_utilisation", pu.bandwidth());
    ObjectNode m = o.putObject("memory");
    m.put("weights_bytes_per_chip", mem.weights().bytes());
    m.put("kv_bytes_per_chip", mem.kvCache().bytes());
    m.put("workspace_bytes_per_chip", mem.workspace().bytes());
    m.put("capacity_bytes_per_chip", mem.capacity().bytes());
    m.put("fits", mem.fits());
    // the largest batch that fits, or null when not even one sequence does
    OptionalInt largest = rm.largestBatch(context);
    if (largest.isPresent()) {
      m.put("max_batch", largest.getAsInt());
    } else {
      m.putNull("max_batch");
    }
    if (mem.tiers().size() > 1 || rm.kvOffload() != KvOffload.NONE) {
      m.put("kv_offload", rm.kvOffload().id());
      m.set("tiers", OffloadReport.tiers(mem, rm.chip()));
    }
    if (rm.kvOffload().history()) {
      OffloadReport.Fetch f = OffloadReport.fetch(prefill, rm.chips());
      m.put("prefill_kv_fetch_bytes_total", f.bytes());
      m.put("prefill_kv_fetch_seconds", f.seconds());
    }
    return o;
  }

  /** Adds a phase's MFU and memory-bandwidth utilisation on its own time ({@link Utilisation}). */
  private static ObjectNode utilisation(ObjectNode n, PhaseResult p, RooflineModel rm) {
    Utilisation u = Utilisation.of(p, rm);
    n.put("mfu", u.mfu());
    n.put("bandwidth_utilisation", u.bandwidth());
    return n;
  }

  /** The text report: system, the phase table (totals), step times, memory and ridge point. */
  private void printText(
      PrintWriter out,
      RooflineModel rm,
      StepResult decode,
      StepResult prefill,
      MemoryUse mem,
      int promptTokens) {
    out.println(rm);
    out.println(system.efficiency().line());
    system.efficiency().bandLines(rm).forEach(out::println);
    out.printf(
        Locale.ROOT,
        "batch %d, context %d, prompt %d; %s (%d chips), times are wall time%n",
        batch,
        context,
        promptTokens,
        TOTALS,
        rm.chips());
    out.printf(
        Locale.ROOT,
        "%-22s %14s %14s %12s %-13s %12s %6s %6s%n",
        "phase",
        "FLOPs",
        "bytes",
        "FLOP/B",
        "bound",
        "time",
        "MFU",
        "BW");
    printPhases(out, prefill.phases(), rm.chips() * prefill.microBatches(), rm);
    printPhases(out, decode.phases(), rm.chips() * decode.microBatches(), rm);
    out.printf(
        Locale.ROOT,
        "decode step %s (%.1f tokens/s per sequence; %s); prefill %s (%s)%n",
        decode.seconds(),
        1.0 / decode.seconds().seconds(),
        Utilisation.of(decode, rm),
        prefill.seconds(),
        Utilisation.of(prefill, rm));
    out.printf(
        Locale.ROOT,
        "memory %s; largest batch at context %d: %s%n",
        mem,
        context,
        largestText(rm.largestBatch(context)));
    OffloadReport.line(rm, prefill, mem).ifPresent(out::println);
    out.printf(
        Locale.ROOT,
        "ridge point (%s): %.1f FLOP/B%n",
        rm.computePrecisions().matmul().id(),
        rm.target().ridgePoint(rm.computePrecisions().matmul()).flopsPerByte());
  }

  /** The largest batch for the text report, or "none" with why when one sequence does not fit. */
  private static String largestText(OptionalInt largest) {
    return largest.isPresent()
        ? String.valueOf(largest.getAsInt())
        : "none (one sequence does not fit)";
  }

  /**
   * Rows of the phase table, FLOPs and bytes times {@code copies} (chips × micro-batches: the
   * per-chip figures describe one micro-batch in one stage); MFU and BW are the phase's {@link
   * Utilisation} on its own time (achieved FLOP/s over the peak of the precision used; achieved
   * memory bytes/s over the main tier's bandwidth).
   */
  private static void printPhases(
      PrintWriter out, List<PhaseResult> phases, int copies, RooflineModel rm) {
    for (PhaseResult p : phases) {
      Utilisation u = Utilisation.of(p, rm);
      out.printf(
          Locale.ROOT,
          "%-22s %14s %14s %12.2f %-13s %12s %5.1f%% %5.1f%%%n",
          p.name(),
          p.flops().times(copies),
          p.bytes().times(copies),
          p.intensity().flopsPerByte(),
          p.bound(),
          p.seconds(),
          100 * u.mfu(),
          100 * u.bandwidth());
    }
  }
}

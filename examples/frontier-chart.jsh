// The README's main chart from the Java API: ./ridgeline shell examples/frontier-chart.jsh
// (the start-up script has done the imports of core, hardware, models and serving with its
// efficiency, plan and sweep packages).
import io.ridgeline.cli.Charts;
var rm = RooflineModel.of(Models.byId("llama-3.1-70b"), Chips.byId("h100-sxm"), 8);   // calibrated
var bound = RooflineModel.builder().from(rm).efficiency(Efficiency.ideal()).build();  // roofline bound
var frontier = ParetoFrontier.builder(rm).inputTokens(1024).outputTokens(1024).build();
var ideal = ParetoFrontier.builder(bound).inputTokens(1024).outputTokens(1024).build();
var band = ErrorBands.builtIn().typical(ErrorBands.Estimate.TOKENS_PER_SECOND_PER_CHIP);
var series = new Charts.FrontierSeries("colocated", frontier, Optional.of(ideal));
var title = "colocated: llama-3.1-70b on 8× h100-sxm (tp 8, weights bf16, kv bf16, compute bf16); ISL 1024 / OSL 1024; calibrated: default profile";
var file = Charts.save(Charts.frontier(List.of(series), OptionalDouble.of(band), title), Path.of("frontier-llama-3.1-70b-h100-sxm-x8.png"));
System.out.println("wrote " + file);
/exit
